#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the compare-with-runs fixtures under tests/fixtures/ (run once; the output is
committed) for issue 22 (tests/analyze/test_cli.c, compare_runs_*). Both have runs = 3 of 10
samples per point, a `run` column, within-run noise 0.2 %:
  threads=1: run means 1.00, 1.10, 0.90 (a) and 1.08, 1.18, 0.98 (b): +8 % with a run-to-run
    sd of 10 %. On samples (30 a side) it is a regression; on run means it is no change.
  threads=2: run means 0.50, 0.52, 0.48 (a) and 0.75, 0.78, 0.72 (b): +50 %, a regression at
    either level.
"""
import json
import os
import random

from gen_fixtures import HEADER, ROOT, run_json

MEANS = {"results-compare-runs-a": {1: (1.00, 1.10, 0.90), 2: (0.50, 0.52, 0.48)},
         "results-compare-runs-b": {1: (1.08, 1.18, 0.98), 2: (0.75, 0.78, 0.72)}}


def point(pid, n, reps):
    """run.json's record of point pid at n threads, reps samples in 3 runs."""
    return {"point": pid, "threads": n, "cpus": list(range(n)), "placement": "compact",
            "params": {"placement": "compact"}, "status": "ok", "verify": "pass",
            "iters_per_sample": 1000, "reps": reps, "runs": 3}


def sample(rows, pid, n, rep, cost, run, work=1_000_000):
    rows.append(f"locks,{pid},lock_mutex,placement=compact,{n},{rep},"
                f"{round(cost * work)},{work},op,0.01,0,{run}")


def emit(name, pts, rows, reps):
    """The fixture's run.json, samples.csv (with a run column) and config.ini."""
    exp = {"name": "locks", "kernel": "lock_mutex", "work_unit": "op", "scaling": "strong",
           "metrics": [], "resolved": {}, "points": pts}
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(run_json("complete", [exp]), f, indent=1)
        f.write("\n")
    with open(os.path.join(d, "samples.csv"), "w") as f:
        f.write(HEADER + ",run\n" + "\n".join(rows) + "\n")
    with open(os.path.join(d, "config.ini"), "w") as f:
        f.write(f"[global]\nreps = {reps}\nruns = 3\n")


def write(name, seed):
    rng = random.Random(seed)
    rows, pts = [], []
    for pid, (n, means) in enumerate(MEANS[name].items()):
        pts.append(point(pid, n, 30))
        rep = 0
        for run, m in enumerate(means):
            for _ in range(10):
                sample(rows, pid, n, rep, m * (1 + 0.002 * rng.gauss(0, 1)), run)
                rep += 1
    emit(name, pts, rows, 10)


def write_usl(name="results-usl-runs", seed=3):
    """A series fitted on run means: 6 thread counts of 3 runs of 4 samples, USL cost
    (1 + 0.05 (N-1) + 0.001 N (N-1)) / N, run-to-run sd 3 %, within-run 0.5 % (test_fits_cli,
    fits_on_run_means)."""
    rng = random.Random(seed)
    rows, pts = [], []
    for pid, n in enumerate((1, 2, 4, 8, 16, 32)):
        rep = 0
        pts.append(point(pid, n, 12))
        cost = (1 + 0.05 * (n - 1) + 0.001 * n * (n - 1)) / n
        for run in range(3):
            m = cost * (1 + 0.03 * rng.gauss(0, 1))
            for _ in range(4):
                sample(rows, pid, n, rep, m * (1 + 0.005 * rng.gauss(0, 1)), run)
                rep += 1
    emit(name, pts, rows, 4)


if __name__ == "__main__":
    write("results-compare-runs-a", 1)
    write("results-compare-runs-b", 2)
    write_usl()
