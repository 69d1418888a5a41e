#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the counters fixtures under tests/fixtures/ (run once; the output is committed).

results-counters: an Intel Skylake-SP host (method intel_4wide) whose hardware counts are the
fixture vectors of research/counters.md section 7.4, so the expected top-down is known:
  L1: CLK=1e6, IDQ_NOT_DELIV=0.8e6, ISSUED=2.2e6, RETIRE_SLOTS=2e6, RECOVERY=25e3
      -> FE 0.200, BS 0.075, RET 0.500, BE 0.225
  L2: STALLS_MEM_ANY=150e3, BOUND_ON_STORES=10e3, STALLS_TOTAL=200e3, 1_PORTS=60e3,
      2_PORTS=80e3 -> Mem 0.116129, Core 0.108871
Pass 0 (reps 0, 2, 4) counts cycles, instructions, cache-misses and level 1; pass 1 (reps 1, 3,
5) level 2, as the harness counts passes. Within a pass the samples are 0.99x, 1x, 1.01x the
vector, so the medians are the vector exactly. cycles 1e6, instructions 2.5e6 -> IPC 2.5;
task-clock 4e5 ns -> 2.5 GHz; cache-misses 5e3 -> 2 MPKI. Point 1 (2 threads) doubles every
count (same ratios), is multiplexed in one sample (ctr_mux_ratio 0.5), migrated in one sample and
switched out in two.

results-counters-amd: a Zen 4 host (amd_pipeline, width 6), one point, one pass, the section
7.4 amd_pipeline vector: FE .20 BS .05 BE .30 SMT 0 RET .45; BE_mem .18 BE_cpu .12; FE_lat .10
FE_bw .10; BS_misp .045 BS_restart .005.

