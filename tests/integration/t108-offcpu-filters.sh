#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t108 - off-CPU filters on the workload of t104 and on the whole host: --offcpu-max drops long
# blocks, --offcpu-state R keeps preemption only, --offcpu-threads keeps user or kernel threads.
. "$(dirname "$0")/lib.sh"
require_bpf

weight() { grep -E -- "$1" "$2" | awk '{ w += $NF } END { printf "%d", w }'; }

# profile OUTDIR EMBERD-OPTIONS...: one run of the workload under emberd -p; its folded lines
# end up in OUTDIR.folded
profile() {
	local out=$1; shift
	spawn "$WORKLOADS/offcpu_threads" 300 2000 >/dev/null
	local wl=$!
	start_emberd -p "$wl" -o "$out" -w 60 "$@" || return 1
	wait "$wl"
	sleep 0.2
	stop_emberd TERM || return 1
	folded_of $(find "$out" -name '*.offcpu.folded.gz') >"$out.folded"
}

# host OUTDIR SECONDS EMBERD-OPTIONS...: the whole host for a few seconds
host() {
	local out=$1 secs=$2; shift 2
	start_emberd -o "$out" -w 60 --collect offcpu "$@" || return 1
	sleep "$secs"
	stop_emberd TERM || return 1
	folded_of $(find "$out" -name '*.offcpu.folded.gz') >"$out.folded"
}

check "--offcpu-max 20000 run" profile "$T_TMP/max" --offcpu-max 20000
a=$(weight '^sleeper_a;.*;sleep_a;' "$T_TMP/max.folded")
b=$(weight '^reader_b;.*;thread_b;(read_b;)?read;' "$T_TMP/max.folded")
check "--offcpu-max 20000 keeps the 10 ms sleeps (got $a us)" within "$a" 3000000 300000
check "--offcpu-max 20000 drops the 30 ms reads (got $b us)" test "$b" -lt 150000

check "--offcpu-state R run" profile "$T_TMP/r" --offcpu-state R --offcpu-min 1
a=$(weight '^sleeper_a;.*;hrtimer_nanosleep_\[k\]' "$T_TMP/r.folded")
b=$(weight '^reader_b;.*pipe_read_\[k\]' "$T_TMP/r.folded")
c=$(weight '^spinner_c;' "$T_TMP/r.folded")
# A sleeper preempted on its way into or out of nanosleep is rightly counted (state R) under
# load; the 3 s of voluntary sleep each thread does must not be.
check "--offcpu-state R has no voluntary sleeps (nanosleep $a us, read $b us)" \
	test "$a" -lt 30000 -a "$b" -lt 30000
check "--offcpu-state R has the spinner's preemptions (got $c us)" test "$c" -gt 0

# Kernel threads have no user stack: their second frame is a kernel one.
check "--offcpu-threads kernel run" host "$T_TMP/k" 3 --offcpu-threads kernel
n=$(grep -c . "$T_TMP/k.folded")
u=$(awk -F';' '$2 !~ /_\[k\]( [0-9]+)?$/' "$T_TMP/k.folded" | grep -c .)
check "--offcpu-threads kernel: $n stacks, $u with user frames" test "$n" -gt 0 -a "$u" -eq 0
check "--offcpu-threads user run" host "$T_TMP/u" 3 --offcpu-threads user
n=$(grep -c . "$T_TMP/u.folded")
k=$(grep -cE '^(kworker|ksoftirqd|rcu_|migration|kthreadd|jbd2|kcompactd)' "$T_TMP/u.folded")
check "--offcpu-threads user: $n stacks, $k of kernel threads" test "$n" -gt 0 -a "$k" -eq 0
finish
