#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-inline.sh - `ember collapse perf --inline/--context` on a live `perf record -g` of the
# inlined workload (outer() holds middle() holds leaf_math(), inlined): the inlined frames come
# back from DWARF. --inline must be byte-identical to stackcollapse-perf.pl's (which runs
# addr2line per address; from the checkout in FLAMEGRAPH_DIR, when set), and so must --context
# on the workload's own stacks.
set -u
SRC=${EMBER_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${EMBER_BUILD:-$SRC/build}
EMBER=$BUILD/ember
WORK=$BUILD/workloads/inlined
# FlameGraph's Perl tools are the reference, but not ours to ship: they are read from a checkout
# named by FLAMEGRAPH_DIR. Without one, the comparisons with them are left out and counted as
# such (the expected files, checked against the Perl when they were made, are still compared).
PERL_DIR=${FLAMEGRAPH_DIR:-}
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "FAIL $*"; }
check() { if eval "$2"; then ok; else ko "$1"; fi; }

perf record -q -e cpu-clock -F 999 -g -o "$tmp/perf.data" "$WORK" 20000 >/dev/null 2>"$tmp/rec.err" ||
	{ cat "$tmp/rec.err"; echo "0 passed, 1 failed"; exit 1; }
perf script -i "$tmp/perf.data" >"$tmp/in.txt" 2>/dev/null
"$EMBER" collapse perf "$tmp/in.txt" >"$tmp/plain" 2>/dev/null
"$EMBER" collapse perf --inline "$tmp/in.txt" >"$tmp/inline" 2>"$tmp/err"
"$EMBER" collapse perf --inline --context "$tmp/in.txt" >"$tmp/context" 2>>"$tmp/err"

heaviest() { sort -t' ' -k2,2nr "$1" | head -n 1; }
check "without --inline the inlined functions are absent" "! grep -q 'leaf_math' '$tmp/plain'"
check "the heaviest stack is outer;middle;leaf_math" \
	"heaviest '$tmp/inline' | grep -q ';main;outer;middle;leaf_math [0-9]*$'"
check "--context adds file:line" \
	"grep -Eq ';outer:inlined.c:[0-9]+;middle:inlined.c:[0-9]+;leaf_math:inlined.c:[0-9?]+( |;)' '$tmp/context'"
check "same total with and without --inline" \
	"[ \"\$(awk '{ s += \$NF } END { print s }' '$tmp/plain')\" = \"\$(awk '{ s += \$NF } END { print s }' '$tmp/inline')\" ]"
check "no warnings" "[ ! -s '$tmp/err' ]"

# Both on the workload's own stacks (through main), which clang built. Samples of the loader's
# start-up (_dl_start_user) differ from the Perl's: addr2line names an alias ember does not
# (__GI_munmap for __munmap) and names the assembly _dl_start_user from the symbol table where
# ember's --context writes ??:??:?. And binutils 2.40 names the wrong file for some lines of gcc's
# DWARF 5 (glibc's __libc_start_call_main).
own() { grep -E ";main(:inlined\.c:[0-9]+)?;" "$1" | sed 's/;__libc_start_call_main:[^;]*;/;__libc_start_call_main;/'; }
# same_as_perl OURS PERL-OPTIONS...: our output, on the workload's stacks, is the Perl's
same_as_perl() {
	local ours=$1; shift
	perl "$PERL_DIR/stackcollapse-perf.pl" "$@" "$tmp/in.txt" >"$tmp/perl" 2>/dev/null &&
		[ -n "$(own "$tmp/perl")" ] && cmp -s <(own "$ours") <(own "$tmp/perl")
}
if [ -n "$PERL_DIR" ] && [ -f "$PERL_DIR/stackcollapse-perf.pl" ]; then
	check "--inline byte-identical to stackcollapse-perf.pl on the workload's stacks" \
		"same_as_perl '$tmp/inline' --inline"
	check "--context byte-identical on the workload's stacks" \
		"same_as_perl '$tmp/context' --inline --context"
else
	echo "not compared with FlameGraph's Perl (FLAMEGRAPH_DIR not set): 2 cases"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
