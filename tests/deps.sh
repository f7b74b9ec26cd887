#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# deps.sh - install the Debian packages named as arguments when missing (root), else say how.
missing=
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "ember: missing packages:$missing" >&2
	echo "ember: run as root: apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "ember: installing missing packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 || exit 1
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2 || exit 1
