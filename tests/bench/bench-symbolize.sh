#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-symbolize - name the same recording of 50 processes sharing libc with perf script and with
# emberd's symbolizer: addresses per second (ours cold, i.e. from empty caches, and warm up to
# 1M addresses), peak RSS, medians over ROUNDS rounds, side by side in the same rounds.
# Usage: bench-symbolize.sh BUILD_DIR
set -u
OUT=$(cd "${1:-build}" && pwd)
NPROC=${NPROC:-50} SECS=${SECS:-20} FREQ=${FREQ:-999} ROUNDS=${ROUNDS:-3} TOTAL=${TOTAL:-1000000}
TMP=$(mktemp -d /tmp/ember-bench-sym.XXXXXX)
PIDS=()
cleanup() {
	{ [ ${#PIDS[@]} -gt 0 ] && kill -9 "${PIDS[@]}"; wait; } 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }

command -v perf >/dev/null || { echo "skip: perf is not installed"; exit 0; }
for i in $(seq "$NPROC"); do
	"$OUT/workloads/libcmix" &
	PIDS+=($!)
done
pidlist=$(IFS=,; echo "${PIDS[*]}")
perf record -q -e cpu-clock -F "$FREQ" -g -p "$pidlist" -o "$TMP/perf.data" -- sleep "$SECS" \
	>/dev/null 2>&1 || { echo "perf record failed"; exit 1; }
# Stopped, not killed: their maps stay readable, and they leave the CPUs to the two tools.
kill -STOP "${PIDS[@]}"

# The raw addresses of each sample, kernel then user, leaf first: "PID NK NU ips...".
perf script -D -i "$TMP/perf.data" 2>/dev/null | awk '
	function flush() { if (pid != "") print pid, nk, nu, k u; pid = "" }
	/PERF_RECORD_SAMPLE/ { flush(); for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+:$/) { split($i, a, "/"); pid = a[1] }
		nk = nu = 0; k = u = ""; ctx = ""; next }
	pid != "" && /^\.\.\.\.\. +[0-9]+: / {
		ip = $3
		if (ip == "fffffffffffffe80") { ctx = "k"; next }
		if (ip == "fffffffffffffe00") { ctx = "u"; next }
		if (ip ~ /^fffffffffffff/) { ctx = ""; next }
		if (ctx == "k") { k = k " " ip; nk++ } else if (ctx == "u") { u = u " " ip; nu++ }
		next }
	pid != "" && !/^\.\.\./ && !/^ \.\.\./ { flush() }
	END { flush() }' > "$TMP/samples"
samples=$(wc -l < "$TMP/samples")
addrs=$(awk '{ t += $2 + $3 } END { print t + 0 }' "$TMP/samples")
echo "recording: $NPROC processes, $SECS s at $FREQ Hz: $samples samples, $addrs addresses"

for r in $(seq "$ROUNDS"); do
	/usr/bin/time -f "%e %M" -o "$TMP/time" perf script -i "$TMP/perf.data" > "$TMP/perf.out" 2>/dev/null
	read -r secs rss < "$TMP/time"
	awk -v a="$addrs" -v s="$secs" -v m="$rss" 'BEGIN { printf "%.0f %d\n", a / (s > 0 ? s : 0.01), m }' >> "$TMP/perf.rates"
	"$OUT/bench/bench_symbolize" "$TMP/samples" "$TOTAL" | tee -a "$TMP/ours.log" |
		awk '{ gsub(/\/s/, ""); print $6, $10, $(NF - 1) }' >> "$TMP/ours.rates"
done
pr=$(cut -d' ' -f1 "$TMP/perf.rates" | median) prss=$(cut -d' ' -f2 "$TMP/perf.rates" | median)
oc=$(cut -d' ' -f1 "$TMP/ours.rates" | median) ow=$(cut -d' ' -f2 "$TMP/ours.rates" | median)
orss=$(cut -d' ' -f3 "$TMP/ours.rates" | median)
tail -n 1 "$TMP/ours.log"
printf 'perf script      %10.0f addresses/s                      peak RSS %6d KiB\n' "$pr" "$prss"
printf 'ember symbolizer %10.0f addresses/s cold, %10.0f warm   peak RSS %6d KiB\n' "$oc" "$ow" "$orss"
printf 'ratio (ours/perf script, medians of %d rounds): cold %.1fx, warm %.1fx\n' "$ROUNDS" \
	"$(awk -v a="$oc" -v b="$pr" 'BEGIN { print a / b }')" "$(awk -v a="$ow" -v b="$pr" 'BEGIN { print a / b }')"
