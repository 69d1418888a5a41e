#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/epcc.py — the lab's omp_overhead next to EPCC syncbench (and schedbench), interleaved.

Usage: EPCC_DIR=/path/to/openmpbench_C_v40 bench/epcc.py [--rounds 5] [--threads 1,2]
       [--constructs parallel,for,...] [--out DIR] [--markdown] [--sched]
       [--epcc-args '--test-time 200 --outer-repetitions 100']

EPCC_DIR is a directory where the user built the EPCC OpenMP micro-benchmarks (syncbench,
optionally schedbench); the lab neither ships nor downloads them. (libgomp 12 lacks
omp_init_lock_with_hint, which syncbench v4.0 calls: build it with
CFLAGS="-fopenmp -O2 '-Domp_init_lock_with_hint(l,h)=omp_init_lock(l)'"; only the _HINT
tests, not run here, use it.) Each round runs, per thread count, the lab
(bench/omp-vs-epcc.ini) and syncbench once each, the order alternating between rounds so a
noisy host hits both alike; both pin their OpenMP threads to the same CPUs (the lab by its
plan, EPCC by OMP_PLACES listing the plan's CPUs with OMP_PROC_BIND=close). Each run records
the 1-minute load average and the foreign CPU load during it (busy CPU time of the whole host
minus the run's own, per second: 0 = quiet host, 1 = one other CPU's worth of work).

Printed per construct and thread count, in ns per instance:
  EPCC: its median_ovrhd (median test - median reference, per run): median over rounds
        [min - max]; its own "+/-" (1.96 x (sd_test + sd_ref), a spread of single samples,
        not a CI), median over rounds.
  lab:  the median of overhead_ns over the run's samples (each a paired test - reference):
        median over rounds [min - max]; the half-width of the distribution-free 95 % CI of
        that median (order statistics), median over rounds.
  in: whether the lab's median lies within EPCC's median +/- its own "+/-" (own) and within
      EPCC's min - max over rounds (rounds); narrower: whether the lab's CI is narrower than
      EPCC's "+/-".
EPCC's defaults time 20 samples of ~1 ms each; on a shared host nearly every such sample holds
another tenant's time slice, so its medians move by several hundred ns between runs.
--epcc-args '--test-time 200 --outer-repetitions 100' gives it samples as short as the lab's
(bench/omp-vs-epcc.ini): the fair comparison on a busy machine.
With --sched, schedbench runs once at the end and its median_ovrhd rows are printed for the
record. Raw values go to OUT/rounds.json.
"""
import argparse
import csv
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time

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
DEFAULT_CONSTRUCTS = "parallel,for,barrier,reduction,single,critical,lock,atomic"


def busy_seconds():
    """Busy CPU seconds of the whole host so far (/proc/stat, all but idle and iowait)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(v[:8]) - v[3] - v[4]) / hz


def own_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measured(fn):
    """Runs fn(); returns (its result, load average at start, foreign CPUs during it)."""
    load = os.getloadavg()[0]
    b0, o0, t0 = busy_seconds(), own_seconds(), time.monotonic()
    res = fn()
    b1, o1, t1 = busy_seconds(), own_seconds(), time.monotonic()
    return res, load, max(0.0, ((b1 - b0) - (o1 - o0)) / max(t1 - t0, 1e-9))


def median_ci(v):
    """Median and the half-width of its distribution-free 95 % CI (order statistics)."""
    v = sorted(v)
    n = len(v)
    med = statistics.median(v)
    if n < 6:
        return med, float("nan")
    # Largest k with P(Binomial(n, 1/2) < k) <= 2.5 %: [v[k-1], v[n-k]] covers >= 95 %.
    k, cum = 0, 0.0
    while True:
        p = math.comb(n, k) / 2.0**n
        if cum + p > 0.025:
            break
        cum += p
        k += 1
    lo, hi = v[max(k - 1, 0)], v[min(n - k, n - 1)]
    return med, (hi - lo) / 2


