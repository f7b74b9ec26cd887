#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t200 - processes that live ~50 ms, 200 per second, are named after they exit: their sampled
# addresses and their own code's callers carry symbols, and their two known stages share their
# spinning half and half.
. "$(dirname "$0")/lib.sh"
require_bpf

start_emberd -o "$T_TMP/out" -w 60 -F 499
"$WORKLOADS/shortlived" 200 8 "$WORKLOADS/shortjob" 50 > "$T_TMP/launcher.out"
cat "$T_TMP/launcher.out"
check "emberd exits 0 on SIGTERM" stop_emberd TERM
started=$(awk '{ print $1 }' "$T_TMP/launcher.out")
check "the launcher kept up: >= 1200 processes in 8 s (got $started)" test "${started:-0}" -ge 1200

files=$(find "$T_TMP/out" -name '*.oncpu.folded.gz')
folded_of $files | grep '^shortjob;' > "$T_TMP/jobs.folded"
grep ';shortjob_run;' "$T_TMP/jobs.folded" > "$T_TMP/run.folded"
# named_frames FILE [leaf]: "total named", the weights of the user frames (every frame after the
# comm that is not a kernel frame; with leaf, only the innermost one of each stack) and of those
# among them that are named.
named_frames() {
	awk -v leaf="${2:-}" '
	function add(x) { t += w; if (x != "[unknown]" && x !~ /\+0x[0-9a-f]+$/) m += w }
	{
		w = $NF; sub(/ [0-9]+$/, ""); n = split($0, f, ";"); u = ""
		for (i = 2; i <= n; i++) {
			if (f[i] ~ /_\[k\]$/) continue
			u = f[i]
			if (!leaf) add(u)
		}
		if (leaf && u != "") add(u)
	} END { print t + 0, m + 0 }' "$1"
}
percent() { awk -v t="$1" -v m="$2" 'BEGIN { printf "%.1f", t ? 100 * m / t : 0 }'; }
read -r frames named <<<"$(named_frames "$T_TMP/jobs.folded")"
read -r leaves lnamed <<<"$(named_frames "$T_TMP/jobs.folded" leaf)"
read -r rframes rnamed <<<"$(named_frames "$T_TMP/run.folded")"
pct=$(percent "$frames" "$named")
lpct=$(percent "$leaves" "$lnamed")
rpct=$(percent "$rframes" "$rnamed")
echo "shortjob user frames: $frames, named: $named ($pct%)"
# The heaviest stacks with an unnamed user frame, to tell why when it fails.
grep -E ';(\[unknown\]|[^;]*\+0x[0-9a-f]+)( |;)' "$T_TMP/jobs.folded" |
	awk '{ print $NF "\t" $0 }' | sort -nr | head -n 5 | cut -f2
check "at least 2000 shortjob frames sampled (got $frames)" test "$frames" -ge 2000
# Naming is judged where addresses are known to be code. The sampled address (the innermost
# frame) always is. Callers are return addresses read through frame pointers, sound in the
# workload's own code; in the dynamic loader, built without them, the walk ends on a guess
# ([unknown]), and start-up's share of a 50 ms process grows with the host's load.
check ">= 97% of the sampled user addresses named (got $lpct% of $leaves)" within "$lpct" 100 3
check ">= 98% of the user frames under shortjob_run named (got $rpct% of $rframes)" \
	within "$rpct" 100 2
# The stages split the spinning time half and half. What share of a 50 ms process start-up
# (exec, the dynamic loader) takes grows with the host's load, so the split is measured among
# the samples in shortjob_run, where only the clock reads come between the stages: >= 40% each,
# the same within 4 standard deviations of the sampling noise (100 / sqrt(n) points).
nrun=$(awk '{ t += $NF } END { print t + 0 }' "$T_TMP/run.folded")
check "at least 500 samples in shortjob_run (got $nrun)" test "$nrun" -ge 500
a=$(share ';shortjob_stage_a( |;)' "$T_TMP/run.folded")
b=$(share ';shortjob_stage_b( |;)' "$T_TMP/run.folded")
tol=$(awk -v n="$nrun" 'BEGIN { printf "%.1f", n ? 400 / sqrt(n) : 0 }')
check "stage_a and stage_b have >= 40% each of shortjob_run, within $tol points (got $a% / $b%)" \
	awk -v a="$a" -v b="$b" -v t="$tol" \
	'BEGIN { d = a - b; exit !(a >= 40 && b >= 40 && d <= t && -d <= t) }'
# Each window's metadata records how many frames were named, weighted like the profile: the
# whole host's, so at least the shortjob user frames counted above.
read -r mf mn <<<"$(cat $(find "$T_TMP/out" -name '*.meta.json') |
	grep -o '"oncpu": {[^}]*}' | grep -o '"frames": [0-9]*, "named": [0-9]*' |
	awk '{ gsub(/[^0-9 ]/, ""); f += $1; n += $2 } END { print f + 0, n + 0 }')"
check "meta.json counts frames and named frames ($mn of $mf, shortjob's $named of $frames)" \
	awk -v f="$mf" -v n="$mn" -v jf="$frames" -v jn="$named" \
	'BEGIN { exit !(n <= f && f >= jf && n >= jn && f - n >= jf - jn) }'
finish
