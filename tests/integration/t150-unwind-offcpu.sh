#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t150 - off-CPU stacks whole without frame pointers: a gcc -O2 workload (nofp_offcpu) blocks
# in nap_in_nanosleep() (nanosleep), read_in_pipe() (read on a pipe) and lock_in_mutex()
# (pthread_mutex_lock on a held mutex), 100 times each. With the unwind tables each
# function's blocked time, as the workload measured it, is on a stack that runs from the
# thread root (clone3;start_thread) through the function to the C library's wrapper, within
# 10%. The reader's waker (--offcpu-waker) is write_to_pipe(), from its thread root too.
# With --unwind fp the same time is counted but the functions are missing (the bug).
. "$(dirname "$0")/lib.sh"
require_bpf

ROUNDS=100

# offcpu_of DIR: every off-CPU folded line written under DIR
offcpu_of() { find "$1" -name '*.offcpu.folded.gz' -exec zcat {} +; }

# tables_ready DIR: a window of DIR has the warm-up's stack whole, from _start down to the
# C library: the walker has the tables of the workload and of the C library.
tables_ready() {
	offcpu_of "$1" | grep -qE '^nofp_offcpu;_start;.*;main;warm_up;[^;]*nanosleep'
}

# run_workload OUTDIR READY EMBERD-OPTIONS...: profile one run; the workload's threads start
# once READY OUTDIR succeeds; its stdout in OUTDIR.txt
run_workload() {
	local out=$1 ready=$2; shift 2
	spawn "$WORKLOADS/nofp_offcpu" "$ROUNDS" "$out.go" >"$out.txt"
	local wl=$!
	start_emberd -p "$wl" -o "$out" -w 1 --collect offcpu -v "$@" || return 1
	wait_for 30 "$ready" "$out" || { echo "the tables were not ready"; return 1; }
	touch "$out.go"
	wait "$wl"
	sleep 0.2
	stop_emberd TERM
}

# weight PATTERN: sum of the weights of the lines of $T_TMP/off.folded matching PATTERN
weight() { grep -E -- "$1" "$T_TMP/off.folded" | awk '{ w += $NF } END { printf "%d", w }'; }
# measured FUNCTION: the microseconds the workload measured FUNCTION blocked
measured() { awk -v f="$1" '$1 == f { print $3 }' "$2"; }

# The named functions: thread, function, its nominal block in us, the C library function it
# calls and a kernel frame of the block.
CASES=(
	"sleeper nap_in_nanosleep 10000 [^;]*nanosleep[^;]* hrtimer_nanosleep_\[k\]"
	"reader read_in_pipe 20000 [^;]*read[^;]* pipe_read_\[k\]"
	"locker lock_in_mutex 20000 [^;]*pthread_mutex_lock[^;]* futex_wait[a-z_]*_\[k\]"
)

check "emberd exits 0 after profiling with unwind tables" \
	run_workload "$T_TMP/dw" tables_ready --unwind dwarf
offcpu_of "$T_TMP/dw" >"$T_TMP/off.folded"
check "off-CPU user stacks by unwind tables" grep -q "user stacks by unwind tables" \
	"$T_TMP/emberd.log"
for c in "${CASES[@]}"; do
	read -r comm fn nominal libc kernel <<<"$c"
	m=$(measured "$fn" "$T_TMP/dw.txt")
	got=$(weight "^$comm;[^;]*clone[^;]*;start_thread;${comm}_thread;$fn;$libc;.*$kernel")
	echo "$fn: $got us attributed from the thread root, the workload measured $m us"
	check "$fn blocked ${m} us, attributed from the thread root +-10% (got $got us)" \
		within "$got" "$m" "$((m / 10))"
	# (half: the mutex's holder may have held it a while before the locker asks)
	check "$fn blocked at least half of $ROUNDS x $nominal us (measured $m us)" \
		test "$m" -ge "$((ROUNDS * nominal / 2))"
