#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-service.sh - what the archive costs the daemon: window write time with folded only,
# + pprof, + SVG, and all (median over windows, from emberd -v), beside the peer tools run
# on the same window (gzip -6, flamegraph.pl, ember pprof offline); then retention on an
# archive of 7 days of minute windows (40k files) beside `find -mtime +7 -delete`.
set -u
B=${1:-build}
B=$(cd "$B" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SECS=${SECS:-12}
HZ=${HZ:-499}
FLAMEGRAPH=${FLAMEGRAPH:-/tmp/FlameGraph/flamegraph.pl}
TMP=$(mktemp -d /tmp/ember-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT
[ "$(id -u)" -eq 0 ] || { echo "bench-service: needs root"; exit 0; }

median() { sort -n | awk '{ v[NR] = $1 } END { if (!NR) print "nan"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ms() { # ms COMMAND...: wall time in ms
	local t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	echo $(( ($(date +%s%N) - t0) / 1000000 ))
}

# A load with many distinct stacks: the staircase, off-CPU pingpong, short processes.
"$B/workloads/staircase" 600 & 
( while :; do "$B/workloads/pingpong" 20000 >/dev/null 2>&1; done ) &
( while :; do find /usr/lib -maxdepth 2 >/dev/null 2>&1; done ) &

echo "== window write time, 2-second windows at $HZ Hz for $SECS s each (median ms per window)"
printf '%-14s %8s %8s %8s\n' outputs "write ms" files KiB
for cfg in "folded:--no-svg --no-pprof" "+pprof:--no-svg" "+svg:--no-pprof" "all:"; do
	name=${cfg%%:*} opts=${cfg#*:}
	rm -rf "$TMP/out"
	# shellcheck disable=SC2086
	"$B/emberd" -v -F "$HZ" -w 2 -o "$TMP/out" --run-dir "$TMP/run" $opts 2>"$TMP/log.$name" &
	pid=$!
	sleep "$SECS"
	kill -TERM "$pid"; wait "$pid" 2>/dev/null
	grep -o 'window written in [0-9.]* ms: [0-9]* file(s), [0-9]* bytes' "$TMP/log.$name" | tail -n +2 |
		awk '{ print $4, $6, $8 }' > "$TMP/w.$name"
	printf '%-14s %8.1f %8s %8d\n' "$name" "$(cut -d' ' -f1 "$TMP/w.$name" | median)" \
		"$(cut -d' ' -f2 "$TMP/w.$name" | median)" "$(( $(cut -d' ' -f3 "$TMP/w.$name" | median | cut -d. -f1) / 1024 ))"
done
# The largest on-CPU window of the last run, rendered by the peers.
big=$(ls -S "$TMP"/out/20*/*.oncpu.folded.gz | head -n 1)
zcat "$big" > "$TMP/big.folded"
echo "-- the largest on-CPU window ($(wc -l < "$TMP/big.folded") stacks), offline, median of 5 (ms):"
for r in 1 2 3 4 5; do
	ms gzip -6 -c "$TMP/big.folded" >> "$TMP/p.gzip"
	ms "$B/ember" flamegraph -o "$TMP/e.svg" "$TMP/big.folded" >> "$TMP/p.ember_svg"
	ms "$B/ember" pprof --kind oncpu --freq "$HZ" -o "$TMP/e.pb.gz" "$TMP/big.folded" >> "$TMP/p.ember_pprof"
	[ -x "$FLAMEGRAPH" ] && ms "$FLAMEGRAPH" "$TMP/big.folded" >> "$TMP/p.flamegraph_pl"
done
for t in gzip ember_svg ember_pprof flamegraph_pl; do
	[ -s "$TMP/p.$t" ] && printf '  %-14s %6s\n' "$t" "$(median < "$TMP/p.$t")"
done
[ -s "$TMP/p.flamegraph_pl" ] && awk -v e="$(median < "$TMP/p.ember_svg")" -v f="$(median < "$TMP/p.flamegraph_pl")" \
	'BEGIN { printf "  ember flamegraph / flamegraph.pl: %.2f\n", f ? e / f : 0 }'
kill $(jobs -p) 2>/dev/null; wait 2>/dev/null

echo "== retention on 7 days + 1 of minute windows (4 files each)"
A=$TMP/archive
make_archive() { # make_archive DIR: 8 days x 1440 windows x 4 files; the eighth day 9 days old
	local d day
	for d in 0 1 2 3 4 5 6 7; do
		day=$(date -d "$d days ago" +%F)
		mkdir -p "$1/$day"
		( cd "$1/$day" && for hh in $(seq -w 0 23); do for mm in $(seq -w 0 59); do
			printf '%s\n' "$hh$mm.oncpu.folded.gz" "$hh$mm.oncpu.svg" "$hh$mm.oncpu.pb.gz" "$hh$mm.meta.json"
		done; done | xargs touch -d "$(( d == 7 ? 9 : d )) days ago" )
	done
}
make_archive "$A"
cp -a "$A" "$TMP/peer"
echo "files: $(find "$A" -type f | wc -l)"
"$B/emberd" -w 1 -o "$A" --run-dir "$TMP/run" --metrics "unix:$TMP/metrics.sock" 2>"$TMP/log.ret" &
pid=$!
scrape() { curl -s --unix-socket "$TMP/metrics.sock" http://x/metrics | awk '$1 == "ember_retention_seconds" { print $2 * 1000 }'; }
sleep 1.5; first=$(scrape)
: > "$TMP/steady"
for i in 1 2 3 4 5; do sleep 1; scrape >> "$TMP/steady"; done
kill -TERM "$pid"; wait "$pid" 2>/dev/null
peer_first=$(ms find "$TMP/peer" -type f -mtime +7 -delete)
: > "$TMP/peer_steady"
for i in 1 2 3 4 5; do ms find "$TMP/peer" -type f -mtime +7 -delete >> "$TMP/peer_steady"; done
printf '%-28s %10s %14s\n' "" "emberd ms" "find -delete ms"
printf '%-28s %10.1f %14s\n' "first check (deletes a day)" "$first" "$peer_first"
printf '%-28s %10.1f %14s\n' "steady (nothing to delete)" "$(median < "$TMP/steady")" "$(median < "$TMP/peer_steady")"
check_left=$(find "$A" -type f -name '*.meta.json' -mtime +7 | wc -l)
echo "windows older than 7 days left by emberd: $check_left"
