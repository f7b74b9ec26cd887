# SPDX-License-Identifier: BSD-2-Clause
# lib.sh - helpers shared by the benchmarks (sourced by tests/bench/bench-*.sh).

wait_line() { # wait_line FILE PATTERN: wait up to 20 s for PATTERN in FILE
	for _ in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	echo "$(basename "$0"): '$2' never appeared in $1"; cat "$1"; return 1
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

prog_ns() { # prog_ns IDFILE TYPE-REGEX: "run_time_ns run_cnt" summed over those programs
	local id
	for id in $(cat "$1"); do bpftool prog show id "$id" | head -n 1; done |
		awk -v ty="$2" '$2 ~ ty { for (i = 1; i < NF; i++) { if ($i == "run_time_ns") t += $(i + 1); if ($i == "run_cnt") c += $(i + 1) } }
			END { print t + 0, c + 0 }'
}

tool_progs() { # tool_progs PID OUT: the BPF programs PID holds open (waits up to 10 s for one)
	local f
	for _ in $(seq 1 100); do # bpftrace says "Attaching" before it loads its programs
		for f in /proc/"$1"/fdinfo/*; do awk '/^prog_id:/ { print $2 }' "$f" 2>/dev/null; done | sort -u >"$2"
		[ -s "$2" ] && return 0
		sleep 0.1
	done
}
