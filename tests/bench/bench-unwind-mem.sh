#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-unwind-mem.sh - what walking allocation stacks with unwind tables costs the memory
# collector: the BPF run time of its allocation program (entry and return of each traced call;
# the walk runs at the return) per run, --unwind dwarf beside --unwind fp, every allocation
# traced (--mem-sample 1, probes always on) in memshare (gcc -O2, no frame pointers, stacks 6-8
# frames deep). kernel.bpf_stats_enabled, exactly the programs of the emberd started here.
# RUNS rounds (default 3), STAT_SECS measured after STAT_WARM s (tables loaded); medians.
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
RUNS=${RUNS:-3}
STAT_WARM=${STAT_WARM:-3}
STAT_SECS=${STAT_SECS:-10}
TMP=$(mktemp -d /tmp/ember-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; sysctl -qw kernel.bpf_stats_enabled=0; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench-unwind-mem: needs root"; exit 0; }
. "$(dirname "$0")/lib.sh"

sysctl -qw kernel.bpf_stats_enabled=1
modes="fp dwarf"
for r in $(seq 1 "$RUNS"); do
	for m in $modes; do
		"$B/workloads/memshare" $((STAT_WARM + STAT_SECS + 30)) &
		wl=$!
		"$B/emberd" --collect memory -p "$wl" -o "$TMP/out" -w 60 --mem-sample 1 \
			--mem-duty 100 --unwind "$m" >"$TMP/log.$m" 2>&1 &
		tool=$!
		wait_line "$TMP/log.$m" "writing .*windows to" || exit 1
		tool_progs "$tool" "$TMP/progs"
		for id in $(cat "$TMP/progs"); do
			bpftool prog show id "$id" | head -n 1 | grep -q ' name mem_alloc ' && echo "$id"
		done >"$TMP/ids.$m"
		sleep "$STAT_WARM"
		prog_ns "$TMP/ids.$m" kprobe >"$TMP/bpf0"
		sleep "$STAT_SECS"
		prog_ns "$TMP/ids.$m" kprobe | paste -d' ' - "$TMP/bpf0" |
			awk '{ t = $1 - $3; c = $2 - $4; print c ? t / c : 0, c }' >>"$TMP/bpf.$m"
		kill "$tool" "$wl"
		wait "$tool" "$wl" 2>/dev/null
		rm -rf "$TMP/out"
	done
	modes="${modes#* } ${modes%% *}" # rotate: neither always runs first
done

echo "== memory collector, allocation program (uprobe session), $RUNS rounds of $STAT_SECS s"
for m in fp dwarf; do
	printf '%-6s %8.0f ns/run  (%s runs per round; per round: %s)\n' "$m" \
		"$(cut -d' ' -f1 "$TMP/bpf.$m" | median)" "$(cut -d' ' -f2 "$TMP/bpf.$m" | median)" \
		"$(awk '{ printf "%.0f ", $1 }' "$TMP/bpf.$m")"
done
printf 'dwarf / fp: %.2fx\n' "$(paste -d' ' <(cut -d' ' -f1 "$TMP/bpf.dwarf" | median) \
	<(cut -d' ' -f1 "$TMP/bpf.fp" | median) | awk '{ print $2 ? $1 / $2 : 0 }')"
