#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cmake/GitInfo.cmake, which the build runs at every `cmake --build` (target lab_git_info): the
# header says the current sha and dirty flag (run at configure only, they went stale), and is
# not rewritten when they did not change (an unchanged build recompiles nothing).
#   gitinfo.sh CMAKE SRCDIR
set -u
cmake=$1 src=$2
command -v git >/dev/null 2>&1 || { echo "SKIPPED: no git"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-gitinfo-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
h=$tmp/build_git.h
gen() { "$cmake" -DSRC="$1" -DOUT="$h" -P "$src/cmake/GitInfo.cmake" || fail=1; }
want() { # SHA DIRTY WHAT
	grep -q "^#define LAB_GIT_SHA   \"$1\"\$" "$h" && grep -q "^#define LAB_GIT_DIRTY $2\$" "$h" ||
		{ echo "FAILED: $3: want sha $1 dirty $2, got:"; cat "$h"; fail=1; }
}
g() { git -C "$tmp/repo" -c user.name=lab -c user.email=lab@example.invalid "$@" >/dev/null; }
mkdir "$tmp/repo" "$tmp/plain"
g init -q
echo one >"$tmp/repo/a.txt"
g add a.txt
g commit -q -m one
sha=$(git -C "$tmp/repo" rev-parse --short=12 HEAD)
gen "$tmp/repo"
want "$sha" 0 "a clean tree"
# unchanged: the file is left as it was (its old time stays)
touch -d 2001-01-01 "$h"
gen "$tmp/repo"
[ "$(date -r "$h" +%Y)" = 2001 ] || { echo "FAILED: rewritten with the same text"; fail=1; }
# an edit of a tracked file: dirty; an untracked file alone is not
echo two >"$tmp/repo/a.txt"
gen "$tmp/repo"
want "$sha" 1 "a tracked file edited"
g commit -q -a -m two
echo new >"$tmp/repo/b.txt"
sha2=$(git -C "$tmp/repo" rev-parse --short=12 HEAD)
[ "$sha2" != "$sha" ] || { echo "FAILED: the test's second commit has the first's sha"; fail=1; }
gen "$tmp/repo"
want "$sha2" 0 "committed (an untracked file beside)"
# a tarball unpacked inside another work tree: not that tree's commit
mkdir "$tmp/repo/unpacked"
gen "$tmp/repo/unpacked"
want unknown 0 "inside another work tree"
# not a git work tree (a release tarball)
GIT_CEILING_DIRECTORIES=$tmp gen "$tmp/plain"
want unknown 0 "outside git"
exit $fail
