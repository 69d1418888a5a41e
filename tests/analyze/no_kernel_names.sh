#!/bin/sh
# The central analyzer and CLI files name no kernel (issue 7): a kernel's analysis lives in
# analyze/views/ and is chosen by what run.json declares. For every kernel `lab list` registers,
# fails when a central file holds it as a string literal ("lock"), or, for names with an
# underscore or a digit (c2c_latency, false_sharing: never English words), as a word at all.
# A literal that is the key argument of a JSON writer call is a field name, not a kernel.
# Usage: no_kernel_names.sh LAB SRCDIR
set -u
lab=$1
src=$2
names=$("$lab" list | awk '{print $1}')
[ -n "$names" ] || { echo "no kernels listed by $lab list"; exit 1; }
files=$(ls "$src"/analyze/*.c "$src"/analyze/*.h "$src"/lab/*.c "$src"/lab/*.h)
bad=0
for n in $names; do
	# A JSON key that happens to spell a kernel ("peak" of a USL fit) names no kernel.
	if grep -n -F -- "\"$n\"" $files | grep -v -E "(_jw_[a-z_]*|lab_json_[a-z_]*)\([^,]*, \"$n\""; then
		echo "kernel name \"$n\" spelled in a central file (move it to analyze/views/)"
		bad=1
	fi
	case $n in
	*_* | *[0-9]*)
		if grep -n -w -- "$n" $files; then
			echo "kernel name $n spelled in a central file (move it to analyze/views/)"
			bad=1
		fi
		;;
	esac
done
exit $bad
