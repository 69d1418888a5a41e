#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the issue-21 fixtures under tests/fixtures/ (run once; the output is committed), for
tests/analyze/test_meaning.c. Three samples per point (centre times 0.99, 1, 1.01).
results-simd-speedup (finding 4): simd sum f32 16K, scalar and avx2 at 1 and 2 threads:
  scalar 2.78 ns (1 thread), 1.0 ns (2 threads); avx2 0.99 ns, 0.3565 ns. At 2 threads avx2 over
  scalar is 1.0 / 0.3565 = 2.805 (the vector gain), not 2.78 / 0.3565 = 7.8 (the scalar point at
  1 thread); scalar over itself is 1. [misalign]: avx512 misalign=0 at 0.5 ns, misalign=32 at
  0.9 ns, no scalar point: no speedup, said so (not 1).
results-cost-kind (finding 7): "lat" declares cost_kind latency (a numa_lat-like chase at 1, 2,
  4, 8 threads, 100, 101, 102, 104 ns/load): no speedup, efficiency, Karp-Flatt or fit anywhere;
  "work" (no cost_kind: an older run.json, so work) at 1, 2, 4, 8 threads, 8, 4, 2, 1 ns: speedup
  2 at 2 threads. "sched" (omp_schedule view, 2 threads): static (takes no chunk; the point
  carries the default chunk=1) and dynamic chunk 1, 8, makespan 1000, 1100, 1050 ns. "ovh"
  (omp_overhead view): a point that recorded no overhead_ns (nothing was left out).
results-asymmetric (finding 5, detection): "sum" (work_scope team, equal work per thread) at 1
  and 2 threads, 2.0 and 0.8 ns: efficiency 1.25 [1.22, 1.28], superlinear. threads.csv: at 2
  threads thread 0 took 1.45x thread 1 on the same work in reps 0 and 1 (2 asymmetric samples),
  1.1x in rep 2 (not asymmetric). "shared" (work_scope shared) at 2 threads, 1.45x apart: not
  counted (its threads need not do identical work); "uneven" (team, 2 threads) 1.45x apart with
  different work per thread: not counted; "waited" (team, equal work) 1.45x apart with thread 0
  waiting for its CPU 30 % of the sample (runq_wait 0.3; 0.001 in "sum" is within tolerance): a
  cause the guard sees, not counted.
