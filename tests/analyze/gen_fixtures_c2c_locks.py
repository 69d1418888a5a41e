#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the c2c_latency and lock fixture directories under tests/fixtures/ (run once; the
output is committed). The values are hand-made, not random, so the tests can check medians,
intervals and throughputs against numbers computed by hand (see the comments)."""
import copy

from gen_fixtures import run_json, write_dir

# cpu 0 and 1: SMT siblings (core 0); cpu 2: core 1; all three on package 0 / NUMA 0;
# cpu 3: core 2 on package 1 / NUMA 1 (the shape of `lab topo --json`'s pus_detail).
PUS = [{"cpu": 0, "package": 0, "numa": 0, "core": 0, "smt_rank": 0},
       {"cpu": 1, "package": 0, "numa": 0, "core": 0, "smt_rank": 1},
       {"cpu": 2, "package": 0, "numa": 0, "core": 1, "smt_rank": 0},
       {"cpu": 3, "package": 1, "numa": 1, "core": 2, "smt_rank": 0}]
C2C_METRICS = ["one_way_ns", "one_way_p10_ns", "one_way_p50_ns", "one_way_p90_ns"]
LOCK_METRICS = ["jain_fairness", "acq_lat_p50_ns", "acq_lat_p99_ns", "max_min_ratio"]
WORK = 100000  # round trips per sample


def one_way(pair, method):
    """20 one-way latencies (ns) per pair, in a scrambled order."""
    if pair == (0, 2) and method == "load_store":
        # bimodal: 12 samples at 28.0..30.2 (the quiet mode) and 8 at 108.0..111.5
        v = [28 + 0.2 * k for k in range(12)] + [108 + 0.5 * k for k in range(8)]
    elif pair == (0, 1):
        # unimodal: 12.0, 12.1, ..., 13.9 -> median 12.95, 95 % CI [x(6), x(15)] = [12.5, 13.4]
        v = [12 + 0.1 * k for k in range(20)]
    else:
        base = {(0, 3): 150, (1, 2): 30, (1, 3): 152, (2, 3): 148}.get(pair, 40)
        base += 20 if method == "cas" else 0
        v = [base + 0.25 * k for k in range(20)]
    return [v[(7 * i) % 20] for i in range(20)]


def c2c_dir(name, detail, runs=False):
    """runs: results-c2c-runs, runs = 4 of 5 samples, each run 2 ns above the one before
    (run means about 13, 15, 17, 19 ns for the 0-1 pair)."""
    rows, points = [], []
    pid = 0
    pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    for method in ("load_store", "cas"):
        for a, b in pairs if method == "load_store" else pairs[:3]:
            params = f"layout=own_line;method={method};placement=pairs;pair={a}-{b}"
            pt = {"point": pid, "threads": 2, "placement": "pairs",
                  "params": dict(kv.split("=", 1) for kv in params.split(";")),
                  "status": "ok", "verify": "pass", "iters_per_sample": WORK, "reps": 20}
            if detail:
                pt["cpus"] = [a, b]  # without detail the analyzer falls back to `pair`
            points.append(pt)
            if runs:
                pt["runs"] = pt["runs_planned"] = 4
            for rep, ow in enumerate(one_way((a, b), method)):
                ow += 2.0 * (rep // 5) if runs else 0
                # the kernel's metrics (load_store only; cas leaves them empty)
                m = [ow - 0.5, ow - 1, ow - 0.5, ow + 1] if method == "load_store" else [None] * 4
                rows.append(f"c2c,{pid},c2c_latency,\"{params}\",2,{rep},"
                            f"{round(2 * ow * WORK)},{WORK},roundtrip,0.01,0"
                            + "".join("," if x is None else f",{x:.6g}" for x in m)
                            + (f",{rep // 5}" if runs else ""))
            pid += 1
    exp = {"name": "c2c", "kernel": "c2c_latency", "work_unit": "roundtrip",
           "scaling": "strong",
           "metrics": [{"name": n, "unit": "ns", "agg": "mean"} for n in C2C_METRICS],
           "resolved": {}, "points": points}
    doc = run_json("complete", [exp])
    topo = doc["host"]["topology"]
    topo.update({"packages": 2, "numa_nodes": 2, "cores": 3, "pus": 4,
                 "cpus_allowed": [0, 1, 2, 3]})
    doc["host"]["smt"] = "on"
    if detail:
        topo["pus_detail"] = copy.deepcopy(PUS)
    write(name, doc, C2C_METRICS + (["run"] if runs else []), rows)


# Locks: acquisitions per 1 s sample (elapsed 1e9 ns), so throughput = work.
#   mcs, 1 thread: 170, 171, 172 M/s -> mean 171e6, sd 1e6, 95 % CI 171e6 +- 4.302653 *
#   1e6 / sqrt(3) = +- 2.484138e6; jain 1, 1, 1.
#   tas, 2 threads: jain 0.6, 0.7, 0.65 -> median 0.65, CI 0.65 +- 4.302653 * 0.05 / sqrt(3)
#   = +- 0.1242069; p99 900, 1000, 1100 ns -> median 1000.
LOCKS = {
    ("mcs", 1): ([170e6, 171e6, 172e6], [1, 1, 1], [20, 21, 22], [40, 41, 42], [1, 1, 1]),
    ("mcs", 2): ([15e6, 16e6, 17e6], [0.99, 0.995, 1.0], [150, 160, 170], [300, 310, 320],
                 [1.02, 1.01, 1.0]),
    ("tas", 1): ([87e6, 88e6, 89e6], [1, 1, 1], [10, 11, 12], [30, 31, 32], [1, 1, 1]),
    ("tas", 2): ([86e6, 87e6, 88e6], [0.6, 0.7, 0.65], [50, 55, 60], [900, 1000, 1100],
                 [9, 5, 7]),
}


def locks_dir(name):
    rows, points = [], []
    pid = 0
    groups = [("cs_ns=100;placement=compact;think_ns=0", LOCKS),
              ("cs_ns=100;placement=compact;think_ns=500",
               {k: v for k, v in LOCKS.items() if k[0] == "mcs"})]
    for cond, table in groups:
        for (lock, threads), (acq, jain, p50, p99, mm) in table.items():
            params = f"lock={lock};{cond}"
            points.append({"point": pid, "threads": threads, "cpus": list(range(threads)),
                           "placement": "compact",
                           "params": dict(kv.split("=", 1) for kv in params.split(";")),
                           "status": "ok", "verify": "pass", "iters_per_sample": 0,
                           "reps": 3})
            for rep in range(3):
                rows.append(f"locks,{pid},lock,\"{params}\",{threads},{rep},1000000000,"
                            f"{int(acq[rep])},acquire,0.01,0,{jain[rep]:.6g},{p50[rep]:.6g},"
                            f"{p99[rep]:.6g},{mm[rep]:.6g}")
            pid += 1
    exp = {"name": "locks", "kernel": "lock", "work_unit": "acquire", "scaling": "strong",
           "metrics": [{"name": n, "unit": "1" if n in ("jain_fairness", "max_min_ratio")
                        else "ns", "agg": "mean"} for n in LOCK_METRICS],
           "resolved": {}, "points": points}
    write(name, run_json("complete", [exp]), LOCK_METRICS, rows)


def write(name, doc, metrics, rows):
    write_dir(name, doc, metrics, rows,
              "[c2c]\nkernel = c2c_latency\n" if "c2c" in name else "[locks]\nkernel = lock\n")


c2c_dir("results-c2c", True)
c2c_dir("results-c2c-nodetail", False)
c2c_dir("results-c2c-runs", True, True)
locks_dir("results-locks")