def run_lab(lab, threads, constructs, out):
    subprocess.run(["rm", "-rf", out], check=True)
    subprocess.run([lab, "run", "bench/omp-vs-epcc.ini", "--set", f"overhead.threads={threads}",
                    "--set", "overhead.construct=" + ",".join(constructs), "-o", out,
                    "--no-progress"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    by = {}
    with open(os.path.join(out, "samples.csv")) as f:
        for row in csv.DictReader(f):
            params = dict(kv.split("=", 1) for kv in row["params"].split(";") if "=" in kv)
            by.setdefault(params["construct"], []).append(float(row["overhead_ns"]))
    with open(os.path.join(out, "run.json")) as f:
        cpus = json.load(f)["experiments"][0]["points"][0]["cpus"]
    return {c: median_ci(v) for c, v in by.items()}, cpus


def parse_syncbench(text, printed):
    """(median_ovrhd ns, its "+/-" ns, test sd ns, inner reps) of test `printed`."""
    med = pm = sd = reps = None
    current = None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("Computing ") and s.endswith(" reps"):
            current = s[len("Computing "):s.rindex(" time using")]
            if current == printed:
                reps = int(s.split()[-2])
            continue
        words = s.split()
        if current == printed and len(words) == 7 and words[0].isdigit():
            sd = float(words[5]) * 1000  # Sample_size Mean Median Min Max StdDev Outliers
        head, _, tail = s.partition("=")
        words = tail.split()
        if head.strip() == f"{printed} median_ovrhd" and words:
            med = float(words[0]) * 1000
        if head.strip() == f"{printed} overhead" and len(words) >= 4:
            pm = float(words[3]) * 1000
    return med, pm, sd, reps


def run_epcc(exe, extra, constructs, threads, cpus, log):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_PROC_BIND="close",
               OMP_PLACES=",".join("{%d}" % c for c in cpus[:threads]))
    res = {}
    with open(log, "w") as lf:
        for c in constructs:
            measure, printed = CONSTRUCTS[c]
            p = subprocess.run([exe, "--measureonly", measure] + extra, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            lf.write(p.stdout)
            med, pm, sd, reps = parse_syncbench(p.stdout, printed)
            if med is not None:
                res[c] = {"median_ovrhd": med, "pm": pm, "sd_test": sd, "innerreps": reps}
    return res


def rng(vals):
    if not vals:
        return "n/a"
    return f"{statistics.median(vals):.0f} [{min(vals):.0f} - {max(vals):.0f}]"


def med_or_nan(vals):
    vals = [v for v in vals if v is not None and not math.isnan(v)]
    return statistics.median(vals) if vals else float("nan")


def summary_rows(rounds, threads, constructs):
    rows = []
    for c in constructs:
        ep = [r["epcc"][c]["median_ovrhd"] for r in rounds
              if r["threads"] == threads and c in r["epcc"]]
        pm = med_or_nan([r["epcc"][c]["pm"] for r in rounds
                         if r["threads"] == threads and c in r["epcc"]])
        lb = [r["lab"][c][0] for r in rounds if r["threads"] == threads and c in r["lab"]]
        ci = med_or_nan([r["lab"][c][1] for r in rounds
                         if r["threads"] == threads and c in r["lab"]])
        if not ep or not lb:
            rows.append((c, rng(ep), "n/a", rng(lb), "n/a", "n/a", "n/a", "n/a"))
            continue
        e, l = statistics.median(ep), statistics.median(lb)
        own = "yes" if abs(l - e) <= pm else "no"
        rnd = "yes" if min(ep) <= l <= max(ep) else "no"
        narrower = "yes" if ci < pm else "no"
        rows.append((c, rng(ep), f"{pm:.0f}", rng(lb), f"{ci:.0f}", own, rnd, narrower))
    return rows


def print_table(rounds, threads, constructs, markdown):
    head = ("construct", "EPCC median_ovrhd", "EPCC +/-", "lab overhead_ns", "lab CI95 +/-",
            "in own", "in rounds", "narrower")
    rows = summary_rows(rounds, threads, constructs)
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(r) + " |")
        return
    fmt = "{:13} {:>24} {:>9} {:>24} {:>12} {:>6} {:>9} {:>8}"
    print(fmt.format(*head))
    for r in rows:
        print(fmt.format(*r))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", default="2", help="thread counts, comma-separated")
    ap.add_argument("--constructs", default=DEFAULT_CONSTRUCTS)
    ap.add_argument("--out", default="/tmp/lab-epcc")
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    ap.add_argument("--sched", action="store_true", help="also run schedbench once")
    ap.add_argument("--epcc-args", default="",
                    help="extra syncbench arguments, e.g. '--test-time 200'")
    a = ap.parse_args()
    epcc = os.environ.get("EPCC_DIR")
    if not epcc or not os.access(os.path.join(epcc, "syncbench"), os.X_OK):
        sys.exit("bench/epcc.py: set EPCC_DIR to the directory where you built the EPCC OpenMP "
                 "micro-benchmarks (it must hold an executable syncbench)")
    constructs = [c.strip() for c in a.constructs.split(",") if c.strip()]
    bad = [c for c in constructs if c not in CONSTRUCTS]
    if bad:
        sys.exit(f"bench/epcc.py: unknown construct {bad[0]}, allowed {', '.join(CONSTRUCTS)}")
    thread_counts = [int(t) for t in a.threads.split(",")]
    extra = a.epcc_args.split()
    lab = os.environ.get("LAB", "./build/lab/lab")
    os.makedirs(a.out, exist_ok=True)
    rounds = []
    for r in range(a.rounds):
        for nt in thread_counts:
            rec = {"round": r, "threads": nt, "lab": {}, "epcc": {}, "cpus": list(range(nt))}
            order = ["lab", "epcc"] if r % 2 == 0 else ["epcc", "lab"]
            for who in order:
                if who == "lab":
                    ldir = os.path.join(a.out, f"r{r:02d}-t{nt}-lab")
                    (res, cpus), load, foreign = measured(
                        lambda: run_lab(lab, nt, constructs, ldir))
                    rec["lab"], rec["cpus"] = res, cpus
                else:
                    log = os.path.join(a.out, f"r{r:02d}-t{nt}-syncbench.txt")
                    res, load, foreign = measured(lambda: run_epcc(
                        os.path.join(epcc, "syncbench"), extra, constructs, nt, rec["cpus"],
                        log))
                    rec["epcc"] = res
                rec[f"{who}_load"], rec[f"{who}_foreign"] = load, foreign
            rounds.append(rec)
            print(f"round {r + 1}/{a.rounds} threads {nt}: load {rec['lab_load']:.1f}, foreign "
                  f"CPUs lab {rec['lab_foreign']:.2f} epcc {rec['epcc_foreign']:.2f}",
                  file=sys.stderr)
    with open(os.path.join(a.out, "rounds.json"), "w") as f:
        json.dump(rounds, f, indent=1)
    for nt in thread_counts:
        rs = [r for r in rounds if r["threads"] == nt]
        loads = [r["lab_load"] for r in rs] + [r["epcc_load"] for r in rs]
        foreign = [r["lab_foreign"] for r in rs] + [r["epcc_foreign"] for r in rs]
        print(f"\nomp_overhead vs EPCC syncbench {' '.join(extra)}, {nt} thread(s) on CPUs "
              f"{rs[0]['cpus']}, "
              f"{a.rounds} interleaved rounds; load average {min(loads):.1f}-{max(loads):.1f}, "
              f"foreign CPUs {min(foreign):.2f}-{max(foreign):.2f}; ns per instance, median "
              "over rounds [min - max]")
        print_table(rounds, nt, constructs, a.markdown)
    sched = os.path.join(epcc, "schedbench")
    if a.sched and os.access(sched, os.X_OK):
        nt = thread_counts[-1]
        env = dict(os.environ, OMP_NUM_THREADS=str(nt), OMP_PROC_BIND="close",
                   OMP_PLACES=",".join("{%d}" % c for c in range(nt)))
        p = subprocess.run([sched], env=env, text=True, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        with open(os.path.join(a.out, "schedbench.txt"), "w") as f:
            f.write(p.stdout)
        print(f"\nEPCC schedbench median_ovrhd per loop instance (us), {nt} thread(s); compare "
              "with configs/ch29-data-parallel.ini [schedule] overhead_ns:")
        for line in p.stdout.splitlines():
            if "median_ovrhd" in line:
                print("  " + line.strip())


if __name__ == "__main__":
    main()
