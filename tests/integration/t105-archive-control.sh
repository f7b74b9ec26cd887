#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t105 - archives (metadata, pprof, unique names), ember snapshot/status/merge, self-metrics.
. "$(dirname "$0")/lib.sh"
require_bpf

OUT=$T_TMP/out RUN=$T_TMP/run PORT=$((20000 + RANDOM % 20000))
msg=$("$EMBER" snapshot --run-dir "$RUN" 2>&1)
check "ember snapshot without a daemon fails" test $? -eq 1
check "... saying so in one line" test "$msg" = "ember snapshot: no emberd running (no control socket at '$RUN/emberd.sock')"
"$EMBER" status --run-dir "$RUN" >/dev/null 2>&1
check "ember status without a daemon exits 1" test $? -eq 1
"$EMBERD" -o "$OUT" --metrics 8.8.8.8:$PORT --run-dir "$RUN" >"$T_TMP/bad.log" 2>&1
check "metrics refuse a non-loopback address" sh -c \
	"[ $? -ne 0 ] && grep -q \"cannot serve metrics on '8.8.8.8:$PORT': not a loopback address\" '$T_TMP/bad.log'"

spawn "$WORKLOADS/staircase" 40
WL=$!
start_emberd -o "$OUT" -w 2 --with-pid --run-dir "$RUN" --metrics "127.0.0.1:$PORT"
check "pid file names the daemon" test "$(cat "$RUN/emberd.pid")" = "$EMBERD_PID"
sleep 1

# Three snapshots in the same second: three sets of files, none overwritten.
for i in 1 2 3; do "$EMBER" snapshot --run-dir "$RUN" >"$T_TMP/snap$i" || fail "ember snapshot $i"; done
cat "$T_TMP"/snap[123] > "$T_TMP/snaps"
check "each snapshot lists its files" test "$(grep -c 'meta.json$' "$T_TMP/snaps")" -eq 3
check "snapshot names never collide" test "$(xargs -n 1 basename < "$T_TMP/snaps" | sed 's/\..*//' | sort -u | wc -l)" -eq 3
check "every file listed exists and is whole" sh -c \
	'while read -r f; do [ -s "$f" ] || exit 1; case $f in *.gz) gzip -t "$f" || exit 1;; esac; done < "$1"' _ "$T_TMP/snaps"
check "snapshots hold the workload" sh -c "zcat \$(grep 'oncpu.folded.gz$' '$T_TMP/snaps') | grep -q '^staircase-$WL;'"

status=$("$EMBER" status --run-dir "$RUN")
echo "$status" | sed 's/^/  status: /'
check "status: collectors" grep -q '^collectors: oncpu offcpu$' <<<"$status"
check "status: samples per second" grep -Eq '^samples per second: [0-9.]+' <<<"$status"
check "status: map fill, caches, output, last window" bash -c \
	'for k in "map fill" caches output "last written" windows; do grep -q "^$k: " <<<"$1" || exit 1; done' _ "$status"

# Self-metrics over HTTP on loopback.
scrape() {
	exec 3<>"/dev/tcp/127.0.0.1/$PORT" || return 1
	printf 'GET %s HTTP/1.0\r\nHost: x\r\n\r\n' "$1" >&3
	cat <&3
	exec 3<&-
}
sleep 2.5
scrape /metrics > "$T_TMP/metrics"
check "metrics: 200 in text format" grep -q '^HTTP/1.0 200 OK' "$T_TMP/metrics"
for m in 'samples_total{kind="oncpu"}' 'lost_samples_total{kind="oncpu"}' 'lost_stack_weight_total{kind="oncpu"}' map_fill_ratio \
	window_write_seconds symbolized_frames_ratio resident_memory_bytes; do
	check "metrics: ember_$m" grep -Eq "^ember_${m//[\{\}\"]/.} [0-9.e+-]+$" "$T_TMP/metrics"
done
check "metrics: samples counted" sh -c "awk '/^ember_samples_total\\{kind=\"oncpu\"\\}/ { exit !(\$2 > 0) }' '$T_TMP/metrics'"
check "metrics: other paths 404" bash -c "$(declare -f scrape); PORT=$PORT; scrape /x | grep -q '^HTTP/1.0 404'"

