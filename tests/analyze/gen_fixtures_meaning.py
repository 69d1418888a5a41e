#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the issue-21 fixtures under tests/fixtures/ (run once; the output is committed), for
tests/analyze/test_meaning.c. Three samples per point (centre times 0.99, 1, 1.01).
results-simd-speedup (finding 4): simd sum f32 16K, scalar and avx2 at 1 and 2 threads:
  scalar 2.78 ns (1 thread), 1.0 ns (2 threads); avx2 0.99 ns, 0.3565 ns. At 2 threads avx2 over
  scalar is 1.0 / 0.3565 = 2.805 (the vector gain), not 2.78 / 0.3565 = 7.8 (the scalar point at
  1 thread); scalar over itself is 1. [misalign]: avx512 misalign=0 at 0.5 ns, misalign=32 at
  0.9 ns, no scalar point: no speedup, said so (not 1).
"""
import json
import os

from gen_fixtures import HEADER, ROOT, run_json

WORK = 1000000
SPREAD = [-0.01, 0, 0.01]


class Run:
    def __init__(self):
        self.rows, self.exps, self.pid = [], [], 0

    def exp(self, name, kernel, views, unit="element", **extra):
        e = {"name": name, "kernel": kernel, "scaling": "strong", "resolved": {},
             "views": views, "points": [], "work_unit": unit, "metrics": []}
        e.update(extra)
        self.exps.append(e)
        return e

    def point(self, e, params, threads, centre):
        pid, self.pid = self.pid, self.pid + 1
        e["points"].append({"point": pid, "threads": threads, "cpus": list(range(threads)),
                            "placement": "compact", "params": params, "status": "ok",
                            "verify": "pass", "iters_per_sample": WORK, "reps": len(SPREAD)})
        ptxt = ";".join(f"{k}={v}" for k, v in sorted(params.items()))
        for rep, s in enumerate(SPREAD):
            self.rows.append(f"{e['name']},{pid},{e['kernel']},\"{ptxt}\",{threads},{rep},"
                             f"{round(centre * (1 + s) * WORK)},{WORK},{e['work_unit']},0.01,0")

    def write(self, name):
        d = os.path.join(ROOT, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump(run_json("complete", self.exps), f, indent=1)
            f.write("\n")
        with open(os.path.join(d, "samples.csv"), "w") as f:
            f.write(HEADER + "\n" + "\n".join(self.rows) + "\n")
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


simd_speedup()
