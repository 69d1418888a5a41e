#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# One golden-error case: runs `lab run tests/configs/bad/NAME.ini -o TMP/out [args]` from the
# source root (so every message starts with that relative path) and checks that
#   - the exit code is 2 (bad config),
#   - the first line of stderr is exactly the first line of NAME.err, where @KERNELS@ stands for
#     the names `lab list` prints, comma-separated (so adding a kernel edits no golden file),
#   - a config with one error prints that one line; with several, the last line of stderr is
#     the "lab: N errors in FILE; nothing was run" summary (unless the expected line is itself
#     a "lab: " line: the file could not be read at all),
#   - nothing was written: TMP/out does not exist and stdout is empty.
# NAME.args, when present, holds extra arguments, one per line (e.g. --topology, then its spec).
#
# usage: golden_errors.sh LAB_BINARY NAME      (run in the source root)
set -u
lab=$1
name=$2
dir=tests/configs/bad
if [ ! -f "$dir/$name.err" ]; then
	echo "golden_errors: no $dir/$name.err (run from the source root)" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-golden.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

set -- run "$dir/$name.ini" -o "$tmp/out"
if [ -f "$dir/$name.args" ]; then
	while IFS= read -r arg || [ -n "$arg" ]; do
		[ -n "$arg" ] && set -- "$@" "$arg"
	done <"$dir/$name.args"
fi
"$lab" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?

fail=0
want=$(head -n 1 "$dir/$name.err")
case "$want" in
*@KERNELS@*)
	kernels=$("$lab" list | awk '{print $1}' | paste -sd , - | sed 's/,/, /g')
	if [ -z "$kernels" ]; then
		echo "$lab list printed no kernels (needed for @KERNELS@ in $name.err)"
		exit 1
	fi
	want=$(printf '%s\n' "$want" | sed "s/@KERNELS@/$kernels/")
	;;
esac
got=$(head -n 1 "$tmp/stderr")
last=$(tail -n 1 "$tmp/stderr")
if [ "$rc" -ne 2 ]; then
	echo "exit code $rc, want 2"
	fail=1
fi
if [ "$got" != "$want" ]; then
	printf 'first line of stderr:\n  got:  %s\n  want: %s\n' "$got" "$want"
	fail=1
fi
case "$want" in
"lab: "*) ;;
*)
	case "$(wc -l <"$tmp/stderr") $last" in
	"1 "*) ;; # one error: its line is checked above
	*"lab: "*" errors in "*"; nothing was run") ;;
	*)
		printf 'last line of stderr: %s\n  want: one line, or last "lab: N errors in FILE; nothing was run"\n' "$last"
		fail=1
		;;
	esac
	;;
esac
if [ -e "$tmp/out" ]; then
	echo "the output directory was created: nothing may be written for a bad config"
	fail=1
fi
if [ -s "$tmp/stdout" ]; then
	echo "stdout is not empty:"
	cat "$tmp/stdout"
	fail=1
fi
if [ "$fail" -ne 0 ]; then
	echo "--- command: $lab $*"
	echo "--- stderr:"
	cat "$tmp/stderr"
fi
exit "$fail"
