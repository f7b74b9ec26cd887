#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run.sh - run every built fuzzer for FUZZ_SECONDS (default 60) each; print one closing line.
#
# A corpus grows in OUT/fuzz/corpus-NAME. tests/fuzz/NAME.seeds may list seed directories,
# relative to OUT, one per line (read only). Inputs that once failed, kept in
# tests/fuzz/crashers/NAME-without-fuzz_/, run first as seeds: a regression fails at once.
set -u
OUT=${1:-build}
SECONDS_EACH=${2:-${FUZZ_SECONDS:-60}}
SRC=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
for f in "$OUT"/fuzz/fuzz_*; do
	[ -x "$f" ] && [ -f "$f" ] || continue
	name=$(basename "$f")
	corpus="$OUT/fuzz/corpus-$name"
	mkdir -p "$corpus"
	seeds=()
	if [ -f "$SRC/$name.seeds" ]; then
		while read -r d; do
			[ -n "$d" ] && [ -d "$OUT/$d" ] && seeds+=("$OUT/$d")
		done <"$SRC/$name.seeds"
	fi
	[ -d "$SRC/crashers/${name#fuzz_}" ] && seeds+=("$SRC/crashers/${name#fuzz_}")
	echo "fuzz: $name for ${SECONDS_EACH}s"
	if "$f" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$OUT/fuzz/$name-" "$corpus" "${seeds[@]}" >"$OUT/fuzz/$name.log" 2>&1; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "fuzz: $name failed, see $OUT/fuzz/$name.log"
		tail -n 30 "$OUT/fuzz/$name.log"
	fi
done
[ $((passed + failed)) -gt 0 ] || { echo "fuzz: no fuzzer built in $OUT/fuzz"; failed=1; }
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
