#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/lock_cs.py LAB [ROUNDS] [OUTDIR]: the critical-section length of every lock kind.

Runs bench/lock-cs.ini ROUNDS times (default 5; interleaved, so a busy moment of a shared host
hits every kind alike) and prints, per kind, the median cs_achieved_ns over every kept
(unflagged) sample of every round, then max/min over kinds and the median over kinds against
the 1000 ns asked for. A benchmark, not a test: it prints figures and asserts none (the unit
test it replaces failed 9 times in 24 beside a busy process). Figures: bench/RESULTS.md.
"""
import csv
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run_round(lab, out):
    subprocess.run([lab, "run", os.path.join(HERE, "lock-cs.ini"), "-o", out, "--no-progress"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "samples.csv"), newline="") as f:
        for row in csv.DictReader(f):
            kind = dict(kv.split("=", 1) for kv in row["params"].split(";"))["lock"]
            yield kind, row


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: bench/lock_cs.py LAB [ROUNDS] [OUTDIR]")
    lab = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    base = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="lock-cs-")
    kept, flagged = {}, {}
    for r in range(rounds):
        for kind, row in run_round(lab, os.path.join(base, "r%02d" % r)):
            cs = float(row["cs_achieved_ns"] or "nan")
            if row["flagged"] not in ("", "0") or cs != cs:
                flagged[kind] = flagged.get(kind, 0) + 1
                continue
            kept.setdefault(kind, []).append(cs)
    if not kept:
        sys.exit("lock_cs: no kept samples (every kind skipped or flagged)")
    med = {k: statistics.median(v) for k, v in kept.items()}
    print("%-14s %10s %8s %8s" % ("lock", "median_ns", "samples", "flagged"))
    for k in sorted(med, key=med.get):
        print("%-14s %10.1f %8d %8d" % (k, med[k], len(kept[k]), flagged.get(k, 0)))
    lo, hi = min(med, key=med.get), max(med, key=med.get)
    print("max/min = %.3f (%s %.1f ns / %s %.1f ns); median over %d kinds %.1f ns for cs_ns = "
          "1000; %d rounds in %s" % (med[hi] / med[lo], hi, med[hi], lo, med[lo], len(med),
                                     statistics.median(med.values()), rounds, base))


if __name__ == "__main__":
    main()
