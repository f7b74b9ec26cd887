#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-oncpu.sh - overhead of system-wide on-CPU sampling on a CPU-bound workload (2 threads),
# side by side: nothing, emberd, perf record -a -g, bpftrace profile (slowdown per round against
# that round's baseline, median). Then the exact cost, which this noisy machine's wall clock
# cannot show: the sampling program's run time (kernel.bpf_stats_enabled) beside bpftrace's in
# the same seconds, and emberd's own CPU per minute and peak RSS.
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
HZ=${HZ:-49}
RUNS=${RUNS:-5}
ITER=${ITER:-3000000000}
STAT_SECS=${STAT_SECS:-10}
TMP=$(mktemp -d /tmp/ember-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench-oncpu: needs root"; exit 0; }
. "$(dirname "$0")/lib.sh"

start_tool() { # start_tool NAME: starts the profiler, sets TOOL_PID
	case $1 in
	none) TOOL_PID= ;;
	emberd)
		"$B/emberd" --collect oncpu -F "$HZ" -o "$TMP/out" >"$TMP/log" 2>&1 & TOOL_PID=$!
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

echo "== on-CPU overhead: burn 2 threads x $ITER iterations, $HZ Hz, median of $RUNS runs"
tools="none emberd perf bpftrace"
order=$tools
for r in $(seq 1 "$RUNS"); do
	for t in $order; do
		start_tool "$t"
		"$B/workloads/burn" 2 "$ITER" >>"$TMP/time.$t"
		stop_tool
		sleep 1
	done
	order="${order#* } ${order%% *}" # rotate, so no tool always runs first after a teardown
done
# Slowdown per round against the round's own baseline, so drifts in machine load cancel out.
printf '%-10s %10s %10s\n' tool "median s" slowdown
for t in $tools; do
	paste "$TMP/time.none" "$TMP/time.$t" | awk '{ print 100 * ($2 - $1) / $1 }' >"$TMP/slow.$t"
	printf '%-10s %10.3f %9.2f%%\n' "$t" "$(median <"$TMP/time.$t")" "$(median <"$TMP/slow.$t")"
done

# Exact cost: emberd and bpftrace attached at the same time to the same workload, ROUNDS
# times STAT_SECS, started in alternating order (which program's timer fires first matters).
ROUNDS=${ROUNDS:-12}
attach() { # attach TOOL: start it and list its programs in $TMP/ids.TOOL
	prog_ids >"$TMP/ids0"
	start_tool "$1"
	eval "PID_$1=$TOOL_PID"
	new_progs "$TMP/ids0" "$TMP/ids.$1"
}
sysctl -qw kernel.bpf_stats_enabled=1
echo "== exact cost: both tools attached at once, $ROUNDS rounds of ${STAT_SECS} s (workload running; BPF stats on)"
"$B/workloads/burn" 2 100000000000 >/dev/null & BURN=$!
order="emberd bpftrace"
for r in $(seq 1 "$ROUNDS"); do
	for t in $order; do attach "$t"; done
	sleep "$STAT_SECS"
	for t in emberd bpftrace; do
		prog_ns "$TMP/ids.$t" perf_event | awk -v s="$STAT_SECS" '{ print $1 / 1e6 * 60 / s, $2 ? $1 / $2 / 1e3 : 0 }' >>"$TMP/bpf.$t"
	done
	kill -INT "$PID_bpftrace" "$PID_emberd"; wait "$PID_bpftrace" "$PID_emberd" 2>/dev/null
	order="${order#* } ${order%% *}"
done
sysctl -qw kernel.bpf_stats_enabled=0
for t in emberd bpftrace; do
	printf '%-9s sampling program %7.1f ms/min  %6.2f us/run (medians)\n' "$t" \
		"$(cut -d' ' -f1 "$TMP/bpf.$t" | median)" "$(cut -d' ' -f2 "$TMP/bpf.$t" | median)"
done
paste -d' ' "$TMP/bpf.emberd" "$TMP/bpf.bpftrace" | awk '{ print $1 / $3 }' >"$TMP/ratio"
printf 'emberd/bpftrace run time per round: %s (median %.2f)\n' "$(tr '\n' ' ' <"$TMP/ratio")" "$(median <"$TMP/ratio")"

# The daemon's own CPU in steady state: one minute after a warm-up in which it has met
# (and symbolized) every process on the host once.
WARM_SECS=${WARM_SECS:-15}
start_tool emberd
sleep "$WARM_SECS"
t0=$(awk '{ print $14 + $15 }' "/proc/$TOOL_PID/stat")
sleep 60
t1=$(awk '{ print $14 + $15 }' "/proc/$TOOL_PID/stat")
printf 'emberd    daemon CPU %6.1f ms/min after %d s warm-up   peak RSS %d KiB\n' \
	"$(awk -v a="$t0" -v b="$t1" -v t="$(getconf CLK_TCK)" 'BEGIN { print (b - a) * 1000 / t }')" \
	"$WARM_SECS" "$(awk '/VmHWM/ { print $2 }' "/proc/$TOOL_PID/status")"
stop_tool
kill "$BURN" 2>/dev/null
