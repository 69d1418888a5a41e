#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes tests/fixtures/results-roofline (run once; the output is committed).

Every point has 7 samples at 0.90, 0.95, 0.98, 1, 1.02, 1.05, 1.10 x its cost c (ns per unit),
so the median is c exactly and the 95 % distribution-free interval of the median of 7 is
[x(1), x(7)] = [0.9c, 1.1c]: a rate w/c has the interval [w/(1.1c), w/(0.9c)].

Ceilings (run.json caches: L1 32 KiB, L2 1 MiB, L3 32 MiB):
  bandwidth  load 8 B/elem   16K: 1 thr 0.08 ns -> 100 GB/s ("L1 16K"; copy 16 B at 0.32 ns =
             50 GB/s loses; store at 0.01 ns = 800 GB/s has every sample load-flagged, so it
             counts only with --include-flagged), 2 thr 0.04 ns -> 200 GB/s;
             1G: 1 thr 0.8 -> 10 GB/s ("DRAM 1G"), 2 thr 0.4 -> 20 GB/s
  compute    avx2 f64 16 flop/step: 1 thr 0.5 ns -> 32 GFLOP/s, 2 thr 0.25 -> 64;
             scalar f64 2 flop/step 0.5 ns -> 4 GFLOP/s (1 thread only)
Points (intensity = flops / (read + written); roof = min(compute, bw x intensity)):
  triad 16K 1 thr  2 flop / 24 B (wa +8): I 1/12, I_wa 1/16, 0.3 ns -> 6.667, roof 8.333 (L1),
                   fraction 0.8;  2 thr 0.15 ns -> 13.33, roof 16.67 (L1, 2 thr), 0.8
  dot scalar 16K   2 flop / 16 B: I 0.125, 1.0 ns -> 2 GFLOP/s, roof min(4, 12.5) = 4 (compute
                   scalar f64: its ISA's peak, not avx2's), 0.5
  dot avx2 16K     0.2 ns -> 10, 0.8;  dot scalar 256M 2.0 ns -> 1, roof 1.25 (DRAM 1G), 0.8;
  dot avx2 256M    1.6 ns -> 1.25, 1.0
  poly 16K         64 flop / 8 B: I 8, 4 ns -> 16, roof min(32, 800) = 32 (compute avx2 f64),
                   0.5; its tag param is HTML/gnuplot bait.
simd_speedup (dot f64): 16K scalar/avx2 = 1.0/0.2 = 5, 256M = 2.0/1.6 = 1.25."""
import json
import os

from gen_fixtures import HEADER, ROOT, run_json

SCALE = [0.90, 0.95, 0.98, 1.0, 1.02, 1.05, 1.10]
WORK = 1_000_000
LOAD = {"bytes_read": 8, "bytes_written": 0, "flops": 0, "bytes_write_allocate": 0}
COPY = {"bytes_read": 8, "bytes_written": 8, "flops": 0, "bytes_write_allocate": 8}
STORE = {"bytes_read": 0, "bytes_written": 8, "flops": 0, "bytes_write_allocate": 8}
TRIAD = {"bytes_read": 16, "bytes_written": 8, "flops": 2, "bytes_write_allocate": 8}
FMA = {"bytes_read": 0, "bytes_written": 0, "flops": 16, "bytes_write_allocate": 0}
SFMA = {"bytes_read": 0, "bytes_written": 0, "flops": 2, "bytes_write_allocate": 0}
DOT = {"bytes_read": 16, "bytes_written": 0, "flops": 2, "bytes_write_allocate": 0}
POLY = {"bytes_read": 8, "bytes_written": 0, "flops": 64, "bytes_write_allocate": 0}

EXPS = [
    ("bandwidth", "stream", "element", ["roofline"], [
        ("isa=avx2;op=load;size=16K", 1, 0.08, LOAD),
        ("isa=avx2;op=copy;size=16K", 1, 0.32, COPY),
        ("isa=avx2;op=store;size=16K", 1, 0.01, STORE),
        ("isa=avx2;op=load;size=16K", 2, 0.04, LOAD),
        ("isa=avx2;op=load;size=1G", 1, 0.8, LOAD),
        ("isa=avx2;op=load;size=1G", 2, 0.4, LOAD),
        ("isa=avx2;op=triad;size=16K", 1, 0.3, TRIAD),
        ("isa=avx2;op=triad;size=16K", 2, 0.15, TRIAD)]),
    ("compute", "peak", "step", ["roofline"], [
        ("isa=avx2;op=fma;precision=f64", 1, 0.5, FMA),
        ("isa=avx2;op=fma;precision=f64", 2, 0.25, FMA),
        ("isa=scalar;op=fma;precision=f64", 1, 0.5, SFMA)]),
    ("kernels", "simd", "element", ["roofline", "simd_speedup"], [
        ("isa=scalar;op=dot;size=16K;type=f64", 1, 1.0, DOT),
        ("isa=avx2;op=dot;size=16K;type=f64", 1, 0.2, DOT),
        ("isa=scalar;op=dot;size=256M;type=f64", 1, 2.0, DOT),
        ("isa=avx2;op=dot;size=256M;type=f64", 1, 1.6, DOT),
        ("isa=avx2;op=poly;size=16K;tag=<b>&x;type=f64", 1, 4.0, POLY)]),
]


def main():
    rows, exps, pid = [], [], 0
    for name, kernel, unit, views, pts in EXPS:
        e = {"name": name, "kernel": kernel, "work_unit": unit, "scaling": "strong",
             "views": views, "metrics": [], "resolved": {}, "points": []}
        for params, threads, cost, per_unit in pts:
            e["points"].append({
                # no placement, in either file: run.json's params name samples.csv's keys
                "point": pid, "threads": threads, "cpus": list(range(threads)),
                "params": dict(kv.split("=", 1) for kv in params.split(";")),
                "status": "ok", "verify": "pass", "iters_per_sample": WORK, "reps": 7,
                "work_per_unit": per_unit})
            fl = "0.8,1" if "store" in params else "0.01,0"
            for rep, k in enumerate(SCALE):
                rows.append(f"{name},{pid},{kernel},\"{params}\",{threads},{rep},"
                            f"{round(cost * k * WORK)},{WORK},{unit},{fl}")
            pid += 1
        exps.append(e)
    doc = run_json("complete", exps)
    doc["host"]["topology"]["caches"] = [
        {"level": 1, "size": 32768, "linesize": 64, "pus_sharing": 1},
        {"level": 2, "size": 1048576, "linesize": 64, "pus_sharing": 1},
        {"level": 3, "size": 33554432, "linesize": 64, "pus_sharing": 16}]
    d = os.path.join(ROOT, "results-roofline")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(os.path.join(d, "samples.csv"), "w") as f:
        f.write(HEADER + "\n" + "\n".join(rows) + "\n")
    with open(os.path.join(d, "config.ini"), "w") as f:
        f.write("[bandwidth]\nkernel = stream\n")


main()
