#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t132 - clients that connect and then say nothing, or half a request, stall nothing: beside
# 4 and 40 of them on the control socket and 40 on the metrics socket, `ember snapshot` and a
# scrape answer at once, the watchdog pings (every 0.5 s) keep coming, and the daemon closes
# every silent client by itself once its time (2 s control, 1 s metrics) is up.
. "$(dirname "$0")/lib.sh"
require_bpf
HERE=$(dirname "$0")

export NOTIFY_SOCKET=$T_TMP/notify.sock WATCHDOG_USEC=1000000
spawn python3 "$HERE/notify-listen.py" "$NOTIFY_SOCKET" "$T_TMP/notify.log" "$T_TMP/stamps"
wait_for 5 test -S "$NOTIFY_SOCKET"
RUN=$T_TMP/run
MSOCK=$T_TMP/metrics.sock
start_emberd --collect oncpu -o "$T_TMP/out" --run-dir "$RUN" --metrics "unix:$MSOCK"

ms_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", (b - a) * 1000 }'; }

# silent SOCKET N [BYTES]: N clients that stay silent (after BYTES), output in $T_TMP/silent.
silent() {
	python3 "$HERE/silent-clients.py" "$1" "$2" 15 ${3:+"$3"} >"$T_TMP/silent" &
	SILENT=$!
	T_PIDS+=("$SILENT")
	wait_for 10 grep -q connected "$T_TMP/silent"
}

# closed_all N LIMIT: the daemon closed all N clients by itself, the last within LIMIT s.
closed_all() {
	wait "$SILENT"
	read -r _ n secs < <(grep closed "$T_TMP/silent")
	check "the daemon closed all $1 silent clients (closed $n, the last after $secs s)" \
		awk -v n="$n" -v s="$secs" -v want="$1" -v lim="$2" 'BEGIN { exit !(n == want && s <= lim) }'
}

for n in 4 40; do
	silent "$RUN/emberd.sock" "$n"
	t0=$EPOCHREALTIME
	timeout 60 "$EMBER" snapshot --run-dir "$RUN" >"$T_TMP/snap.$n" 2>&1
	rc=$? ms=$(ms_since "$t0")
	check "ember snapshot beside $n silent control clients: answered (exit $rc)" test "$rc" -eq 0
	check "ember snapshot beside $n silent control clients: in under 1000 ms (got $ms ms)" test "$ms" -lt 1000
	closed_all "$n" 4
done

silent "$RUN/emberd.sock" 4 sta
t0=$EPOCHREALTIME
timeout 60 "$EMBER" status --run-dir "$RUN" >/dev/null 2>&1
rc=$? ms=$(ms_since "$t0")
check "ember status beside 4 clients stuck mid-request: answered (exit $rc)" test "$rc" -eq 0
check "ember status beside 4 clients stuck mid-request: in under 1000 ms (got $ms ms)" test "$ms" -lt 1000
closed_all 4 4

silent "$MSOCK" 40
t0=$EPOCHREALTIME
code=$(curl -s -o "$T_TMP/scrape" -w '%{http_code}' -m 60 --unix-socket "$MSOCK" http://localhost/metrics)
ms=$(ms_since "$t0")
check "a scrape beside 40 silent metrics clients: 200 in under 1000 ms (got $code, $ms ms)" \
	test "$code" = 200 -a "$ms" -lt 1000
check "the scrape holds the metrics" grep -q '^ember_' "$T_TMP/scrape"
closed_all 40 3

gap=$(awk '$2 == "WATCHDOG=1" { if (last) { g = $1 - last; if (g > max) max = g } last = $1 } END { printf "%.2f", max }' "$T_TMP/stamps")
pings=$(grep -c 'WATCHDOG=1' "$T_TMP/stamps")
check "watchdog pings kept coming ($pings; the longest gap $gap s, pinged every 0.5 s)" \
	awk -v g="$gap" -v p="$pings" 'BEGIN { exit !(p >= 10 && g < 1.5) }'
check "emberd exits 0 on SIGTERM" stop_emberd TERM
finish
