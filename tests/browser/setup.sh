#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# setup.sh - playwright-core (the driver only: the browser is Debian's chromium) into DIR/node.
# Usage: setup.sh DIR; prints the directory that holds node_modules.
set -eu
DIR=$1/node
# The newest release that still runs on Debian 12's Node.js 18.
VERSION=1.61.1
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	"$(dirname "$0")/../deps.sh" nodejs npm >&2
fi
if [ ! -f "$DIR/node_modules/playwright-core/package.json" ] ||
	! grep -q "\"version\": \"$VERSION\"" "$DIR/node_modules/playwright-core/package.json"; then
	mkdir -p "$DIR"
	npm install --silent --no-audit --no-fund --no-save --prefix "$DIR" "playwright-core@$VERSION" >&2
fi
echo "$DIR"
