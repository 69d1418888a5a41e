#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian/Ubuntu packages the lab needs. As root it runs apt-get for whatever is
# missing (optional packages too: CI gets everything). As another user it checks what is there
# (the package, or failing that the tool, header or pkg-config module it provides, so a lab
# built from source or on another distribution passes) and stops with the exact command only
# when something required is missing; a missing optional package is a warning.
# usage: scripts/deps.sh [--ci]  (--ci adds the test-only tools)
set -euo pipefail

required=(build-essential cmake pkg-config libhwloc-dev hwloc-nox libnuma-dev libinih-dev
          libgsl-dev gnuplot-nox python3)
# Concurrency Kit: the lock kernel's ck_* reference kinds are skipped without it.
optional=(libck-dev)
if [ "${1:-}" = "--ci" ]; then
	required+=(clang clang-format libclang-rt-dev chromium)
fi

has_header() { printf '#include <%s>\n' "$1" | cc -E -x c - >/dev/null 2>&1; }

# What a package provides, checked without the package manager.
provided() {
	case "$1" in
	build-essential) command -v cc && command -v make ;;
	libhwloc-dev) pkg-config --exists hwloc ;;
	hwloc-nox) command -v lstopo-no-graphics || command -v hwloc-ls ;;
	libnuma-dev) has_header numa.h && has_header numaif.h ;;
	libinih-dev) pkg-config --exists inih ;;
	libgsl-dev) pkg-config --exists gsl ;;
	gnuplot-nox) command -v gnuplot ;;
	libck-dev) has_header ck_spinlock.h ;;
	libclang-rt-dev) false ;; # a runtime library: only the package manager can tell
	*) command -v "$1" ;;
	esac
} >/dev/null 2>&1

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed' || provided "$1"
}

missing=() missing_optional=()
for p in "${required[@]}"; do installed "$p" || missing+=("$p"); done
for p in "${optional[@]}"; do installed "$p" || missing_optional+=("$p"); done

if [ "$(id -u)" -ne 0 ]; then
	if [ ${#missing_optional[@]} -gt 0 ]; then
		echo "lab: optional packages not installed: ${missing_optional[*]}" \
			"(the lock kernel's ck_* kinds will be skipped)" >&2
	fi
	[ ${#missing[@]} -eq 0 ] && exit 0
	echo "lab: missing packages: ${missing[*]}" >&2
	echo "lab: install them with:  sudo apt-get update &&" \
		"sudo apt-get install -y --no-install-recommends ${missing[*]} ${missing_optional[*]}" >&2
	exit 1
fi
all=("${missing[@]}" "${missing_optional[@]}")
[ ${#all[@]} -eq 0 ] && exit 0
echo "lab: installing ${all[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y --no-install-recommends "${all[@]}" >/dev/null
