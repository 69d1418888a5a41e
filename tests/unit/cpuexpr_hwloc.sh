#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks (or with --write, fills) the CPUS column of tests/unit/cpuexpr_hwloc.txt against hwloc's
# own hwloc-calc: each row's locations, run one by one, must give the CPUs the row lists. The lab
# side of each row is tests/unit/test_cpuexpr.c. Without hwloc-calc the check is skipped (77).
#
# usage: sh tests/unit/cpuexpr_hwloc.sh [--write]      (run in the source root)
set -u
table=tests/unit/cpuexpr_hwloc.txt
write=0
[ "${1:-}" = "--write" ] && write=1
if ! command -v hwloc-calc >/dev/null 2>&1; then
	echo "SKIPPED: hwloc-calc is not installed (package hwloc-nox; scripts/deps.sh)"
	exit 77
fi
[ -f "$table" ] || { echo "no $table (run from the source root)" >&2; exit 2; }
trim() { printf '%s' "$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }

tmp=$(mktemp "${TMPDIR:-/tmp}/lab-cpuexpr.XXXXXX") || exit 2
trap 'rm -f "$tmp"' EXIT INT TERM
fail=0 rows=0
while IFS= read -r line || [ -n "$line" ]; do
	case "$line" in
	'#'* | '')
		printf '%s\n' "$line" >>"$tmp"
		continue
		;;
	esac
	topo=$(trim "$(printf '%s' "$line" | cut -d'|' -f1)")
	expr=$(trim "$(printf '%s' "$line" | cut -d'|' -f2)")
	locs=$(trim "$(printf '%s' "$line" | cut -d'|' -f3)")
	want=$(trim "$(printf '%s' "$line" | cut -d'|' -f4)")
	case "$topo" in
	xml:*) input=${topo#xml:} ;;
	synthetic:*) input=${topo#synthetic:} ;;
	*) echo "$table: unknown topology '$topo'" >&2; exit 2 ;;
	esac
	got=
	oldifs=$IFS
	IFS=';'
	for loc in $locs; do
		IFS=$oldifs
		loc=$(trim "$loc")
		out=$(hwloc-calc --input "$input" --intersect PU --physical-output "$loc" 2>/dev/null) || {
			echo "hwloc-calc --input '$input' --intersect PU --physical-output '$loc' failed"
			fail=1
		}
		got=${got:+$got,}$out
	done
	IFS=$oldifs
	rows=$((rows + 1))
	printf '%s | %s | %s | %s\n' "$topo" "$expr" "$locs" "$got" >>"$tmp"
	if [ "$write" -eq 0 ] && [ "$got" != "$want" ]; then
		printf '%s %s: hwloc-calc gives %s, the table says %s\n' "$topo" "$expr" "$got" "$want"
		fail=1
	fi
done <"$table"
if [ "$write" -eq 1 ]; then
	[ "$fail" -eq 0 ] && cp "$tmp" "$table" && echo "wrote $rows rows to $table"
	exit "$fail"
fi
[ "$fail" -eq 0 ] && echo "$rows rows agree with hwloc-calc"
exit "$fail"
