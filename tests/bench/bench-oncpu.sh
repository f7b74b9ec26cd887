#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-oncpu.sh - overhead of system-wide on-CPU sampling on a CPU-bound workload (2 threads),
# side by side: nothing, emberd, perf record -a -g, bpftrace profile; then the exact cost:
# BPF run time per minute (kernel.bpf_stats_enabled), emberd's CPU per minute and peak RSS.
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
HZ=${HZ:-49}
RUNS=${RUNS:-5}
ITER=${ITER:-3000000000}
STAT_SECS=${STAT_SECS:-60}
TMP=$(mktemp -d /tmp/ember-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench-oncpu: needs root"; exit 0; }

wait_line() { # wait_line FILE PATTERN
	for _ in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	echo "bench-oncpu: '$2' never appeared in $1"; cat "$1"; return 1
}

start_tool() { # start_tool NAME: starts the profiler, sets TOOL_PID
	case $1 in
	none) TOOL_PID= ;;
	emberd)
		"$B/emberd" -F "$HZ" -o "$TMP/out" >"$TMP/log" 2>&1 & TOOL_PID=$!
		wait_line "$TMP/log" "writing" ;;
	perf)
		perf record -q -e cpu-clock -F "$HZ" -a -g -o "$TMP/perf.data" >"$TMP/log" 2>&1 &
		TOOL_PID=$!; sleep 2 ;;
	bpftrace)
		bpftrace -e "profile:hz:$HZ { @[kstack, ustack, comm] = count(); }" >"$TMP/log" 2>&1 &
		TOOL_PID=$!; wait_line "$TMP/log" "Attaching" ;;
	esac
}

stop_tool() {
	[ -n "$TOOL_PID" ] || return 0
	kill -INT "$TOOL_PID"; wait "$TOOL_PID" 2>/dev/null
	rm -rf "$TMP/out" "$TMP/perf.data"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "== on-CPU overhead: burn 2 threads x $ITER iterations, $HZ Hz, median of $RUNS runs"
tools="none emberd perf bpftrace"
for r in $(seq 1 "$RUNS"); do
	for t in $tools; do
		start_tool "$t"
		"$B/workloads/burn" 2 "$ITER" >>"$TMP/time.$t"
		stop_tool
	done
done
base=$(median <"$TMP/time.none")
printf '%-10s %10s %10s\n' tool "median s" slowdown
for t in $tools; do
	m=$(median <"$TMP/time.$t")
	printf '%-10s %10.3f %9.2f%%\n' "$t" "$m" "$(awk -v m="$m" -v b="$base" 'BEGIN { print 100 * (m - b) / b }')"
done

# Exact cost over STAT_SECS with the workload running throughout.
prog_ns() { # total run_time_ns of BPF programs whose name matches $1
	bpftool prog show 2>/dev/null | awk -v pat="$1" '$0 ~ pat { on = 1 } on && /run_time_ns/ {
		for (i = 1; i <= NF; i++) if ($i == "run_time_ns") s += $(i + 1); on = 0 } END { print s + 0 }'
}
sysctl -qw kernel.bpf_stats_enabled=1
echo "== exact cost over ${STAT_SECS} s (workload running; BPF stats enabled)"
"$B/workloads/burn" 2 100000000000 >/dev/null & BURN=$!
start_tool emberd
t0=$(awk '{ print $14 + $15 }' "/proc/$TOOL_PID/stat")
sleep "$STAT_SECS"
ns=$(prog_ns oncpu_sample)
t1=$(awk '{ print $14 + $15 }' "/proc/$TOOL_PID/stat")
rss=$(awk '/VmHWM/ { print $2 }' "/proc/$TOOL_PID/status")
stop_tool
tck=$(getconf CLK_TCK)
printf 'emberd:   BPF run time %8.1f ms/min   daemon CPU %6.1f ms/min   peak RSS %d KiB\n' \
	"$(awk -v n="$ns" -v s="$STAT_SECS" 'BEGIN { print n / 1e6 * 60 / s }')" \
	"$(awk -v a="$t0" -v b="$t1" -v t="$tck" -v s="$STAT_SECS" 'BEGIN { print (b - a) * 1000 / t * 60 / s }')" "$rss"
start_tool bpftrace
sleep "$STAT_SECS"
ns=$(prog_ns 'profile|perf_event')
stop_tool
printf 'bpftrace: BPF run time %8.1f ms/min\n' "$(awk -v n="$ns" -v s="$STAT_SECS" 'BEGIN { print n / 1e6 * 60 / s }')"
kill "$BURN" 2>/dev/null
sysctl -qw kernel.bpf_stats_enabled=0
