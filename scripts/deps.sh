#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian/Ubuntu packages the lab needs. As root it runs apt-get; otherwise it
# prints the exact command and stops. usage: scripts/deps.sh [--ci]  (--ci adds test-only tools)
set -euo pipefail

pkgs=(build-essential cmake pkg-config libhwloc-dev hwloc-nox libnuma-dev libinih-dev
      libgsl-dev gnuplot-nox libck-dev python3)
if [ "${1:-}" = "--ci" ]; then
	pkgs+=(clang clang-format libclang-rt-dev chromium)
fi

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "lab: missing packages: ${missing[*]}" >&2
	echo "lab: install them with:  sudo apt-get update && sudo $cmd" >&2
	exit 1
fi
echo "lab: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
$cmd >/dev/null
