#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-help.sh - -h and --help work on every command and subcommand: usage on stdout, exit 0,
# nothing on stderr; an unknown option is a usage error (exit 2) on stderr.
set -u
: "${EMBER_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${EMBER_BUILD:=$EMBER_SRC/build}"
TMP=$(mktemp -d /tmp/ember-help.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi; }

# The subcommands as `ember --help` lists them, so a new one is checked without editing this.
subs=$("$EMBER_BUILD/ember" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
check "ember --help lists subcommands" test -n "$subs"
for cmd in emberd "ember" $(printf 'ember %s\n' $subs | tr ' ' '@'); do
	argv=(${cmd//@/ })
	argv[0]=$EMBER_BUILD/${argv[0]}
	for flag in -h --help; do
		"${argv[@]}" "$flag" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		check "${cmd//@/ } $flag exits 0 (got $rc)" test "$rc" -eq 0
		check "${cmd//@/ } $flag prints usage on stdout" grep -qi usage "$TMP/out"
		check "${cmd//@/ } $flag writes nothing on stderr" test ! -s "$TMP/err"
	done
	"${argv[@]}" --no-such-option >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "${cmd//@/ } --no-such-option exits 2 (got $rc)" test "$rc" -eq 2
	check "${cmd//@/ } --no-such-option says so on stderr" test -s "$TMP/err"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