done
threads='^(sleeper|reader|writer|holder|locker);'
all=$(weight "$threads")
rooted=$(weight "${threads}[^;]*clone[^;]*;start_thread;")
echo "blocked time of the threads: $all us, $rooted us of it on stacks from the thread root"
check "the threads' stacks reach the thread root: $rooted of $all us (>= 99%)" \
	test "$((rooted * 100))" -ge "$((all * 99))"
main=$(weight '^nofp_offcpu;_start;[^;]*libc_start[^;]*;.*main;')
check "the main thread's stacks reach _start ($main us)" test "$main" -gt 0
# The log's counts of the sleepers' walks: walked, complete, cut.
read -r walked complete cut <<<"$(awk '/off-CPU: user stacks: / { for (i = 2; i <= NF; i++) {
		if ($i == "walked,") w += $(i - 1)
		if ($i == "complete,") c += $(i - 1)
		if ($i == "cut") k += $(i - 1) } }
	END { print w + 0, c + 0, k + 0 }' "$T_TMP/emberd.log")"
check "walks counted: $complete of $walked complete (>= 99%), $cut cut" \
	test "$walked" -ge "$((3 * ROUNDS))" -a "$((complete * 100))" -ge "$((walked * 99))" -a "$cut" -eq 0

# Wakers' stacks walked with tables too. Wakers are any process on the host, each gets its
# tables: room for a busy host's (a compiler's are 32 MB), so that none of the workload's
# is evicted meanwhile.
check "emberd exits 0 with --offcpu-waker" \
	run_workload "$T_TMP/wk" tables_ready --unwind dwarf --unwind-max-mb 128 --offcpu-waker
offcpu_of "$T_TMP/wk" >"$T_TMP/off.folded"
# The waker's frames follow "--", leaf first: the kernel's, then the user's up to its root.
# (A wakeup the kernel hands to an idle CPU is seen there, with no user frames: not counted.)
m=$(measured read_in_pipe "$T_TMP/wk.txt")
writes=$(weight "^reader;.*;read_in_pipe;.*;--;.*pipe_write_\[k\];")
woken=$(weight "^reader;.*;read_in_pipe;.*;--;.*pipe_write_\[k\];.*;[^;]*write[^;]*;write_to_pipe;writer_thread;start_thread;[^;]*clone[^;]*;writer ")
echo "read_in_pipe: $writes us woken by a pipe write, $woken us of it by write_to_pipe from its root"
check "read_in_pipe woken by pipe writes most of its $m us (got $writes us)" \
	test "$((writes * 2))" -ge "$m"
check "the pipe writes are write_to_pipe's, from the writer's thread root: $woken of $writes us" \
	test "$((woken * 100))" -ge "$((writes * 99))"

# Frame pointers: the same time, but the walk skips the function that blocked.
ready_now() { :; }
check "emberd exits 0 with --unwind fp" run_workload "$T_TMP/fp" ready_now --unwind fp --offcpu-waker
offcpu_of "$T_TMP/fp" >"$T_TMP/off.folded"
check "off-CPU user stacks by frame pointers" grep -q "user stacks by frame pointers" \
	"$T_TMP/emberd.log"
for c in "${CASES[@]}"; do
	read -r comm fn nominal libc kernel <<<"$c"
	m=$(measured "$fn" "$T_TMP/fp.txt")
	got=$(weight "^$comm;.*$kernel")
	named=$(weight "^$comm;.*;$fn;")
	echo "--unwind fp: $comm blocked $got us, $named us of it under $fn"
	check "--unwind fp: $comm's blocked time is counted ($got us, measured $m us +-10%)" \
		within "$got" "$m" "$((m / 10))"
	check "--unwind fp: $fn is missing from its stacks ($named us under it)" \
		test "$((named * 10))" -lt "$m"
done
woken=$(weight "^reader;.*;--;.*;write_to_pipe;")
check "--unwind fp: write_to_pipe is missing from the waker's stacks ($woken us under it)" \
	test "$((woken * 10))" -lt "$(measured read_in_pipe "$T_TMP/fp.txt")"
finish
