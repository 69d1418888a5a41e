#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The compiler launcher of the kernels: empties the file of each -fopt-info-...=FILE the compile
# names, then runs the compile. GCC appends its remarks to that file, so without this a rebuild
# (another LAB_AUTO_MARCH, a touched header) left the remarks of every earlier compile in it and
# `lab describe` showed 16- and 64-byte vectors for one loop, every count doubled.
for a in "$@"; do
	case $a in
	-fopt-info-*=*) : >"${a#*=}" ;;
	esac
done
exec "$@"
