#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run.sh - run every benchmark under tests/bench/ against the build in $1.
# Benchmarks print ratios against a peer tool run side by side; they never fail the build.
set -u
OUT=$(cd "${1:-build}" && pwd)
for b in "$(dirname "$0")"/bench-*.sh; do
	echo "== $(basename "$b")"
	flock "${EMBER_LOCK:-/tmp/ember-integration.lock}" bash "$b" "$OUT" || echo "$(basename "$b"): exit $?"
done
