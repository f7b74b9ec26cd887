#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t113 - another allocator (--mem-lib): the t110 workload on jemalloc (LD_PRELOAD), traced
# exactly through that process's own copy of the library; shares right within 2%, leak live.
. "$(dirname "$0")/lib.sh"
require_bpf

JE=$(ls /usr/lib/*/libjemalloc.so.2 2>/dev/null | head -n 1)
[ -n "$JE" ] || skip "libjemalloc2 not installed (make deps-test)"
LD_PRELOAD=$JE "$WORKLOADS/memleak" paths 20 &
WL=$!
T_PIDS+=("$WL")
start_emberd --collect memory -p "$WL" -o "$T_TMP/out" -w 60 --mem-lib "$JE" --mem-sample 1 \
	--mem-duty 100 --mem-age 1
check "the process's own jemalloc is probed" grep -q "free in '/proc/$WL/root$JE'" "$T_TMP/emberd.log"
sleep 8
check "emberd exits 0 on SIGTERM" stop_emberd TERM
folded_of $(find "$T_TMP/out" -name '*.alloc.folded.gz') > "$T_TMP/alloc.folded"
check_path_shares "$T_TMP/alloc.folded" 2
folded_of $(find "$T_TMP/out" -name '*.live.folded.gz') > "$T_TMP/live.folded"
check "the leak is live" grep -q ";path_leak " "$T_TMP/live.folded"
check "nothing else of the paths is live" test "$(grep -c ';path_\(big\|mid\|small\) ' "$T_TMP/live.folded")" -eq 0
finish
