#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cmake/BuildStrings.cmake: a C flag holding '"' or '\' went raw into build_info.h's string
# literals (the build broke, or '\b' became a control byte in run.json): each text must come back
# byte for byte from the C literal it is written as. And the sanitizers of C flags: every
# -fsanitize= counts, -fno-sanitize= takes back (the first -fsanitize= alone was taken).
#   buildstrings.sh CMAKE CC SRCDIR
set -u
cmake=$1 cc=$2 src=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-buildstrings-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
script=$src/tests/cmake/buildstrings.cmake
tab=$(printf '\t')
# trigraphs: the lab is built -std=c11, which reads "??/" as a backslash in a literal
for v in '-DLABQ="\"q\\\\x\""' 'a\bc' '-DX=\"' "tab${tab}here" 'plain -O2 -g' '\' '""' \
	'-DODD1=x??/b -DODD0=??= ??( ??)' '???'; do
	"$cmake" -DMODE=cstr "-DVALUE=$v" "-DOUT=$tmp/p.c" -P "$script" >"$tmp/log" 2>&1 &&
		"$cc" -std=c11 -o "$tmp/p" "$tmp/p.c" 2>>"$tmp/log" && "$tmp/p" >"$tmp/got" ||
		{ echo "FAIL: '$v' did not build: $(cat "$tmp/log")"; fail=1; continue; }
	printf '%s' "$v" >"$tmp/want"
	cmp -s "$tmp/got" "$tmp/want" || { echo "FAIL: '$v' came back as '$(cat "$tmp/got")'"; fail=1; }
done
check() { # FLAGS WANT
	got=$("$cmake" "-DFLAGS=$1" -P "$script" 2>&1)
	[ "$got" = "sanitize=$2" ] || { echo "FAIL: flags '$1': $got, want sanitize=$2"; fail=1; }
}
check '-O2 -g' ''
check '-fsanitize=address' 'address'
check '-fsanitize=address -fsanitize=undefined' 'address,undefined'
check '-fsanitize=address,undefined -fno-sanitize=address' 'undefined'
check '-fsanitize=address -fno-sanitize=address' ''
check '-fsanitize=thread -fno-sanitize=all -fsanitize=leak' 'leak'
check '-fsanitize=address -fsanitize=address' 'address'
exit $fail
