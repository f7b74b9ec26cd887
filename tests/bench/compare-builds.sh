#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# compare-builds.sh - two emberd builds side by side on the same workload: do their archives
# say the same? For changes that must not change behaviour (a reorganisation, a refactor).
#
#   bash tests/bench/compare-builds.sh OLD_EMBERD [NEW_EMBERD] [SECONDS]
#
# Both daemons profile two workloads at the same time for SECONDS (default 20), 499 Hz: the
# staircase (on-CPU) and offcpu_threads (a sleeper, a pipe reader, a spinner: off-CPU). Printed: the stacks each saw (names only), those only one
# saw, and each stack's share in both; the largest difference in share decides.
set -euo pipefail
OLD=${1:?usage: compare-builds.sh OLD_EMBERD [NEW_EMBERD] [SECONDS]}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
NEW=${2:-$SRC/build/emberd}
SECS=${3:-20}
WORK=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

"$SRC/build/workloads/staircase" $((SECS + 10)) &
pids+=("$!")
"$SRC/build/workloads/offcpu_threads" 300 >/dev/null &
pids+=("$!")
daemons=()
for side in old new; do
	bin=$OLD
	[ "$side" = new ] && bin=$NEW
	"$bin" -p "${pids[0]},${pids[1]}" -o "$WORK/$side" -w 60 -F 499 \
		--collect oncpu,offcpu 2>"$WORK/$side.log" &
	daemons+=("$!")
done
pids+=("${daemons[@]}")
sleep "$SECS"
kill -TERM "${daemons[@]}"
wait "${daemons[@]}"

# Stack -> share in percent, comm and thread ids left out (they differ between runs).
shares() {
	find "$WORK/$1" -name "*.$2.folded.gz" -exec zcat {} + |
		awk '{ n = $NF; sub(/ [0-9.]+$/, ""); sub(/^[^;]*;/, ""); w[$0] += n; t += n }
		     END { for (s in w) printf "%s\t%.2f\n", s, 100 * w[s] / t }' | sort
}
worst=0
for kind in oncpu offcpu; do
	shares old "$kind" >"$WORK/old.$kind"
	shares new "$kind" >"$WORK/new.$kind"
	echo "== $kind: $(wc -l <"$WORK/old.$kind") stacks before, $(wc -l <"$WORK/new.$kind") after"
	join -t $'\t' -a1 -a2 -e 0 -o 0,1.2,2.2 "$WORK/old.$kind" "$WORK/new.$kind" |
		awk -F'\t' '{ d = $3 - $2; if (d < 0) d = -d; if ($2 + $3 >= 1) printf "%6.2f %6.2f  %s\n", $2, $3, $1 }' |
		sort -k1,1nr | head -n 12
	d=$(join -t $'\t' -a1 -a2 -e 0 -o 1.2,2.2 "$WORK/old.$kind" "$WORK/new.$kind" |
		awk -F'\t' '{ d = $2 - $1; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.2f", m }')
	echo "largest difference in a stack's share: $d points"
	worst=$(awk -v a="$worst" -v b="$d" 'BEGIN { print (b > a ? b : a) }')
done
echo "worst difference: $worst points"
