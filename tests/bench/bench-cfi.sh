#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench-cfi - unwind-table build (symbolize/cfi.c through build/bench/bench_cfi) against two peers
# that interpret the same .eh_frame: readelf --debug-dump=frames-interp and llvm-dwarfdump
# --eh-frame. MB of CFI per second (medians of ROUNDS runs), rows and table bytes per binary.
# Usage: bench-cfi.sh BUILD_DIR [FILE...]
set -u
OUT=$(cd "${1:-build}" && pwd)
shift
ROUNDS=${ROUNDS:-5}
. "$(dirname "$0")/lib.sh"

big_cxx() { # the largest C++ library at hand
	ls -S /usr/lib/x86_64-linux-gnu/libLLVM-*.so* /usr/lib/llvm-*/lib/libclang-cpp.so* \
		/usr/lib/x86_64-linux-gnu/libstdc++.so.6 2>/dev/null | head -n 1
}

ms() { # ms CMD...: wall milliseconds of one run, output discarded
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

median_ms() { # median_ms CMD...: median over ROUNDS runs
	for _ in $(seq "$ROUNDS"); do ms "$@"; done | median
}

files=("$@")
[ ${#files[@]} -gt 0 ] || files=(/lib/x86_64-linux-gnu/libc.so.6 "$(readlink -f /usr/bin/python3)" "$(big_cxx)")
dwarfdump=$(command -v llvm-dwarfdump || ls /usr/lib/llvm-*/bin/llvm-dwarfdump 2>/dev/null | head -n 1)
printf '%-26s %9s %8s %9s | %8s %7s | %8s %7s | %8s %7s | %s\n' file "cfi KiB" rows "tbl KiB" \
	"ember ms" "MB/s" "readelf" "MB/s" dwarfdump "MB/s" "ratio vs readelf, dwarfdump"
for f in "${files[@]}"; do
	[ -r "$f" ] || continue
	line=$("$OUT/bench/bench_cfi" "$f" "$ROUNDS") || { echo "$f: $line"; continue; }
	# "FILE: cfi N bytes, R rows, table B bytes, unsupported U, skipped S, median T ms, X MB/s"
	read -r cfi rows tbl ours <<<"$(echo "$line" | awk '{ print $3, $5, $8, $15 }')"
	re=$(median_ms readelf --debug-dump=frames-interp "$f")
	dd=0
	[ -n "$dwarfdump" ] && dd=$(median_ms "$dwarfdump" --eh-frame "$f")
	awk -v f="$(basename "$f")" -v c="$cfi" -v r="$rows" -v t="$tbl" -v o="$ours" -v re="$re" -v dd="$dd" '
		function mbs(ms) { return ms > 0 ? c / 1e3 / ms : 0 }
		BEGIN { printf "%-26s %9.0f %8d %9.0f | %8.1f %7.1f | %8d %7.1f | %8d %7.1f | %.1fx, %.1fx faster\n",
			f, c / 1024, r, t / 1024, o, mbs(o), re, mbs(re), dd, mbs(dd),
			(o > 0 ? re / o : 0), (o > 0 ? dd / o : 0) }'
done
echo "medians of $ROUNDS runs; table = rows x 12 bytes; peers print every row as text"
