#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t106 - a tiny tmpfs fills up and frees again: collection goes on, one log line, whole
# windows dropped and counted, writing resumes, never a truncated file.
. "$(dirname "$0")/lib.sh"
require_bpf

OUT=$T_TMP/tiny RUN=$T_TMP/run
mkdir -p "$OUT"
mount -t tmpfs -o size=2m,mode=0750 ember-t106 "$OUT" || { fail "cannot mount a tmpfs"; finish; }
cleanup_mount() { umount -l "$OUT" 2>/dev/null; cleanup_all; }
trap cleanup_mount EXIT

spawn "$WORKLOADS/staircase" 60
start_emberd -o "$OUT" -w 1 --run-dir "$RUN"
wait_for 5 sh -c "ls '$OUT'/20*/*.meta.json >/dev/null 2>&1"
check "windows are written before the disk fills" test $? -eq 0

# Fill the disk: a window no longer fits.
dd if=/dev/urandom of="$OUT/filler" bs=64k 2>/dev/null
wait_for 10 grep -q "No space left on device" "$T_TMP/emberd.log"
check "a full disk is reported" test $? -eq 0
sleep 4
check "... in one line, not one per window" test "$(grep -c 'cannot write' "$T_TMP/emberd.log")" -eq 1
check "the daemon goes on" kill -0 "$EMBERD_PID"
status=$("$EMBER" status --run-dir "$RUN")
check "status counts the dropped windows" grep -Eq '^windows: [0-9]+ written, [1-9][0-9]* dropped' <<<"$status"
check "status says writing fails" grep -q '^writing: failing' <<<"$status"
check "no temporary file left behind" test -z "$(find "$OUT" -name '.*' ! -name . )"
bad=0
for f in $(find "$OUT" -name '*.gz'); do gzip -t "$f" 2>/dev/null || { echo "truncated: $f"; bad=1; }; done
check "no truncated file" test "$bad" -eq 0
# A window is whole or absent: every window with a folded file has its metadata.
incomplete=0
for f in $(find "$OUT" -name '*.oncpu.folded.gz'); do
	[ -f "${f%.oncpu.folded.gz}.meta.json" ] || { echo "no metadata: $f"; incomplete=1; }
done
check "every window on disk is whole" test "$incomplete" -eq 0

# Free the space: writing resumes.
before=$(find "$OUT" -name '*.meta.json' | wc -l)
rm -f "$OUT/filler"
wait_for 10 grep -q "works again" "$T_TMP/emberd.log"
check "writing resumes and says so" test $? -eq 0
grep -E 'works again' "$T_TMP/emberd.log" | sed 's/^/  log: /'
wait_for 5 sh -c "[ \$(find '$OUT' -name '*.meta.json' | wc -l) -gt $before ]"
check "new windows appear" test $? -eq 0
check "emberd exits 0" stop_emberd TERM
finish
