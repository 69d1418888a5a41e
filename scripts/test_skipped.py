#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/test_skipped.py JUNIT: the one line `make test` ends with.

Reads ctest's JUnit file (ctest --output-junit) and prints what was skipped, each test with the
reason it printed (testlib's "SKIPPED: ...", or a script's "skipped: ..."), and the command that
installs what those tests need, e.g.
  Skipped: slurm.fleet (slurm or munge not installed: scripts/deps.sh --ci), ...
A skip for want of hardware (NUMA nodes, CPUs, a PMU) names no command. Prints "Skipped: none"
when nothing was; prints nothing and exits 0 when there is no JUnit file (ctest did not run).
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

REASON = re.compile(r"^\s*(?:SKIPPED|SKIP|skipped)\s*:\s*(.+?)\s*$", re.M)
# Hints the reasons carry themselves: dropped, the command is appended once.
HINT = re.compile(r"\s*\([^()]*(?:deps\.sh|apt-get)[^()]*\)")
# What scripts/deps.sh installs: --ci adds the test-only tools; plain (as root) the rest,
# optional Concurrency Kit included.
CI_TOOLS = re.compile(r"slurm|munge|chromium|qemu|busybox|cpio|vmlinuz|guest kernel|clang", re.I)
BASE_TOOLS = re.compile(r"gnuplot|libck|concurrency kit|ck_spinlock|hwloc|libnuma|gsl|inih", re.I)


def install_command(reason):
    if CI_TOOLS.search(reason):
        return "scripts/deps.sh --ci"
    if BASE_TOOLS.search(reason):
        return "scripts/deps.sh"
    return ""


def main():
    if len(sys.argv) != 2 or not os.path.exists(sys.argv[1]):
        return 0
    items = []
    for tc in ET.parse(sys.argv[1]).getroot().iter("testcase"):
        if tc.find("skipped") is None:
            continue
        out = "".join(e.text or "" for e in tc.iter("system-out"))
        reasons = []
        for r in REASON.findall(out):
            r = HINT.sub("", r)
            if r not in reasons:
                reasons.append(r)
        reason = "; ".join(reasons) or "no reason printed"
        cmd = install_command(reason)
        items.append("%s (%s%s)" % (tc.get("name"), reason, ": " + cmd if cmd else ""))
    print("Skipped: " + (", ".join(items) if items else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
