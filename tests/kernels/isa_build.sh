#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The isa tests: rebuild the stream, peak and simd variant files for another -march target (and
# compiler), then run test_disasm's static checks on that machine code. Nothing is executed, so
# any target can be checked on any x86-64 machine.
#   isa_build.sh CC FILES SRCDIR GENDIR TARGET TEST_DISASM [CFLAGS]
# CC: the compiler; FILES: build/isa-files-<GNU|Clang>.txt (file, isa, flags with @MARCH@);
# TARGET: the -march of the auto files, and the -mtune of the intrinsics files where it names a
# CPU; CFLAGS: flags put before every file's own, as a build's CMAKE_C_FLAGS are (-march=x86-64-v4
# for the whole build must not change what the scalar, sse2 or avx2 files are). Exits 77
# (skipped) when CC is not installed.
set -euo pipefail
cc=$1 files=$2 src=$3 gen=$4 target=$5 disasm=$6
read -ra cflags <<<"${7:-}"

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "SKIPPED: $cc is not installed (scripts/deps.sh --ci installs clang)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-isa-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tune=()
case $target in x86-64*) ;; *) tune=(-mtune="$target") ;; esac

while read -r file isa flags; do
	[ -n "$file" ] || continue
	read -ra opts <<<"${flags//@MARCH@/$target}"
	[ "$isa" = auto ] || opts+=("${tune[@]}")
	"$cc" -std=c11 -D_GNU_SOURCE -I"$src" -I"$gen" "${cflags[@]}" "${opts[@]}" \
		-c "$src/kernels/$file" -o "$tmp/${file%.c}.o"
done <"$files"
ar rcs "$tmp/libisa.a" "$tmp"/*.o
pre="${7:+; $7 before the flags of every file}"
echo "$("$cc" --version | head -1); -march=$target for auto${tune:+, ${tune[*]} for the intrinsics}$pre"
rc=0
for c in stream_variants peak_variants simd_variants auto_uses_only_checked_extensions \
	auto_multiply_add_unfused; do
	LAB_DISASM_LIB=$tmp/libisa.a "$disasm" "$c" >"$tmp/$c.log" 2>&1 || {
		rc=1
		echo "FAILED: $c"
	}
	grep -v ' auto: ' "$tmp/$c.log" | head -40 || true
done
# What the compiler chose for auto: printed, not asserted.
n=$(cat "$tmp"/*.log | grep -c ' auto: .*per element' || true)
same=$(cat "$tmp"/*.log | grep -c ' auto: .*: as declared$' || true)
odd=$(cat "$tmp"/*.log | grep ' auto: .*: differs$' | awk '{print $1}' | head -8 | tr '\n' ' ' || true)
echo "auto: $same of $n loops do the declared flops and bytes per element${odd:+ (not: $odd...)}"
exit $rc
