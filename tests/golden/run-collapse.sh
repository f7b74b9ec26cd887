#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-collapse.sh - golden tests of `ember collapse`: every fixture with every option set.
#
# Each case compares ember's output with the expected file committed in collapse/expected/.
# Each perf, stap and bpftrace case is also compared with FlameGraph's Perl tools on the same
# input (the checkout in FLAMEGRAPH_DIR, when set): byte for byte for perf,
# stap and --merge-recursion; for bpftrace, every stack the Perl prints (less its ", " frames)
# must be in ours with the same count (the Perl drops some entries, see collapse/bpftrace.h).
# Inputs no Perl tool reads are not compared with it. `--regen` rewrites the expected files, and
# refuses to where ember disagrees with the Perl.
set -u
SRC=${EMBER_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${EMBER_BUILD:-$SRC/build}
EMBER=$BUILD/ember
DIR=$SRC/tests/golden/collapse
regen=0
[ "${1:-}" = "--regen" ] && regen=1
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# FlameGraph's Perl tools are the reference, but not ours to ship: they are read from a checkout
# named by FLAMEGRAPH_DIR. Without one, the comparisons with them are left out and counted as
# such (the expected files, checked against the Perl when they were made, are still compared).
perl_dir=${FLAMEGRAPH_DIR:-}
perl_ok=0 unperl=0
[ -n "$perl_dir" ] && [ -f "$perl_dir/stackcollapse-perf.pl" ] && perl_ok=1

ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "FAIL $*"; }

# cases: INPUT FORMAT VARIANT [ARGS...]
cases() {
	local f stem
	for f in "$DIR"/perf-*.txt*; do
		stem=$(basename "$f"); stem=${stem%.gz}; stem=${stem%.txt}
		echo "$f perf default"
		echo "$f perf pid --pid"
		echo "$f perf tid --tid"
		echo "$f perf kernel --kernel"
		echo "$f perf jit --jit"
		echo "$f perf all --all"
		echo "$f perf addrs --addrs"
		echo "$f perf all-tid-addrs --all --tid --addrs"
		echo "$f perf recursion --merge-recursion"
		case $stem in
		perf-srcline) echo "$f perf srcline --srcline"
			echo "$f perf srcline-all --srcline --all" ;;
		perf-multi-event) echo "$f perf event-task-clock --event-filter=task-clock"
			echo "$f perf event-page-faults --event-filter=page-faults --pid" ;;
		esac
	done
	for f in "$DIR"/bpftrace-*.txt "$DIR"/stap-*.txt; do
		local fmt=${f##*/}; fmt=${fmt%%-*}
		echo "$f $fmt default"
		echo "$f $fmt recursion --merge-recursion"
	done
	for f in "$DIR"/folded-*.txt; do
		echo "$f folded default"
		echo "$f folded recursion --merge-recursion"
		echo "$f folded by-weight --sort=weight"
		echo "$f folded only-java --only-comm=java"
		echo "$f folded only-pid --only-pid=99"
		echo "$f folded only-frame --only-frame=^(run|fib)$"
		echo "$f folded exclude-frame --only-frame=^(run|fib)$ --exclude"
	done
}

# perl_reads FORMAT INPUT: whether a Perl tool reads this input. None reads folded input, and
# stackcollapse-bpftrace.pl drops every entry of named maps and scalar keys (collapse/bpftrace.h).
perl_reads() {
	case $1:$2 in
	folded:* | bpftrace:*/bpftrace-named.txt | bpftrace:*/bpftrace-comm.txt) return 1 ;;
	esac
}

# The Perl's output for a perf, stap or bpftrace case; fails when a Perl tool fails.
perl_output() {
	local in=$1 fmt=$2; shift 2
	local args=() rec=0 a
	local -
	set -o pipefail
	for a in "$@"; do
		if [ "$a" = --merge-recursion ]; then rec=1; else args+=("$a"); fi
	done
	case $fmt in
	perf) gzip -dcf "$in" | perl "$perl_dir/stackcollapse-perf.pl" "${args[@]}" 2>/dev/null ;;
	stap) perl "$perl_dir/stackcollapse-stap.pl" "$in" ;;
	bpftrace) perl "$perl_dir/stackcollapse-bpftrace.pl" "$in" ;;
	esac | if [ $rec -eq 1 ]; then perl "$perl_dir/stackcollapse-recursive.pl"; else cat; fi
}