"""
import json
import os

from gen_fixtures import HEADER, ROOT, run_json

WORK = 1000000
SPREAD = [-0.01, 0, 0.01]


class Run:
    def __init__(self, metrics=()):
        self.rows, self.exps, self.pid, self.trows = [], [], 0, []
        self.metrics = list(metrics)
        self.elapsed, self.clock = {}, 1000  # each point's elapsed_ns per rep; threads.csv time

    def team(self, pid, rep, spans, works, runqs):
        """threads.csv rows of one sample as `lab run` writes them: one timed window of the
        sample's elapsed_ns E, the slowest thread ending at its end, the others starting at its
        start, samples one after another."""
        e, t0, slow = self.elapsed[pid][rep], self.clock, max(spans)
        for t, (span, work, runq) in enumerate(zip(spans, works, runqs)):
            start = t0 + e - span if span == slow else t0
            self.trows.append(f"{pid},{rep},{t},{t},{t},{start},{start + span},{work},{runq}")
        self.clock = t0 + e + 5000

    def exp(self, name, kernel, views, unit="element", **extra):
        e = {"name": name, "kernel": kernel, "scaling": "strong", "resolved": {},
             "views": views, "points": [], "work_unit": unit, "metrics": []}
        e.update(extra)
        self.exps.append(e)
        return e

    def point(self, e, params, threads, centre, metrics=None):
        pid, self.pid = self.pid, self.pid + 1
        params = dict(params, placement="compact")  # in both files, as lab run writes it
        e["points"].append({"point": pid, "threads": threads, "cpus": list(range(threads)),
                            "placement": "compact", "params": params, "status": "ok",
                            "verify": "pass", "iters_per_sample": WORK, "sample_windows": 1,
                            "reps": len(SPREAD)})
        ptxt = ";".join(f"{k}={v}" for k, v in sorted(params.items()))
        self.elapsed[pid] = [round(centre * (1 + s) * WORK) for s in SPREAD]
        for rep, s in enumerate(SPREAD):
            m = "".join("," if v is None else f",{v * (1 + s):.6g}"
                        for v in (metrics or [None] * len(self.metrics)))
            self.rows.append(f"{e['name']},{pid},{e['kernel']},\"{ptxt}\",{threads},{rep},"
                             f"{round(centre * (1 + s) * WORK)},{WORK},{e['work_unit']},0.01,0"
                             + m)

    def write(self, name):
        d = os.path.join(ROOT, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump(run_json("complete", self.exps), f, indent=1)
            f.write("\n")
        with open(os.path.join(d, "samples.csv"), "w") as f:
            f.write(",".join([HEADER] + self.metrics) + "\n" + "\n".join(self.rows) + "\n")
        if self.trows:
            with open(os.path.join(d, "threads.csv"), "w") as f:
                f.write("point,rep,thread,cpu_start,cpu_end,start_ns,end_ns,work,runq_wait\n"
                        + "\n".join(self.trows) + "\n")
        with open(os.path.join(d, "config.ini"), "w") as f:
            f.write("".join(f"[{e['name']}]\nkernel = {e['kernel']}\n" for e in self.exps))


def simd_speedup():
    r = Run()
    e = r.exp("isa", "simd", ["simd_speedup"])
    for isa, t, c in [("scalar", 1, 2.78), ("scalar", 2, 1.0), ("avx2", 1, 0.99),
                      ("avx2", 2, 0.3565)]:
        r.point(e, {"isa": isa, "op": "sum", "type": "f32", "size": "16K"}, t, c)
    e = r.exp("misalign", "simd", ["simd_speedup"])
    for mis, c in [(0, 0.5), (32, 0.9)]:
        r.point(e, {"isa": "avx512", "op": "sum", "type": "f64", "size": "16K",
                    "misalign": str(mis)}, 1, c)
    r.write("results-simd-speedup")


def cost_kind():
    r = Run(["makespan_ns", "overhead_ns"])
    e = r.exp("lat", "numa_lat", [], "load", cost_kind="latency")
    for t, c in [(1, 100), (2, 101), (4, 102), (8, 104)]:
        r.point(e, {"size": "256M"}, t, c)
    e = r.exp("work", "triad", [])
    for t, c in [(1, 8), (2, 4), (4, 2), (8, 1)]:
        r.point(e, {"size": "1M"}, t, c)
    e = r.exp("sched", "omp_schedule", ["omp_schedule"], "iteration")
    for sched, chunk, c in [("static", 1, 1000), ("dynamic", 1, 1100), ("dynamic", 8, 1050)]:
        r.point(e, {"schedule": sched, "chunk": str(chunk), "imbalance": "ramp"}, 2, c / 1000,
                metrics=[c, None])
    e = r.exp("ovh", "omp_overhead", ["omp_overhead"], "instance")
    r.point(e, {"construct": "parallel", "team": "openmp"}, 1, 0.5)
    r.write("results-cost-kind")


def asymmetric():
    r = Run()
    e = r.exp("sum", "simd", [], work_scope="team")
    r.point(e, {"size": "16K"}, 1, 2.0)
    r.point(e, {"size": "16K"}, 2, 0.8)
    half = [WORK // 2, WORK // 2]
    for rep, slow in enumerate([1.45, 1.45, 1.1]):
        r.team(1, rep, [round(500000 * slow), 500000], half, ["0.001", "0"])
    e = r.exp("shared", "counter", [], work_scope="shared")
    r.point(e, {"size": "8"}, 2, 1.0)
    e = r.exp("uneven", "simd", [], work_scope="team")
    r.point(e, {"size": "32K"}, 2, 1.0)
    e = r.exp("waited", "simd", [], work_scope="team")
    r.point(e, {"size": "32K"}, 2, 1.0)
    for rep in range(3):
        r.team(2, rep, [725000, 500000], half, ["0", "0"])
        r.team(3, rep, [725000, 500000], [WORK // 4, 3 * WORK // 4], ["0", "0"])
        r.team(4, rep, [725000, 500000], half, ["0.3", "0"])
    r.write("results-asymmetric")


simd_speedup()
cost_kind()
asymmetric()
