#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# run-view.sh - `ember view` driven in tmux at 80x24 and 200x60: root frames and percentages of a
# known profile, zoom, search, pprof sample types, resize, the terminal restored on q, hostile
# names kept off the terminal; and the text fallback. Waits for screen content, never sleeps blind.
set -u
B=${EMBER_BUILD:-build}
SRC=${EMBER_SRC:-.}
E=$B/ember
TMP=$(mktemp -d /tmp/ember-view.XXXXXX)
SOCK=ember-view-$$
T="tmux -L $SOCK -f /dev/null"
trap '$T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }

screen() { $T capture-pane -p -t v; }
# wait_for REGEX: up to 20 s for the pane to show it
wait_for() {
	for _ in $(seq 1 400); do screen | grep -qE -- "$1" && return 0; sleep 0.05; done
	echo "--- never saw '$1'; the pane:"; screen; return 1
}
# start W H CMD: a fresh session running bash, then CMD typed into it
start() {
	$T kill-session -t v 2>/dev/null
	$T new-session -d -s v -x "$1" -y "$2" "env -i PATH=$PATH HOME=$TMP HISTFILE=/dev/null TERM=tmux-256color LANG=C.UTF-8 bash --norc --noprofile"
	$T set-option -t v status off >/dev/null
	$T send-keys -t v "PS1='$ '" Enter
	wait_for '^\$ $' >/dev/null
}
keys() { $T send-keys -t v "$@"; }
# bar_width NAME: the columns of the coloured bar whose row starts with NAME (SGR kept by -e)
bar_width() { $T capture-pane -e -p -t v | perl -ne 'if (/^(?:\e\[[0-9;:]*m)+(\Q'"$1"'\E[^\e]*)/) { print length($1), "\n"; exit }'; }

KNOWN=$SRC/tests/view/known.folded
"$E" pprof --kind oncpu -o "$TMP/known.pb.gz" "$KNOWN"

for size in "80 24" "200 60"; do
	set -- $size
	W=$1 H=$2
	start "$W" "$H"
	keys "stty -a > $TMP/stty.before; '$E' view '$KNOWN'; stty -a > $TMP/stty.after; echo DONE" Enter
	check "${W}x$H: root frames main and init" "wait_for 'main' && screen | grep -q 'init'"
	check "${W}x$H: status of the root: 100 samples, 100%" "wait_for '^all +100 samples, 100.00% of all'"
	keys Up
	check "${W}x$H: Up selects main, 90% of all" "wait_for '^main +90 samples, 90.00% of all, 90.00% of parent, self 0'"
	keys Up
	check "${W}x$H: then compute, 60% of all" "wait_for '^compute +60 samples, 60.00% of all, 66.67% of parent, self 10'"
	keys Enter
	# zoomed: compute spans the width (its row starts with it and no sibling "parse" shows)
	check "${W}x$H: Enter zooms: compute at column 0, parse gone" "wait_for '^compute ' && ! screen | grep -q 'parse'"
	# hash is 50 of compute's 60: 5/6 of the width
	check "${W}x$H: hash spans 5/6 of the zoomed width" "bar_width hash | awk -v w=$W '{ exit !(\$1 >= int(w * 5 / 6) - 2 && \$1 <= int(w * 5 / 6)) }'"
	keys Escape
	check "${W}x$H: Esc zooms out: parse back" "wait_for 'parse'"
	keys / 'hash|compute' Enter
	check "${W}x$H: search 'hash|compute': Matched 60% (nested counted once)" "wait_for 'Matched: 60.00%'"
	keys / 'read' Enter
	check "${W}x$H: search 'read': Matched 30%" "wait_for 'Matched: 30.00%'"
	keys r
	check "${W}x$H: r resets the search" "for _ in \$(seq 1 200); do screen | grep -q Matched || break; sleep 0.05; done; ! screen | grep -q Matched"
	keys q
	check "${W}x$H: q quits" "wait_for '^DONE'"
	check "${W}x$H: stty -a the same before and after" "cmp -s $TMP/stty.before $TMP/stty.after"
done

