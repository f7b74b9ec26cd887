#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t131 - the shipped unit under a real systemd. PID 1 here need not be systemd, and the host's
# manager must not be touched: a private systemd manager (`systemd --user`, run as root so the
# sandboxing directives apply) in a mount namespace of its own runs systemd/emberd.service.in
# as installed. Checks READY and STATUS, the sandbox as the kernel sees it, reload, the
# watchdog on a stopped daemon, Restart=on-failure, and the archive modes.
#
# A user manager places StateDirectory and RuntimeDirectory under $XDG_CONFIG_HOME and
# $XDG_RUNTIME_DIR, so the test's config points there instead of /var/lib/ember and
# /run/ember; a drop-in shortens WatchdogSec, RestartSec and the window for the test, and
# sends the log to a file (no journal in the namespace). The unit itself is used unchanged.
. "$(dirname "$0")/lib.sh"
require_bpf

if [ "${T131_INSIDE:-}" != 1 ]; then
	command -v unshare >/dev/null && [ -x /lib/systemd/systemd ] || {
		fail "needs unshare and systemd"
		finish
	}
	# Everything the service reads, its notify socket included, lives outside /tmp (PrivateTmp
	# hides it) and outside /run (where the sandbox showed the service none of the test's files).
	ROOT=$(mktemp -d /var/lib/ember-t131.XXXXXX)
	T131_INSIDE=1 T131_ROOT=$ROOT unshare --mount --propagation private bash "$0"
	rc=$?
	rm -rf "$ROOT"
	exit $rc
fi

ROOT=$T131_ROOT
mount -t tmpfs none /run/systemd && mkdir -p /run/systemd/system # "booted with systemd"
export HOME=$ROOT/home XDG_RUNTIME_DIR=$ROOT/xdg XDG_CONFIG_HOME=$ROOT/home/.config
mkdir -p "$HOME" "$XDG_CONFIG_HOME/systemd/user/emberd.service.d" "$ROOT/etc/ember"
chmod 0700 "$XDG_RUNTIME_DIR" 2>/dev/null || mkdir -m 0700 "$XDG_RUNTIME_DIR"
STATE=$XDG_CONFIG_HOME/ember # a user manager's StateDirectory (systemd 252)
LOG=$ROOT/emberd.log

# The binary too: a checkout under /tmp is hidden from the service by PrivateTmp.
install -m 0755 "$EMBER_BUILD/emberd" "$ROOT/emberd"
sed -e "s|@SBINDIR@|$ROOT|g" -e "s|@SYSCONFDIR@|$ROOT/etc|g" \
	"$EMBER_SRC/systemd/emberd.service.in" >"$XDG_CONFIG_HOME/systemd/user/emberd.service"
cat >"$XDG_CONFIG_HOME/systemd/user/emberd.service.d/test.conf" <<EOF
[Service]
WatchdogSec=3s
RestartSec=1s
StandardOutput=append:$LOG
StandardError=inherit
EOF
cat >"$ROOT/etc/ember/emberd.conf" <<EOF
[daemon]
collectors = oncpu
window = 5
run-dir = $XDG_RUNTIME_DIR/ember
[output]
directory = $STATE
EOF

/lib/systemd/systemd --user >"$ROOT/manager.log" 2>&1 &
T_PIDS+=($!)
check "the private manager comes up" wait_for 20 test -S "$XDG_RUNTIME_DIR/bus"
sctl() { systemctl --user "$@"; }
prop() { sctl show -P "$1" emberd; }

check "systemd-analyze verify accepts the unit" \
	systemd-analyze --user verify --man=no "$XDG_CONFIG_HOME/systemd/user/emberd.service"
check "start returns once emberd is READY (Type=notify)" timeout 60 systemctl --user start emberd
check "the service is active" test "$(sctl is-active emberd)" = active
pid=$(prop MainPID)
# (pid 0 would make the kills below signal this test's own process group)
check "the service has a main PID (got $pid)" test "${pid:-0}" -gt 0
check "STATUS= names the collectors and the directory ($(prop StatusText))" \
	grep -q "oncpu.*$STATE" <<<"$(prop StatusText)"

# The sandbox as the kernel applied it to the running daemon.
st=/proc/$pid/status
check "capability bounding set is the unit's five (CapBnd $(awk '/CapBnd/ { print $2 }' "$st"))" \
	test "$(capsh --decode="$(awk '/CapBnd/ { print $2 }' "$st")" | sed 's/.*=//')" = \
	"cap_dac_read_search,cap_sys_ptrace,cap_syslog,cap_perfmon,cap_bpf"
check "NoNewPrivs is set" grep -qE '^NoNewPrivs:\s+1' "$st"
check "a seccomp filter is on" grep -qE '^Seccomp:\s+2' "$st"
# own_ns KIND: the daemon's KIND namespace is one of its own, not this test's
own_ns() {
	local ns
	ns=$(readlink "/proc/$pid/ns/$1") && [ "$ns" != "$(readlink "/proc/self/ns/$1")" ]
}
check "the daemon has its own mount namespace" own_ns mnt
check "the daemon has its own network namespace (PrivateNetwork)" own_ns net
check "/ is read-only to the daemon (ProtectSystem=strict)" \
	awk '$5 == "/" && $6 ~ /^ro/ { found = 1 } END { exit !found }' "/proc/$pid/mountinfo"

check "a window is archived" wait_for 20 sh -c "find '$STATE' -name '*.oncpu.folded.gz' | grep -q ."
f=$(find "$STATE" -name '*.oncpu.folded.gz' | head -n 1)
check "archives are 0640 (got $(stat -c %a "$f"))" test "$(stat -c %a "$f")" = 640
check "archive directories are 0750 (got $(stat -c %a "$(dirname "$f")"))" test "$(stat -c %a "$(dirname "$f")")" = 750
check "the state directory is 0750 (got $(stat -c %a "$STATE"))" test "$(stat -c %a "$STATE")" = 750

check "systemctl reload returns" timeout 30 systemctl --user reload emberd
check "the reload is logged" wait_for 10 grep -q "configuration reloaded" "$LOG"
check "same main PID after the reload" test "$(prop MainPID)" = "$pid"

# A stopped daemon cannot exit by itself: only the watchdog (3 s) can kill and restart it.
[ "${pid:-0}" -gt 0 ] && kill -STOP "$pid"
check "the watchdog restarts a stopped daemon" wait_for 30 sh -c \
	"p=\$(systemctl --user show -P MainPID emberd); [ \"\$p\" != 0 ] && [ \"\$p\" != $pid ]"
check "active again after the watchdog restart" wait_for 30 sh -c '[ "$(systemctl --user is-active emberd)" = active ]'

# A crash: Restart=on-failure brings it back.
pid=$(prop MainPID)
[ "${pid:-0}" -gt 0 ] && kill -SEGV "$pid"
check "Restart=on-failure restarts a crashed daemon" wait_for 30 sh -c \
	"p=\$(systemctl --user show -P MainPID emberd); [ \"\$p\" != 0 ] && [ \"\$p\" != $pid ]"
check "active again after the crash" wait_for 30 sh -c '[ "$(systemctl --user is-active emberd)" = active ]'
check "NRestarts counts both restarts (got $(prop NRestarts))" test "$(prop NRestarts)" -ge 2

check "stop: emberd exits cleanly" timeout 60 systemctl --user stop emberd
check "inactive (not failed) after stop" test "$(sctl is-active emberd)" = inactive
sctl exit >/dev/null 2>&1
finish
