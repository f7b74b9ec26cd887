#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t200 - processes that live ~50 ms, 200 per second, are named after they exit: >= 95% of
# their user frames carry a symbol, and their two known stages share the time half and half.
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
# User frames: every frame after the comm that is not a kernel frame.
read -r frames named <<<"$(awk '{
	w = $NF; sub(/ [0-9]+$/, ""); n = split($0, f, ";")
	for (i = 2; i <= n; i++) {
		if (f[i] ~ /_\[k\]$/) continue
		t += w
		if (f[i] != "[unknown]" && f[i] !~ /\+0x[0-9a-f]+$/) m += w
	}
} END { print t + 0, m + 0 }' "$T_TMP/jobs.folded")"
pct=$(awk -v t="$frames" -v m="$named" 'BEGIN { printf "%.1f", t ? 100 * m / t : 0 }')
echo "shortjob user frames: $frames, named: $named ($pct%)"
# The heaviest stacks with an unnamed user frame, to tell why when it fails.
grep -E ';(\[unknown\]|[^;]*\+0x[0-9a-f]+)( |;)' "$T_TMP/jobs.folded" |
	awk '{ print $NF "\t" $0 }' | sort -nr | head -n 5 | cut -f2
check "at least 2000 shortjob frames sampled (got $frames)" test "$frames" -ge 2000
check ">= 95% of shortjob user frames named (got $pct%)" within "$pct" 100 5
a=$(share ';shortjob_stage_a;' "$T_TMP/jobs.folded")
b=$(share ';shortjob_stage_b;' "$T_TMP/jobs.folded")
# Start-up (the dynamic loader), the clock reads and exit take the rest; the stages share the
# spinning time equally.
check "stage_a and stage_b have >= 30% each, within 10 points (got $a% / $b%)" \
	awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; exit !(a >= 30 && b >= 30 && d < 10 && d > -10) }'
# Each window's metadata records how many frames were named, weighted like the profile: the
# whole host's, so at least the shortjob user frames counted above.
read -r mf mn <<<"$(cat $(find "$T_TMP/out" -name '*.meta.json') |
	grep -o '"oncpu": {[^}]*}' | grep -o '"frames": [0-9]*, "named": [0-9]*' |
	awk '{ gsub(/[^0-9 ]/, ""); f += $1; n += $2 } END { print f + 0, n + 0 }')"
check "meta.json counts frames and named frames ($mn of $mf, shortjob's $named of $frames)" \
	awk -v f="$mf" -v n="$mn" -v jf="$frames" -v jn="$named" \
	'BEGIN { exit !(n <= f && f >= jf && n >= jn && f - n >= jf - jn) }'
finish
