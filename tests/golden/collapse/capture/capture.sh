#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# capture.sh - record the perf and bpftrace fixtures of the collapse golden tests on this machine.
#
# Run as root: ./capture.sh OUTDIR. Each capture is short and kept small (gzip when large).
# The expected outputs are then made with `ember collapse` and checked against the FlameGraph
# Perl tools (tests/golden/run-collapse.sh --regen, with FLAMEGRAPH_DIR set).
set -eu
out=$(cd "${1:?usage: capture.sh OUTDIR}" && pwd)
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

CFLAGS="-O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -fno-inline"
gcc $CFLAGS -o spin "$src/spin.c" -lpthread
g++ -std=c++17 $CFLAGS -o templates "$src/templates.cpp"
rustc -O -g -C force-frame-pointers=yes -o recurse "$src/recurse.rs"
go build -o methods "$src/methods.go"
javac -d . "$src/Busy.java"

# perf script output of one recording; "$1" names the fixture, the rest is `perf record` argv
rec() {
	local name=$1; shift
	perf record -q -o "$name.data" "$@" >/dev/null 2>&1
	perf script -i "$name.data" $SCRIPT_ARGS > "$out/$name.txt" 2>/dev/null
	if [ "$(stat -c %s "$out/$name.txt")" -gt 400000 ]; then gzip -9f "$out/$name.txt"; fi
}

SCRIPT_ARGS=""
rec perf-spin-fp -e cpu-clock -F 499 -g ./spin 1
rec perf-spin-dwarf -e cpu-clock -F 99 --call-graph dwarf,16384 ./spin 1
rec perf-templates-fp -e cpu-clock -F 499 -g ./templates 1
rec perf-rust-fp -e cpu-clock -F 299 -g ./recurse
rec perf-go-fp -e cpu-clock -F 299 -g ./methods
rec perf-node-jit -e cpu-clock -F 299 -g node --perf-basic-prof --interpreted-frames-native-stack \
	"$src/busy.js"
rec perf-node-nomap -e cpu-clock -F 199 -g node "$src/busy.js"
rec perf-java-jit -e cpu-clock -F 199 -g java -XX:+PreserveFramePointer \
	-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -cp . Busy
rec perf-multi-event -e cpu-clock -e page-faults -e task-clock -F 499 -g ./spin 0.5
rec perf-system-wide -e cpu-clock -F 199 -g -a -- sleep 0.5
cp spin spin-deleted
rec perf-deleted -e cpu-clock -F 499 -g -- sh -c './spin-deleted 0.6 & sleep 0.2; rm spin-deleted; wait'
SCRIPT_ARGS="--header"
rec perf-header -e cpu-clock -F 199 -g ./templates
SCRIPT_ARGS="-F+srcline"
rec perf-srcline -e cpu-clock -F 99 -g ./spin 0.3
SCRIPT_ARGS="-F comm,pid,tid,time,period,event,ip,sym,dso"
rec perf-pidtid -e cpu-clock -F 499 -g ./spin 0.5
SCRIPT_ARGS="-F comm,tid,time,event,ip,sym,dso,symoff"
rec perf-symoff -e cpu-clock -F 499 -g ./templates

# bpftrace symbolizes user stacks when it prints: attach to a process that outlives the probe
bt() {
	local name=$1 prog=$2
	shift 2
	"$@" &
	local pid=$!
	sleep 0.3
	bpftrace -q -e "$prog" "$pid" > "$out/$name.txt" 2>/dev/null || true
	wait "$pid"
}
bt bpftrace-kustack 'profile:hz:199 /pid == $1/ { @[kstack, ustack, comm] = count(); }
	interval:s:1 { exit(); }' ./spin 2
bt bpftrace-ustack 'profile:hz:199 /pid == $1/ { @[ustack] = count(); }
	interval:s:1 { exit(); }' ./templates 1
bt bpftrace-kstack 'profile:hz:499 /pid == $1/ { @[kstack] = count(); }
	interval:s:1 { exit(); }' ./spin 2
bt bpftrace-comm 'profile:hz:199 /pid == $1/ { @[comm] = count(); }
	interval:s:1 { exit(); }' ./spin 2
bt bpftrace-named 'profile:hz:199 /pid == $1/ { @stacks[ustack(perf), comm] = count(); }
	interval:s:1 { exit(); }' ./spin 2
