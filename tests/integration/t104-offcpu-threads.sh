#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t104 - off-CPU and hot/cold profiles of a workload of known profile: sleeper_a sleeps 10 ms x 300,
# reader_b blocks in read() on a pipe written every 30 ms x 100, spinner_c spins. Blocked time per
# thread within 10%, with the right stacks and wakers; --offcpu-min 20000 hides sleeper_a;
# hot/cold has spinner_c warm and the sleepers blue ("_[o]") in the right proportions.
. "$(dirname "$0")/lib.sh"
require_bpf

# run_workload OUTDIR EMBERD-OPTIONS...: profile one run of the workload, its stdout in OUTDIR.txt
run_workload() {
	local out=$1; shift
	spawn "$WORKLOADS/offcpu_threads" 300 2000 >"$out.txt"
	local wl=$!
	start_emberd -p "$wl" -o "$out" -w 60 -F 99 "$@" || return 1
	wait "$wl"
	sleep 0.2
	stop_emberd TERM
}

# weight PATTERN FILE: sum of the weights of lines matching PATTERN (grep -E, linear time)
weight() { grep -E -- "$1" "$2" | awk '{ w += $NF } END { printf "%d", w }'; }

check "emberd exits 0 after profiling with wakers" run_workload "$T_TMP/w" --offcpu-waker
folded_of $(find "$T_TMP/w" -name '*.offcpu.folded.gz') >"$T_TMP/off.folded"
folded_of $(find "$T_TMP/w" -name '*.hotcold.folded.gz') >"$T_TMP/hc.folded"
check "an off-CPU and a hot/cold profile were written" test -s "$T_TMP/off.folded" -a -s "$T_TMP/hc.folded"

a=$(weight '^sleeper_a;.*;thread_a;sleep_a;.*clock_nanosleep.*;hrtimer_nanosleep_\[k\](;|$| )' "$T_TMP/off.folded")
# (read_b, which calls read(), is on the stack when it is walked with unwind tables; frame
# pointers skip it, as read() keeps none: t150)
b=$(weight '^reader_b;.*;thread_b;(read_b;)?read;.*;vfs_read_\[k\];[a-z_]*pipe_read_\[k\](;|$| )' "$T_TMP/off.folded")
c=$(weight '^spinner_c;' "$T_TMP/off.folded")
echo "blocked us: sleeper_a $a, reader_b $b, spinner_c $c"
check "sleeper_a blocked 3 s +-10% in nanosleep (got $a us)" within "$a" 3000000 300000
check "reader_b blocked 3 s +-10% in read on the pipe (got $b us)" within "$b" 3000000 300000
check "spinner_c barely blocked (got $c us)" test "$c" -lt 100000
others=$(cut -d';' -f1 "$T_TMP/off.folded" | sort -u | grep -cvE '^(offcpu_threads|sleeper_a|reader_b|writer_b|spinner_c)$')
check "only the chosen process's threads (-p): $others others" test "$others" -eq 0
wb=$(weight '^reader_b;.*;--;.*_pipe_write_\[k\];.*;writer_b ' "$T_TMP/off.folded")
check "reader_b is woken by writer_b's pipe write, after a -- frame (got $wb us)" \
	within "$wb" 3000000 300000
