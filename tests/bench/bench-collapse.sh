#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-collapse.sh - `ember collapse perf` beside stackcollapse-perf.pl on the same corpus: a
# concatenation of this repository's real `perf script` captures, repeated to CORPUS_MB (default
# 200). Median wall time of RUNS runs each, alternating, then the ratio, MB/s and peak RSS; the
# outputs must be byte-identical. Without FLAMEGRAPH_DIR it prints ember's figures alone.
set -u
B=$(cd "${1:-build}" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${RUNS:-5}
CORPUS_MB=${CORPUS_MB:-200}
TMP=$(mktemp -d /tmp/ember-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Real captures only, each usable with the default options (no srcline, no synthetic edge cases).
make_corpus() {
	local one=$TMP/one.txt
	for f in "$SRC"/tests/golden/collapse/perf-*.txt.gz; do
		case $f in *srcline*) continue ;; esac
		zcat "$f"
	done >"$one"
	: >"$TMP/corpus.txt"
	while [ "$(stat -c %s "$TMP/corpus.txt")" -lt $((CORPUS_MB * 1000000)) ]; do
		cat "$one" >>"$TMP/corpus.txt"
	done
}

# run NAME CMD...: one timed run into $TMP/out.NAME; appends seconds and peak KiB.
run() {
	local name=$1
	shift
	local t0=$EPOCHREALTIME # time -f %e counts in hundredths: too coarse for ember
	/usr/bin/time -f '%M' -o "$TMP/t" "$@" <"$TMP/corpus.txt" >"$TMP/out.$name" 2>/dev/null
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }' >>"$TMP/secs.$name"
	read -r kib <"$TMP/t"
	echo "$kib" >>"$TMP/kib.$name"
}

make_corpus
bytes=$(stat -c %s "$TMP/corpus.txt")
perl_tool=${FLAMEGRAPH_DIR:-}/stackcollapse-perf.pl
tools=ember
if [ -n "${FLAMEGRAPH_DIR:-}" ] && [ -f "$perl_tool" ]; then
	tools="ember perl"
else
	echo "bench-collapse: FLAMEGRAPH_DIR is not set (or has no stackcollapse-perf.pl): ember's figures only"
fi
echo "== collapse: $((bytes / 1000000)) MB of perf script, median of $RUNS runs, one thread"
for _ in $(seq 1 "$RUNS"); do
	for t in $tools; do
		case $t in
		ember) run ember "$B/ember" collapse perf ;;
		perl) run perl perl "$perl_tool" ;;
		esac
	done
done
printf '%-8s %10s %10s %12s\n' tool "median s" "MB/s" "peak RSS MB"
for t in $tools; do
	s=$(median <"$TMP/secs.$t")
	k=$(median <"$TMP/kib.$t")
	awk -v t="$t" -v s="$s" -v k="$k" -v b="$bytes" \
		'BEGIN { printf "%-8s %10.3f %10.1f %12.1f\n", t, s, (s > 0 ? b / 1e6 / s : 0), k / 1024 }'
done
if [ "$tools" = "ember perl" ]; then
	if cmp -s "$TMP/out.ember" "$TMP/out.perl"; then
		echo "outputs: byte-identical ($(wc -l <"$TMP/out.ember") stacks)"
	else
		echo "outputs: DIFFER"
	fi
	awk -v e="$(median <"$TMP/secs.ember")" -v p="$(median <"$TMP/secs.perl")" \
		'BEGIN { printf "ember collapse perf: %.1fx the throughput of stackcollapse-perf.pl (target: 30x)\n", (e > 0 ? p / e : 0) }'
fi
