#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the chapter-29 view fixtures under tests/fixtures/ (run once; the output is
committed): results-omp-overhead, results-omp-schedule, results-reduce, results-scan. Values are
hand-made so tests/analyze/test_omp_views.c checks medians, means and intervals computed by hand
(t(0.975, 2) = 4.302653; the 95 % margin of a mean of 3 is 4.302653 * sd / sqrt(3)):
  overhead (ovh), parallel team=openmp, 1 thread: overhead 100, 110, 120 -> median 110, mean
    110, sd 10, CI 110 +- 24.84138; ref 100 x3 -> CI [100, 100].
  2 threads: overhead -5, 0, 20 (test 1, 2, 30 minus ref 6, 2, 10) -> median 0, mean 5, sd
    sqrt(175), CI 5 +- 32.86174 = [-27.86174, 37.86174] (a difference: not clipped); test mean
    11, sd sqrt(271), margin 40.89421 -> lo clipped at 0, hi 51.89421.
  barrier team=lab, 1 thread: overhead 50 x3; 2 threads: skipped (no rows).
  schedule (sched, 2 threads): dynamic chunk 1: makespan 1300, 1200, 1100 -> median 1200, CI
    1200 +- 248.4138; chunk 8: imbalance 1, 1, 1.3 -> mean 1.1, sd sqrt(0.03), margin 0.430265
    -> lo clipped at 1, hi 1.530265. Points written chunk 64, 1, 8: the view sorts 1, 8, 64.
  reduce (red): packed_partials openmp 2 threads: 4, 5, 6 ns/element -> median 5, CI 5 +-
    2.484138; padded_partials openmp 2 threads: 0.1, 0.1, 1.0 -> mean 0.4, sd sqrt(0.27),
    margin 1.290849 -> lo clipped at 0. A strategy named <b>&x (HTML escaping).
  scan (scan): serial 1 thread at 256K: 1.0, 1.1, 0.9; two_pass 2 threads at 256K: 0.5, 0.55,
    0.45 -> speedup median 1.0/0.5 = 2, mean 1.0/0.5 = 2. At 1M no serial point: two_pass's own
    1-thread point (1.0, 1.1, 0.9) is the baseline, 2 threads 0.25, 0.275, 0.225 -> 4. At 4M
    serial 2.0, 2.2, 1.8 and two_pass 2.0, 2.1, 1.9 -> 1.
  scan-tiles (scan), as a lab before tile applied at blocked alone wrote it (tile on every
    point): serial 256K tile=64K 1.0, 1.1, 0.9 and tile=128K 2.0, 2.2, 1.8; blocked 2 threads
    0.5, 0.55, 0.45 at each tile -> speedup over the serial point of its own tile: 2 at 64K, 4
    at 128K.