check "off-CPU frames carry no hot/cold mark" test "$(grep -c '_\[o\]' "$T_TMP/off.folded")" -eq 0
grep -q '"offcpu": { "samples": [1-9][0-9]*, "lost": [0-9]' "$T_TMP"/w/*/*.meta.json
check "the window metadata counts off-CPU blocks and drops" test $? -eq 0

# Hot/cold: off-CPU weights unchanged with every frame marked, on-CPU samples as microseconds.
ha=$(weight '^sleeper_a_\[o\];.*;thread_a_\[o\];sleep_a_\[o\];' "$T_TMP/hc.folded")
check "hot/cold: sleeper_a blue with its off-CPU time (got $ha us)" test "$ha" -eq "$a"
unmarked=$(awk '/_\[o\]/ { sub(/ [0-9]+$/, ""); n = split($0, f, ";"); for (i = 1; i <= n; i++) if (f[i] !~ /_\[o\]$/) bad++ } END { print bad + 0 }' "$T_TMP/hc.folded")
check "hot/cold: every frame of an off-CPU stack is marked (unmarked: $unmarked)" test "$unmarked" -eq 0
hc=$(weight '^spinner_c;.*;thread_c;spin_c' "$T_TMP/hc.folded")
cpu=$(awk '/spinner_c cpu_us/ { print $3 }' "$T_TMP/w.txt")
check "hot/cold: spinner_c warm, on-CPU $hc us vs its CPU time $cpu us +-15%" \
	within "$hc" "$cpu" "$((cpu * 15 / 100))"
check "hot/cold: spinner_c has no cold frames" test "$(grep -c '^spinner_c_\[o\]' "$T_TMP/hc.folded")" -eq 0

# The hot/cold SVG: sleeper_a's frames blue with the mark stripped, spinner_c's warm.
svg=$(find "$T_TMP/w" -name '*.hotcold.svg' | head -n 1)
check "a hot/cold SVG and an off-CPU SVG (in us) were written" \
	test -s "$svg" -a -n "$(find "$T_TMP/w" -name '*.offcpu.svg' -exec grep -l ' us, ' {} +)"
# fill_of FRAME: the fill "r g b" of the widest rectangle of FRAME
fill_of() {
	grep -o "<title>$1 ([0-9,]* us[^<]*</title><rect [^>]*fill=\"rgb([0-9,]*)\"" "$svg" |
		sed -E 's/.*\(([0-9,]*) us.*rgb\(([0-9]+),([0-9]+),([0-9]+)\).*/\1 \2 \3 \4/' | tr -d , |
		sort -n | tail -n 1 | cut -d' ' -f2-
}
read -r r g b <<<"$(fill_of sleep_a)"
check "hot/cold SVG: sleep_a is blue (rgb $r,$g,$b)" test "${b:-0}" -gt $((${r:-0} + 50))
read -r r g b <<<"$(fill_of spin_c)"
check "hot/cold SVG: spin_c is warm (rgb $r,$g,$b)" test "${r:-0}" -gt $((${b:-0} + 50))
check "hot/cold SVG: the _[o] mark is not shown" test "$(grep -c '_\[o\]' "$svg")" -eq 0

# A minimum of 20 ms hides the 10 ms sleeps but keeps the 30 ms reads.
check "emberd exits 0 with --offcpu-min 20000" run_workload "$T_TMP/m" --offcpu-min 20000
folded_of $(find "$T_TMP/m" -name '*.offcpu.folded.gz') >"$T_TMP/min.folded"
a=$(weight '^sleeper_a;' "$T_TMP/min.folded")
b=$(weight '^reader_b;' "$T_TMP/min.folded")
# (a sleep that a busy CPU delays past 20 ms may remain: allow 5% of sleeper_a's 3 s)
check "--offcpu-min 20000 hides sleeper_a (got $a us)" test "$a" -lt 150000
check "--offcpu-min 20000 keeps reader_b (got $b us)" within "$b" 3000000 300000
check "no waker frames without --offcpu-waker" test "$(grep -c ';--;' "$T_TMP/min.folded")" -eq 0

# Bad input: one clear error line, exit 2, nothing written.
bad() { # bad PATTERN OPTIONS...
	local pat=$1; shift
	"$EMBERD" -o "$T_TMP/bad" "$@" >"$T_TMP/bad.log" 2>&1
	[ $? -eq 2 ] && [ "$(wc -l <"$T_TMP/bad.log")" -eq 1 ] && grep -q "$pat" "$T_TMP/bad.log" &&
		[ ! -e "$T_TMP/bad" ] || { cat "$T_TMP/bad.log"; return 1; }
}
check "--offcpu-min 0 is refused" bad "invalid value '0' for --offcpu-min (1-" --offcpu-min 0
check "--offcpu-min above an hour is refused" bad "for --offcpu-min" --offcpu-min 3600000001
check "--offcpu-max below --offcpu-min is refused" bad "is below --offcpu-min" --offcpu-max 500
check "an unknown state letter is refused" bad "unknown task state 'X'" --offcpu-state S,X
check "a state mask with bits the kernel does not know is refused" bad "unknown task state '0x100'" \
	--offcpu-state 0x100
check "--offcpu-threads takes user, kernel or all" bad "invalid value 'some'" --offcpu-threads some
finish
