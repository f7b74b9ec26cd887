#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-flamegraph.sh - `ember flamegraph` and `ember diff`: golden frames per option (positions,
# widths, colours, titles, labels), well-formed SVG for hostile input, errors, and the same
# frames as flamegraph.pl draws (from the checkout in FLAMEGRAPH_DIR, when set).
# --regen rewrites tests/golden/flamegraph/expected/ from the current build.
set -u
: "${EMBER_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${EMBER_BUILD:=$EMBER_SRC/build}"
EMBER=$EMBER_BUILD/ember
DIR=$EMBER_SRC/tests/golden/flamegraph
REAL=$EMBER_SRC/tests/golden/collapse/expected
FRAMES="perl $EMBER_SRC/tests/golden/fgframes.pl"
# FlameGraph's Perl tools are the reference, but not ours to ship: they are read from a checkout
# named by FLAMEGRAPH_DIR. Without one, the comparisons with them are left out and counted as
# such (the expected files, checked against the Perl when they were made, are still compared).
FG=${FLAMEGRAPH_DIR:-}
fg_ok=0 unperl=0
[ -n "$FG" ] && [ -f "$FG/flamegraph.pl" ] && fg_ok=1
regen=0
[ "${1:-}" = "--regen" ] && regen=1
TMP=$(mktemp -d /tmp/ember-fg.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi; }
command -v xmllint >/dev/null || { echo "xmllint missing (make deps-test installs libxml2-utils)"; echo "0 passed, 1 failed"; exit 1; }

# name | input | options; "perl" cases are also drawn by flamegraph.pl.
CASES=(
	"default|annotated.folded|--width=1200|perl"
	"node|$REAL/perf-node-jit.all.folded|--width=1200|perl"
	"java|$REAL/perf-java-jit.all.folded|--width=1200 --colors=java|perl"
	"inverted|annotated.folded|--width=1200 --inverted|perl"
	"reverse|$REAL/perf-node-jit.all.folded|--width=1200 --reverse|perl"
	"flamechart|chart.folded|--width=1200 --flamechart|perl"
	"minwidth-px|$REAL/perf-node-jit.all.folded|--width=1200 --minwidth=2|perl"
	"minwidth-pct|$REAL/perf-node-jit.all.folded|--width=1200 --minwidth=1%|perl"
	"width|annotated.folded|--width=700|perl"
	"height|annotated.folded|--width=1200 --height=24|perl"
	"font|annotated.folded|--width=1200 --fontsize=9 --fontwidth=0.7 --fonttype=Courier|perl"
	"names|annotated.folded|--width=1200 --countname=bytes --nametype=Frame:|perl"
	"title|annotated.folded|--width=1200 --title=Custom --subtitle=Second|perl"
	"hash|annotated.folded|--width=1200 --hash|perl"
	"factor|annotated.folded|--width=1200 --factor=0.5|perl"
	"total|annotated.folded|--width=1200 --total=2000|perl"
	"bgcolors|annotated.folded|--width=1200 --bgcolors=#102030|perl"
	"diff|diff.folded|--width=1200|perl"
	"diff-negate|diff.folded|--width=1200 --negate|perl"
	"encoding|annotated.folded|--width=1200 --encoding=UTF-8|perl"
	"notes|annotated.folded|--width=1200 --notes=built-by-test|perl"
	"chain|annotated.folded|--width=1200 --colors=chain|"
	"fluid|annotated.folded||"
	"deterministic|annotated.folded|--width=1200 --random --deterministic|"
	"search-color|annotated.folded|--width=1200 --search-color=#00ff00|"
)
for p in hot mem io wakeup java js perl python rust red green blue aqua yellow purple orange; do
	CASES+=("palette-$p|annotated.folded|--width=1200 --colors=$p|$([ "$p" = python ] || [ "$p" = rust ] || echo perl)")
done

# same_frames NAME OPTIONS: flamegraph.pl and ember, both given OPTIONS, draw the same frames of
# $TMP/noo.folded; each must succeed and flamegraph.pl must draw some.
same_frames() {
	# shellcheck disable=SC2086
	(cd "$TMP" && perl "$FG/flamegraph.pl" $2 noo.folded >"$1.pl.svg" 2>"$1.pl.err") ||
		{ echo "flamegraph.pl failed: $(head -c 300 "$TMP/$1.pl.err")"; return 1; }
	# shellcheck disable=SC2086
	(cd "$TMP" && "$EMBER" flamegraph $2 noo.folded >"$1.noo.svg" 2>"$1.noo.err") || return 1
	$FRAMES "$TMP/$1.pl.svg" >"$TMP/$1.pl.frames"
	[ -s "$TMP/$1.pl.frames" ] || { echo "flamegraph.pl drew no frames"; return 1; }
	$FRAMES "$TMP/$1.noo.svg" | diff -u "$TMP/$1.pl.frames" -
}

