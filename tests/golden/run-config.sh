#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-config.sh - config/emberd.conf is what the option table prints, and emberd accepts it.
set -u
: "${EMBER_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${EMBER_BUILD:=$EMBER_SRC/build}"
EMBERD=$EMBER_BUILD/emberd
CONF=$EMBER_SRC/config/emberd.conf
TMP=$(mktemp -d /tmp/ember-config.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi; }

# The shipped file is generated: `make regen-config` refreshes it from the table.
"$EMBERD" --print-config -o /var/lib/ember >"$TMP/printed.conf"
check "config/emberd.conf is up to date (make regen-config)" diff -u "$CONF" "$TMP/printed.conf"
check "--check-config accepts the shipped file" "$EMBERD" --check-config "$CONF"
# Every key of the file is documented, with a default, and appears in --help.
"$EMBERD" --help >"$TMP/help"
keys=$(grep -E '^#?[a-z-]+ =' "$CONF" | sed -E 's/^#?([a-z-]+) =.*/\1/')
# (so that the checks of each key below cannot pass on a file that has none)
help_keys=$(sed -nE 's/^ +\[[a-z]+\] ([a-z-]+);.*/\1/p' "$TMP/help")
check "the file has every key --help names ($(wc -w <<<"$help_keys"))" \
	test -n "$help_keys" -a "$(sort <<<"$keys")" = "$(sort <<<"$help_keys")"
for k in $keys; do
	check "--help names key '$k'" grep -q "] $k;" "$TMP/help"
done
check "every option has a default line" test "$(grep -c '; flag -' "$CONF")" -eq "$(wc -w <<<"$keys")"
# An edited copy: one error line with file:line, exit 2, nothing started.
sed 's/^#frequency = 49/frequency = 0/' "$CONF" >"$TMP/bad.conf"
line=$(grep -n '^frequency = 0' "$TMP/bad.conf" | cut -d: -f1)
out=$("$EMBERD" --check-config "$TMP/bad.conf" 2>&1); rc=$?
check "bad file: exit 2" test "$rc" -eq 2
check "bad file: one line naming file:line" test "$out" = "emberd: $TMP/bad.conf:$line: invalid value '0' for 'frequency' (1-10000)"
printf '[oncpu]\nfrequency = 99\n' >"$TMP/f.conf"
check "flags override the file" sh -c "'$EMBERD' -c '$TMP/f.conf' -F 7 --print-config | grep -qx 'frequency = 7'"
check "the file overrides defaults" sh -c "'$EMBERD' -c '$TMP/f.conf' --print-config | grep -qx 'frequency = 99'"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
