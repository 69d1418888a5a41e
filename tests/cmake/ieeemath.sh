#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cmake/IeeeMath.cmake: a build asked for -Ofast or -ffast-math (in the C flags, the build
# type's or CC after the compiler) gets -fno-fast-math after them, with a warning; other flags are left as they are.
# Then the compiler: the flags it ends with keep isnan() (an -Ofast lab refused every results
# directory: no value was NaN to it).
#   ieeemath.sh CMAKE CC SRCDIR
set -u
cmake=$1 cc=$2 src=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-ieeemath-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # FLAGS TYPE_FLAGS WANT [CC's words after the compiler]
	got=$("$cmake" -DTYPE=Release -DFLAGS="$1" -DTYPE_FLAGS="$2" -DARG1="${4:-}" -DSRC="$src" \
		-P "$src/tests/cmake/ieeemath.cmake" 2>"$tmp/err" | sed -n 's/^-- flags: //p')
	[ "$got" = "$3" ] || { echo "FAILED: '$1' '$2': got '$got', want '$3'"; fail=1; }
	case $3 in *-fno-fast-math)
		grep -q "adds -fno-fast-math" "$tmp/err" || { echo "FAILED: no warning"; fail=1; } ;;
	esac
}
check "" "-O3 -DNDEBUG" "-O3 -DNDEBUG"
check "" "-Ofast -DNDEBUG" "-Ofast -DNDEBUG -fno-fast-math"
check "-ffast-math" "-O2" "-O2 -fno-fast-math"
check "-march=native" "-O2 -ffinite-math-only" "-O2 -ffinite-math-only -fno-fast-math"
check "-funsafe-math-optimizations" "-O3" "-O3 -fno-fast-math"
check "" "-O2 -fassociative-math -fno-signed-zeros" "-O2 -fassociative-math -fno-signed-zeros -fno-fast-math"
check "-freciprocal-math" "-O2" "-O2 -fno-fast-math"
check "-ffp-model=fast" "-O2" "-O2 -fno-fast-math"
check "" "-O2 -fno-honor-nans" "-O2 -fno-honor-nans -fno-fast-math"
check "-ffp-model=precise" "-O2" "-O2"
# CC="gcc -ffast-math": the words after the compiler are flags too
check "" "-O2" "-O2 -fno-fast-math" "-ffast-math -mavx512f"
check "" "-O2" "-O2" "-m64"
printf '#include <math.h>\n#include <stdlib.h>\nint main(int c, char **v) { (void)c; return !isnan(strtod(v[1], 0)); }\n' >"$tmp/n.c"
"$cc" -Ofast -fno-fast-math "$tmp/n.c" -o "$tmp/n" -lm 2>/dev/null && "$tmp/n" nan ||
	{ echo "FAILED: $cc -Ofast -fno-fast-math: isnan(NaN) is false"; fail=1; }
# and a float sum stays in its order: no packed add in a one-accumulator loop
printf 'double s(const double *x, int n) { double a = 0; for (int i = 0; i < n; i++) a += x[i]; return a; }\n' >"$tmp/s.c"
if "$cc" -O3 -msse2 -funsafe-math-optimizations -fno-fast-math -S -o "$tmp/s.s" "$tmp/s.c" 2>/dev/null; then
	! grep -q 'addpd' "$tmp/s.s" || { echo "FAILED: $cc -funsafe-math-optimizations -fno-fast-math reorders a sum"; fail=1; }
fi
exit $fail
