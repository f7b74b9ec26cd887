#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run.sh - run unit tests, golden tests and integration tests; print one closing line.
#
# A test prints its own "N passed, N failed[, N skipped]" as its last line, or is
# judged by its exit code (0 passed, 77 skipped, anything else failed). A closing line that
# counts nothing is a failure, and under CI=true, which must run every test, so is a skip.
set -u
unit_only=0
if [ "${1:-}" = "--unit-only" ]; then unit_only=1; shift; fi
OUT=${1:-build}
export EMBER_BUILD=$(cd "$OUT" && pwd)
export EMBER_SRC=$(cd "$(dirname "$0")/.." && pwd)
passed=0 failed=0 skipped=0
failures=()

run_one() {
	local name=$1; shift
	local log rc last p=0 f=0 s=0
	log=$(mktemp)
	"$@" >"$log" 2>&1
	rc=$?
	last=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" | tail -n 1)
	if [ -n "$last" ]; then
		p=$(sed -E 's/^([A-Za-z]+: )?([0-9]+) passed.*/\2/' <<<"$last")
		f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$last")
		grep -q skipped <<<"$last" && s=$(sed -E 's/.* ([0-9]+) skipped.*/\1/' <<<"$last")
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
		if [ $((p + f + s)) -eq 0 ]; then f=1; fi
	elif [ "$rc" -eq 0 ]; then
		p=1
	elif [ "$rc" -eq 77 ]; then
		s=1
	else
		f=1
	fi
	if [ "${CI:-}" = "true" ]; then f=$((f + s)) s=0; fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" -eq 0 ] || failures+=("$name")
	if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ] || [ -n "${VERBOSE:-}" ]; then
		echo "---- $name (exit $rc)"; tail -n 40 "$log"
	else
		printf '  %-40s %s\n' "$name" "${last:-ok}"
	fi
	rm -f "$log"
}

for t in "$OUT"/tests/test_*; do
	[ -x "$t" ] && run_one "unit/$(basename "$t")" "$t"
done
if [ "$unit_only" -eq 0 ]; then
	for t in "$EMBER_SRC"/tests/golden/run-*.sh; do
		[ -f "$t" ] && run_one "${t#"$EMBER_SRC"/tests/}" bash "$t"
	done
	# Browser tests time a big graph, and integration tests load the whole host: one
	# checkout at a time.
	for t in "$EMBER_SRC"/tests/browser/run-*.sh "$EMBER_SRC"/tests/integration/t[0-9]*.sh; do
		[ -f "$t" ] && run_one "${t#"$EMBER_SRC"/tests/}" flock "${EMBER_LOCK:-/tmp/ember-integration.lock}" bash "$t"
	done
fi
[ ${#failures[@]} -eq 0 ] || echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
