#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-offcpu.sh - overhead of off-CPU profiling on a context-switch-heavy workload (two
# processes pinned to one CPU ping-ponging a byte over pipes), side by side: nothing, emberd's
# off-CPU collector, and a bpftrace script equivalent to BCC's offcputime (stacks at every
# switch). Prints the median time of each, the slowdowns and their ratio (goal: <= 0.5).
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
RUNS=${RUNS:-5}
ROUNDS=${ROUNDS:-200000}
TMP=$(mktemp -d /tmp/ember-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench-offcpu: needs root"; exit 0; }
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing

# offcputime's method: at every switch, the stacks of the thread going out; its blocked time
# summed under them when it comes back in.
cat >"$TMP/offcpu.bt" <<'BT'
tracepoint:sched:sched_switch
{
	@start[args->prev_pid] = nsecs;
	@kst[args->prev_pid] = kstack;
	@ust[args->prev_pid] = ustack;
	$s = @start[args->next_pid];
	if ($s) {
		@[@kst[args->next_pid], @ust[args->next_pid], args->next_comm] = sum((nsecs - $s) / 1000);
		delete(@start[args->next_pid]);
	}
}
BT

wait_line() { # wait_line FILE PATTERN
	for _ in $(seq 1 300); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	echo "bench-offcpu: '$2' never appeared in $1"; cat "$1"; return 1
}

start_tool() { # start_tool NAME: starts the profiler, sets TOOL_PID
	case $1 in
	none) TOOL_PID= ;;
	emberd)
		"$B/emberd" --collect offcpu -o "$TMP/out" >"$TMP/log" 2>&1 & TOOL_PID=$!
		wait_line "$TMP/log" "writing" ;;
	bpftrace)
		bpftrace "$TMP/offcpu.bt" >"$TMP/log" 2>&1 & TOOL_PID=$!
		wait_line "$TMP/log" "Attaching" ;;
	esac
}

stop_tool() {
	[ -n "$TOOL_PID" ] || return 0
	kill -INT "$TOOL_PID"; wait "$TOOL_PID" 2>/dev/null
	rm -rf "$TMP/out"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
slowdown() { awk -v m="$1" -v b="$2" 'BEGIN { printf "%.1f", 100 * (m - b) / b }'; }

echo "== off-CPU overhead: pingpong $ROUNDS round trips (2 switches each), median of $RUNS runs"
tools="none emberd bpftrace"
for r in $(seq 1 "$RUNS"); do
	for t in $tools; do
		start_tool "$t" || exit 1
		"$B/workloads/pingpong" "$ROUNDS" >>"$TMP/time.$t"
		stop_tool
	done
done
base=$(median <"$TMP/time.none")
printf '%-10s %10s %10s\n' tool "median s" slowdown
for t in $tools; do
	m=$(median <"$TMP/time.$t")
	printf '%-10s %10.3f %9s%%\n' "$t" "$m" "$(slowdown "$m" "$base")"
done
e=$(slowdown "$(median <"$TMP/time.emberd")" "$base")
b=$(slowdown "$(median <"$TMP/time.bpftrace")" "$base")
awk -v e="$e" -v b="$b" 'BEGIN { r = b > 0 ? e / b : 0
	printf "emberd/bpftrace slowdown ratio %.2f (goal <= 0.50): %s\n", r, r <= 0.5 ? "met" : "NOT met" }'
