#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-oncpu.sh - overhead of system-wide on-CPU sampling on a CPU-bound workload (2 threads).
#
# 1. Slowdown, side by side: nothing, emberd, perf record -a -g, bpftrace profile. Every tool
#    gets the same warm-up before the workload starts; rounds interleave the tools and each
#    round's slowdowns are taken against that round's own baseline, so drifts in machine load
#    cancel out; medians over the rounds.
# 2. The exact cost, which this noisy machine's wall clock cannot show to 1%: each tool alone
#    (two programs on one CPU's timer would share warm caches: the second runs cheaper) on
#    the same running workload for STAT_SECS, ROUNDS times in alternating order. Per tool, the
#    run time of exactly its own programs (found through its own fds; kernel.bpf_stats_enabled)
#    and, for emberd, the daemon's CPU from schedstat.
#
# BASE=/path/to/emberd adds that build as a second emberd ("base"), to measure a change.
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
HZ=${HZ:-49}
RUNS=${RUNS:-5}
ITER=${ITER:-3000000000}
WARM=${WARM:-5}
STAT_WARM=${STAT_WARM:-20} # the daemon meets (and symbolizes) every process once first
ROUNDS=${ROUNDS:-3}
STAT_SECS=${STAT_SECS:-60}
BASE=${BASE:-}
TMP=$(mktemp -d /tmp/ember-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench-oncpu: needs root"; exit 0; }
. "$(dirname "$0")/lib.sh"

start_tool() { # start_tool NAME: starts the profiler, sets TOOL_PID
	case $1 in
	none) TOOL_PID= ;;
	emberd | base)
		local bin=$B/emberd
		[ "$1" = base ] && bin=$BASE
		"$bin" --collect oncpu -F "$HZ" -o "$TMP/out.$1" >"$TMP/log.$1" 2>&1 &
		TOOL_PID=$!
		wait_line "$TMP/log.$1" "writing" ;;
	perf)
		perf record -q -e cpu-clock -F "$HZ" -a -g -o "$TMP/perf.data" >"$TMP/log.$1" 2>&1 &
		TOOL_PID=$!
		sleep 1 ;; # perf -q says nothing once it runs
	bpftrace)
		bpftrace -e "profile:hz:$HZ { @[kstack, ustack, comm] = count(); }" >"$TMP/log.$1" 2>&1 &
		TOOL_PID=$!
		wait_line "$TMP/log.$1" "Attaching" ;;
	esac
	eval "PID_$1=\$TOOL_PID"
}

stop_tool() { # stop_tool NAME
	local pid
	eval "pid=\$PID_$1"
	[ -n "$pid" ] || return 0
	kill -INT "$pid"
	wait "$pid" 2>/dev/null
	rm -rf "$TMP/out.$1" "$TMP/perf.data"
}

cpu_ns() { awk '{ print $1 }' "/proc/$1/schedstat"; }

tools="none emberd perf bpftrace${BASE:+ base}"
if [ "$RUNS" -gt 0 ]; then
	echo "== slowdown: burn 2 threads x $ITER iterations, $HZ Hz, $WARM s warm-up, $RUNS rounds"
	order=$tools
	for r in $(seq 1 "$RUNS"); do
		for t in $order; do
			start_tool "$t"
			sleep "$WARM"
			"$B/workloads/burn" 2 "$ITER" >>"$TMP/time.$t"
			stop_tool "$t"
		done
		order="${order#* } ${order%% *}" # rotate, so no tool always runs first after a teardown
	done
	printf '%-10s %10s %10s   %s\n' tool "median s" slowdown "per round (the noise)"
	for t in $tools; do
		paste "$TMP/time.none" "$TMP/time.$t" | awk '{ print 100 * ($2 - $1) / $1 }' >"$TMP/slow.$t"
		printf '%-10s %10.3f %9.2f%%   %s\n' "$t" "$(median <"$TMP/time.$t")" "$(median <"$TMP/slow.$t")" \
			"$(sort -n "$TMP/slow.$t" | awk '{ printf "%.1f ", $1 }')"
	done
fi

echo "== exact cost: each tool alone on a running burn, $ROUNDS rounds of $STAT_SECS s after $STAT_WARM s warm-up"
sysctl -qw kernel.bpf_stats_enabled=1
"$B/workloads/burn" 2 100000000000000 >/dev/null &
BURN=$!
attached="emberd bpftrace${BASE:+ base}"
order=$attached
for r in $(seq 1 "$ROUNDS"); do
	for t in $order; do
		start_tool "$t"
		tool_progs "$TOOL_PID" "$TMP/ids.$t"
		sleep "$STAT_WARM"
		prog_ns "$TMP/ids.$t" perf_event >"$TMP/bpf0.$t"
		[ "$t" = bpftrace ] || cpu_ns "$TOOL_PID" >"$TMP/cpu0.$t"
		sleep "$STAT_SECS"
		prog_ns "$TMP/ids.$t" perf_event | paste -d' ' - "$TMP/bpf0.$t" |
			awk -v s="$STAT_SECS" '{ t = $1 - $3; c = $2 - $4; print t / 1e6 * 60 / s, c ? t / c / 1e3 : 0 }' >>"$TMP/bpf.$t"
		if [ "$t" != bpftrace ]; then
			cpu_ns "$TOOL_PID" | paste -d' ' - "$TMP/cpu0.$t" |
				awk -v s="$STAT_SECS" '{ print ($1 - $2) / 1e6 * 60 / s }' >>"$TMP/cpu.$t"
			awk '/VmHWM/ { print $2 }' "/proc/$TOOL_PID/status" >>"$TMP/rss.$t"
		fi
		stop_tool "$t"
	done
	order="${order#* } ${order%% *}"
done
sysctl -qw kernel.bpf_stats_enabled=0
kill "$BURN" 2>/dev/null

for t in $attached; do
	bpf=$(cut -d' ' -f1 "$TMP/bpf.$t" | median)
	printf '%-9s sampling programs %7.1f ms/min  %6.2f us/run' "$t" "$bpf" "$(cut -d' ' -f2 "$TMP/bpf.$t" | median)"
	if [ "$t" = bpftrace ]; then
		echo
		continue
	fi
	cpu=$(median <"$TMP/cpu.$t")
	printf '  daemon %6.1f ms/min  total %7.1f ms/min  peak RSS %d KiB\n' "$cpu" \
		"$(awk -v a="$bpf" -v b="$cpu" 'BEGIN { print a + b }')" "$(sort -n "$TMP/rss.$t" | tail -n 1)"
done
echo "per round, ms/min: emberd BPF + daemon = total, bpftrace BPF, ratio"
paste -d' ' "$TMP/bpf.emberd" "$TMP/cpu.emberd" "$TMP/bpf.bpftrace" |
	awk '{ r = ($1 + $3) / $4; print r; printf "  %6.1f + %5.1f = %6.1f   %6.1f   %.2f\n", $1, $3, $1 + $3, $4, r >"/dev/stderr" }' 2>&1 >"$TMP/ratio"
printf 'emberd (BPF + daemon) / bpftrace (BPF): median %.2f\n' "$(median <"$TMP/ratio")"
