#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t101 - system-wide sampling, SIGUSR1 snapshots, SIGTERM partial window, atomic files.
. "$(dirname "$0")/lib.sh"
require_bpf

# SIGHUP and SIGUSR1 while the collectors load wait for the loop; they never kill emberd.
"$EMBERD" -o "$T_TMP/early" >"$T_TMP/early.log" 2>&1 &
EARLY=$!
T_PIDS+=($EARLY)
blocked() { awk '$1 == "SigBlk:" && $2 != "0000000000000000" { f = 1 } END { exit !f }' /proc/"$EARLY"/status; }
for i in $(seq 1 2000); do blocked 2>/dev/null && break; sleep 0.001; done
sent=0
until grep -q "writing .*windows to" "$T_TMP/early.log" || [ $sent -ge 200 ]; do
	kill -HUP "$EARLY" && kill -USR1 "$EARLY" && sent=$((sent + 1))
	sleep 0.005
done
check "signals were sent while the collectors loaded ($sent)" test $sent -gt 0
wait_for 20 grep -q "writing .*windows to" "$T_TMP/early.log"
check "signals during start-up do not kill emberd" kill -0 "$EARLY"
kill -TERM "$EARLY"
wait "$EARLY"
check "emberd signalled during start-up still exits 0 on SIGTERM" test $? -eq 0

spawn "$WORKLOADS/staircase" 30
OUT=$T_TMP/out
start_emberd -o "$OUT" -w 2
spawn sh -c 'while :; do :; done'   # a second, different process
BUSY=$!

# A reader polling the folder never sees a file that fails gzip -t.
bad=0
reader() {
	local end=$((SECONDS + 8)) f
	while [ $SECONDS -lt $end ]; do
		for f in $(find "$OUT" -name '*.gz' ! -name '.*' 2>/dev/null); do
			gzip -t "$f" 2>/dev/null || { echo "corrupt: $f"; return 1; }
		done
	done
}
reader & RD=$!
for i in $(seq 1 15); do kill -USR1 "$EMBERD_PID"; sleep 0.3; done
wait $RD || bad=1
check "reader never saw a partial or corrupt file" test "$bad" -eq 0

# SIGUSR1: a snapshot with samples within 1 s.
before=$(find "$OUT/snapshots" -name '*.oncpu.folded.gz' | wc -l)
kill -USR1 "$EMBERD_PID"
wait_for 1 sh -c "[ \$(find '$OUT/snapshots' -name '*.oncpu.folded.gz' | wc -l) -gt $before ]"
check "SIGUSR1 writes a snapshot within 1 s" test $? -eq 0
snap=$(ls -t "$OUT"/snapshots/*.oncpu.folded.gz | head -n 1)
check "the snapshot holds samples" test "$(zcat "$snap" | wc -l)" -gt 0

# System-wide: the workload and other processes.
sleep 2
zcat $(find "$OUT" -path "$OUT/20*" -name '*.oncpu.folded.gz') > "$T_TMP/all.folded"
check "system-wide shows the workload" grep -q '^staircase;' "$T_TMP/all.folded"
check "system-wide shows other processes" grep -q '^sh;' "$T_TMP/all.folded"
check "kernel frames are annotated _[k]" grep -q '_\[k\]' "$T_TMP/all.folded"
check "windows have metadata" test -n "$(find "$OUT" -name '*.meta.json' | head -n 1)"

# SIGTERM writes the partial window and exits 0.
n1=$(find "$OUT" -path "$OUT/20*" -name '*.oncpu.folded.gz' | wc -l)
sleep 0.5
check "emberd exits 0 on SIGTERM" stop_emberd TERM
n2=$(find "$OUT" -path "$OUT/20*" -name '*.oncpu.folded.gz' | wc -l)
check "SIGTERM wrote the partial window ($n1 -> $n2)" test "$n2" -gt "$n1"
check "no temporary files left" test -z "$(find "$OUT" -name '.*')"
finish
