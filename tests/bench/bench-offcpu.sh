#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-offcpu.sh - overhead of off-CPU profiling on a context-switch-heavy workload (two
# processes pinned to one CPU ping-ponging a byte over pipes), side by side: nothing, emberd's
# off-CPU collector, and a bpftrace script equivalent to BCC's offcputime (stacks at every
# switch). Prints the median time of each, the median slowdowns against each round's baseline
# and their ratio (goal: <= 0.5); then, as the wall clock of this noisy machine is only a rough
# guide, the exact BPF run time per round trip of each tool (kernel.bpf_stats_enabled).
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
RUNS=${RUNS:-5}
ROUNDS=${ROUNDS:-200000}
TMP=$(mktemp -d /tmp/ember-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench-offcpu: needs root"; exit 0; }
. "$(dirname "$0")/lib.sh"
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

pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", 100 * a / b }'; }

echo "== off-CPU overhead: pingpong $ROUNDS round trips (2 switches each), median of $RUNS runs"
tools="none emberd bpftrace"
order=$tools
for r in $(seq 1 "$RUNS"); do
	for t in $order; do
		start_tool "$t" || exit 1
		"$B/workloads/pingpong" "$ROUNDS" >"$TMP/last.$t"
		cat "$TMP/last.$t" >>"$TMP/time.$t"
		stop_tool
	done
	for t in $tools; do # this round's slowdown against this round's baseline
		awk -v b="$(cat "$TMP/last.none")" '{ print 100 * ($1 - b) / b }' "$TMP/last.$t" >>"$TMP/slow.$t"
	done
	order="${order#* } ${order%% *}" # rotate, so no tool always runs first after a teardown
done
printf '%-10s %10s %10s\n' tool "median s" slowdown
for t in $tools; do
	printf '%-10s %10.3f %9.1f%%\n' "$t" "$(median <"$TMP/time.$t")" "$(median <"$TMP/slow.$t")"
done
e=$(median <"$TMP/slow.emberd")
b=$(median <"$TMP/slow.bpftrace")
awk -v e="$e" -v b="$b" 'BEGIN { r = b > 0 ? e / b : 0
	printf "emberd/bpftrace slowdown ratio %.2f (goal <= 0.50): %s\n", r, r <= 0.5 ? "met" : "NOT met" }'

# Exact cost: each tool's BPF programs' run time during one pingpong run, per round trip.
sysctl -qw kernel.bpf_stats_enabled=1
echo "== BPF run time per round trip (kernel.bpf_stats_enabled; $ROUNDS round trips; median of $RUNS runs)"
for r in $(seq 1 "$RUNS"); do
	for t in emberd bpftrace; do
		start_tool "$t" || exit 1
		tool_progs "$TOOL_PID" "$TMP/ids.$t"
		"$B/workloads/pingpong" "$ROUNDS" >/dev/null
		prog_ns "$TMP/ids.$t" 'tracing|tracepoint' | awk -v n="$ROUNDS" '{ print $1 / n }' >>"$TMP/bpf.$t"
		stop_tool
	done
done
sysctl -qw kernel.bpf_stats_enabled=0
e=$(median <"$TMP/bpf.emberd")
b=$(median <"$TMP/bpf.bpftrace")
printf 'emberd %.0f ns, bpftrace %.0f ns per round trip: emberd spends %s%% of bpftrace'"'"'s BPF time\n' \
	"$e" "$b" "$(pct "$e" "$b")"
