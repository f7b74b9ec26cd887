#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-libs.sh - the root daemon maps only the libraries it needs: libdebuginfod (and with it
# curl, TLS, Kerberos, LDAP) is loaded with dlopen() only under --debuginfod.
set -u
: "${EMBER_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${EMBER_BUILD:=$EMBER_SRC/build}"
passed=0 failed=0
check() { if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi; }

for bin in emberd ember; do
	libs=$(ldd "$EMBER_BUILD/$bin")
	n=$(grep -c '=>' <<<"$libs")
	echo "$bin: $n shared libraries"
	for lib in libdebuginfod libcurl libgnutls libssl libkrb5 libldap; do
		check "$bin does not link $lib" bash -c "! grep -q '$lib' <<<'$libs'"
	done
	check "$bin links at most 12 shared libraries (got $n)" test "$n" -le 12
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
