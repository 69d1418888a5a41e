#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cmake/AutoArch.cmake: what run.json's lab.auto_march.arch says -march=native became. A compiler
# older than the CPU names an older or generic CPU and still enables the CPU's vector ISAs
# (clang 14 on Zen 5: "-target-cpu" "x86-64" with +avx512f; gcc 12: znver3 with -mavx512f), so
# the ISAs beyond the named CPU are appended; the record said plain "x86-64" (clang) or "znver3".
# Fake compilers answer as those two did; the real one must add nothing to -march=x86-64, and
# add what the build's own -mavx2 -mfma turn on.
#   autoarch.sh CMAKE CC COMPILER_ID SRCDIR
set -u
cmake=$1 cc=$2 id=$3 src=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-autoarch-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
# A fake compiler: -dM prints the macros of its -march (native = x86-64 + AVX-512, as on Zen 5).
cat >"$tmp/common" <<'EOS'
march=
for a in "$@"; do case $a in -march=*) march=${a#-march=} ;; esac; done
case " $* " in *" -dM "*)
	echo "#define __SSE2__ 1"
	case $march in native|znver3)
		printf '#define __%s__ 1\n' SSE4_2 AVX AVX2 FMA ;; esac
	[ "$march" = native ] && printf '#define __%s__ 1\n' AVX512F AVX512BW AVX512DQ AVX512VL
	case " $* " in *" -mavx2 "*) echo "#define __AVX2__ 1" ;; esac
	exit 0 ;;
esac
EOS
{ echo '#!/bin/sh'; cat "$tmp/common"
  echo 'cpu=$march; [ "$march" = native ] && cpu=x86-64'
  echo 'echo " \"-cc1\" \"-target-cpu\" \"$cpu\" \"-target-feature\" \"+avx512f\"" >&2'; } >"$tmp/clang"
{ echo '#!/bin/sh'; cat "$tmp/common"
  echo 'cpu=$march; [ "$march" = native ] && cpu=znver3'
  echo 'printf "The following options are target specific:\n  -march=    \t\t%s\n  -mtune=    \t\t%s\n" "$cpu" "$cpu"'; } >"$tmp/gcc"
chmod +x "$tmp/clang" "$tmp/gcc"

check() { # ID CC MARCH EXPECTED [EXTRA: the build's -m options]
	got=$("$cmake" -DID="$1" -DCC="$2" -DMARCH="$3" -DEXTRA="${5:-}" \
		-P "$src/tests/cmake/autoarch.cmake" 2>&1)
	[ "$got" = "$4" ] || { echo "FAILED: $1 -march=$3 ${5:-}: got '$got', want '$4'"; fail=1; }
}
# isa: the widest of the lab's variants the auto files may use (avx2 needs FMA too)
check Clang "$tmp/clang" native "arch=x86-64+sse4.2+avx+avx2+fma+avx512f+avx512bw+avx512dq+avx512vl tune=x86-64 isa=avx512"
check Clang "$tmp/clang" x86-64 "arch=x86-64 tune=x86-64 isa=sse2"
check GNU "$tmp/gcc" native "arch=znver3+avx512f+avx512bw+avx512dq+avx512vl tune=znver3 isa=avx512"
check GNU "$tmp/gcc" znver3 "arch=znver3 tune=znver3 isa=avx2"
# -mavx2 in CMAKE_C_FLAGS outlives the auto files' -march=x86-64: the record says so
check GNU "$tmp/gcc" x86-64 "arch=x86-64+avx2 tune=x86-64 isa=sse2" -mavx2
# The real compiler: x86-64 is itself, nothing appended.
got=$("$cmake" -DID="$id" -DCC="$cc" -DMARCH=x86-64 -P "$src/tests/cmake/autoarch.cmake" 2>&1)
case $got in "arch=x86-64 tune="*" isa=sse2") ;; *) echo "FAILED: $cc -march=x86-64: got '$got'"; fail=1 ;; esac
got=$("$cmake" -DID="$id" -DCC="$cc" -DMARCH=x86-64 -DEXTRA="-mavx2 -mfma" \
	-P "$src/tests/cmake/autoarch.cmake" 2>&1)
case $got in "arch=x86-64+"*avx2*fma*" tune="*" isa=avx2") ;; *)
	echo "FAILED: $cc -mavx2 -mfma -march=x86-64: got '$got'"; fail=1 ;; esac
# -mtune in CMAKE_C_FLAGS outlives the auto files' -march: the record names it (it said the
# -march's own tuning)
got=$("$cmake" -DID="$id" -DCC="$cc" -DMARCH=x86-64-v3 -DFLAGS="-O2 -mtune=znver3 -g" \
	-P "$src/tests/cmake/autoarch.cmake" 2>&1)
case $got in "arch=x86-64-v3 tune=znver3 isa=avx2") ;; *)
	echo "FAILED: $cc -mtune=znver3 in the C flags, -march=x86-64-v3: got '$got'"; fail=1 ;; esac
# -mno-avx in the C flags takes AVX and what needs it from -march=x86-64-v3's auto files: the
# record marks each taken away (it said plain x86-64-v3)
got=$("$cmake" -DID="$id" -DCC="$cc" -DMARCH=x86-64-v3 -DFLAGS="-O2 -mno-avx" \
	-P "$src/tests/cmake/autoarch.cmake" 2>&1)
case $got in "arch=x86-64-v3-avx-avx2"*" tune="*" isa=sse2") ;; *)
	echo "FAILED: $cc -mno-avx in the C flags, -march=x86-64-v3: got '$got'"; fail=1 ;; esac
# The width of the auto files' vectors, read from a probe loop's assembly: a target that allows
# AVX-512 and prefers 256-bit vectors (gcc's skylake-avx512, clang's x86-64-v4) is AVX-512 on
# ymm, as wide as the avx2 variant (its auto points sat under the 512-bit ceiling).
width() { # MARCH EXTRA EXPECTED
	got=$("$cmake" -DID="$id" -DCC="$cc" -DMARCH="$1" -DEXTRA="$2" -DTMP="$tmp" \
		-P "$src/tests/cmake/autoarch.cmake" 2>&1)
	[ "$got" = "$3" ] || { echo "FAILED: $cc -march=$1 $2: got '$got', want '$3'"; fail=1; }
}
width x86-64 "" "vectors=128-bit isa=sse2"
width x86-64-v3 "" "vectors=256-bit isa=avx2"
width x86-64-v4 "-mprefer-vector-width=256" "vectors=256-bit isa=avx2"
width x86-64-v4 "-mprefer-vector-width=512" "vectors=512-bit isa=avx512"
width x86-64-v3 "-masm=intel" "vectors=256-bit isa=avx2" # ymm0, not %ymm0
exit $fail
