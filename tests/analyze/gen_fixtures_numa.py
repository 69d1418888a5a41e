#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes tests/fixtures/results-numa-2node (run once; the output is committed): a hand-made
two-node run for the numa view (tests/analyze/test_numa_view.c). Six samples per point, so the
order-statistics 95 % interval of a median is [min, max]. Firmware distances [[10, 21], [21, 10]]:
the distance ratio of a remote cell is 2.1.
Each point's samples are its centre times 0.98, 0.99, 1, 1, 1.01, 1.02.
  bw (numa_bw, op=read, 8 bytes/element): local cells cost 0.392 .. 0.408 ns, median 0.40 -> 20
    GB/s [8/0.408, 8/0.392] = [19.607843, 20.408163]; remote median 0.80 -> 10 GB/s [9.803922,
    10.204082]: remote/local 0.5 in both rows.
  lat (numa_lat, ns per load): 0->0 and 1->1 median 100 [98, 102]; 0->1 median 160 (ratio 1.6),
    1->0 median 170 (ratio 1.7); 1->0's pages are not where asked (placement_ok false, a note
    with HTML in it).
  policy (numa_policy, 2 threads, 24 bytes/element): first_touch 1.0 ns -> 24 GB/s, pages
    384/384; serial 2.0 ns -> 12 GB/s, 768/0; interleave 1.5 ns, 384/384; bind:1 1.2 ns, 0/768;
    preferred:1 1.1 ns, 700/68 and placement_ok false. bind:2 skipped.
  policy1 (numa_policy, issue 21): ch27's table on one node, five samples per point (0.96, 0.98,
    1, 1.02, 1.04 times the centre: too few for a median's interval, so the mean and its
    t-interval, centre +- 2.776 * 0.0316 * centre / sqrt(5)): first_touch 0.296, serial 0.487,
    interleave 0.671, bind:0 0.728 ns, every one with pages 49152/0: one placement.
  loaded (loaded_latency): threads 1, 2, 3 = 0, 1, 2 streams at 0, 10, 20 GB/s with
    ns_per_load 100, 150, 300.
