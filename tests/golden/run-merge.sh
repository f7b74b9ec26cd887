#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-merge.sh - `ember merge` on an archive made here: sums windows, and every bad request gets
# one clear line and a non-zero exit (unknown kind, --pid on windows without PIDs, a --since no
# calendar holds), never a crash or an empty success.
set -u
: "${EMBER_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${EMBER_BUILD:=$EMBER_SRC/build}"
EMBER=$EMBER_BUILD/ember
TMP=$(mktemp -d /tmp/ember-merge.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi; }

# Two windows of the last hour, named as emberd names them (day folder, HHMM stem).
day=$(date +%Y-%m-%d)
mkdir -p "$TMP/a/$day" "$TMP/b/$day"
w1=$(date -d '-20 min' +%H%M) w2=$(date -d '-10 min' +%H%M)
printf 'sh;main;a 3\nsh;main;b 1\n' | gzip >"$TMP/a/$day/$w1.oncpu.folded.gz"
printf 'sh;main;a 2\n' | gzip >"$TMP/a/$day/$w2.oncpu.folded.gz"
printf 'sh-42;main;a 5\nsh-43;main;b 1\n' | gzip >"$TMP/b/$day/$w1.oncpu.folded.gz"

out=$("$EMBER" merge -d "$TMP/a" 2>/dev/null)
check "two windows summed" test "$out" = $'sh;main;a 5\nsh;main;b 1'
out=$("$EMBER" merge -d "$TMP/b" --pid 42 2>/dev/null)
check "--pid keeps that process's stacks" test "$out" = "sh-42;main;a 5"

msg=$("$EMBER" merge -d "$TMP/a" --pid 42 2>&1 >/dev/null)
rc=$?
check "--pid on windows without PIDs exits 1 (got $rc)" test "$rc" -eq 1
check "... and says --with-pid ($msg)" grep -q -- "--with-pid" <<<"$msg"
msg=$("$EMBER" merge -d "$TMP/b" --pid 7 2>&1 >/dev/null)
rc=$?
check "--pid of a process not there exits 1 (got $rc)" test "$rc" -eq 1
check "... and says so ($msg)" test "$msg" = "ember merge: process 7 has no oncpu stacks in that range"

msg=$("$EMBER" merge -d "$TMP/a" --kind bogus 2>&1 >/dev/null)
rc=$?
check "--kind bogus is a usage error (got $rc)" test "$rc" -eq 2
check "... naming every kind ($msg)" \
	test "$msg" = "ember merge: unknown kind 'bogus' (kinds: oncpu offcpu alloc live hotcold heap)"
check "--help lists every kind" bash -c "'$EMBER' merge --help | grep -q 'oncpu, offcpu, alloc, live, hotcold, heap'"

"$EMBER" merge -d "$TMP/a" --since @-9223372036854775807 --svg >"$TMP/far.svg" 2>/dev/null
rc=$?
check "--since before any calendar: no crash, exit 0 (got $rc)" test "$rc" -eq 0
check "... the SVG is titled with the raw time" grep -q -- "@-9223372036854775807 to " "$TMP/far.svg"
check "... and is well-formed XML" xmllint --noout "$TMP/far.svg"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
