#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t170 - `ember view --live` against a real emberd: the control socket answers "folded KIND",
# and a workload started after the viewer shows on its screen within two drains.
. "$(dirname "$0")/lib.sh"
require_bpf

OUT=$T_TMP/out RUN=$T_TMP/run
TM="tmux -L ember-t170-$$ -f /dev/null"
trap '$TM kill-server 2>/dev/null; cleanup_all' EXIT
start_emberd -o "$OUT" -w 4 --run-dir "$RUN"
ask() { # ask REQUEST: emberd's answer on the control socket
	python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode() + b"\n")
sys.stdout.buffer.write(b"".join(iter(lambda: s.recv(65536), b"")))' "$RUN/emberd.sock" "$1"
}
DRAIN=$(ask 'folded oncpu' | head -n 1 | sed -n 's/^# ember folded oncpu drain \([0-9]*\) stacks [0-9]*$/\1/p')
check "the control socket answers 'folded oncpu' with its drain period" test -n "$DRAIN"
check "the daemon refuses an unknown kind" sh -c "$(declare -f ask); RUN='$RUN'; ask 'folded nope' | grep -q \"^error: unknown kind 'nope'\""

$TM new-session -d -s v -x 160 -y 40 "env TERM=tmux-256color LANG=C.UTF-8 '$EMBER' view --live --run-dir '$RUN'"
screen() { $TM capture-pane -p -t v; }
check "the viewer shows the live window" wait_for 20 sh -c "$(declare -f screen); TM='$TM'; screen | grep -q 'live  \\[1/5: oncpu\\]'"
spawn "$WORKLOADS/staircase" 30
WL=$!
t0=$SECONDS
check "a workload started after the viewer shows within two drains" \
	wait_for $((2 * ${DRAIN:-2} + 3)) sh -c "TM='$TM'; $TM capture-pane -p -t v | grep -q 'staircase'"
echo "  shown after $((SECONDS - t0)) s (drain every ${DRAIN:-?} s)"
$TM send-keys -t v Tab
check "Tab switches the kind to offcpu" wait_for 10 sh -c "TM='$TM'; $TM capture-pane -p -t v | grep -q '2/5: offcpu'"
$TM send-keys -t v q
check "the viewer quits on q" wait_for 10 sh -c "! $TM has-session -t v 2>/dev/null"
"$EMBER" view --live --text --run-dir "$RUN" >"$T_TMP/text"
check "--live --text prints the window as a tree" grep -q 'staircase' "$T_TMP/text"
kill "$WL" 2>/dev/null
check "emberd exits 0" stop_emberd TERM
finish