mkdir -p "$DIR/expected"
for c in "${CASES[@]}"; do
	IFS='|' read -r name input opts perlcase <<<"$c"
	[ "${input:0:1}" = / ] || input=$DIR/$input
	# shellcheck disable=SC2086
	"$EMBER" flamegraph $opts "$input" >"$TMP/$name.svg" 2>"$TMP/$name.err"
	check "$name: exit 0" test $? -eq 0
	check "$name: well-formed" xmllint --noout "$TMP/$name.svg"
	$FRAMES "$TMP/$name.svg" >"$TMP/$name.frames"
	check "$name: has frames" test -s "$TMP/$name.frames"
	if [ $regen -eq 1 ]; then
		cp "$TMP/$name.frames" "$DIR/expected/$name.frames"
	else
		check "$name: golden frames" diff -u "$DIR/expected/$name.frames" "$TMP/$name.frames"
	fi
	if [ "$perlcase" = perl ] && [ $fg_ok -eq 0 ]; then
		unperl=$((unperl + 1))
	elif [ "$perlcase" = perl ]; then
		# _[o] (off-CPU) is ember's own annotation: compare on input without it.
		sed 's/_\[o\]//g' "$input" >"$TMP/noo.folded"
		check "$name: same frames as flamegraph.pl" same_frames "$name" "$opts"
	fi
done

# What the options mean, beyond matching the golden files.
grep -q 'width="100%"' "$TMP/fluid.svg"
check "no --width: a fluid SVG" test $? -eq 0
check "fluid frames in percent" grep -q 'rect x="0.8333%"' "$TMP/fluid.svg"
check "_[o] frames are blue in the hot palette" sh -c "grep '|finish_task_switch (' '$TMP/default.frames' | grep -Eq 'rgb\\(([0-9]+),\\1,2[0-9][0-9]\\)'"
check "annotations are not drawn" sh -c "! grep -Eq '_\\[[kjiwo]\\]' '$TMP/default.frames'"
check "frames named - and -- are grey" sh -c "grep -q 'rgb(200,200,200)|- (' '$TMP/default.frames' && grep -q 'rgb(160,160,160)|-- (' '$TMP/default.frames'"
check "thousands separators" grep -q '(6,688,962 samples' "$TMP/node.frames"
check "chain: wakers aqua" sh -c "grep '|waker_thread (' '$TMP/chain.frames' | grep -q 'rgb(.*,.*,.*)'"
check "--random --deterministic keeps the default colours" cmp -s <(cut -d'|' -f1 "$TMP/default.frames") <(cut -d'|' -f1 "$TMP/deterministic.frames")
check "search colour in the SVG" grep -q 'fg-searchcolor="#00ff00"' "$TMP/search-color.svg"
check "flame chart keeps input order" sh -c "grep -c '|a (' '$TMP/flamechart.frames' | grep -qx 2"
check "differential: growth red" sh -c "grep '|ast (' '$TMP/diff.frames' | grep -q 'rgb(255,'"
check "differential: shrinkage blue" sh -c "grep '|write (' '$TMP/diff.frames' | grep -q ',255)|'"
check "--negate swaps hues" sh -c "grep '|write (' '$TMP/diff-negate.frames' | grep -q 'rgb(255,'"

# Bad and empty input.
printf '' >"$TMP/empty.folded"
"$EMBER" flamegraph "$TMP/empty.folded" >"$TMP/empty.svg" 2>"$TMP/empty.err"
check "empty input: exit 2" test $? -eq 2
check "empty input: error SVG" sh -c "xmllint --noout '$TMP/empty.svg' && grep -q 'ERROR: No valid input' '$TMP/empty.svg'"
check "empty input: message" grep -q 'No stack counts found' "$TMP/empty.err"
printf 'a;b 5\nno count here\na;c x\n\n' >"$TMP/bad.folded"
"$EMBER" flamegraph "$TMP/bad.folded" >/dev/null 2>"$TMP/bad.err"
check "invalid lines counted" grep -q '^Ignored 2 lines with invalid format$' "$TMP/bad.err"
for bad in "--colors=nope" "--minwidth=abc" "--bgcolors=red" "--width=-5" "--search-color=x\"y" "--nonsense"; do
	"$EMBER" flamegraph "$bad" "$DIR/annotated.folded" >/dev/null 2>"$TMP/opt.err"
	check "bad option $bad: exit 2" test $? -eq 2
done
"$EMBER" flamegraph /nonexistent >/dev/null 2>"$TMP/nf.err"
check "missing file: exit 1" test $? -eq 1
check "missing file: one line" sh -c "test \$(wc -l <'$TMP/nf.err') -eq 1 && grep -q \"cannot open '/nonexistent'\" '$TMP/nf.err'"
gzip -c "$DIR/annotated.folded" >"$TMP/in.folded.gz"
"$EMBER" flamegraph --width=1200 "$TMP/in.folded.gz" >"$TMP/gz.svg"
check "gzip input reads like plain input" cmp -s <($FRAMES "$TMP/gz.svg") "$TMP/default.frames"
"$EMBER" flamegraph --width=1200 <"$DIR/annotated.folded" >"$TMP/stdin.svg"
check "stdin input" cmp -s <($FRAMES "$TMP/stdin.svg") "$TMP/default.frames"

