#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-flamegraph.sh - ember's flame graphs in headless Chromium: hover, zoom, search, URL state,
# hostile names, a deep graph opening on its roots, and the 100,000-stack graph opened, searched
# and zoomed (its time is printed, not judged: a test must not depend on the machine's speed).
set -u
: "${EMBER_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${EMBER_BUILD:=$EMBER_SRC/build}"
EMBER=$EMBER_BUILD/ember
FIX=$EMBER_SRC/tests/golden/flamegraph
command -v chromium >/dev/null || { echo "chromium missing (make deps-test installs it)"; echo "0 passed, 1 failed"; exit 1; }
PW=$(bash "$EMBER_SRC/tests/browser/setup.sh" "$EMBER_BUILD") || { echo "cannot install playwright-core"; echo "0 passed, 1 failed"; exit 1; }
TMP=$(mktemp -d /tmp/ember-browser.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
"$EMBER" flamegraph --width=1200 "$FIX/annotated.folded" >"$TMP/annotated.svg"
"$EMBER" flamegraph "$FIX/annotated.folded" >"$TMP/fluid.svg"
"$EMBER" flamegraph --width=1200 "$EMBER_SRC/tests/golden/collapse/expected/perf-node-jit.all.folded" >"$TMP/node.svg"
"$EMBER" flamegraph --width=1200 "$FIX/diff.folded" >"$TMP/diff.svg"
"$EMBER" flamegraph --width=1200 --title='<script>alert("t")</script>' "$FIX/hostile.folded" >"$TMP/hostile.svg" 2>/dev/null
seq 1 150 | awk '{ s = s ";f" $1 } END { print "main" s " 10" }' >"$TMP/deep.folded"
"$EMBER" flamegraph --width=1200 "$TMP/deep.folded" >"$TMP/deep.svg" 2>/dev/null
"$EMBER" flamegraph --width=1200 --inverted "$TMP/deep.folded" >"$TMP/deep-icicle.svg" 2>/dev/null
perl "$EMBER_SRC/tests/bench/synth-folded.pl" 100000 30 1 >"$TMP/big.folded"
"$EMBER" flamegraph --width=1200 --minwidth=0.1 "$TMP/big.folded" >"$TMP/big.svg"
node "$EMBER_SRC/tests/browser/flamegraph.mjs" "$PW" "$TMP"
