#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-install.sh - make install/uninstall into a DESTDIR; the unit passes systemd-analyze verify
# and its exposure score is reported; man pages format without warnings.
set -u
: "${EMBER_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${EMBER_BUILD:=$EMBER_SRC/build}"
TMP=$(mktemp -d /tmp/ember-install.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi; }
D=$TMP/root
make -s -C "$EMBER_SRC" OUTPUT="$EMBER_BUILD" DESTDIR="$D" PREFIX=/usr install >"$TMP/log" 2>&1
check "make install into a DESTDIR" test $? -eq 0
for f in usr/sbin/emberd usr/bin/ember etc/ember/emberd.conf lib/systemd/system/emberd.service \
	usr/share/man/man1/ember.1 usr/share/man/man5/emberd.conf.5 usr/share/man/man8/emberd.8 \
	usr/share/doc/ember/metrics-tcp.conf usr/share/doc/ember/debuginfod.conf; do
	check "installed $f" test -f "$D/$f"
done
check "config is 0640" test "$(stat -c %a "$D/etc/ember/emberd.conf")" = 640
check "state dir is 0750" test "$(stat -c %a "$D/var/lib/ember")" = 750
check "the installed config writes to /var/lib/ember" grep -qx "directory = /var/lib/ember" "$D/etc/ember/emberd.conf"
check "the installed config leaves metrics off" grep -qx "#metrics =" "$D/etc/ember/emberd.conf"
check "the installed config is valid" "$D/usr/sbin/emberd" --check-config "$D/etc/ember/emberd.conf"
check "the unit runs the installed binary" grep -qx "ExecStart=/usr/sbin/emberd -c /etc/ember/emberd.conf" \
	"$D/lib/systemd/system/emberd.service"
# verify needs the ExecStart binary at its real path: check a copy pointing into DESTDIR.
sed "s|/usr/sbin/emberd|$D/usr/sbin/emberd|" "$D/lib/systemd/system/emberd.service" >"$TMP/emberd.service"
# unit_checks FILE WHAT MAX: systemd-analyze verify is clean and the exposure score is at most MAX.
unit_checks() {
	local out score
	out=$(systemd-analyze verify --man=no "$1" 2>&1)
	check "systemd-analyze verify$2: clean ($out)" test -z "$out"
	score=$(systemd-analyze security --offline=yes "$1" 2>/dev/null |
		sed -n 's/.*Overall exposure level for emberd.service: \([0-9.]*\).*/\1/p')
	echo "exposure score$2 (systemd-analyze security --offline=yes): ${score:-none}"
	check "exposure score$2 at most $3 (got ${score:-none})" awk -v s="${score:-99}" -v m="$3" 'BEGIN { exit !(s <= m) }'
}
unit_checks "$TMP/emberd.service" "" 2.5
# With the loopback-TCP drop-in (systemd merges a drop-in's [Service] into the unit's).
mkdir "$TMP/tcp"
cat "$TMP/emberd.service" "$D/usr/share/doc/ember/metrics-tcp.conf" >"$TMP/tcp/emberd.service"
unit_checks "$TMP/tcp/emberd.service" " with the metrics-tcp drop-in" 3.5
for m in "$D"/usr/share/man/man*/*; do
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$m" 2>&1 >/dev/null)
	check "man -l $(basename "$m"): no warnings ($w)" test -z "$w"
done
make -s -C "$EMBER_SRC" OUTPUT="$EMBER_BUILD" DESTDIR="$D" PREFIX=/usr uninstall >"$TMP/log" 2>&1
check "make uninstall" test $? -eq 0
check "uninstall removes programs, unit and man pages" test -z "$(find "$D" -type f ! -path '*/etc/ember/*')"
check "uninstall keeps the configuration" test -f "$D/etc/ember/emberd.conf"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
