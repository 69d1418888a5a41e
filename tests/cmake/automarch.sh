#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cmake/AutoMarch.cmake in one build directory reconfigured with other LAB_AUTO_MARCH values:
# each value is checked afresh, so one the compiler does not know stops the configure with the
# reason (it used to pass on the previous value's cached answer and fail mid-build).
#   automarch.sh CMAKE CC SRCDIR
set -u
cmake=$1 cc=$2 src=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-automarch-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
conf() { "$cmake" -S "$src/tests/cmake/automarch" -B "$tmp" -DCMAKE_C_COMPILER="$cc" \
	-DLAB_AUTO_MARCH="$1" >"$tmp.log" 2>&1; }

conf x86-64 || { echo "FAILED: -march=x86-64 refused"; cat "$tmp.log"; fail=1; }
grep -q 'LAB_HAVE_AUTO_MARCH=1' "$tmp.log" || { echo "FAILED: x86-64 not accepted"; fail=1; }
if conf lab-no-such-cpu; then
	echo "FAILED: reconfiguring with -march=lab-no-such-cpu passed (a cached answer reused)"
	fail=1
fi
grep -q 'LAB_AUTO_MARCH=lab-no-such-cpu: .* does not accept' "$tmp.log" ||
	{ echo "FAILED: no reason given for lab-no-such-cpu"; cat "$tmp.log"; fail=1; }
# a value that shares its C identifier with a good one (x86_64, x86-64) is checked on its own
if conf x86_64; then
	echo "FAILED: reconfiguring with -march=x86_64 after x86-64 passed (x86-64's answer reused)"
	fail=1
fi
grep -q 'LAB_AUTO_MARCH=x86_64: .* does not accept' "$tmp.log" ||
	{ echo "FAILED: no reason given for x86_64"; cat "$tmp.log"; fail=1; }
conf x86-64-v2 || { echo "FAILED: -march=x86-64-v2 refused after the bad value"; fail=1; }
# an empty value: one message that says what to give
if conf ""; then
	echo "FAILED: an empty LAB_AUTO_MARCH passed"
	fail=1
fi
grep -q 'LAB_AUTO_MARCH is empty: the auto kernel variants need a target' "$tmp.log" ||
	{ echo "FAILED: no reason given for an empty value"; cat "$tmp.log"; fail=1; }
# two flags in one value: refused at configure (it passed as two checked flags, then
# -march= took the whole text in the middle of the build)
if conf "x86-64-v3 -mno-avx2"; then
	echo "FAILED: a LAB_AUTO_MARCH with a space passed"
	fail=1
fi
grep -q "allowed one -march value, without" "$tmp.log" ||
	{ echo "FAILED: no reason given for a value with a space"; cat "$tmp.log"; fail=1; }
rm -f "$tmp.log"
exit $fail