# --cp keeps colours in ./palette.map; --nameattr adds attributes but never a script URL.
(cd "$TMP" && "$EMBER" flamegraph --width=1200 --cp "$DIR/annotated.folded" >cp1.svg &&
	sed -i 's/^parse->.*/parse->rgb(1,2,3)/' palette.map &&
	"$EMBER" flamegraph --width=1200 --cp "$DIR/annotated.folded" >cp2.svg)
check "--cp writes palette.map" grep -q '^main->rgb(' "$TMP/palette.map"
check "--cp reuses palette.map" sh -c "$FRAMES '$TMP/cp2.svg' | grep -q 'rgb(1,2,3)|parse ('"
printf 'parse\thref=http://example.invalid/parse\ttitle=Parsing <here>\nmain\thref=javascript:alert(1)\tg_extra=onclick="alert(2)" data-x="1"\n' >"$TMP/attrs"
"$EMBER" flamegraph --width=1200 --nameattr="$TMP/attrs" "$DIR/annotated.folded" >"$TMP/attr.svg"
check "--nameattr: well-formed" xmllint --noout "$TMP/attr.svg"
check "--nameattr: link and title" grep -q '<a xlink:href="http://example.invalid/parse" target="_top"><title>Parsing &lt;here&gt;</title>' "$TMP/attr.svg"
check "--nameattr: no script URL, no handler" sh -c "! grep -Eq 'javascript:alert|onclick' '$TMP/attr.svg' && grep -q 'data-x=\"1\"' '$TMP/attr.svg'"

# Hostile names, titles and options: well-formed, and no markup of theirs survives.
"$EMBER" flamegraph --title='<script>alert("t")</script>' --subtitle=']]>&' --notes='a -- b -->' \
	--countname='</svg>' --nametype='"><script>' --fonttype='x;}</style><script>' \
	"$DIR/hostile.folded" >"$TMP/hostile.svg" 2>/dev/null
check "hostile: well-formed" xmllint --noout "$TMP/hostile.svg"
check "hostile: one script element, ours" test "$(grep -o '<script' "$TMP/hostile.svg" | wc -l)" -eq 1
check "hostile: valid UTF-8" sh -c "iconv -f UTF-8 -t UTF-8 '$TMP/hostile.svg' >/dev/null"
check "hostile: no control characters" perl -ne 'exit 1 if /[\x00-\x08\x0b\x0c\x0e-\x1f]/' "$TMP/hostile.svg"
check "hostile: names kept as text" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$TMP/hostile.svg"

# ember diff, as difffolded.pl.
printf 'a;b 10\na;c 5\na;0x1f2e 3\nd 1\n' >"$TMP/d1"
printf 'a;b 20\na;e 5\na;0xdead 4\nd 1\n' >"$TMP/d2"
"$EMBER" diff "$TMP/d1" "$TMP/d2" >"$TMP/d.out"
check "diff: every stack, both counts" diff <(sort "$TMP/d.out") <(printf 'a;0x1f2e 3 0\na;0xdead 0 4\na;b 10 20\na;c 5 0\na;e 0 5\nd 1 1\n')
"$EMBER" diff -s "$TMP/d1" "$TMP/d2" >"$TMP/ds.out"
check "diff -s: addresses merged" grep -qx 'a;0x... 3 4' "$TMP/ds.out"
"$EMBER" diff -n "$TMP/d1" "$TMP/d2" >"$TMP/dn.out"
check "diff -n: first profile scaled to the second's total" grep -qx 'a;b 15 20' "$TMP/dn.out"
"$EMBER" diff "$TMP/d1" /nonexistent >/dev/null 2>"$TMP/dnf.err"
check "diff: missing file is an error" test $? -eq 1
check "diff: missing file named" grep -q "cannot open '/nonexistent'" "$TMP/dnf.err"
"$EMBER" diff "$TMP/d1" >/dev/null 2>&1
check "diff: one file is a usage error" test $? -eq 2
# same_diff FLAGS: difffolded.pl and ember diff, both given FLAGS, print the same lines; each must
# succeed and difffolded.pl must print some.
same_diff() {
	# shellcheck disable=SC2086
	perl "$FG/difffolded.pl" $1 "$REAL/perf-node-jit.all.folded" "$REAL/perf-node-jit.addrs.folded" \
		>"$TMP/dp" 2>"$TMP/dp.err" || { echo "difffolded.pl failed: $(head -c 300 "$TMP/dp.err")"; return 1; }
	[ -s "$TMP/dp" ] || { echo "difffolded.pl printed nothing"; return 1; }
	# shellcheck disable=SC2086
	"$EMBER" diff $1 "$REAL/perf-node-jit.all.folded" "$REAL/perf-node-jit.addrs.folded" >"$TMP/de" || return 1
	cmp -s <(sort "$TMP/dp") <(sort "$TMP/de")
}
for flags in "" "-n" "-s" "-n -s"; do
	if [ $fg_ok -eq 1 ]; then
		check "diff $flags: same lines as difffolded.pl" same_diff "$flags"
	else
		unperl=$((unperl + 1))
	fi
done
[ $unperl -eq 0 ] || echo "not compared with FlameGraph's Perl (FLAMEGRAPH_DIR not set): $unperl cases"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
