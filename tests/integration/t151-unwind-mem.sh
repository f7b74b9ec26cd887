#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t151 - memory stacks without frame pointers: memshare (gcc -O2, no frame pointers) allocates
# 33.3:25:25:16.7 of its bytes through malloc, calloc, realloc and C++ operator new, each from
# main -> path_X -> alloc_X. Traced exactly (--mem-sample 1, probes always on) with unwind
# tables: the shares within 5 points; once the tables are loaded, each stack whole
# (_start;...;main;path_X;alloc_X, the leaf the allocator's caller); a block leaked once keeps
# its whole stack in the live profile through drains that delete the stacks nothing refers to.
# With --unwind fp on the same binary: the leaf only, its callers lost.
. "$(dirname "$0")/lib.sh"
require_bpf

ROOT='^memshare;_start;__libc_start_main[^;]*;(__libc_start_call_main;)?main;'

# trace MODE SECONDS: trace memshare for SECONDS with --unwind MODE into $T_TMP/MODE; it
# leaks one block 2 seconds in.
trace() {
	spawn "$WORKLOADS/memshare" $(($2 + 30))
	local wl=$!
	start_emberd --collect memory -p "$wl" -o "$T_TMP/$1" -w 5 --mem-sample 1 --mem-duty 100 \
		--mem-age 1 --unwind "$1" -v || return 1
	sleep 2
	kill -USR1 "$wl"
	sleep $(($2 - 2))
	check "$1: emberd exits 0 on SIGTERM" stop_emberd TERM
	kill "$wl"
	mv "$T_TMP/emberd.log" "$T_TMP/$1.log"
	local files
	files=$(find "$T_TMP/$1" -name '*.alloc.folded.gz' | sort)
	folded_of $files >"$T_TMP/$1.alloc"
	# After the first window, the process's tables are loaded (they take tens of ms).
	folded_of $(echo "$files" | tail -n +2) >"$T_TMP/$1.steady"
}

# The allocating functions, their share of the bytes and the frames below them.
ALLOCS=(malloc:33.33:alloc_malloc calloc:25:alloc_calloc realloc:25:alloc_realloc
	"new:16.67:alloc_new;operator new[(]unsigned long[)]")

trace dwarf 22
check "dwarf: user stacks from unwind tables" grep -q "user stacks from unwind tables" \
	"$T_TMP/dwarf.log"
for a in "${ALLOCS[@]}"; do
	IFS=: read -r name expect frames <<<"$a"
	got=$(share ";$frames [0-9]+\$" "$T_TMP/dwarf.alloc")
	check "dwarf: $name allocates $expect% of bytes +-5 points, at the allocator's caller (got $got)" \
		within "$got" "$expect" 5
	grep -E ";$frames [0-9]+\$" "$T_TMP/dwarf.steady" >"$T_TMP/$name.dwarf"
	whole=$(share "${ROOT}path_$name;$frames [0-9]+\$" "$T_TMP/$name.dwarf")
	check "dwarf: $whole% of $name's bytes on _start;__libc_start_main;...;main;path_$name;$frames (>= 95)" \
		within "$whole" 100 5
done
# Every stack, whatever its leaf.
whole=$(share "$ROOT" "$T_TMP/dwarf.steady")
check "dwarf: $whole% of all bytes on stacks reaching _start (>= 95)" within "$whole" 100 5
complete=$(awk '/memory: [0-9]+ calls,/ { calls++ } /memory: user stacks:/ { walks++ }
	{ for (i = 1; i < NF; i++) {
		if (calls > 1 && $(i + 1) ~ /^(sampled|syscalls),?$/) n += $i
		if (walks > 1 && $(i + 1) == "complete,") c += $i } }
	END { printf "%.1f", n ? 100 * c / n : 0 }' "$T_TMP/dwarf.log")
check "dwarf: the walker reached the end of the stack for $complete% of the allocations after the first drain (>= 95)" \
	within "$complete" 100 5

# The MiB leaked 2 s in, at least one drain later: its stack id still resolves.
lives=$(find "$T_TMP/dwarf" -name '*.live.folded.gz' | sort | head -n -1) # the last is partial
check "dwarf: >= 3 full live windows written (got $(echo "$lives" | wc -w))" \
	test "$(echo "$lives" | wc -w)" -ge 3
zcat "$(echo "$lives" | tail -n 1)" >"$T_TMP/live"
live=$(awk '{ s += $NF } END { print s + 0 }' "$T_TMP/live")
kept=$(share "${ROOT}path_leak;alloc_leak [0-9]+\$" "$T_TMP/live")
# Live bytes are divided by the share of time the probes were on (here just under 1).
check "dwarf: the last full live window holds the leaked 1048576 bytes +-1% (got $live)" \
	within "$live" 1048576 10486
check "dwarf: $kept% of them on _start;...;main;path_leak;alloc_leak (100)" test "$kept" = 100.0
# That malloc called mmap while its return was probed: the walk from the system call passes
# the uretprobe trampoline standing in for malloc's return address.
folded_of $(find "$T_TMP/dwarf" -name '*.heap.folded.gz') | grep -F '[mmap]' >"$T_TMP/mmap"
cat "$T_TMP/mmap"
mapped=$(share "${ROOT}path_leak;alloc_leak;malloc;[^[]*;\\[mmap\\] [0-9]+\$" "$T_TMP/mmap")
check "dwarf: $mapped% of mmap bytes on _start;...;main;path_leak;alloc_leak;malloc;...;[mmap] (>= 95)" \
	within "$mapped" 100 5

# Frame pointers on the same binary: the allocator's caller at the leaf, its callers lost.
trace fp 12
check "fp: user stacks from frame pointers" grep -q "user stacks from frame pointers" "$T_TMP/fp.log"
leafs=0
for a in "${ALLOCS[@]}"; do
	IFS=: read -r name expect frames <<<"$a"
	leafs=$(awk -v a="$leafs" -v b="$(share ";${frames##*;} [0-9]+\$" "$T_TMP/fp.alloc")" 'BEGIN { print a + b }')
done
check "fp: $leafs% of bytes still at an alloc_X leaf (>= 95)" within "$leafs" 100 5
lost=$(share ";main;path_" "$T_TMP/fp.alloc")
check "fp: $lost% of bytes with main;path_X above the leaf (<= 5: the caller chain is lost)" \
	within "$lost" 0 5
finish
