#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-unwind.sh - BPF cost per sample of the user-stack walk: unwind tables (--unwind dwarf)
# against frame pointers (--unwind fp) and bpftrace's frame-pointer ustack, on two workloads
# without frame pointers: tests/workloads/nofp (gcc -O2, ~8 frames) and python3 (~15 frames),
# and one with them, where the frame-pointer walk is whole too: tests/workloads/staircase.
# ONLY="nofp python3 staircase" chooses among them.
#
# Each tool profiles the running workload alone (-p, HZ per CPU) for SECS after WARM seconds,
# ROUNDS times in alternating order. Per run: the run time of exactly the tool's own perf_event
# programs (kernel.bpf_stats_enabled) divided by the samples of the workload they counted
# (runs for other processes leave at the pid filter and are included: an upper bound), and
# the user frames per sample. Medians over the rounds; the ratio dwarf / fp is the figure.
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
HZ=${HZ:-999}
WARM=${WARM:-3}
SECS=${SECS:-15}
ROUNDS=${ROUNDS:-3}
ONLY=${ONLY:-nofp python3 staircase}
TMP=$(mktemp -d /tmp/ember-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench-unwind: needs root"; exit 0; }
. "$(dirname "$0")/lib.sh"

tools="dwarf fp"
command -v bpftrace >/dev/null && tools="$tools bpftrace"

start_tool() { # start_tool NAME WORKLOAD-PID: starts the profiler, sets TOOL_PID
	case $1 in
	dwarf | fp)
		"$B/emberd" --collect oncpu -F "$HZ" -p "$2" --unwind "$1" -o "$TMP/out" \
			>"$TMP/log" 2>&1 &
		TOOL_PID=$!
		wait_line "$TMP/log" "writing" ;;
	bpftrace)
		bpftrace -e "profile:hz:$HZ /pid == $2/ { @[ustack(127)] = count(); }" >"$TMP/log" 2>&1 &
		TOOL_PID=$!
		wait_line "$TMP/log" "Attaching" ;;
	esac
}

# samples_of NAME: the workload's samples and mean user frames, from the tool's output
samples_of() {
	if [ "$1" = bpftrace ]; then # @[\n addr\n addr...\n]: count
		awk '/^@\[/ { n = 0; next } /^]: / { s += $2; f += n * $2; next } NF { n++ }
			END { print s + 0, s ? f / s : 0 }' "$TMP/log"
	else
		zcat $(find "$TMP/out" -name '*.oncpu.folded.gz') |
			awk '{ w = $NF; n = split($0, a, ";"); u = 0
				for (i = 2; i <= n; i++) if (a[i] !~ /_\[k\]/) u++
				s += w; f += u * w } END { print s + 0, s ? f / s : 0 }'
	fi
}

bench() { # bench NAME COMMAND...: every tool on one workload
	local name=$1 wl t r order=$tools
	shift
	case " $ONLY " in *" $name "*) ;; *) return 0 ;; esac
	"$@" >/dev/null 2>&1 &
	wl=$!
	sleep 1
	kill -0 "$wl" 2>/dev/null || { echo "$name: the workload did not start: $*"; return 0; }
	for r in $(seq 1 "$ROUNDS"); do
		for t in $order; do
			start_tool "$t" "$wl"
			tool_progs "$TOOL_PID" "$TMP/ids"
			sleep "$WARM"
			prog_ns "$TMP/ids" perf_event >"$TMP/bpf0"
			sleep "$SECS"
			prog_ns "$TMP/ids" perf_event >"$TMP/bpf1"
			kill -INT "$TOOL_PID"
			wait "$TOOL_PID" 2>/dev/null
			# ns of BPF per workload sample (samples over the whole run: WARM + SECS)
			paste -d' ' "$TMP/bpf1" "$TMP/bpf0" <(samples_of "$t") |
				awk -v w="$WARM" -v s="$SECS" '{ t = $1 - $3; c = $2 - $4
					n = $5 * s / (w + s); print (n ? t / n : 0), (c ? t / c : 0), $6 }' \
				>>"$TMP/res.$name.$t"
			rm -rf "$TMP/out"
		done
		order="${order#* } ${order%% *}"
	done
	kill "$wl" 2>/dev/null
	wait "$wl" 2>/dev/null
	for t in $tools; do
		printf '%-8s %-9s %8.0f ns/sample %8.0f ns/run %6.1f user frames\n' "$name" "$t" \
			"$(cut -d' ' -f1 "$TMP/res.$name.$t" | median)" \
			"$(cut -d' ' -f2 "$TMP/res.$name.$t" | median)" \
			"$(cut -d' ' -f3 "$TMP/res.$name.$t" | median)"
	done
	printf '%-8s dwarf / fp: %.2fx per sample\n' "$name" "$(echo \
		"$(cut -d' ' -f1 "$TMP/res.$name.dwarf" | median) $(cut -d' ' -f1 "$TMP/res.$name.fp" | median)" |
		awk '{ print $2 ? $1 / $2 : 0 }')"
}

echo "== BPF time per sample: $HZ Hz, $ROUNDS rounds of $SECS s after $WARM s, tools: $tools"
sysctl -qw kernel.bpf_stats_enabled=1
bench nofp "$B/workloads/nofp" 100000
bench python3 /usr/bin/python3 -c '
def work(n):
    return sum(i * i for i in range(n))
while True:
    work(10000)'
bench staircase "$B/workloads/staircase" 100000
sysctl -qw kernel.bpf_stats_enabled=0
