#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# lab/cpu_guard.c: a lab built with flags this CPU cannot run says so in one line and exits 1
# before any code built with those flags runs (-march=bdver4 died of SIGILL, silent, in its
# first function on a Zen 5). Built here as lab/CMakeLists.txt builds them: the guard and
# harness/cpuid_isa.c for baseline x86-64, lab/build_isa.c with the flags under test, and a main
# that says it ran. Built with the default flags it runs; with an extension this CPU lacks
# (the first of a few no current CPU has all of) it is refused, naming the extension.
#   cpu_guard.sh CC SRCDIR
set -u
cc=$1 src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-cpu-guard-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
base="-march=x86-64 -mno-sse3 -mtune=generic -mno-popcnt -mno-lzcnt -mno-bmi -mno-bmi2"
printf '#define LAB_C_FLAGS "%s"\n' "test flags" >"$tmp/build_info.h"
printf '#include <stdio.h>\nint main(void) { puts("ran"); return 0; }\n' >"$tmp/main.c"
for f in lab/cpu_guard.c harness/cpuid_isa.c; do
	"$cc" -O2 $base -I"$src" -I"$tmp" -c "$src/$f" -o "$tmp/$(basename "$f" .c).o" || exit 1
done
"$cc" -O2 $base -c "$tmp/main.c" -o "$tmp/main.o" || exit 1

build() { # FLAGS: build_isa.c with them, then link
	"$cc" -O2 $1 -I"$src" -c "$src/lab/build_isa.c" -o "$tmp/build_isa.o" &&
		"$cc" "$tmp/main.o" "$tmp/build_isa.o" "$tmp/cpu_guard.o" "$tmp/cpuid_isa.o" \
			-o "$tmp/prog"
}

fail=0
build "" || exit 1
out=$("$tmp/prog" 2>&1)
rc=$?
[ "$rc" = 0 ] && [ "$out" = ran ] || { echo "FAILED: default flags: exit $rc: $out"; fail=1; }

# An extension this CPU lacks (its /proc/cpuinfo name, then the compiler option).
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
lacks=
for pair in xop:-mxop tbm:-mtbm fma4:-mfma4 avx512_fp16:-mavx512fp16 avx512er:-mavx512er; do
	case " ${flags#*:} " in *" ${pair%%:*} "*) continue ;; esac
	echo 'int x;' | "$cc" ${pair#*:} -x c -c - -o /dev/null 2>/dev/null || continue
	lacks=$pair
	break
done
if [ -z "$lacks" ]; then
	echo "SKIPPED: this CPU has every extension tried, or the compiler knows none of them"
	exit 77
fi
name=${lacks%%:*}
case $name in avx512_fp16) name=avx512fp16 ;; esac
build "${lacks#*:}" || exit 1
out=$("$tmp/prog" 2>&1)
rc=$?
case $out in
*ran*) echo "FAILED: ${lacks#*:}: the program ran: $out"; fail=1 ;;
esac
[ "$rc" = 1 ] || { echo "FAILED: ${lacks#*:}: exit $rc, want 1: $out"; fail=1; }
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || { echo "FAILED: not one line: $out"; fail=1; }
case $out in
"lab: this lab was built with C flags 'test flags', which let the compiler use extensions this CPU lacks ("*"$name"*")"*) ;;
*) echo "FAILED: ${lacks#*:}: message: $out"; fail=1 ;;
esac
[ "$fail" = 0 ] && echo "passed: default flags run; ${lacks#*:} refused: $out"
exit "$fail"