# Sum the counts of equal stacks and sort, as ember does: for the bpftrace Perl output.
aggregate() {
	awk '{ n = $NF; sub(/ [0-9]+$/, ""); s[$0] += n } END { for (k in s) print k, s[k] }' |
		LC_ALL=C sort
}

check_perl() {
	local in=$1 fmt=$2 variant=$3 out=$4; shift 4
	if ! perl_output "$in" "$fmt" "$@" >"$tmp/perl" 2>"$tmp/perl.err" || [ ! -s "$tmp/perl" ]; then
		echo "the Perl failed or printed nothing on $(basename "$in") ($fmt $variant):" \
			"$(head -c 300 "$tmp/perl.err")"
		return 1
	fi
	if [ "$fmt" = bpftrace ]; then
		# the Perl keeps the ", " line between two stack keys as a frame: drop it
		sed 's/;, ;/;/g' "$tmp/perl" | aggregate > "$tmp/perl.agg"
		[ -z "$(LC_ALL=C comm -23 "$tmp/perl.agg" "$out")" ] && return 0
	else
		cmp -s "$tmp/perl" "$out" && return 0
	fi
	echo "ember differs from the Perl on $(basename "$in") ($fmt $variant):"
	diff "$tmp/perl" "$out" | head -n 6
	return 1
}

while read -r in fmt variant args; do
	stem=$(basename "$in"); stem=${stem%.gz}; stem=${stem%.txt}
	exp=$DIR/expected/$stem.$variant.folded
	# shellcheck disable=SC2086 # args are split on purpose
	gzip -dcf "$in" | "$EMBER" collapse "$fmt" $args > "$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then ko "$stem $variant: exit $rc: $(head -c 300 "$tmp/err")"; continue; fi
	if perl_reads "$fmt" "$in" && [ $perl_ok -eq 0 ]; then
		unperl=$((unperl + 1))
	elif perl_reads "$fmt" "$in"; then
		# shellcheck disable=SC2086
		if check_perl "$in" "$fmt" "$variant" "$tmp/out" $args; then ok; else
			ko "$stem $variant: not as the Perl"; [ $regen -eq 1 ] && continue; fi
	fi
	if [ $regen -eq 1 ]; then
		cp "$tmp/out" "$exp"
	elif cmp -s "$exp" "$tmp/out"; then
		ok
	else
		ko "$stem $variant: differs from expected/$(basename "$exp")"
		diff "$exp" "$tmp/out" 2>&1 | head -n 6
	fi
	# without a format name, the format is guessed
	if [ "$variant" = default ]; then
		if gzip -dcf "$in" | "$EMBER" collapse 2>/dev/null | cmp -s - "$tmp/out"; then ok; else
			ko "$stem: format not guessed as $fmt"; fi
	fi
done < <(cases)

# Bad input is reported once, on stderr, with a count; nothing is lost silently.
expect_warning() {
	local in=$1 fmt=$2 pattern=$3
	if "$EMBER" collapse "$fmt" "$in" 2>&1 >/dev/null | grep -q -- "$pattern"; then ok; else
		ko "$(basename "$in"): no warning matching '$pattern'"; fi
}
expect_warning "$DIR/perf-crlf.txt" perf "^ember collapse: 1 unrecognized lines skipped$"
expect_warning "$DIR/perf-truncated.txt" perf "last sample without its closing blank line"
expect_warning "$DIR/perf-edge.txt" perf "1 unrecognized lines skipped"
expect_warning "$DIR/folded-mixed.txt" folded "^ember collapse: 2 malformed lines skipped$"
expect_warning "$DIR/stap-kernel-user.txt" stap "last stack without a count"

[ $unperl -eq 0 ] || echo "not compared with FlameGraph's Perl (FLAMEGRAPH_DIR not set): $unperl cases"
echo "collapse: $passed passed, $failed failed"
[ $failed -eq 0 ]
