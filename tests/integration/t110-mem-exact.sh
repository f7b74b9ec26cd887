#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t110 - exact memory tracing (--mem-sample 1, probes always on) of four allocation paths of known rates
# (64:32:16:8 KiB per 10 ms; the last never freed): the alloc graph's shares are right
# within 2% of each, the live graph holds the leaking path (about 8 MiB more per 10 s) only.
. "$(dirname "$0")/lib.sh"
require_bpf

spawn "$WORKLOADS/memleak" paths 40
WL=$!
start_emberd --collect memory -p "$WL" -o "$T_TMP/out" -w 10 --mem-sample 1 --mem-duty 100 --mem-age 2
sleep 32
check "emberd exits 0 on SIGTERM" stop_emberd TERM
files=$(find "$T_TMP/out" -name '*.alloc.folded.gz' | sort)
check "alloc windows were written" test -n "$files"
folded_of $files > "$T_TMP/alloc.folded"
check_path_shares "$T_TMP/alloc.folded" 2
svg=$(find "$T_TMP/out" -name '*.alloc.svg' | sort | tail -n 1)
check "alloc flame graphs in bytes, mem palette ($(basename "$svg"))" \
	grep -q "bytes" "$svg"
check "live flame graphs beside them" test -n "$(find "$T_TMP/out" -name '*.live.svg')"
check "only the chosen process (-p)" test "$(cut -d';' -f1 "$T_TMP/alloc.folded" | sort -u)" = memleak

# The live snapshot at the end of each full window: the leak grows 8 KiB per 10 ms.
live=$(find "$T_TMP/out" -name '*.live.folded.gz' | sort | head -n -1) # the last window is partial
prev=
for f in $live; do
	leak=$(zcat "$f" | awk '/;path_leak( |$)/ { s += $NF } END { print s + 0 }')
	other=$(zcat "$f" | awk '!/;path_leak( |$)/ && /;path_/ { s += $NF } END { print s + 0 }')
	echo "$(basename "$f"): leak $leak bytes, other paths $other bytes"
	[ -n "$prev" ] && growth=$((leak - prev))
	prev=$leak
done
lastother=$other
check "the leak grows by 7.8 MiB per 10 s +-15% (got $((${growth:-0} / 1024)) KiB)" \
	within "${growth:-0}" 8192000 1228800
check "freed paths are not live (got $lastother bytes)" test "$lastother" -le 262144
finish