results-counters-nohw: the shape of a run in a VM without a PMU: software events only, cycles
and instructions empty, run.json with their status and reason."""

from gen_fixtures import run_json, write_dir

L1 = {"cycles": 1e6, "instructions": 2.5e6, "cache_misses": 5e3,
      "cpu_clk_unhalted_thread": 1e6, "idq_uops_not_delivered_core": 0.8e6,
      "uops_issued_any": 2.2e6, "uops_retired_retire_slots": 2e6,
      "int_misc_recovery_cycles": 25e3}
L2 = {"cycle_activity_stalls_mem_any": 150e3, "exe_activity_bound_on_stores": 10e3,
      "cycle_activity_stalls_total": 200e3, "exe_activity_1_ports_util": 60e3,
      "exe_activity_2_ports_util": 80e3}
SW = ["task_clock", "page_faults", "context_switches", "cpu_migrations"]
HW = list(L1) + list(L2)
EVNAME = {"cycles": "cycles", "instructions": "instructions", "cache_misses": "cache-misses",
          "cpu_clk_unhalted_thread": "cpu_clk_unhalted.thread",
          "idq_uops_not_delivered_core": "idq_uops_not_delivered.core",
          "uops_issued_any": "uops_issued.any",
          "uops_retired_retire_slots": "uops_retired.retire_slots",
          "int_misc_recovery_cycles": "int_misc.recovery_cycles",
          "cycle_activity_stalls_mem_any": "cycle_activity.stalls_mem_any",
          "exe_activity_bound_on_stores": "exe_activity.bound_on_stores",
          "cycle_activity_stalls_total": "cycle_activity.stalls_total",
          "exe_activity_1_ports_util": "exe_activity.1_ports_util",
          "exe_activity_2_ports_util": "exe_activity.2_ports_util",
          "task_clock": "task-clock", "page_faults": "page-faults",
          "context_switches": "context-switches", "cpu_migrations": "cpu-migrations"}
SCALE = [0.99, 0.99, 1.0, 1.0, 1.01, 1.01]
WORK = 1_000_000


def fmt(x):
    return "" if x is None else f"{x:.10g}"


def ev_record(cols, status="ok", reason="", errno=0):
    return [{"name": EVNAME[c], "column": "ctr_" + c,
             "status": status if c not in SW else "ok",
             "reason": reason if c not in SW else "", "errno": errno if c not in SW else 0,
             "source": "perf", "pass": None} for c in cols]


def point(pid, threads, params, counters):
    return {"point": pid, "threads": threads, "cpus": list(range(threads)),
            "placement": "compact", "params": dict(kv.split("=", 1) for kv in params.split(";")),
            "status": "ok", "verify": "pass", "iters_per_sample": WORK, "reps": 6,
            "counters": counters}


def hw_dir(name):
    cols = SW + HW + ["mux_ratio"]
    rows, points = [], []
    params = "delay_loops=0;placement=compact"
    for pid, threads in ((0, 1), (1, 2)):
        for rep in range(6):
            k = SCALE[rep] * threads
            v = {c: None for c in cols}
            v.update(task_clock=4e5 * k, page_faults=10 * threads, context_switches=0,
                     cpu_migrations=0, mux_ratio=1)
            for c, x in (L1 if rep % 2 == 0 else L2).items():
                v[c] = x * k
            if pid == 1:
                v["mux_ratio"] = 0.5 if rep == 3 else 1
                v["cpu_migrations"] = 1 if rep == 4 else 0
                v["context_switches"] = 2 if rep in (1, 5) else 0
            rows.append(f"ctr,{pid},noop,\"{params}\",{threads},{rep},1000000,{WORK},"
                        "iteration,0.01,0," + ",".join(fmt(v[c]) for c in cols))
        points.append(point(pid, threads, params,
                            {"mode": "auto", "passes": 2, "events": ev_record(SW + HW)}))
    doc = run_json("complete", [experiment(points)])
    doc["host"]["counters"] = {
        "available": True, "reason": "", "vendor": "GenuineIntel", "family": 6, "model": 85,
        "core_pmu": True, "topdown_method": "intel_4wide", "topdown_reason": ""}
    doc["self_check"]["core_ghz"] = 3.0
    write(name, doc, cols, rows)


def nohw_dir(name):
    cols = SW + ["cycles", "instructions", "mux_ratio"]
    rows, points = [], []
    params = "delay_loops=0;placement=compact"
    why = "ENOENT: no PMU in this VM"
    for pid, threads in ((0, 1), (1, 2)):
        for rep in range(5):
            v = [12e6 * threads + rep, 0, 3 if rep == 0 else 0, 0, None, None, 1]
            rows.append(f"ctr,{pid},noop,\"{params}\",{threads},{rep},30000000,{WORK},"
                        "iteration,0.01,0," + ",".join(fmt(x) for x in v))
        points.append(point(pid, threads, params,
                            {"mode": "auto", "passes": 1,
                             "events": ev_record(SW + ["cycles", "instructions"],
                                                 "unsupported", why, 2)}))
    doc = run_json("complete", [experiment(points)])
    doc["host"]["counters"] = {
        "available": False, "reason": "perf_event_open(cycles) failed: No such file or "
        "directory", "vendor": "AuthenticAMD", "family": 25, "model": 17, "core_pmu": False,
        "topdown_method": "amd_pipeline", "topdown_reason": ""}
    doc["self_check"]["core_ghz"] = 3.5
    write(name, doc, cols, rows)


AMD = {"ls_not_halted_cyc": 1e6, "de_no_dispatch_per_slot_no_ops_from_frontend": 1.2e6,
       "de_no_dispatch_per_slot_backend_stalls": 1.8e6,
       "de_no_dispatch_per_slot_smt_contention": 0, "ex_ret_ops": 2.7e6,
       "de_src_op_disp_all": 3.0e6, "ex_no_retire_load_not_complete": 300e3,
       "ex_no_retire_not_complete": 500e3,
       "de_no_dispatch_per_slot_no_ops_from_frontend_cmask6": 100e3,
       "ex_ret_brn_misp": 9e3, "resyncs_or_nc_redirects": 1e3}


def amd_dir(name):
    cols = SW + list(AMD) + ["mux_ratio"]
    rows = []
    params = "delay_loops=0;placement=compact"
    for rep in range(3):
        v = dict(AMD, task_clock=4e5, page_faults=1, context_switches=0, cpu_migrations=0,
                 mux_ratio=1)
        rows.append(f"ctr,0,noop,\"{params}\",1,{rep},1000000,{WORK},iteration,0.01,0,"
                    + ",".join(fmt(v[c]) for c in cols))
    evs = [{"name": c, "column": "ctr_" + c, "status": "ok", "reason": "", "errno": 0,
            "source": "perf", "pass": 0} for c in SW + list(AMD)]
    doc = run_json("complete", [experiment([point(0, 1, params, {"mode": "auto",
                                                                  "passes": 1,
                                                                  "events": evs})])])
    doc["host"]["counters"] = {
        "available": True, "reason": "", "vendor": "AuthenticAMD", "family": 25, "model": 17,
        "core_pmu": True, "topdown_method": "amd_pipeline", "topdown_reason": ""}
    write(name, doc, cols, rows)


def experiment(points):
    return {"name": "ctr", "kernel": "noop", "work_unit": "iteration", "scaling": "strong",
            "metrics": [], "resolved": {}, "points": points}


def write(name, doc, cols, rows):
    write_dir(name, doc, ["ctr_" + c for c in cols], rows,
              "[ctr]\nkernel = noop\nevents = sw ipc cache topdown\n")


hw_dir("results-counters")
amd_dir("results-counters-amd")
nohw_dir("results-counters-nohw")
