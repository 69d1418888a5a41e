#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the calibration-drift fixtures under tests/fixtures/ (run once; the output is
committed) for issue 21 finding 6 (tests/analyze/test_omp_views.c, drift_*):
  results-locks-drift (locks, cs_ns=1000, think_ns=1000): tas at 2 threads 1.09 M/s with
    cs_achieved_ns 855 and delay_drift_pct 20 (above 1/cs_ns, achieved -14.5 %, drift 20 %:
    flagged); mcs at 2 threads 0.40 M/s, cs_achieved_ns 995, drift 2 % (not flagged); ticket
    with cs_ns=0 and think_ns=0 (no delay used) and drift 30 % (not flagged: the red team saw
    such a point flagged).
  results-omp-schedule-negative (2 threads, makespan 9000, ideal 9000 - overhead): dynamic chunk 1 overhead -7600, -8680, -6649
    (mean below 0: not measurable); chunk 8 overhead -20, 10, 40 (mean 10, CI reaches below 0:
    clamped at 0, not clearly above 0); chunk 64 overhead 300 x3 (a plain result).
"""
from gen_fixtures_omp import write


def locks():
    def pt(lock, mps, cs, drift, delay=1000):
        m = [(1, 1000, 1, cs, 3.0, drift)] * 3
        return (f"cs_ns={delay};lock={lock};placement=compact;think_ns={delay}", 2,
                [1e3 / x for x in mps], m, "ok", None)
    write("results-locks-drift",
          {"name": "locks", "kernel": "lock", "work_unit": "acquire", "views": ["locks"]},
          ["jain_fairness", "acq_lat_p99_ns", "max_min_ratio", "cs_achieved_ns",
           "delay_ns_per_loop", "delay_drift_pct"],
          [pt("tas", [1.08, 1.09, 1.10], 855, 20), pt("mcs", [0.39, 0.40, 0.41], 995, 2),
           pt("ticket", [9.9, 10.0, 10.1], 0, 30, 0)])


def schedule():
    def pt(chunk, ovh):
        m = [(9000, 9000 - o, o, 9000, 9000, 9000, 1.0) for o in ovh]
        p = (f"chunk={chunk};cost=200ns;imbalance=ramp;iterations=1024;placement=compact;"
             f"schedule=dynamic")
        return (p, 2, [9000 / 1024] * 3, m, "ok", None)
    write("results-omp-schedule-negative",
          {"name": "sched", "kernel": "omp_schedule", "work_unit": "iteration",
           "views": ["omp_schedule"]},
          ["makespan_ns", "ideal_ns", "overhead_ns", "busy_max_ns", "busy_mean_ns",
           "busy_min_ns", "imbalance"],
          [pt(1, [-7600, -8680, -6649]), pt(8, [-20, 10, 40]), pt(64, [300, 300, 300])])


locks()
schedule()
