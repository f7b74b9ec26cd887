#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t103 - across many window boundaries and snapshots, every sample the kernel counted lands in
# exactly one window: the windows' folded totals add up to the kernel's sample counter.
. "$(dirname "$0")/lib.sh"
require_bpf

spawn "$WORKLOADS/staircase" 30
OUT=$T_TMP/out
start_emberd -o "$OUT" -w 1 -F 199
for i in 1 2 3 4 5 6 7 8; do sleep 0.7; kill -USR1 "$EMBERD_PID"; done
check "emberd exits 0 on SIGTERM" stop_emberd TERM
windows=$(find "$OUT" -path "$OUT/20*" -name '*.oncpu.folded.gz')
folded=$(zcat $windows | awk '{ t += $NF } END { print t + 0 }')
counted=$(cat $(find "$OUT" -path "$OUT/20*" -name '*.meta.json') |
	awk -F'[:,]' '/"oncpu"/ { for (i = 1; i < NF; i++) if ($i ~ /"(samples|lost)"/) t += $(i + 1) } END { print t + 0 }')
echo "windows: $(echo "$windows" | wc -l), folded total: $folded, kernel counted: $counted"
check "several windows were written" test "$(echo "$windows" | wc -l)" -ge 5
check "at least 1000 samples" test "$folded" -ge 1000
check "folded total equals the kernel's count ($folded = $counted)" test "$folded" -eq "$counted"
finish
