#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks what the ISA guest printed (numa_guest.sh with tests/vm/isa-guest.ini and a QEMU CPU
model that lacks some extensions): lab run ended well on that CPU (no fault); every ISA variant
whose extensions the guest's CPU has ran and verified; every one it lacks was skipped with a
reason that names a missing extension, never run and never a zero; auto ran or was skipped as
built for another CPU; `LAB analyze` of the results reads the skipped points as skipped.
usage: check_isa_guest.py GUEST_LOG NODES LAB"""
import json
import re
import sys

from check_guest import analyze_json, check, fails, section

# /proc/cpuinfo's names of what each variant needs (harness/cpufeat.h; avx2 is AVX2 + FMA)
NEEDS = {"scalar": [], "sse2": ["sse2"], "avx2": ["avx2", "fma"],
         "avx512": ["avx512f", "avx512bw", "avx512dq", "avx512vl", "avx2", "fma"]}


def point_ok(name, p, flags):
    isa = p["params"].get("isa", "")
    what = "%s isa=%s op=%s" % (name, isa, p["params"].get("op"))
    reason = p.get("reason") or ""
    if not isa:  # no ISA variants ([openmp]): it runs on any x86-64 CPU
        check(p["status"] == "ok" and p.get("verify") == "pass",
              "%s: ran and verified (%s %s)" % (name, p["status"], reason[:120]))
        return False
    if isa == "auto":
        check((p["status"] == "ok" and p.get("verify") == "pass")
              or (p["status"] == "skipped" and reason.startswith("auto was built with -march=")),
              "%s: ran and verified, or skipped as built for another CPU (%s %s)"
              % (what, p["status"], reason[:120]))
        return p["status"] == "skipped"
    # peak's scalar file is built with -mfma (scalar FMA instructions): it needs FMA
    need = NEEDS[isa] + (["fma"] if isa == "scalar" and name == "peak" else [])
    missing = [f for f in need if f not in flags]
    if not missing:
        check(p["status"] == "ok" and p.get("verify") == "pass",
              "%s: the CPU has it; ran and verified (%s %s)" % (what, p["status"], reason[:120]))
        return False
    named = re.match(r"needs ([a-z0-9. ]+);", reason)
    check(p["status"] == "skipped" and named is not None
          and any(f in named.group(1).split() for f in missing),
          "%s: the CPU lacks %s; skipped with it named (%s %s)"
          % (what, " ".join(missing), p["status"], reason[:120]))
    return True


def main():
    log = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    lab = sys.argv[3]
    check("=== GUEST DONE" in log, "the guest finished its script")
    m = re.search(r"^=== CPUFLAGS (.*)$", log, re.M)
    flags = set(m.group(1).split()) if m else set()
    check("sse2" in flags, "the guest's CPU flags came back")
    m = re.search(r"^=== RUN RC (\d+)$", log, re.M)
    check(m is not None and m.group(1) == "0", "lab run exited 0 in the guest")
    try:
        run = json.loads(section(log, "FILE run.json") or "")
    except ValueError as e:
        print("run.json: %s" % e)
        run = None
    check(run is not None, "run.json came back over the serial console")
    if run is None:
        return
    skipped = ran = 0
    for e in run["experiments"]:
        for p in e["points"]:
            s = point_ok(e["name"], p, flags)
            skipped += s
            ran += not s
    check(ran >= 8, "the scalar and sse2 variants ran: %d points ran" % ran)
    doc = analyze_json(lab, log, run)
    if doc is None:
        return
    pts = [p for s in doc.get("series", []) for p in s.get("points", [])]
    sk = [p for p in pts if p.get("status") == "skipped"]
    check(len(sk) == skipped and all(p.get("median") is None and p.get("reason") for p in sk),
          "lab analyze: %d skipped points, each with its reason and no number" % len(sk))


if __name__ == "__main__":
    main()
    print("%d failed" % len(fails))
    sys.exit(1 if fails else 0)
