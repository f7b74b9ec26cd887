#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t109 - small steps of the wall clock (a VM's clock sync sets it by a fraction of a millisecond,
# ten times a second) keep the windows where they were and say nothing above debug level; only a
# step out of the window realigns it, with one warning.
. "$(dirname "$0")/lib.sh"
require_bpf

step() { # step SECONDS: set CLOCK_REALTIME forward (or back) by SECONDS
	python3 -c "import sys, time; time.clock_settime(time.CLOCK_REALTIME, time.clock_gettime(time.CLOCK_REALTIME) + float(sys.argv[1]))" "$1"
}

spawn "$WORKLOADS/burn" 60
WL=$!
start_emberd -p "$WL" -o "$T_TMP/out" -w 10 -F 99 -v
for i in $(seq 1 30); do
	step 0.0005
	sleep 0.1
done
check "emberd runs on through 30 small clock steps" kill -0 "$EMBERD_PID"
check "no warning for small steps" test "$(grep -c 'wall clock' "$T_TMP/emberd.log")" -eq 0
wait_for 15 sh -c "find '$T_TMP/out' -name '*.oncpu.folded.gz' | grep -q ."
check "windows are written" sh -c "find '$T_TMP/out' -name '*.oncpu.folded.gz' | grep -q ."
# Two minutes forward, then back (once the daemon saw the first: together they would cancel
# out): the window is out of reach each time, so it is realigned, with one warning a step.
warned() { test "$(grep -c 'wall clock was set' "$T_TMP/emberd.log")" -ge "$1"; }
step 120
check "two minutes forward: realigned, one warning" wait_for 10 warned 1
step -120
check "and back: realigned again, one more warning" wait_for 10 warned 2
check "no third warning" sh -c "sleep 1; test \$(grep -c 'wall clock was set' '$T_TMP/emberd.log') -eq 2"
# Windows go on after the steps: the drains did not stall waiting for a time the clock left.
n0=$(find "$T_TMP/out" -name '*.oncpu.folded.gz' | wc -l)
check "a window is written after the steps" wait_for 25 sh -c "test \$(find '$T_TMP/out' -name '*.oncpu.folded.gz' | wc -l) -gt $n0"
check "emberd exits 0 on SIGTERM" stop_emberd TERM
[ "$T_FAILED" -eq 0 ] || tail -n 30 "$T_TMP/emberd.log"
finish