"""
import json
import os

from gen_fixtures import HEADER, ROOT, run_json

WORK = 1000000


def write(name, exp, metrics, points):
    """points: (params, threads, costs, metric rows or None, status, reason)."""
    rows, pts = [], []
    for pid, (params, threads, costs, mrows, status, reason) in enumerate(points):
        pt = {"point": pid, "threads": threads, "cpus": list(range(threads)),
              "placement": "compact",
              "params": dict(kv.split("=", 1) for kv in params.split(";")),
              "status": status, "verify": "pass" if status == "ok" else "none",
              "iters_per_sample": WORK, "reps": len(costs)}
        if reason:
            pt["reason"] = reason
        pts.append(pt)
        for rep, c in enumerate(costs):
            m = "".join(f",{v:.6g}" for v in mrows[rep]) if mrows else ""
            rows.append(f"{exp['name']},{pid},{exp['kernel']},\"{params}\",{threads},{rep},"
                        f"{round(c * WORK)},{WORK},{exp['work_unit']},0.01,0{m}")
    exp = dict(exp, scaling="strong", resolved={}, points=pts,
               metrics=[{"name": n, "unit": "ns", "agg": "mean"} for n in metrics])
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(run_json("complete", [exp]), f, indent=1)
        f.write("\n")
    with open(os.path.join(d, "samples.csv"), "w") as f:
        f.write(",".join([HEADER] + metrics) + "\n" + "\n".join(rows) + "\n")
    with open(os.path.join(d, "config.ini"), "w") as f:
        f.write(f"[{exp['name']}]\nkernel = {exp['kernel']}\n")


def overhead():
    def pt(construct, team, threads, test, ref, status="ok", reason=None):
        m = [(t, r, t - r, 100) for t, r in zip(test, ref)]
        p = f"construct={construct};delay=100ns;placement=compact;team={team}"
        return (p, threads, [t + r for t, r in zip(test, ref)], m, status, reason)
    # No "views" key: the view must find these by the overhead_ns column.
    write("results-omp-overhead",
          {"name": "ovh", "kernel": "omp_overhead", "work_unit": "instance"},
          ["test_ns", "ref_ns", "overhead_ns", "delay_ns"],
          [pt("parallel", "openmp", 1, [200, 210, 220], [100, 100, 100]),
           pt("parallel", "openmp", 2, [1, 2, 30], [6, 2, 10]),
           pt("barrier", "lab", 1, [150, 150, 150], [100, 100, 100]),
           pt("barrier", "lab", 2, [], [], "skipped", "needs 2 CPUs, 1 allowed")])


def schedule():
    def pt(sched, chunk, mk, imb):
        m = [(x, 1000, x - 1000, x, x / i, 500, i) for x, i in zip(mk, imb)]
        p = (f"chunk={chunk};cost=200ns;imbalance=ramp;iterations=1024;placement=compact;"
             f"schedule={sched}")
        return (p, 2, [x / 1024 for x in mk], m, "ok", None)
    write("results-omp-schedule",
          {"name": "sched", "kernel": "omp_schedule", "work_unit": "iteration",
           "views": ["omp_schedule"]},
          ["makespan_ns", "ideal_ns", "overhead_ns", "busy_max_ns", "busy_mean_ns",
           "busy_min_ns", "imbalance"],
          [pt("dynamic", 64, [2000, 2000, 2000], [1.2, 1.2, 1.2]),
           pt("dynamic", 1, [1300, 1200, 1100], [1.01, 1.01, 1.01]),
           pt("dynamic", 8, [1050, 1050, 1050], [1, 1, 1.3]),
           pt("static", 1, [1500, 1500, 1500], [1.5, 1.5, 1.5])])


def reduce():
    def pt(strategy, team, threads, costs):
        p = f"elems=1000;placement=compact;strategy={strategy};team={team}"
        return (p, threads, costs, None, "ok", None)
    write("results-reduce",
          {"name": "red", "kernel": "reduce", "work_unit": "element", "views": ["reduce"]}, [],
          [pt("padded_partials", "openmp", 1, [1.0, 1.1, 1.2]),
           pt("padded_partials", "openmp", 2, [0.1, 0.1, 1.0]),
           pt("packed_partials", "openmp", 1, [1.0, 1.0, 1.0]),
           pt("packed_partials", "openmp", 2, [4, 5, 6]),
           pt("<b>&x", "lab", 1, [2, 2, 2])])


def scan():
    def pt(method, size, threads, costs):
        p = f"method={method};placement=compact;size={size};tile=128K"
        return (p, threads, costs, None, "ok", None)
    write("results-scan",
          {"name": "scan", "kernel": "scan", "work_unit": "element", "views": ["scan"]}, [],
          [pt("two_pass", "4M", 2, [2.0, 2.1, 1.9]),
           pt("serial", "4M", 1, [2.0, 2.2, 1.8]),
           pt("serial", "256K", 1, [1.0, 1.1, 0.9]),
           pt("two_pass", "256K", 2, [0.5, 0.55, 0.45]),
           pt("two_pass", "1M", 1, [1.0, 1.1, 0.9]),
           pt("two_pass", "1M", 2, [0.25, 0.275, 0.225])])


def scan_tiles():
    def pt(method, tile, threads, costs):
        p = f"method={method};placement=compact;size=256K;tile={tile}"
        return (p, threads, costs, None, "ok", None)
    write("results-scan-tiles",
          {"name": "scan", "kernel": "scan", "work_unit": "element", "views": ["scan"]}, [],
          [pt("serial", "64K", 1, [1.0, 1.1, 0.9]),
           pt("serial", "128K", 1, [2.0, 2.2, 1.8]),
           pt("blocked", "64K", 2, [0.5, 0.55, 0.45]),
           pt("blocked", "128K", 2, [0.5, 0.55, 0.45])])


overhead()
schedule()
reduce()
scan()
scan_tiles()
