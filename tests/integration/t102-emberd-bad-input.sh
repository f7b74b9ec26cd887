#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t102 - each bad input gets one clear error line and a non-zero exit.
. "$(dirname "$0")/lib.sh"
require_bpf

# expect CODE PATTERN ARGS...: emberd exits with CODE and says PATTERN.
expect() {
	local code=$1 pat=$2; shift 2
	local out rc
	out=$(timeout 20 "$@" 2>&1); rc=$?
	if [ "$rc" -eq "$code" ] && grep -q -- "$pat" <<<"$out"; then
		ok "$* -> $rc: $(grep -- "$pat" <<<"$out" | head -n 1)"
	else
		fail "$* -> exit $rc (want $code), output: $out"
	fi
}
expect 2 "unrecognized option" "$EMBERD" --bogus
expect 2 "invalid value '0' for --freq" "$EMBERD" -F 0
expect 2 "invalid value 'abc' for --freq" "$EMBERD" -F abc
expect 2 "invalid value '0' for --window" "$EMBERD" -w 0
expect 2 "invalid value 'gpu' for --collect" "$EMBERD" --collect gpu
expect 2 "invalid value '0' for --mem-sample" "$EMBERD" --collect memory --mem-sample 0
expect 2 "invalid value '101' for --mem-duty" "$EMBERD" --collect memory --mem-duty 101
expect 2 "cannot read '/nonexistent/libc.so' for --mem-lib" "$EMBERD" --mem-lib /nonexistent/libc.so
expect 1 "no jx_malloc and jx_free in" "$EMBERD" --collect memory --mem-prefix jx_ -o "$T_TMP/o"
expect 2 "no process with pid 999999999" "$EMBERD" -p 999999999
expect 2 "invalid pid 'x'" "$EMBERD" -p 1,x
expect 2 "unexpected argument 'extra'" "$EMBERD" extra
touch "$T_TMP/file"
expect 1 "cannot write to output directory '$T_TMP/file/sub'" "$EMBERD" -o "$T_TMP/file/sub"
expect 0 "usage: emberd" "$EMBERD" --help
expect 0 "emberd [0-9]" "$EMBERD" --version
# Without privilege the BPF programs cannot load.
chmod 755 "$T_TMP"
mkdir "$T_TMP/nobody" && chown 65534 "$T_TMP/nobody"
expect 1 "cannot load BPF programs: Operation not permitted" setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all "$EMBERD" -o "$T_TMP/nobody"
# A kernel without BTF: hide it in a private mount namespace.
: > "$T_TMP/empty"
expect 1 "kernel BTF not available" unshare -m sh -c \
	"mount --bind '$T_TMP/empty' /sys/kernel/btf/vmlinux && exec '$EMBERD' -o '$T_TMP/x'"
finish
