#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes tests/fixtures/results-same-cpus (run once; the output is committed), for
tests/analyze/test_views.c: stride_chart_says_same_cpus. Experiment "fs" (false_sharing, 2
threads, strides 8 and 128) under seven placements: compact, cores, list:0-1, list:0,1, list:1,0 and
expr:N:0-1 on CPUs 0,1 (a 2-CPU machine cannot tell them apart), scatter on 0,2. Costs 10, 14,
30, 11, 12, 13, 15 ns at stride 8 and a fifth of that at 128, five samples each (centre times 1,
1.01, ..., 1.04). A section names four placements on another's CPUs and counts the rest. The run.json header is
results-usl's."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures")
OUT = os.path.join(FIX, "results-same-cpus")
CONFIG = ("[fs]\nkernel = false_sharing\nthreads = 2\n"
          "placement = compact, cores, scatter, list:0-1, list:0,1, list:1,0, expr:N:0-1\n"
          "stride = 8, 128\n")

with open(os.path.join(FIX, "results-usl", "run.json")) as f:
    run = json.load(f)
points, rows = [], []
for placement, cpus, centre in (("compact", [0, 1], 10.0), ("cores", [0, 1], 14.0),
                                ("scatter", [0, 2], 30.0), ("list:0-1", [0, 1], 11.0),
                                ("list:0,1", [0, 1], 12.0), ("list:1,0", [0, 1], 13.0),
                                ("expr:N:0-1", [0, 1], 15.0)):
    for stride in ("8", "128"):
        pid = len(points)
        points.append({"point": pid, "threads": 2, "cpus": cpus, "placement": placement,
                       "params": {"placement": placement, "stride": stride}, "status": "ok",
                       "verify": "pass", "iters_per_sample": 1000, "reps": 5})
        for rep in range(5):
            ns = (centre if stride == "8" else centre / 5) * (1 + 0.01 * rep)
            rows.append(f'fs,{pid},false_sharing,"placement={placement};stride={stride}",2,'
                        f'{rep},{int(ns * 1000000)},1000000,op,0.01,0')
run["experiments"] = [{"name": "fs", "kernel": "false_sharing", "work_unit": "op",
                       "scaling": "strong", "metrics": [], "resolved": {}, "points": points}]
run["config"] = {"files": ["configs/fixture.ini"], "sets": [], "text": CONFIG}
os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, "run.json"), "w") as f:
    json.dump(run, f, indent=1)
with open(os.path.join(OUT, "samples.csv"), "w") as f:
    f.write("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,"
            "foreign_cpu,flagged\n" + "\n".join(rows) + "\n")
with open(os.path.join(OUT, "config.ini"), "w") as f:
    f.write(CONFIG)
