#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t120 - emberd from a configuration file: SIGHUP applies a good file without losing the
# window's samples, keeps the running configuration on a broken one; sd_notify messages.
. "$(dirname "$0")/lib.sh"
require_bpf

spawn sh -c 'while :; do :; done'
SPIN=$!
OUT=$T_TMP/out OUT2=$T_TMP/out2 CONF=$T_TMP/emberd.conf
write_conf() { # FREQ WINDOW DIR [EXTRA LINE]
	printf '[daemon]\ncollectors = oncpu\nwindow = %s\npids = %s\n[output]\ndirectory = %s\n[oncpu]\nfrequency = %s\n%s' \
		"$2" "$SPIN" "$3" "$1" "${4:+$4
}" >"$CONF.tmp" && mv "$CONF.tmp" "$CONF"
}
# CPU seconds the spinner has used, from /proc/PID/stat (utime + stime, in clock ticks).
cpu_of() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"; }
spinner_samples() {
	find "$OUT" "$OUT2" -name '*.oncpu.folded.gz' ! -path '*/snapshots/*' 2>/dev/null |
		xargs -r zcat | awk '{ n += $NF } END { print n + 0 }'
}
within() { # VALUE EXPECTED PERCENT
	awk -v v="$1" -v e="$2" -v p="$3" 'BEGIN { exit !(v >= e * (1 - p / 100) && v <= e * (1 + p / 100)) }'
}
reloads() { grep -c "configuration reloaded" "$T_TMP/emberd.log"; }
attaches() { grep -c "on-CPU: sampling" "$T_TMP/emberd.log"; }

export NOTIFY_SOCKET=$T_TMP/notify.sock WATCHDOG_USEC=1000000
python3 "$(dirname "$0")/notify-listen.py" "$NOTIFY_SOCKET" "$T_TMP/notify.log" &
T_PIDS+=($!)
wait_for 5 test -S "$NOTIFY_SOCKET"

write_conf 199 3600 "$OUT"
start_emberd -c "$CONF"
check "started from the file: 199 Hz" grep -q "on-CPU: sampling cpu-clock at 199 Hz" "$T_TMP/emberd.log"
check "sd_notify: READY=1 once collectors are attached" wait_for 5 grep -qx "READY=1" "$T_TMP/notify.log"
check "sd_notify: STATUS names the collectors" grep -q "^STATUS=collectors oncpu; 3600s windows to $OUT" "$T_TMP/notify.log"
cpu0=$(cpu_of "$SPIN")
sleep 5

# A good file: the frequency changes; the 199 Hz samples so far stay in the window.
write_conf 49 3600 "$OUT"
cpu1=$(cpu_of "$SPIN")
kill -HUP "$EMBERD_PID"
check "SIGHUP reloads the file" wait_for 5 sh -c "[ \$(grep -c 'configuration reloaded' '$T_TMP/emberd.log') -eq 1 ]"
check "the change is named" grep -q "configuration reloaded: \[oncpu\] frequency 199 -> 49" "$T_TMP/emberd.log"
check "the on-CPU collector restarted at 49 Hz" wait_for 5 grep -q "on-CPU: sampling cpu-clock at 49 Hz" "$T_TMP/emberd.log"
check "sd_notify: RELOADING=1 then READY=1" wait_for 5 sh -c "grep -x -A3 'RELOADING=1' '$T_TMP/notify.log' | grep -qx 'READY=1'"
check "the 199 Hz part is written as a window of its own at the reload" \
	grep -q '"frequency_hz": 199,' $(find "$OUT" -name '*.meta.json' ! -path '*/snapshots/*')
sleep 3

# A broken file: one error line with file:line, the daemon goes on as it was.
write_conf 5 3600 "$OUT" "frequncy = 5"
line=$(grep -n '^frequncy' "$CONF" | cut -d: -f1)
n=$(attaches)
kill -HUP "$EMBERD_PID"
check "a broken file is reported with file:line:what" wait_for 5 grep -q \
	"cannot reload: $CONF:$line: unknown key 'frequncy' in section \[oncpu\]; keeping the running configuration" "$T_TMP/emberd.log"
check "emberd still runs" kill -0 "$EMBERD_PID"
check "nothing was restarted" test "$(attaches)" -eq "$n" -a "$(reloads)" -eq 1

# Window and directory change live, without restarting the collector.
write_conf 49 2 "$OUT2"
kill -HUP "$EMBERD_PID"
check "second reload applied" wait_for 5 sh -c "[ \$(grep -c 'configuration reloaded' '$T_TMP/emberd.log') -eq 2 ]"
check "window and directory changed without a collector restart" test "$(attaches)" -eq "$n"
check "2-second windows appear in the new directory" wait_for 8 sh -c "find '$OUT2' -name '*.oncpu.folded.gz' | grep -q ."
n=$(attaches)
kill -HUP "$EMBERD_PID"
check "an unchanged file changes nothing" wait_for 5 grep -q "configuration reloaded: nothing changed" "$T_TMP/emberd.log"
check "... and restarts nothing" test "$(attaches)" -eq "$n"
check "sd_notify: WATCHDOG=1 pings from the loop" test "$(grep -cx 'WATCHDOG=1' "$T_TMP/notify.log")" -ge 10

cpu2=$(cpu_of "$SPIN")
check "emberd exits 0 on SIGTERM" stop_emberd TERM
check "sd_notify: STOPPING=1" grep -qx "STOPPING=1" "$T_TMP/notify.log"
check "the 49 Hz part has windows of its own" \
	grep -q '"frequency_hz": 49,' $(find "$OUT" "$OUT2" -name '*.meta.json' ! -path '*/snapshots/*')
# Every sample is in some window: 199 Hz before the reload, 49 Hz after.
got=$(spinner_samples)
want=$(awk -v a="$cpu0" -v b="$cpu1" -v c="$cpu2" 'BEGIN { printf "%d", 199 * (b - a) + 49 * (c - b) }')
lost=$(awk -v a="$cpu0" -v b="$cpu1" -v c="$cpu2" 'BEGIN { printf "%d", 49 * (c - b) }')
check "samples across the reloads: $got, expected $want +-20% (only $lost had the first part been lost)" \
	within "$got" "$want" 20
finish
