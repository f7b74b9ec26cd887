#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-render.sh - `ember flamegraph` beside flamegraph.pl and `ember diff` beside difffolded.pl
# (from FLAMEGRAPH_DIR), run alternately in this script on the same inputs: a real profile
# (a perf capture of node with JIT frames) and a synthetic one of 100,000 unique stacks of depth
# ~30. Reports median wall times over RUNS runs (PERL_RUNS for the slow Perl on the big file),
# the ratio, and SVG sizes. Then the time the daemon spends on one window's SVG.
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${RUNS:-7}
PERL_RUNS=${PERL_RUNS:-3}
FG=${FLAMEGRAPH_DIR:-}
TMP=$(mktemp -d /tmp/ember-bench-render.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
REAL=$SRC/tests/golden/collapse/expected/perf-node-jit.all.folded
REAL2=$SRC/tests/golden/collapse/expected/perf-node-jit.addrs.folded
perl "$SRC/tests/bench/synth-folded.pl" 100000 30 1 >"$TMP/big.folded"
# the "after" profile: 90% of the stacks with other counts, and 10,000 new ones
awk 'NR % 10 != 0 { $NF = $NF + NR % 7; print }' "$TMP/big.folded" >"$TMP/big2.folded"
perl "$SRC/tests/bench/synth-folded.pl" 10000 30 2 >>"$TMP/big2.folded"

ms() { # ms CMD...: wall microseconds of one run (fork, exec, wait: no shell timed), output to $TMP/out
	"$B/bench/bench_exec" 1 "$TMP/out" "$@" | cut -d' ' -f1
}
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1000 }'; }

# side NAME RUNS_PERL "OURS..." "THEIRS...": alternate runs, print medians, ratio and sizes.
side() {
	local name=$1 pruns=$2 ours=$3 theirs=$4 o=() t=() so=0 st=0 i
	for ((i = 0; i < RUNS; i++)); do
		o+=("$(eval "ms $ours")")
		so=$(stat -c %s "$TMP/out")
		if [ -n "$FG" ] && [ "$i" -lt "$pruns" ]; then
			t+=("$(eval "ms $theirs")")
			st=$(stat -c %s "$TMP/out")
		fi
	done
	local mo mt
	mo=$(printf '%s\n' "${o[@]}" | median)
	if [ -n "$FG" ]; then
		mt=$(printf '%s\n' "${t[@]}" | median)
		printf '%-34s ember %8s ms   perl %9s ms   %6.1fx   output %9d vs %9d bytes\n' "$name" "$mo" "$mt" \
			"$(awk -v a="$mt" -v b="$mo" 'BEGIN { print a / b }')" "$so" "$st"
	else
		printf '%-34s ember %8s ms   output %9d bytes\n' "$name" "$mo" "$so"
	fi
}

if [ -n "$FG" ] && [ ! -f "$FG/flamegraph.pl" ]; then
	echo "bench-render: flamegraph.pl missing in FLAMEGRAPH_DIR=$FG"
	FG=
elif [ -z "$FG" ]; then
	echo "bench-render: flamegraph.pl missing (set FLAMEGRAPH_DIR to a FlameGraph checkout); ember alone:"
fi
E=$B/ember
echo "real: $(wc -l <"$REAL") stacks; synthetic: $(wc -l <"$TMP/big.folded") stacks, $(($(stat -c %s "$TMP/big.folded") / 1048576)) MiB; runs: $RUNS (flamegraph.pl on the big file: $PERL_RUNS)"
# The floor under any command: exec of a program that does nothing, and of `ember --version`.
printf 'int main(void) { return 0; }\n' | cc -O2 -x c - -o "$TMP/empty"
for ((i = 0; i < RUNS; i++)); do ms "$TMP/empty"; done | median >"$TMP/floor"
for ((i = 0; i < RUNS; i++)); do ms "$E" --version; done | median >"$TMP/floor.ember"
for ((i = 0; i < RUNS; i++)); do ms perl -e 1; done | median >"$TMP/floor.perl"
echo "floor: an empty C program $(cat "$TMP/floor") ms, ember --version $(cat "$TMP/floor.ember") ms, perl -e 1 $(cat "$TMP/floor.perl") ms"
side "flamegraph, real" "$RUNS" "'$E' flamegraph --width=1200 '$REAL'" "perl '$FG/flamegraph.pl' --width=1200 '$REAL'"
side "flamegraph, 100k stacks" "$PERL_RUNS" "'$E' flamegraph --width=1200 '$TMP/big.folded'" "perl '$FG/flamegraph.pl' --width=1200 '$TMP/big.folded'"
side "diff, real" "$RUNS" "'$E' diff '$REAL' '$REAL2'" "perl '$FG/difffolded.pl' '$REAL' '$REAL2'"
side "diff, 100k stacks" "$RUNS" "'$E' diff '$TMP/big.folded' '$TMP/big2.folded'" "perl '$FG/difffolded.pl' '$TMP/big.folded' '$TMP/big2.folded'"
"$E" diff "$TMP/big.folded" "$TMP/big2.folded" >"$TMP/big.diff"
side "flamegraph of the diff, 100k" "$PERL_RUNS" "'$E' flamegraph --width=1200 '$TMP/big.diff'" "perl '$FG/flamegraph.pl' --width=1200 '$TMP/big.diff'"

# What a window's SVG adds to the daemon: emberd profiles this host for one 10 s window, then
# the same library call renders that window's profiles (median of RUNS, process start included).
if [ "$(id -u)" -eq 0 ] && [ -x "$B/emberd" ]; then
	"$B/emberd" -F 499 -w 10 -o "$TMP/win" >"$TMP/emberd.log" 2>&1 &
	pid=$!
	sleep 12
	kill -INT "$pid"
	wait "$pid"
	for f in $(find "$TMP/win" -name '*.folded.gz' ! -path '*snapshots*' | sort | head -4); do
		kind=$(basename "$f" .folded.gz)
		t=()
		for ((i = 0; i < RUNS; i++)); do t+=("$(ms "$E" flamegraph "$f")"); done
		printf 'window SVG %-22s %6d stacks  %8s ms  %9d bytes (svg beside it: %s)\n' "$kind" \
			"$(zcat "$f" | wc -l)" "$(printf '%s\n' "${t[@]}" | median)" "$(stat -c %s "$TMP/out")" \
			"$([ -f "${f%.folded.gz}.svg" ] && echo yes || echo no)"
	done
else
	echo "window SVG: needs root to run emberd"
fi
