#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t112 - memory edge cases, the whole host traced (so that forked children are too):
# realloc(NULL, n) is an allocation that stays live, realloc(p, 0) and a free by another
# thread free, free(NULL) is harmless, a forked child's leaks vanish when it exits, and so do
# the workload's when it exits holding them. 256 KiB blocks at a 64 KiB mean are sampled
# with probability 98%; the checks only rely on some of them being seen.
. "$(dirname "$0")/lib.sh"
require_bpf

# snapshot_live NAME: SIGUSR1, then the new live snapshot as NAME; fails when none is written
snapshot_live() {
	local before
	before=$(ls "$T_TMP"/out/snapshots/*.live.folded.gz 2>/dev/null | wc -l)
	kill -USR1 "$EMBERD_PID"
	wait_for 10 sh -c "[ \$(ls '$T_TMP'/out/snapshots/*.live.folded.gz 2>/dev/null | wc -l) -gt $before ]" ||
		return 1
	sleep 0.5
	zcat "$(ls -t "$T_TMP"/out/snapshots/*.live.folded.gz | head -n 1)" >"$T_TMP/$1"
}

start_emberd --collect memory -o "$T_TMP/out" -w 60 --mem-sample 65536 --mem-duty 100 \
	--mem-age 0
spawn "$WORKLOADS/memleak" edge 8
WL=$!
sleep 6
check "a live snapshot while the workload runs" snapshot_live running
alloc=$(ls "$T_TMP"/out/snapshots/*.alloc.folded.gz)
zcat $alloc > "$T_TMP/alloc"
live_of() { awk -v pat="$1" '$0 ~ pat { s += $NF } END { print s + 0 }' "$T_TMP/$2"; }
check "realloc(NULL, n) counted as an allocation" test "$(live_of ';edge_realloc_null' alloc)" -gt 0
check "realloc(NULL, n) stays live" test "$(live_of '^memleak;.*edge_realloc_null' running)" -gt 0
check "malloc before realloc(p, 0) counted" test "$(live_of ';edge_realloc_zero' alloc)" -gt 0
# The workload allocates and frees once a second; a snapshot may land between the two (a loaded
# machine can hold the workload there for milliseconds), so one block may be in flight. Were
# the frees missed, a block would stay live every second: 6 or more by now (a child: 4 blocks
# in flight while it runs, 24 or more if exits were missed).
BLOCK=262144
check "realloc(p, 0) frees" test "$(live_of ';edge_realloc_zero' running)" -lt $((2 * BLOCK))
check "free by another thread frees" test "$(live_of ';edge_cross_thread' running)" -lt $((2 * BLOCK))
check "free(NULL) allocates nothing" test "$(live_of ';edge_free_null' alloc)" -eq 0
check "the forked child allocated" test "$(live_of ';edge_child_leak' alloc)" -gt 0
check "the exited child's leaks are gone" test "$(live_of ';edge_child_leak' running)" -lt $((5 * BLOCK))
wait "$WL"
check "a live snapshot after the workload exited" snapshot_live exited
check "the exited workload's leaks are gone" test "$(live_of '^memleak;' exited)" -eq 0
check "emberd exits 0 on SIGTERM" stop_emberd TERM
grep -q "live map full" "$T_TMP/emberd.log" && echo "note: $(grep 'live map full' "$T_TMP/emberd.log" | tail -n 1)"
finish
