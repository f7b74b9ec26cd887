#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t109 - small steps of the wall clock (a VM's clock sync sets it by a fraction of a millisecond,
# ten times a second) keep the windows where they were and say nothing above debug level.
. "$(dirname "$0")/lib.sh"
require_bpf

step() { # step SECONDS: set CLOCK_REALTIME forward (or back) by SECONDS
	python3 -c "import sys, time; time.clock_settime(time.CLOCK_REALTIME, time.clock_gettime(time.CLOCK_REALTIME) + float(sys.argv[1]))" "$1"
}

spawn "$WORKLOADS/burn" 30
WL=$!
start_emberd -p "$WL" -o "$T_TMP/out" -w 10 -F 99
for i in $(seq 1 30); do
	step 0.0005
	sleep 0.1
done
check "emberd runs on through 30 small clock steps" kill -0 "$EMBERD_PID"
check "no warning for small steps" test "$(grep -c 'warning: the wall clock' "$T_TMP/emberd.log")" -eq 0
wait_for 15 sh -c "find '$T_TMP/out' -name '*.oncpu.folded.gz' | grep -q ."
check "windows are written" sh -c "find '$T_TMP/out' -name '*.oncpu.folded.gz' | grep -q ."
check "emberd exits 0 on SIGTERM" stop_emberd TERM
finish
