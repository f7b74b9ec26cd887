# SPDX-License-Identifier: BSD-2-Clause
# lib.sh - helpers for integration tests that run the real daemon.
# Sourced by tests/integration/tNNN-*.sh; EMBER_BUILD and EMBER_SRC come from tests/run.sh.

: "${EMBER_SRC:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${EMBER_BUILD:=$EMBER_SRC/build}"
EMBERD=$EMBER_BUILD/emberd
EMBER=$EMBER_BUILD/ember
WORKLOADS=$EMBER_BUILD/workloads
T_PASSED=0
T_FAILED=0
T_PIDS=()

# skip WHY: exit 77 (skipped) where this machine cannot run the test; under CI=true, which must
# run every test, exit 1 (failed).
skip() {
	if [ "${CI:-}" = "true" ]; then
		echo "FAIL: $1 (CI must run every test)"
		exit 1
	fi
	echo "skip: $1"
	exit 77
}

# Skip where BPF cannot run.
require_bpf() {
	local why=
	[ "$(id -u)" -eq 0 ] || why="needs root"
	[ -r /sys/kernel/btf/vmlinux ] || why="needs kernel BTF"
	[ -z "$why" ] || skip "$why"
}

T_TMP=$(mktemp -d /tmp/ember-test.XXXXXX)
cleanup_all() {
	for p in "${T_PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T_TMP"
}
trap cleanup_all EXIT

ok() { T_PASSED=$((T_PASSED + 1)); echo "ok: $*"; }
fail() { T_FAILED=$((T_FAILED + 1)); echo "FAIL: $*"; }
check() { # check DESCRIPTION COMMAND...
	local what=$1; shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}
finish() {
	echo "$T_PASSED passed, $T_FAILED failed"
	[ "$T_FAILED" -eq 0 ]
	exit $?
}

# Start a background process and remember it for cleanup; its pid is in $!.
spawn() {
	"$@" &
	T_PIDS+=($!)
}

# wait_for SECONDS COMMAND...: poll until COMMAND succeeds.
wait_for() {
	local deadline=$((SECONDS + $1)); shift
	until "$@"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.1
	done
}

# Start emberd with the given options; $EMBERD_PID, its log in $T_TMP/emberd.log.
start_emberd() {
	# A fresh file: an emberd still running from before keeps writing into the old one, unseen.
	rm -f "$T_TMP/emberd.log"
	"$EMBERD" "$@" >"$T_TMP/emberd.log" 2>&1 &
	EMBERD_PID=$!
	T_PIDS+=($EMBERD_PID)
	wait_for 20 grep -q "writing .*windows to" "$T_TMP/emberd.log" || {
		echo "emberd did not start:"; cat "$T_TMP/emberd.log"; return 1; }
}

# stop_emberd [SIGNAL]: returns emberd's exit code.
stop_emberd() {
	kill -"${1:-TERM}" "$EMBERD_PID"
	wait "$EMBERD_PID"
}

# All folded lines of the gzip files given, concatenated.
folded_of() { zcat "$@"; }

# share PATTERN FILE: weight of lines matching PATTERN (awk regex) / total weight, in percent.
share() {
	awk -v pat="$1" '{ w = $NF; t += w; if ($0 ~ pat) m += w } END { printf "%.1f", t ? 100 * m / t : 0 }' "$2"
}

# check_path_shares FOLDED PERCENT: memleak's four paths (big, mid, small, leak) allocate
# 8:4:2:1 of the bytes, each within PERCENT % of its own share.
check_path_shares() {
	local p n e s
	for p in big:53.33 mid:26.67 small:13.33 leak:6.67; do
		n=${p%%:*} e=${p##*:}
		s=$(share ";path_$n( |$)" "$1")
		check "path_$n allocates $e% of bytes +-$2% of that (got $s)" \
			within "$s" "$e" "$(awk -v e="$e" -v t="$2" 'BEGIN { print e * t / 100 }')"
	done
}

# within VALUE EXPECTED TOLERANCE
within() {
	awk -v v="$1" -v e="$2" -v t="$3" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= t) }'
}
