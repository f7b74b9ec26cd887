#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-view.sh - `ember view` in a 200x60 tmux pane on 1,000 and 100,000 unique stacks (synthetic,
# depth ~30): time to the first screen and of each redraw after a key (the viewer's own --timing),
# CPU time and peak memory of the whole run, and flamegraph.pl's time to the SVG of the same file
# (FLAMEGRAPH_DIR) as the ratio. Goals: first screen < 500 ms for 100k stacks, redraw < 16 ms.
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${RUNS:-3}
FG=${FLAMEGRAPH_DIR:-}
TMP=$(mktemp -d /tmp/ember-bench-view.XXXXXX)
T="tmux -L ember-bench-view-$$ -f /dev/null"
trap '$T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
perl "$SRC/tests/bench/synth-folded.pl" 1000 30 1 >"$TMP/1k.folded"
perl "$SRC/tests/bench/synth-folded.pl" 100000 30 1 >"$TMP/100k.folded"

wait_file() { # wait_file FILE PATTERN: up to 120 s
	for _ in $(seq 1 1200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	echo "bench-view: '$2' never appeared in $1"; return 1
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# one FILE: a run with keys (up, up, Enter, Esc, i, i, right, left), then q
one() {
	local f=$1 t=$TMP/timing r=$TMP/rusage
	rm -f "$t" "$r"
	$T new-session -d -s v -x 200 -y 60 "env TERM=tmux-256color LANG=C.UTF-8 /usr/bin/time -o $r -f '%U %S %M' '$B/ember' view --timing $t '$f'"
	wait_file "$t" first-screen || return 1
	for k in Up Up Enter Escape i i Right Left; do
		local before
		before=$(wc -l <"$t")
		$T send-keys -t v "$k"
		for _ in $(seq 1 600); do [ "$(wc -l <"$t")" -gt "$before" ] && break; sleep 0.05; done
	done
	$T send-keys -t v q
	wait_file "$r" '[0-9]' || return 1
	awk '/first-screen/ { f = $2 } /^redraw/ { if ($3 > m) m = $3; s += $3; n++ }
		END { printf "%s %.3f %.3f ", f, m, s / n }' "$t"
	awk '{ printf "%.0f %d\n", 1000 * ($1 + $2), $3 }' "$r"
}

for size in 1k 100k; do
	: >"$TMP/runs"
	for ((i = 0; i < RUNS; i++)); do one "$TMP/$size.folded" >>"$TMP/runs" || exit 1; done
	first=$(cut -d' ' -f1 "$TMP/runs" | median)
	maxr=$(cut -d' ' -f2 "$TMP/runs" | median)
	meanr=$(cut -d' ' -f3 "$TMP/runs" | median)
	cpu=$(cut -d' ' -f4 "$TMP/runs" | median)
	rss=$(cut -d' ' -f5 "$TMP/runs" | median)
	line=$(printf '%-5s stacks: first screen %8.1f ms (goal 500), redraw max %6.2f ms mean %6.2f ms (goal 16), CPU %5d ms, peak RSS %6d KiB' \
		"$size" "$first" "$maxr" "$meanr" "$cpu" "$rss")
	if [ -n "$FG" ] && [ -f "$FG/flamegraph.pl" ]; then
		s=$(date +%s%N)
		perl "$FG/flamegraph.pl" "$TMP/$size.folded" >/dev/null
		pl=$((($(date +%s%N) - s) / 1000000))
		line="$line; flamegraph.pl $pl ms ($(awk -v a="$pl" -v b="$first" 'BEGIN { printf "%.1f", a / b }')x)"
	fi
	echo "$line"
done
[ -n "$FG" ] || echo "bench-view: set FLAMEGRAPH_DIR to a FlameGraph checkout to compare with flamegraph.pl"
