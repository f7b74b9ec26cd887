#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t140 - user stacks without frame pointers: with unwind tables (--unwind dwarf) the stacks of
# a gcc -O2 workload and of stock binaries (python3, xz) reach the root and name the calls in
# order; with --unwind fp the same workload's stacks stop at the first frame.
. "$(dirname "$0")/lib.sh"
require_bpf

ROOT='^[^;]*;(_start|clone3|start_thread);'

# profile SECONDS MODE COMMAND...: emberd -p on COMMAND for SECONDS, folded lines in $T_TMP/MODE.folded
profile() {
	local secs=$1 mode=$2 out=$T_TMP/out-$2
	shift 2
	spawn "$@"
	local wl=$!
	start_emberd -p "$wl" -o "$out" -w 60 -F 499 -v --unwind "$mode" || return 1
	sleep "$secs"
	stop_emberd TERM
	kill "$wl" 2>/dev/null
	cp "$T_TMP/emberd.log" "$T_TMP/$mode.log"
	folded_of $(find "$out" -name '*.oncpu.folded.gz') > "$T_TMP/$mode.folded"
	cat $(find "$out" -name '*.meta.json') > "$T_TMP/$mode.meta"
	rm -rf "$out"
}

# complete_share LOG: samples whose walk reached the end of the stack, in percent of all walks
complete_share() {
	awk '/user stacks: / { for (i = 2; i <= NF; i++) {
			if ($i == "walked,") t += $(i - 1)
			if ($i == "complete,") c += $(i - 1) } }
		END { printf "%.1f", t ? 100 * c / t : 0 }' "$1"
}

# A gcc -O2 call tree: main -> nofp_a -> nofp_b -> nofp_leaf (75%), nofp_a -> nofp_c (25%).
profile 15 dwarf "$WORKLOADS/nofp" 60
f=$T_TMP/dwarf.folded
total=$(awk '{ t += $NF } END { print t + 0 }' "$f")
rooted=$(share "$ROOT" "$f")
echo "dwarf: $total samples, $rooted% reach the root, $(complete_share "$T_TMP/dwarf.log")% complete walks"
check "at least 1000 samples" test "$total" -ge 1000
share=$(grep -o '"oncpu": {[^}]*"complete_share": [0-9.]*' "$T_TMP/dwarf.meta" | sed 's/.*: //' | head -n 1)
check "meta.json: the window says how whole its stacks are (complete_share $share >= 0.95)" \
	awk -v s="${share:-0}" 'BEGIN { exit !(s >= 0.95) }'
check "tables built for the workload and the C library" \
	grep -q "table for '.*libc.so.6'" "$T_TMP/dwarf.log"
check ">= 95% of the stacks reach _start or clone3 (got $rooted)" within "$rooted" 97.5 2.5
main=$(share ';_start;__libc_start_main[^;]*;__libc_start_call_main;main;nofp_a;' "$f")
worker=$(share ';clone3;start_thread;nofp_worker;nofp_leaf2;burn' "$f")
check "the worker thread's stacks in order (got $worker%)" test "${worker%.*}" -ge 20
check "the main thread's stacks in order (got $main%)" test "${main%.*}" -ge 20
grep ';main;nofp_a;' "$f" > "$T_TMP/main.folded"
b=$(share ';main;nofp_a;nofp_b;nofp_leaf;burn' "$T_TMP/main.folded")
c=$(share ';main;nofp_a;nofp_c;burn' "$T_TMP/main.folded")
check "nofp_a -> nofp_b -> nofp_leaf has 75% +-5 of main's time (got $b)" within "$b" 75 5
check "nofp_a -> nofp_c has 25% +-5 of main's time (got $c)" within "$c" 25 5

profile 8 fp "$WORKLOADS/nofp" 60
fp=$(share "$ROOT" "$T_TMP/fp.folded")
echo "fp: $(awk '{ t += $NF } END { print t + 0 }' "$T_TMP/fp.folded") samples, $fp% reach the root"
check "frame pointers alone do not reach the root (got $fp%, tables $rooted%)" \
	test "${fp%.*}" -lt 50

# Stock Debian binaries, built without frame pointers.
profile 15 dwarf /usr/bin/python3 -c '
import time
def work(n):
    return sum(i * i for i in range(n))
end = time.time() + 60
while time.time() < end:
    work(10000)'
py=$(share "$ROOT" "$T_TMP/dwarf.folded")
echo "python3: $py% reach the root, $(complete_share "$T_TMP/dwarf.log")% complete walks"
check "python3: >= 90% of the stacks reach _start (got $py)" test "${py%.*}" -ge 90

head -c 64000000 /dev/urandom > "$T_TMP/random"
profile 15 dwarf xz -9 -T1 -c -k "$T_TMP/random" > /dev/null
xz=$(complete_share "$T_TMP/dwarf.log")
echo "xz: $xz% complete walks, $(share "$ROOT" "$T_TMP/dwarf.folded")% reach a named root (xz is stripped)"
check "xz: >= 90% of the walks complete (got $xz)" test "${xz%.*}" -ge 90
finish
