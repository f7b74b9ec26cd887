#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t107 - retention by age and size on a live archive; kill -9 during writes leaves no
# partial file, and the temporaries of interrupted writes are removed at the next start.
. "$(dirname "$0")/lib.sh"
require_bpf

OUT=$T_TMP/out RUN=$T_TMP/run
old_day=$OUT/2020-01-01 mid_day=$OUT/2020-06-01
mkdir -p "$old_day" "$mid_day" "$OUT/snapshots"
# Ten-day-old windows and snapshot; and 40 recent windows of 16 KiB each (640 KiB).
for m in 00 01 02; do
	for f in oncpu.folded.gz meta.json; do head -c 4096 /dev/urandom > "$old_day/10$m.$f"; done
done
head -c 4096 /dev/urandom > "$OUT/snapshots/2020-01-01T100000.meta.json"
touch -d '10 days ago' "$old_day"/* "$OUT/snapshots/2020-01-01T100000.meta.json"
for i in $(seq 10 49); do
	for f in oncpu.folded.gz meta.json; do head -c 8192 /dev/urandom > "$mid_day/12$i.$f"; done
	touch -d "$((60 - i)) minutes ago" "$mid_day/12$i".*
done
echo keep > "$mid_day/README"

spawn "$WORKLOADS/staircase" 30
start_emberd -o "$OUT" -w 1 --run-dir "$RUN" --retain-days 7 --retain-size 400K --no-svg
wait_for 10 sh -c "! ls '$old_day' >/dev/null 2>&1"
check "windows older than 7 days are deleted, and their day" test ! -e "$old_day"
check "old snapshots too" test ! -e "$OUT/snapshots/2020-01-01T100000.meta.json"
sleep 2
# What retention counts: the blocks of archive files.
used=$(find "$OUT" -type f \( -name '*.gz' -o -name '*.json' \) -printf '%b\n' | awk '{ s += $1 } END { print int(s / 2) }')
check "the archive stays under 400 KiB ($used KiB)" test "$used" -le 400
check "the oldest recent windows went first" test ! -e "$mid_day/1210.meta.json" -a ! -e "$mid_day/1210.oncpu.folded.gz"
check "the newest recent windows are kept" test -e "$mid_day/1249.meta.json" -a -e "$mid_day/1249.oncpu.folded.gz"
check "windows go whole: no metadata without its profile" sh -c \
	"for m in '$mid_day'/*.meta.json; do [ -e \"\${m%.meta.json}.oncpu.folded.gz\" ] || exit 1; done"
check "files that are not archives are kept" test -e "$mid_day/README"
check "today's windows are kept" test -n "$(find "$OUT" -newer "$mid_day/README" -name '*.meta.json' | head -n 1)"

# kill -9 while snapshots are being written, many times over.
bad=0
for i in $(seq 1 6); do
	for j in 1 2 3 4 5; do "$EMBER" snapshot --run-dir "$RUN" >/dev/null 2>&1 & done
	sleep 0.$((RANDOM % 5 + 1))
	kill -9 "$EMBERD_PID"
	wait "$EMBERD_PID" 2>/dev/null
	for f in $(find "$OUT" -newer "$mid_day/README" -name '*.gz' ! -name '.*'); do
		gzip -t "$f" 2>/dev/null || { echo "partial: $f"; bad=1; }
	done
	for f in $(find "$OUT" -newer "$mid_day/README" -name '*.json' ! -name '.*'); do
		tail -c 2 "$f" | grep -q '}' || { echo "partial: $f"; bad=1; }
	done
	wait
	start_emberd -o "$OUT" -w 1 --run-dir "$RUN" --retain-days 7 --retain-size 400K --no-svg || break
	sleep 1
done
check "kill -9 during writes never leaves a partial file under its name" test "$bad" -eq 0
# A temporary as a crash leaves it is removed when emberd starts.
stop_emberd TERM
day=$(ls -d "$OUT"/20* | tail -n 1)
echo partial > "$day/.0000.oncpu.folded.gz.AbC123"
start_emberd -o "$OUT" -w 1 --run-dir "$RUN"
check "temporaries are removed at start" test ! -e "$day/.0000.oncpu.folded.gz.AbC123"
check "... and that is logged" grep -q 'removed 1 temporary file' "$T_TMP/emberd.log"
check "emberd exits 0" stop_emberd TERM
check "no temporary left after a clean exit" test -z "$(find "$OUT" -name '.*' ! -name .)"
finish