sleep 5
check "emberd exits 0" stop_emberd TERM
check "control socket and pid file removed at exit" test ! -e "$RUN/emberd.sock" -a ! -e "$RUN/emberd.pid"

# Windows: folded.gz, pb.gz and metadata each.
day=$(ls -d "$OUT"/20* | head -n 1)
mapfile -t metas < <(ls "$day"/*.meta.json | sort)
check "at least five windows" test "${#metas[@]}" -ge 5
m=${metas[1]}
for k in host kernel start end start_utc frequency_hz collectors named_share profiles; do
	check "metadata has $k" grep -q "\"$k\":" "$m"
done
check "metadata: collectors" grep -q '"collectors": "oncpu,offcpu"' "$m"
check "metadata: samples and lost per kind" grep -Eq '"oncpu": \{ "samples": [1-9][0-9]*, "lost": [0-9]+' "$m"
check "metadata: weight on lost stacks per kind" grep -Eq '"oncpu": \{ [^}]*"lost_stacks": [0-9]+' "$m"
stem=${m%.meta.json}
check "window has oncpu pprof" gzip -t "$stem.oncpu.pb.gz"
if command -v go >/dev/null; then
	total=$(zcat "$stem.oncpu.folded.gz" | awk '{ s += $NF } END { print s }')
	check "pprof of the window holds its $total samples" sh -c \
		"go tool pprof -raw '$stem.oncpu.pb.gz' 2>/dev/null | awk '/^Samples:/ { on = 1; next } on && /^ *[0-9]+ +[0-9]+:/ { s += \$1 } END { exit !(s == $total) }'"
else
	fail "go not installed (make deps-test installs golang-go)"
fi

# ember merge of three windows equals their sum.
start_of() { sed -n 's/^  "start": \([0-9]*\),$/\1/p' "$1"; }
since=$(start_of "${metas[1]}") until=$(( $(start_of "${metas[3]}") + 1 ))
sum3() {
	zcat "$@" | awk '{ i = match($0, / [0-9]+$/); s[substr($0, 1, i - 1)] += substr($0, i + 1) }
		END { for (k in s) print k, s[k] }' | LC_ALL=C sort
}
sum3 "${metas[1]%.meta.json}.oncpu.folded.gz" "${metas[2]%.meta.json}.oncpu.folded.gz" \
	"${metas[3]%.meta.json}.oncpu.folded.gz" > "$T_TMP/sum"
"$EMBER" merge -d "$OUT" --since "@$since" --until "@$until" > "$T_TMP/merged" 2>"$T_TMP/merge.err"
check "merge reports three windows" grep -q 'merged 3 window' "$T_TMP/merge.err"
check "merge of three windows equals their sum" diff <(LC_ALL=C sort "$T_TMP/merged") "$T_TMP/sum"
check "merge has stacks" test -s "$T_TMP/sum"
"$EMBER" merge -d "$OUT" --since "@$since" --until "@$until" --svg -o "$T_TMP/merged.svg" 2>/dev/null
check "merge --svg draws the merged windows" sh -c "xmllint --noout '$T_TMP/merged.svg' && grep -q 'thread_func1' '$T_TMP/merged.svg'"
"$EMBER" merge -d "$OUT" --since -1h --pid "$WL" > "$T_TMP/pid" 2>/dev/null
check "merge --pid keeps only that process" sh -c "[ -s '$T_TMP/pid' ] && ! grep -qv '^staircase-$WL[;/]' '$T_TMP/pid'"
"$EMBER" merge -d "$OUT" --since -1h --kind offcpu > "$T_TMP/off" 2>/dev/null
check "merge --kind offcpu reads the off-CPU windows" test -s "$T_TMP/off"
"$EMBER" merge -d "$OUT" --since "2000-01-01 00:00" --until "2000-01-02" >/dev/null 2>"$T_TMP/none.err"
check "merge of an empty range is an error" sh -c "[ $? -eq 1 ] && grep -q 'no oncpu windows' '$T_TMP/none.err'"
"$EMBER" merge -d "$OUT" --since yesterday >/dev/null 2>"$T_TMP/bad.err"
check "merge: a bad time is one clear error" sh -c "[ $? -eq 2 ] && grep -q \"invalid value 'yesterday' for --since\" '$T_TMP/bad.err'"
finish
