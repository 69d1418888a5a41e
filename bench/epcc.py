#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/epcc.py — the lab's omp_overhead next to EPCC syncbench (and schedbench), interleaved.

Usage: EPCC_DIR=/path/to/openmpbench_C_v40 bench/epcc.py [--rounds 5] [--threads 2] [--out DIR]

EPCC_DIR is a directory where the user built the EPCC OpenMP micro-benchmarks (syncbench,
optionally schedbench); the lab neither ships nor downloads them. Each round runs the lab
(bench/omp-vs-epcc.ini) and syncbench once each, the order alternating between rounds so a
noisy host hits both alike; both pin their OpenMP threads to the same CPUs (the lab by its
plan, EPCC by OMP_PLACES listing the plan's CPUs with OMP_PROC_BIND=close). Printed per
construct, in ns per instance: EPCC's median_ovrhd (median test - median reference, per
round) and its printed "+/-" (1.96 x (sd_test + sd_ref), a spread of single samples, not a
CI); the lab's median overhead_ns (paired per sample) and its 95 % t-interval of the mean; both
as median over rounds [min - max]. With schedbench present, its STATIC/DYNAMIC/GUIDED rows
(overhead per loop instance) are printed after, for the record.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys

# lab construct -> (syncbench --measureonly name, the name syncbench prints)
CONSTRUCTS = {
    "parallel": ("PARALLEL", "PARALLEL"),
    "for": ("FOR", "FOR"),
    "parallel_for": ("PARALLEL_FOR", "PARALLEL FOR"),
    "barrier": ("BARRIER", "BARRIER"),
    "single": ("SINGLE", "SINGLE"),
    "critical": ("CRITICAL", "CRITICAL"),
    "lock": ("LOCK_CONTENDED", "LOCK_CONTENDED"),
    "atomic": ("ATOMIC", "ATOMIC"),
    "reduction": ("REDUCTION", "REDUCTION"),
    "ordered": ("ORDERED", "ORDERED"),
}
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
       10: 2.23, 15: 2.13, 19: 2.09, 20: 2.09, 30: 2.04}


def t95(df):
    keys = [k for k in sorted(T95) if k <= df]
    return T95[keys[-1]] if keys else float("nan")


def run_lab(lab, threads, out):
    subprocess.run([lab, "run", "bench/omp-vs-epcc.ini", "--set", f"overhead.threads={threads}",
                    "-o", out, "--no-progress"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    by = {}
    with open(os.path.join(out, "samples.csv")) as f:
        for row in csv.DictReader(f):
            params = dict(kv.split("=", 1) for kv in row["params"].split(";") if "=" in kv)
            by.setdefault(params["construct"], []).append(float(row["overhead_ns"]))
    with open(os.path.join(out, "run.json")) as f:
        cpus = json.load(f)["experiments"][0]["points"][0]["cpus"]
    res = {}
    for c, v in by.items():
        n = len(v)
        half = t95(n - 1) * statistics.stdev(v) / math.sqrt(n) if n > 1 else float("nan")
        res[c] = (statistics.median(v), half)
    return res, cpus


def run_epcc(exe, names, threads, cpus, log):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_PROC_BIND="close",
               OMP_PLACES=",".join("{%d}" % c for c in cpus[:threads]))
    res = {}
    with open(log, "w") as lf:
        for measure, printed in names:
            p = subprocess.run([exe, "--measureonly", measure], env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            lf.write(p.stdout)
            med = pm = None
            for line in p.stdout.splitlines():
                head, _, tail = line.partition("=")
                words = tail.split()
                if head.strip() == f"{printed} median_ovrhd" and words:
                    med = float(words[0]) * 1000
                if head.strip() == f"{printed} overhead" and len(words) >= 4:
                    pm = float(words[3]) * 1000
            if med is not None:
                res[measure] = (med, pm)
    return res


def fmt(vals):
    if not vals:
        return "n/a"
    return f"{statistics.median(vals):9.1f} [{min(vals):.1f} - {max(vals):.1f}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="/tmp/lab-epcc")
    a = ap.parse_args()
    epcc = os.environ.get("EPCC_DIR")
    if not epcc or not os.access(os.path.join(epcc, "syncbench"), os.X_OK):
        sys.exit("bench/epcc.py: set EPCC_DIR to the directory where you built the EPCC OpenMP "
                 "micro-benchmarks (it must hold an executable syncbench)")
    lab = os.environ.get("LAB", "./build/lab/lab")
    os.makedirs(a.out, exist_ok=True)
    names = [CONSTRUCTS[c] for c in CONSTRUCTS]
    lab_r, ep_r = {c: [] for c in CONSTRUCTS}, {c: [] for c in CONSTRUCTS}
    lab_ci, ep_pm = {c: [] for c in CONSTRUCTS}, {c: [] for c in CONSTRUCTS}
    for r in range(a.rounds):
        ldir = os.path.join(a.out, f"r{r:02d}-lab")
        subprocess.run(["rm", "-rf", ldir], check=True)
        order = ["lab", "epcc"] if r % 2 == 0 else ["epcc", "lab"]
        cpus = list(range(a.threads))
        for who in order:
            if who == "lab":
                res, cpus = run_lab(lab, a.threads, ldir)
                for c, (m, h) in res.items():
                    lab_r[c].append(m)
                    lab_ci[c].append(h)
            else:
                res = run_epcc(os.path.join(epcc, "syncbench"), names, a.threads, cpus,
                               os.path.join(a.out, f"r{r:02d}-syncbench.txt"))
                for c, (measure, _) in CONSTRUCTS.items():
                    if measure in res:
                        ep_r[c].append(res[measure][0])
                        if res[measure][1] is not None:
                            ep_pm[c].append(res[measure][1])
        print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
    print(f"omp_overhead vs EPCC syncbench, {a.threads} thread(s), {a.rounds} interleaved "
          "rounds; ns per instance, median over rounds [min - max]")
    print(f"{'construct':13} {'EPCC median_ovrhd':>32} {'EPCC +/-':>10} "
          f"{'lab overhead_ns':>32} {'lab CI95 half':>14}")
    for c in CONSTRUCTS:
        epm = f"{statistics.median(ep_pm[c]):.1f}" if ep_pm[c] else "n/a"
        lci = f"{statistics.median(lab_ci[c]):.1f}" if lab_ci[c] else "n/a"
        print(f"{c:13} {fmt(ep_r[c]):>32} {epm:>10} {fmt(lab_r[c]):>32} {lci:>14}")
    sched = os.path.join(epcc, "schedbench")
    if os.access(sched, os.X_OK):
        env = dict(os.environ, OMP_NUM_THREADS=str(a.threads), OMP_PROC_BIND="close",
                   OMP_PLACES=",".join("{%d}" % c for c in range(a.threads)))
        p = subprocess.run([sched], env=env, text=True, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        with open(os.path.join(a.out, "schedbench.txt"), "w") as f:
            f.write(p.stdout)
        print("\nEPCC schedbench median_ovrhd per loop instance (us); compare with "
              "configs/ch29-data-parallel.ini [schedule_*] overhead_ns:")
        for line in p.stdout.splitlines():
            if "median_ovrhd" in line:
                print("  " + line.strip())


if __name__ == "__main__":
    main()
