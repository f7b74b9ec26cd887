#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t100 - emberd -p on a workload of known profile gives each thread and each step its share
# (499 Hz, so that 10 s give enough samples for +-3 points even on a loaded machine).
. "$(dirname "$0")/lib.sh"
require_bpf

spawn "$WORKLOADS/staircase" 30
WL=$!
start_emberd -p "$WL" -o "$T_TMP/out" -w 60 -F 499
sleep 10
check "emberd exits 0 on SIGTERM" stop_emberd TERM
files=$(find "$T_TMP/out" -name '*.oncpu.folded.gz')
check "a window file was written" test -n "$files"
folded_of $files > "$T_TMP/all.folded"
total=$(awk '{ t += $NF } END { print t + 0 }' "$T_TMP/all.folded")
echo "samples: $total"
check "at least 1000 samples in 10 s" test "$total" -ge 1000
check "only the chosen process (-p)" test "$(cut -d';' -f1 "$T_TMP/all.folded" | sort -u)" = staircase

for n in 1 2 3 4 5; do
	s=$(share ";thread_func$n;" "$T_TMP/all.folded")
	check "thread_func$n has 20% +-3 (got $s)" within "$s" 20 3
done
# Self time of each step: the frame under which only spin (and kernel frames) follow.
for step in a:10 b:20 c:30 d:40; do
	f=${step%%:*} e=${step##*:}
	s=$(share ";func_$f;spin(;|$| )" "$T_TMP/all.folded")
	check "func_$f self share $e% +-3 (got $s)" within "$s" "$e" 3
done
finish