"""
import json
import os

from gen_fixtures import HEADER, ROOT, run_json, write_dir

WORK = 1000000
SPREAD = [-0.02, -0.01, 0, 0, 0.01, 0.02]  # relative: the median is the centre
SPREAD5 = [-0.04, -0.02, 0, 0.02, 0.04]
NOTE = "<b>pages on node 1 & 0</b> (asked: node 0)"


class Run:
    def __init__(self):
        self.rows, self.exps, self.pid = [], [], 0

    def exp(self, name, kernel, unit):
        e = {"name": name, "kernel": kernel, "scaling": "strong", "resolved": {},
             "views": ["numa"], "points": [], "work_unit": unit,
             "metrics": [{"name": "ns_per_load", "unit": "ns", "agg": "kernel"},
                         {"name": "stream_gb_per_s", "unit": "GB/s", "agg": "kernel"}]}
        self.exps.append(e)
        return e

    def point(self, e, params, threads, centre, facts, work=None, metrics=None,
              status="ok", reason=None, spread=SPREAD):
        pid, self.pid = self.pid, self.pid + 1
        params = dict(params, placement=params.get("placement", "compact"))  # as lab run writes
        pt = {"point": pid, "threads": threads, "cpus": list(range(threads)),
              "placement": params["placement"], "params": params,
              "status": status, "reason": reason or "",
              "verify": "pass" if status == "ok" else "none",
              "iters_per_sample": WORK, "reps": len(spread) if status == "ok" else 0}
        if work:
            pt["work_per_unit"] = dict(work, flops=0, bytes_write_allocate=0)
        if facts is not None:
            pt["point_facts"] = facts
        e["points"].append(pt)
        if status != "ok":
            return
        ptxt = ";".join(f"{k}={v}" for k, v in sorted(params.items()))
        for rep, s in enumerate(spread):
            m = ",," if metrics is None else \
                f",{metrics[0] * (1 + s):.6g},{metrics[1] * (1 + s):.6g}"
            self.rows.append(f"{e['name']},{pid},{e['kernel']},\"{ptxt}\",{threads},{rep},"
                             f"{round(centre * (1 + s) * WORK)},{WORK},{e['work_unit']},0.01,0"
                             f"{m}")


def place(cpu, mem, pages, ok=True, note=None):
    f = {"cpu_node": cpu, "mem_node": mem, "pages_per_node": pages, "pages_absent": 0,
         "placement_ok": ok}
    if note:
        f["placement_note"] = note
    return f


def main():
    r = Run()
    bw = r.exp("bw", "numa_bw", "element")
    for i in (0, 1):
        for j in (0, 1):
            params = {"op": "read", "size": "64M", "hugepages": "off", "placement": f"node:{i}",
                      "mem_node": str(j)}
            pages = [16384, 0] if j == 0 else [0, 16384]
            r.point(bw, params, 1, 0.40 if i == j else 0.80, place(i, j, pages),
                    work={"bytes_read": 8, "bytes_written": 0})
    r.point(bw, {"op": "read", "size": "64M", "hugepages": "off", "placement": "node:0",
                 "mem_node": "2"}, 1, 0, None, status="skipped",
            reason="mem_node = 2: this machine has 2 NUMA nodes (0 .. 1)")
    lat = r.exp("lat", "numa_lat", "load")
    centres = {(0, 0): 100, (0, 1): 160, (1, 0): 170, (1, 1): 100}
    for (i, j), c in centres.items():
        params = {"size": "256M", "hugepages": "off", "placement": f"node:{i}", "mem_node": str(j)}
        bad = (i, j) == (1, 0)
        pages = [65536, 0] if j == 0 else [0, 65536]
        r.point(lat, params, 1, c, place(i, j, [60000, 5536] if bad else pages, not bad,
                                         NOTE if bad else None))
    pol = r.exp("policy", "numa_policy", "element")
    for init, c, pages, ok in [("first_touch", 1.0, [384, 384], True),
                               ("serial", 2.0, [768, 0], True),
                               ("interleave", 1.5, [384, 384], True),
                               ("bind:1", 1.2, [0, 768], True),
                               ("preferred:1", 1.1, [700, 68], False)]:
        f = {"init": init, "cpu_node": -1, "threads_per_node": [1, 1], "pages_per_node": pages,
             "pages_absent": 0, "placement_ok": ok}
        if not ok:
            f["placement_note"] = "700 pages on node 0, asked for node 1"
        r.point(pol, {"init": init, "size": "1M", "placement": "scatter"}, 2, c, f,
                work={"bytes_read": 16, "bytes_written": 8})
    r.point(pol, {"init": "bind:2", "size": "1M", "placement": "scatter"}, 2, 0, None,
            status="skipped", reason="init = bind:2: this machine has 2 NUMA nodes (0 .. 1)")
    ld = r.exp("loaded", "loaded_latency", "load")
    for t, gbs, ns in [(1, 0, 100), (2, 10, 150), (3, 20, 300)]:
        r.point(ld, {"size": "256M", "stream_size": "64M", "traffic": "read", "hugepages": "off"},
                t, ns, {"streams": t - 1}, metrics=(ns, gbs))
    pol1 = r.exp("policy1", "numa_policy", "element")
    for init, c in [("first_touch", 0.296), ("serial", 0.487), ("interleave", 0.671),
                    ("bind:0", 0.728)]:
        f = {"init": init, "cpu_node": 0, "threads_per_node": [2, 0],
             "pages_per_node": [49152, 0], "pages_absent": 0, "placement_ok": True}
        r.point(pol1, {"init": init, "size": "192M", "placement": "compact"}, 2, c, f,
                work={"bytes_read": 16, "bytes_written": 8}, spread=SPREAD5)
    doc = run_json("complete", r.exps)
    doc["host"]["topology"]["numa_distances"] = [[10, 21], [21, 10]]
    d = os.path.join(ROOT, "results-numa-2node")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(os.path.join(d, "samples.csv"), "w") as f:
        f.write(HEADER + ",ns_per_load,stream_gb_per_s\n" + "\n".join(r.rows) + "\n")
    with open(os.path.join(d, "config.ini"), "w") as f:
        f.write("".join(f"[{e['name']}]\nkernel = {e['kernel']}\n" for e in r.exps))



def main_runs():
    """results-numa-runs: lat (numa_lat) 2 x 2 with runs = 3 of 6 samples, run means 90, 100,
    110 (local) and 144, 160, 176 (remote), within-run noise 0.1 %: the samples' median
    interval of a local cell is about [90, 110]; the run means' t-interval 100 +- 4.303 * 10 /
    sqrt(3) = [75.16, 124.84], the stat "mean"."""
    rows, pts = [], []
    for pid, (i, j) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1)]):
        centre = 100 if i == j else 160
        params = {"size": "256M", "hugepages": "off", "placement": f"node:{i}",
                  "mem_node": str(j)}
        pages = [65536, 0] if j == 0 else [0, 65536]
        pts.append({"point": pid, "threads": 1, "cpus": [0], "placement": params["placement"],
                    "params": params, "status": "ok", "reason": "", "verify": "pass",
                    "iters_per_sample": WORK, "reps": 18, "runs": 3, "runs_planned": 3,
                    "point_facts": place(i, j, pages)})
        ptxt = ";".join(f"{k}={v}" for k, v in sorted(params.items()))
        rep = 0
        for run, m in enumerate((0.9, 1.0, 1.1)):
            for s in (-0.001, -0.0005, 0, 0, 0.0005, 0.001):
                rows.append(f"lat,{pid},numa_lat,\"{ptxt}\",1,{rep},"
                            f"{round(centre * m * (1 + s) * WORK)},{WORK},load,0.01,0,{run}")
                rep += 1
    exp = {"name": "lat", "kernel": "numa_lat", "scaling": "strong", "resolved": {},
           "views": ["numa"], "points": pts, "work_unit": "load", "metrics": []}
    doc = run_json("complete", [exp])
    doc["host"]["topology"]["numa_distances"] = [[10, 21], [21, 10]]
    write_dir("results-numa-runs", doc, ["run"], rows, "[lat]\nkernel = numa_lat\nruns = 3\n")


main()
main_runs()
