#!/usr/bin/env python3
"""Per-point medians from a `lab run` directory, for bench/RESULTS-locks.md.

usage: bench/summarize.py DIR [--quiet-only]
Prints one line per point: experiment, params, threads, samples used, median and min ns per
unit of work (elapsed_ns / work), median foreign load, and for lock points jain_fairness, for
c2c points the median one_way_ns and one_way_p50_ns. --quiet-only drops flagged samples
(foreign load above the point's threshold). A stand-in until `lab analyze` covers these.
"""
import csv
import statistics
import sys


def main():
    d = sys.argv[1]
    quiet = "--quiet-only" in sys.argv
    pts = {}
    with open(f"{d}/samples.csv") as f:
        for r in csv.DictReader(f):
            if quiet and r["flagged"] == "1":
                continue
            pts.setdefault((r["experiment"], r["point"]), []).append(r)
    for (exp, pt), rows in sorted(pts.items(), key=lambda kv: int(kv[0][1])):
        cost = [int(r["elapsed_ns"]) / int(r["work"]) for r in rows if int(r["work"])]
        fc = [float(r["foreign_cpu"]) for r in rows if r["foreign_cpu"]]
        params = ";".join(kv for kv in rows[0]["params"].split(";")
                          if kv.split("=")[0] in ("lock", "method", "layout", "pair", "cs_ns"))
        line = (f"{exp:8} {params:34} thr={rows[0]['threads']} n={len(rows):3} "
                f"median={statistics.median(cost):9.2f} min={min(cost):9.2f} "
                f"foreign={statistics.median(fc) if fc else float('nan'):.2f}")
        for m in ("jain_fairness", "one_way_ns", "one_way_p50_ns"):
            v = [float(r[m]) for r in rows if r.get(m)]
            if v:
                line += f" {m}={statistics.median(v):.3g}"
        print(line)


if __name__ == "__main__":
    main()
