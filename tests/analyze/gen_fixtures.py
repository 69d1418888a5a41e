#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the analyzer's fixture directories under tests/fixtures/ (run once; the output is
committed). Synthetic data with a fixed seed, in the layout of harness/record_schema.h."""
import json
import os
import random

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")
HEADER = "experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,flagged"


def usl_cost(c1, sigma, kappa, n):
    return c1 * (1 + sigma * (n - 1) + kappa * n * (n - 1)) / n


def run_json(status, experiments):
    return {
        "schema": "lab.run/1", "status": status,
        "lab": {"version": "0.1.0", "git_sha": "fixture", "git_dirty": False,
                "compiler": "gcc 12.2.0", "c_flags": "-O2 -g", "build_type": "RelWithDebInfo",
                "sanitize": "", "openmp": True},
        "started_utc": "2026-11-29T10:00:00Z", "finished_utc": "2026-11-29T10:05:00Z",
        "command_line": ["lab", "run", "configs/fixture.ini"],
        "host": {"hostname": "fixture", "kernel": "6.1.0", "cpu_model": "Synthetic CPU @ 2.6GHz",
                 "governor": "performance", "thp": "madvise", "smt": "off",
                 "topology": {"source": "synthetic", "thissystem": False, "packages": 2,
                              "numa_nodes": 2, "cores": 32, "pus": 64,
                              "cpus_allowed": list(range(64))},
                 "clock": {"source": "CLOCK_MONOTONIC", "resolution_ns": 1, "read_cost_ns": 20},
                 "counters": {"available": False, "reason": "no PMU in this VM"},
                 "loadavg": [0.1, 0.2, 0.3]},
        "self_check": {"overhead_ns_per_iter": 1.2, "spin_50us_ns": 50012, "spin_error": 0.0002},
        "load_guard": {"threshold_cpus": 0.25},
        "config": {"files": ["configs/fixture.ini"], "sets": [], "text": "[global]\nreps = 5\n"},
        "experiments": experiments,
    }


class Writer:
    def __init__(self, metrics=()):
        self.rows = []
        self.metrics = list(metrics)
        self.point = 0
        self.exps = {}

    def add_point(self, exp, kernel, params, threads, costs, work=1_000_000, flagged=(),
                  metric_fn=None, status="ok", reason=None, scaling="strong", per_unit=None,
                  work_scope=None):
        pid = self.point
        self.point += 1
        e = self.exps.setdefault(exp, {"name": exp, "kernel": kernel, "work_unit": "op",
                                       "scaling": scaling,
                                       "metrics": [{"name": m, "unit": "1/s", "agg": "sum"}
                                                   for m in self.metrics],
                                       "resolved": {}, "points": []})
        if work_scope:
            e["work_scope"] = work_scope
        pdict = dict(kv.split("=", 1) for kv in params.split(";") if kv)
        pt = {"point": pid, "threads": threads, "cpus": list(range(threads)),
              "placement": pdict.get("placement", "compact"), "params": pdict,
              "status": status, "verify": "pass" if status == "ok" else "none",
              "iters_per_sample": 1000, "reps": len(costs)}
        if reason:
            pt["reason"] = reason
        if per_unit:
            pt["work_per_unit"] = per_unit
        e["points"].append(pt)
        for rep, c in enumerate(costs):
            w = work * threads if scaling == "weak" else work
            fl = 1 if rep in flagged else 0
            m = [metric_fn(c, threads)] if metric_fn else []
            q = '"' if (";" in params or "," in params) else ""
            self.rows.append(f"{exp},{pid},{kernel},{q}{params}{q},{threads},{rep},"
                             f"{round(c * w)},{w},op,{0.8 if fl else 0.01},{fl}"
                             + "".join(f",{v:.6g}" for v in m))
        return pid

    def write(self, name, status="complete", cut_last=False, extra_points=()):
        d = os.path.join(ROOT, name)
        os.makedirs(d, exist_ok=True)
        exps = list(self.exps.values())
        for exp, pt in extra_points:
            self.exps[exp]["points"].append(pt)
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump(run_json(status, exps), f, indent=1)
            f.write("\n")
        text = ",".join([HEADER] + self.metrics) + "\n" + "\n".join(self.rows) + "\n"
        if cut_last:
            text = text[: len(text) - 9]
        with open(os.path.join(d, "samples.csv"), "w") as f:
            f.write(text)
        with open(os.path.join(d, "config.ini"), "w") as f:
            f.write("[global]\nreps = 5\n")


def write_dir(name, doc, columns, rows, config):
    """tests/fixtures/NAME: run.json (doc), samples.csv (HEADER, the extra columns, rows) and
    config.ini (config)."""
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(os.path.join(d, "samples.csv"), "w") as f:
        f.write(",".join([HEADER] + list(columns)) + "\n" + "\n".join(rows) + "\n")
    with open(os.path.join(d, "config.ini"), "w") as f:
        f.write(config)


def noisy(rng, mu, cv, r):
    return [mu * (1 + cv * rng.gauss(0, 1)) for _ in range(r)]


def main():
    rng = random.Random(20261129)
    # results-usl: a contended counter (USL truth sigma=0.05, kappa=0.002, N*=21.8), a
    # false-sharing stride sweep, a weak-scaling experiment, one skipped and one flagged point.
    w = Writer(metrics=["ops_per_s"])
    for n in (1, 2, 4, 8, 12, 16, 24, 32, 48):
        costs = noisy(rng, usl_cost(10.0, 0.05, 0.002, n), 0.03, 5)
        if n == 16:
            costs.append(costs[0] * 1.6)  # a load-flagged sample that would bend the fit
        w.add_point("contend", "atomic_add", "placement=compact", n, costs,
                    flagged=(5,) if n == 16 else (), metric_fn=lambda c, t: 1e9 / c)
    w.add_point("contend", "atomic_add", "placement=compact", 64, [], status="skipped",
                reason="needs 64 CPUs, 48 allowed")
    for stride in (8, 64, 128):
        for n in (1, 2, 4, 8):
            mu = 5.0 / n * (1 + (0.8 * (n - 1) if stride < 64 else 0.02 * (n - 1)))
            w.add_point("false_sharing", "false_sharing", f"placement=compact;stride={stride}",
                        n, noisy(rng, mu, 0.03, 5), metric_fn=lambda c, t: 1e9 / c)
    for n in (1, 2, 4, 8, 16):
        s = 0.1
        mu = 4.0 / (s + (1 - s) * n)  # Gustafson: cost per unit falls with scaled speedup
        w.add_point("triad_weak", "triad", "placement=compact", n, noisy(rng, mu, 0.02, 5),
                    scaling="weak")
    w.write("results-usl")

    # results-interrupted: the run stopped while point 3 ran; the last line is cut and a
    # planned point has no rows.
    w = Writer()
    for n in (1, 2, 4):
        w.add_point("noop", "noop", "placement=compact", n, noisy(rng, 2.0 / n, 0.02, 5))
    w.write("results-interrupted", status="interrupted", cut_last=True, extra_points=[
        ("noop", {"point": 3, "threads": 8, "cpus": list(range(8)), "placement": "compact",
                  "params": {"placement": "compact"}, "status": "ok", "verify": "none",
                  "iters_per_sample": 1000, "reps": 5})])

    # results-edge: one repetition, zero variance, one thread count, no baseline.
    w = Writer()
    for n in (1, 2, 4, 8):
        w.add_point("one_rep", "noop", "placement=compact", n, [3.0 / n + 0.1])
    for n in (1, 2):
        w.add_point("zero_var", "noop", "placement=compact", n, [2.0 / n] * 4)
    w.add_point("one_count", "noop", "placement=compact", 4, noisy(rng, 1.0, 0.02, 5))
    for n in (2, 4, 8, 16):
        w.add_point("no_base", "noop", "placement=compact", n,
                    noisy(rng, 8.0 * (0.1 + 0.9 / n), 0.02, 5))
    for n in (1, 2, 4, 8):  # every sample under foreign load: nothing to fit or plot
        w.add_point("all_flagged", "noop", "placement=compact", n,
                    noisy(rng, 2.0 / n, 0.02, 3), flagged=(0, 1, 2))
    w.write("results-edge")

    # results-compare-a/-b: b is 20 % cheaper at 2 threads, 0.3 % cheaper at 4 (within noise
    # of 1 %), 20 % dearer at 8, unchanged at 1.
    base = {1: 4.0, 2: 2.1, 4: 1.2, 8: 0.8}
    change = {1: 1.0, 2: 0.8, 4: 0.997, 8: 1.2}
    for name, f in (("results-compare-a", None), ("results-compare-b", change)):
        w = Writer()
        r2 = random.Random(7 if f is None else 8)
        for n, mu in base.items():
            m = mu * (f[n] if f else 1)
            cv = 0.0005 if n == 4 else 0.01
            w.add_point("locks", "lock_mutex", "placement=compact", n,
                        [m * (1 + cv * r2.gauss(0, 1)) for _ in range(30)])
        w.write(name)

    # results-rates: a kernel that declares its traffic (24 bytes read + written, 8 more with
    # write-allocate, 2 flops per unit) with hand-picked costs, so the expected GB/s and their
    # intervals are computed by hand in tests/analyze/test_rates.c; and one that declares none.
    # Whose work: triad the team's, copy thread 0's alone, plain not said (an older run.json).
    w = Writer()
    per_unit = {"bytes_read": 16, "bytes_written": 8, "flops": 2, "bytes_write_allocate": 8}
    w.add_point("triad", "triad", "placement=compact", 1, [2.0, 2.2, 1.8], per_unit=per_unit,
                work_scope="team")
    w.add_point("triad", "triad", "placement=compact", 2, [1.0], per_unit=per_unit)
    w.add_point("triad", "triad", "placement=compact", 4, [0.1, 3.0], per_unit=per_unit)
    w.add_point("plain", "noop", "placement=compact", 1, [2.0, 2.2, 1.8])
    w.add_point("copy", "copy", "placement=compact", 1, [2.0, 2.2, 1.8],
                per_unit={"bytes_read": 8, "bytes_written": 8, "flops": 0}, work_scope="one")
    w.write("results-rates")

    # csv fixtures for `lab analyze --csv`.
    d = os.path.join(ROOT, "csv")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "amdahl.csv"), "w") as f:
        f.write("series,threads,rep,seconds\n")
        for n in (1, 2, 4, 8, 16, 32):
            for rep, v in enumerate(noisy(rng, 2.0 * (0.05 + 0.95 / n), 0.03, 5)):
                f.write(f"app,{n},{rep},{v:.6f}\n")
    with open(os.path.join(d, "nan.csv"), "w") as f:
        f.write("threads,seconds\n1,2.0\n2,1.1\n4,nan\n8,0.4\n")
    with open(os.path.join(d, "negative.csv"), "w") as f:
        f.write("threads,seconds\n1,2.0\n2,1.1\n4,0.6\n8,-0.4\n")
    with open(os.path.join(d, "badthreads.csv"), "w") as f:
        f.write("threads,seconds\n1,2.0\nfour,1.1\n")
    with open(os.path.join(d, "noheader.csv"), "w") as f:
        f.write("1,2.0\n2,1.1\n")
    # SPEC SDM91 (Gunther, Guerrilla Capacity Planning; the specsdm91 data of R's usl package)
    # and the same data rounded as in codahale/usl's cmd/usl/example.csv.
    sdm = ((1, 64.9), (18, 995.9), (36, 1652.4), (72, 1853.2), (108, 1828.9), (144, 1775.0),
           (216, 1702.2))
    with open(os.path.join(d, "specsdm91.csv"), "w") as f:
        f.write("threads,throughput\n" + "".join(f"{n},{x:.1f}\n" for n, x in sdm))
    with open(os.path.join(d, "codahale-example.csv"), "w") as f:
        f.write("threads,throughput\n" + "".join(f"{n},{round(x)}\n" for n, x in sdm))
    # Superlinear: every N beats N times, the whole interval above 1 (3 reps at +-1 %), so
    # f < 0; external data says nothing of working sets, so no cause is claimed (issue 21).
    with open(os.path.join(d, "superlinear.csv"), "w") as f:
        f.write("threads,seconds\n" + "".join(f"{n},{v * k:.4f}\n" for n, v in
                                              ((1, 10.0), (2, 4.5), (4, 2.2), (8, 1.1),
                                               (16, 0.55)) for k in (0.99, 1.0, 1.01)))
    # Efficiency 1.02 at N = 2 with +-5 % reps: within noise, not superlinear (issue 21).
    with open(os.path.join(d, "superlinear-noise.csv"), "w") as f:
        f.write("threads,seconds\n" + "".join(f"{n},{v * k:.4f}\n" for n, v in
                                              ((1, 10.0), (2, 4.9)) for k in (0.95, 1.0, 1.05)))
    # USL truth sigma=0.05, kappa=0.0005 (N* = 43.6) measured up to 32 threads only.
    with open(os.path.join(d, "beyond.csv"), "w") as f:
        f.write("threads,seconds\n")
        for n in (1, 2, 4, 8, 12, 16, 24, 32):
            for k in (1.01, 0.99, 1.0):
                f.write(f"{n},{usl_cost(10.0, 0.05, 0.0005, n) * k:.6f}\n")
    # Four thread counts: Amdahl is fitted, USL (needs five) is refused.
    with open(os.path.join(d, "four.csv"), "w") as f:
        f.write("threads,seconds\n1,2.0\n2,1.1\n4,0.62\n8,0.4\n")


if __name__ == "__main__":
    main()
