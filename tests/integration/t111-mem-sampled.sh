#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t111 - default sampling (Poisson, 512 KiB mean; probes on half the time) of the four paths
# of t110 with 256 KiB blocks: the alloc graph's shares are right within 10% of each, and the
# estimated live bytes of the leak grow as fast as it leaks (25 MiB per second) within 20%.
# Estimates need samples: about 100 per path and per figure checked, hence the block size.
. "$(dirname "$0")/lib.sh"
require_bpf

spawn "$WORKLOADS/memleak" paths 45 256
WL=$!
start_emberd --collect memory -p "$WL" -o "$T_TMP/out" -w 10 --mem-age 2
sleep 33
check "emberd exits 0 on SIGTERM" stop_emberd TERM
files=$(find "$T_TMP/out" -name '*.alloc.folded.gz' | sort)
check "alloc windows were written" test -n "$files"
folded_of $files > "$T_TMP/alloc.folded"
check_path_shares "$T_TMP/alloc.folded" 10

live=$(find "$T_TMP/out" -name '*.live.folded.gz' | sort | head -n -1) # the last window is partial
prev= growth= n=0
for f in $live; do
	leak=$(zcat "$f" | awk '/;path_leak( |$)/ { s += $NF } END { print s + 0 }')
	other=$(zcat "$f" | awk '!/;path_leak( |$)/ && /;path_/ { s += $NF } END { print s + 0 }')
	echo "$(basename "$f"): leak $leak bytes, other paths $other bytes"
	if [ -n "$prev" ]; then growth=$((${growth:-0} + leak - prev)); n=$((n + 1)); fi
	prev=$leak
done
per10=$(( ${growth:-0} / (n > 0 ? n : 1) ))
check "the leak grows by 250 MiB per 10 s +-20% (got $((per10 / 1048576)) MiB over $n windows)" \
	within "$per10" 262144000 52428800
check "freed paths are not live (got $other bytes)" test "${other:-1}" -le $((per10 / 50))
finish
