#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t130 - the unit's capability bounding set, measured one capability at a time: emberd runs as
# root with exactly the unit's set (capsh), then with each capability of it taken away, and
# profiles a workload of another user whose binary is 0700. What each removal costs must be
# what the README's table says; CAP_SYS_RESOURCE (not in the set) is not needed.
. "$(dirname "$0")/lib.sh"
require_bpf
command -v capsh >/dev/null || { fail "capsh missing (libcap2-bin)"; finish; }

UNIT_CAPS=$(sed -n 's/^CapabilityBoundingSet=//p' "$EMBER_SRC/systemd/emberd.service.in" | tr ' ' '\n' |
	tr 'A-Z' 'a-z' | sort)
ALL_CAPS=$(capsh --print | sed -n 's/^Bounding set =//p' | tr ',' '\n' | sort)
check "the unit keeps CAP_SYS_RESOURCE and CAP_SYS_ADMIN out of its set" \
	test -z "$(grep -xE 'cap_sys_resource|cap_sys_admin' <<<"$UNIT_CAPS")"

# A workload of user nobody, from a binary only its owner can read.
chmod 0711 "$T_TMP"
mkdir -m 0711 "$T_TMP/bin"
cp "$WORKLOADS/offcpu_threads" "$T_TMP/bin/"
chown -R nobody "$T_TMP/bin"
chmod 0700 "$T_TMP/bin/offcpu_threads"

# profile NAME [CAP]: emberd with the unit's set minus CAP, on a fresh workload for 4 s;
# its folded output in $T_TMP/NAME.folded, its log in $T_TMP/NAME.log, exit code in RC.
profile() {
	local name=$1 drop wl
	drop=$(comm -23 <(echo "$ALL_CAPS") <(grep -vx "${2:-none}" <<<"$UNIT_CAPS") | paste -sd, -)
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$T_TMP/bin/offcpu_threads" 400 500 >/dev/null &
	wl=$!
	T_PIDS+=("$wl")
	capsh --drop="$drop" -- -c 'exec "$0" "$@"' "$EMBERD" --collect oncpu,offcpu -F 199 -p "$wl" \
		-o "$T_TMP/$name" >"$T_TMP/$name.log" 2>&1 &
	local pid=$!
	T_PIDS+=("$pid")
	wait_for 20 grep -qE "writing .*windows to|error" "$T_TMP/$name.log"
	sleep 4
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
	RC=$?
	kill "$wl" 2>/dev/null
	folded_of $(find "$T_TMP/$name" -name '*cpu.folded.gz' 2>/dev/null) >"$T_TMP/$name.folded" 2>/dev/null
}

has() { grep -qE "$1" "$T_TMP/$2.folded"; }

profile unit
check "with the unit's set: emberd runs and exits 0 (got $RC)" test "$RC" -eq 0
check "with the unit's set: the other user's 0700 binary is named (spin_c)" has ';spin_c(;|$| )' unit
check "with the unit's set: kernel frames are named (hrtimer_nanosleep_[k])" has 'hrtimer_nanosleep_\[k\]' unit

profile nobpf cap_bpf
check "without CAP_BPF: exit 1 (got $RC)" test "$RC" -eq 1
check "without CAP_BPF: the error says the load is not permitted" grep -qi "not permitted" "$T_TMP/nobpf.log"

profile noperfmon cap_perfmon
check "without CAP_PERFMON: exit 1 (got $RC)" test "$RC" -eq 1
check "without CAP_PERFMON: the error names CAP_PERFMON" grep -q "CAP_PERFMON" "$T_TMP/noperfmon.log"

profile noptrace cap_sys_ptrace
check "without CAP_SYS_PTRACE: emberd still runs (got $RC)" test "$RC" -eq 0
check "without CAP_SYS_PTRACE: another user's frames are not named" \
	test -s "$T_TMP/noptrace.folded" -a -z "$(grep -E ';spin_c(;|$| )' "$T_TMP/noptrace.folded")"

profile nodac cap_dac_read_search
check "without CAP_DAC_READ_SEARCH: emberd still runs (got $RC)" test "$RC" -eq 0
check "without CAP_DAC_READ_SEARCH: the 0700 binary's frames are not named" \
	test -s "$T_TMP/nodac.folded" -a -z "$(grep -E ';spin_c(;|$| )' "$T_TMP/nodac.folded")"

profile nosyslog cap_syslog
check "without CAP_SYSLOG: emberd still runs (got $RC)" test "$RC" -eq 0
check "without CAP_SYSLOG: kernel frames are addresses ([kernel]+0x...)" \
	test -z "$(grep -E 'hrtimer_nanosleep_\[k\]' "$T_TMP/nosyslog.folded")" -a \
	-n "$(grep -E '\[kernel\]\+0x' "$T_TMP/nosyslog.folded")"
for f in unit noptrace nodac nosyslog; do
	echo "-- $f: $(wc -l <"$T_TMP/$f.folded") stacks; first: $(head -c 300 "$T_TMP/$f.folded")"
done
finish
