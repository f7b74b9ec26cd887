#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-pprof.sh - `ember pprof` output read back by a real pprof client (go tool pprof).
set -u
: "${EMBER_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${EMBER_BUILD:=$EMBER_SRC/build}"
EMBER=$EMBER_BUILD/ember
DIR=$EMBER_SRC/tests/golden/pprof
TMP=$(mktemp -d /tmp/ember-pprof.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi; }
command -v go >/dev/null || { echo "go not installed (make deps-test installs golang-go)"; echo "0 passed, 1 failed"; exit 1; }

# go tool pprof -traces, folded back (root first); annotations are not names, so they go.
traces_to_folded() {
	go tool pprof -symbolize=none -traces "$1" 2>/dev/null | awk '
		function flush() { if (n) { st = f[n]; for (j = n - 1; j >= 1; j--) st = st ";" f[j]
			print st " " w }; n = 0 }
		/^-----/ { flush(); next }
		/^ *[0-9]+   / { w = $1; line = $0; sub(/^ *[0-9]+   /, "", line); f[++n] = line; next }
		n && /^             / { line = $0; sub(/^ +/, "", line); f[++n] = line }
		END { flush() }' | sort
}
strip() { sed -E 's/_\[[kj]\]//g' "$1" | sort; }

for f in "$DIR"/*.folded; do
	name=$(basename "$f" .folded)
	check "$name: ember pprof succeeds" "$EMBER" pprof -o "$TMP/$name.pb.gz" "$f"
	check "$name: gzip" gzip -t "$TMP/$name.pb.gz"
	traces_to_folded "$TMP/$name.pb.gz" > "$TMP/$name.back"
	check "$name: every stack and weight read back" diff <(strip "$f") "$TMP/$name.back"
done

# On-CPU kind: a second value in nanoseconds at the given frequency.
"$EMBER" pprof --kind oncpu --freq 100 -o "$TMP/cpu.pb.gz" "$DIR/mixed.folded"
check "oncpu: sample types" sh -c "go tool pprof -raw '$TMP/cpu.pb.gz' 2>/dev/null | grep -q 'samples/count cpu/nanoseconds'"
check "oncpu: 3 samples at 100 Hz are 30 ms" sh -c "go tool pprof -raw '$TMP/cpu.pb.gz' 2>/dev/null | grep -Eq '^ *3 +30000000: '"
# Gzip input, as the daemon archives it.
gzip -c "$DIR/mixed.folded" > "$TMP/in.folded.gz"
"$EMBER" pprof -o "$TMP/gz.pb.gz" "$TMP/in.folded.gz"
check "gzip input reads like plain input" cmp <(traces_to_folded "$TMP/gz.pb.gz") <(strip "$DIR/mixed.folded")
check "kernel frames are filed under [kernel.kallsyms]" sh -c "go tool pprof -raw '$TMP/gz.pb.gz' 2>/dev/null | grep -q 'do_sys \[kernel.kallsyms\]'"
check "JIT frames are filed under [jit]" sh -c "go tool pprof -raw '$TMP/gz.pb.gz' 2>/dev/null | grep -q 'Interpreter \[jit\]'"
# Bad input.
"$EMBER" pprof --kind nope -o /dev/null "$DIR/mixed.folded" 2>/dev/null
check "unknown kind is a usage error (exit 2)" test $? -eq 2
"$EMBER" pprof -o /dev/null /nonexistent 2>"$TMP/nf.err"
check "missing file is an error (exit 1)" test $? -eq 1
check "missing file named" grep -q "cannot open '/nonexistent'" "$TMP/nf.err"
printf 'ok 1\nbroken line\n' > "$TMP/bad.folded"
check "malformed lines are counted" sh -c "'$EMBER' pprof -o /dev/null '$TMP/bad.folded' 2>&1 | grep -q 'ignored 1 lines'"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
