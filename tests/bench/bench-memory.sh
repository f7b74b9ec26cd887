#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-memory.sh - slowdown of a malloc/free loop (memleak bench: malloc + free, then about
# 10 us of work) under the memory collector,
# side by side with a bpftrace equivalent of BCC's memleak (uprobe + uretprobe on malloc,
# uprobe on free, a user stack at every allocation), all attached to the host's libc.
# Variants show what each design choice buys:
#   emberd            default: Poisson sampling (512 KiB mean), allocation probes on 50% of the time
#   emberd-duty100    sampling, probes always on             (what duty-cycling buys)
#   emberd-exact      every allocation (--mem-sample 1), 50%  (what sampling buys)
#   emberd-exact100   every allocation, always on
#   bt-traps          bpftrace uprobes on malloc and free, counting: the traps alone
#   bt-ret            the same plus a uretprobe on malloc (what a return probe per call costs,
#                     which emberd's uprobe sessions pay only for sampled calls)
#   bpftrace          the memleak equivalent
# TOOLS picks the variants (default: none emberd emberd-exact bpftrace; all of them take ~5 min).
# The work between allocations matters: a bare malloc loop races through the probes' off time,
# which flatters duty cycling; with work, the slowdown tracks the traps taken.
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
RUNS=${RUNS:-3}
ITER=${ITER:-400000}
DEPTH=${DEPTH:-1}
WORK=${WORK:-12000}
TMP=$(mktemp -d /tmp/ember-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench-memory: needs root"; exit 0; }
LIBC=$(ldd "$B/workloads/memleak" | awk '/libc\.so/ { print $3 }')
LIBC=$(readlink -f "$LIBC")

wait_line() { # wait_line FILE PATTERN
	for _ in $(seq 1 300); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	echo "bench-memory: '$2' never appeared in $1"; cat "$1"; return 1
}

BT_MEMLEAK="uprobe:$LIBC:malloc { @size[tid] = arg0; }
uretprobe:$LIBC:malloc /@size[tid]/ { @live_size[retval] = @size[tid]; @live_stack[retval] = ustack;
  @live_time[retval] = nsecs; @bytes[ustack] = sum(@size[tid]); delete(@size[tid]); }
uprobe:$LIBC:free { delete(@live_size[arg0]); delete(@live_stack[arg0]); delete(@live_time[arg0]); }"
BT_TRAPS="uprobe:$LIBC:malloc { @calls = count(); } uprobe:$LIBC:free { @frees = count(); }"
BT_RET="$BT_TRAPS uretprobe:$LIBC:malloc { @rets = count(); }"

start_tool() { # start_tool NAME: starts the profiler, sets TOOL_PID
	local em=("$B/emberd" --collect memory -o "$TMP/out" -w 60)
	case $1 in
	none) TOOL_PID= ; return ;;
	emberd) "${em[@]}" >"$TMP/log" 2>&1 & ;;
	emberd-duty100) "${em[@]}" --mem-duty 100 >"$TMP/log" 2>&1 & ;;
	emberd-exact) "${em[@]}" --mem-sample 1 >"$TMP/log" 2>&1 & ;;
	emberd-exact100) "${em[@]}" --mem-sample 1 --mem-duty 100 >"$TMP/log" 2>&1 & ;;
	bt-traps) bpftrace -e "$BT_TRAPS" >"$TMP/log" 2>&1 & ;;
	bt-ret) bpftrace -e "$BT_RET" >"$TMP/log" 2>&1 & ;;
	bpftrace) bpftrace -e "$BT_MEMLEAK" >"$TMP/log" 2>&1 & ;;
	esac
	TOOL_PID=$!
	case $1 in
	emberd*) wait_line "$TMP/log" "writing" ;;
	*) wait_line "$TMP/log" "Attaching" ;;
	esac
	sleep 1
}

stop_tool() {
	[ -n "$TOOL_PID" ] || return 0
	kill -TERM "$TOOL_PID"; wait "$TOOL_PID" 2>/dev/null
	rm -rf "$TMP/out"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "== memory overhead: memleak bench $ITER $DEPTH $WORK (malloc + free + work, stack depth $DEPTH), libc $LIBC, median of $RUNS runs"
tools=${TOOLS:-"none emberd emberd-exact bpftrace"}
for r in $(seq 1 "$RUNS"); do
	for t in $tools; do
		start_tool "$t" || exit 1
		"$B/workloads/memleak" bench "$ITER" "$DEPTH" "$WORK" >>"$TMP/time.$t"
		stop_tool
	done
done
base=$(median <"$TMP/time.none")
bt=$(median <"$TMP/time.bpftrace")
printf '%-16s %10s %12s %14s %16s\n' tool "median s" "us/iter" "slowdown x" "vs bpftrace"
for t in $tools; do
	m=$(median <"$TMP/time.$t")
	awk -v m="$m" -v b="$base" -v bt="$bt" -v n="$ITER" -v t="$t" 'BEGIN {
		printf "%-16s %10.3f %12.2f %14.1f %16.3f\n", t, m, m / n * 1e6, (m - b) / b,
			(m - b) / (bt - b) }'
done