# pprof: Tab switches the sample type
start 100 30
keys "'$E' view '$TMP/known.pb.gz'; echo DONE" Enter
check "pprof: first type samples" "wait_for '\\[1/2: samples\\]'"
keys Tab
check "pprof: Tab shows cpu in nanoseconds" "wait_for '\\[2/2: cpu\\]' && wait_for 'nanoseconds'"
keys BTab
check "pprof: Shift-Tab back to samples" "wait_for '\\[1/2: samples\\]'"
# resize: the graph is laid out again for the new width
$T resize-window -t v -x 60 -y 20
check "resize to 60x20: redrawn" "wait_for 'main' && [ \"\$(screen | awk '{ if (length(\$0) > m) m = length(\$0) } END { print m }')\" -le 60 ]"
$T resize-window -t v -x 160 -y 40
check "resize to 160x40: the status line grows" "wait_for 'of parent, self'"
keys C-c
check "Ctrl-C quits" "wait_for '^DONE'"

# hostile names: ESC sequences, OSC 52 and OSC 2, bell, NUL, invalid UTF-8, a 2,000-character name
perl -e 'print "evil\e[31mred\e[0m;x\e]52;c;cHduZWQ=\a 5\n";
	print "title\e]2;pwned\e\\;bell\a\a 5\n";
	print "nul\0byte;bad\xff\xfe\xc0\xafutf8 5\n";
	print "wide\xe4\xb8\xad\xe6\x96\x87;csi\e[2J\e[H 5\n";
	print "long;", "x" x 2000, " 5\n"' >"$TMP/hostile.folded"
start 80 24
$T set-option -g set-clipboard on >/dev/null
$T set-option -g allow-rename off >/dev/null
keys "'$E' view '$TMP/hostile.folded'; echo DONE" Enter
check "hostile: drawn" "wait_for 'evil'"
keys Up Right Right
sleep_until_drawn() { wait_for 'samples, '; }
check "hostile: status drawn" "sleep_until_drawn"
$T capture-pane -e -p -t v >"$TMP/pane"
check "hostile: no escape but SGR colours in the pane" "[ -s '$TMP/pane' ] && ! grep -qaP '\e(?!\[[0-9;:]*m)' '$TMP/pane'"
check "hostile: the screen was not cleared by a name (first row intact)" "screen | head -n 1 | grep -q 'hostile.folded'"
check "hostile: no clipboard write (OSC 52)" "[ -z \"\$($T list-buffers 2>/dev/null)\" ]"
check "hostile: pane title not set (OSC 2)" "! $T display -p -t v '#{pane_title}' | grep -q pwned"
check "hostile: replacement characters shown" "screen | grep -q $'\\xef\\xbf\\xbd'"
keys q
check "hostile: q quits" "wait_for '^DONE'"

# the text fallback: not a terminal, --text, --top
"$E" view "$KNOWN" >"$TMP/text"
check "text when stdout is not a terminal" "grep -qE '^ +90.00% +90 +main\$' '$TMP/text' && grep -qE '^ +50.00% +50 +hash\$' '$TMP/text'"
"$E" view --top 2 "$KNOWN" >"$TMP/top"
check "--top 2: hash then read" "[ \"\$(awk 'NR > 2 { print \$3 }' '$TMP/top' | tr '\n' ' ')\" = 'hash read ' ]"
"$E" view --text "$TMP/hostile.folded" >"$TMP/htext"
check "text: no control character from hostile names" "! LC_ALL=C grep -qP '[\\x00-\\x08\\x0b-\\x1f\\x7f]' '$TMP/htext'"
printf 'a;b 1 3\na;c 4 2\n' | "$E" view --text >"$TMP/diff"
check "differential: after's counts, deltas" "grep -qE '^ +60.00% +3 +\\(\\+2\\) b\$' '$TMP/diff' && grep -qE '\\(-2\\) c\$' '$TMP/diff'"
check "pprof --type cpu as text" "'$E' view --text --type cpu '$TMP/known.pb.gz' | grep -q '^Total: [0-9]* nanoseconds'"
check "a bad pprof is refused" "! printf '\\x0a\\x05\\x08\\x01' | '$E' view --text 2>/dev/null"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
