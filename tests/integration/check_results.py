#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks a results directory against the schema of harness/record_schema.h.

usage: check_results.py DIR [--status complete|interrupted|failed] [--min-points N]
                        [--selfcheck-may-be-null] [--cut-ok]
Exits 1 with a message naming the first problem found.
"""
import csv
import datetime
import json
import sys

SAMPLES = "experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,flagged"
THREADS = "point,rep,thread,cpu_start,cpu_end,start_ns,end_ns,work"


def fail(msg):
    print("check_results: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    d = args[0]
    want_status = args[args.index("--status") + 1] if "--status" in args else "complete"
    min_points = int(args[args.index("--min-points") + 1]) if "--min-points" in args else 1
    with open(d + "/run.json") as f:
        run = json.load(f)
    if run.get("schema") != "lab.run/1":
        fail("schema is %r" % run.get("schema"))
    if run.get("status") != want_status:
        fail("status is %r, expected %r" % (run.get("status"), want_status))
    for key in ("lab", "host", "self_check", "config", "experiments", "started_utc"):
        if key not in run:
            fail("run.json lacks %r" % key)
    # Each NUMA node's memory: this machine's, so at least one node with some.
    mem = run["host"]["topology"].get("numa_memory")
    if not mem or not all((n.get("local_memory_bytes") or 0) > 0 for n in mem):
        fail("host.topology.numa_memory is %r" % mem)
    sc = run["self_check"]
    for key in ("overhead_ns_per_iter", "spin_50us_ns"):
        # Interrupted during the self-check: null, honestly.
        if "--selfcheck-may-be-null" in args and sc.get(key) is None:
            continue
        if not isinstance(sc.get(key), (int, float)) or sc[key] <= 0:
            fail("self_check.%s is %r" % (key, sc.get(key)))
    points = {}
    # The whole plan is listed: what never ran is "not_run" once the run ended without it.
    allowed = ("ok", "skipped", "failed") + (("not_run",) if want_status != "complete" else ())
    finished = 0
    walls = 0.0
    for e in run["experiments"]:
        for p in e["points"]:
            if p["status"] not in allowed:
                fail("point %d status %r" % (p["point"], p["status"]))
            if p["status"] == "not_run" and not p["reason"]:
                fail("point %d not_run without a reason" % p["point"])
            # A point the run ended in the middle of its runs keeps the runs it finished; it is
            # not done, and says why.
            short = p.get("runs", 1) < p.get("runs_planned", 1)
            if short and (p["status"] != "ok" or want_status == "complete" or
                          ("planned runs" not in p["reason"] and
                           "before its precision target" not in p["reason"])):
                fail("point %d: %s of %s runs, status %r, reason %r" % (
                    p["point"], p.get("runs"), p.get("runs_planned"), p["status"], p["reason"]))
            finished += p["status"] != "not_run" and not short
            if p["status"] == "ok" and p["verify"] == "fail":
                fail("point %d ok but verify failed" % p["point"])
            if p["status"] == "skipped" and not p["reason"]:
                fail("point %d skipped without a reason" % p["point"])
            # one attempts count per kept sample, written only where one was retried (all 1s
            # grew run.json with reps past what the analyzer reads)
            sa = p.get("sample_attempts")
            if sa is not None and (len(sa) != p["reps"] or max(sa, default=0) <= 1 or
                                   sum(sa) > p["attempts"]):
                fail("point %d: sample_attempts %r of %r reps, %r attempts" % (
                    p["point"], sa[:8], p["reps"], p["attempts"]))
            # What a point cost the run: every point that ran says it, within the run's time.
            wall = p.get("wall_s")
            if p["status"] == "ok" and (not isinstance(wall, (int, float)) or not wall > 0):
                fail("point %d ran but its wall_s is %r" % (p["point"], wall))
            walls += wall if isinstance(wall, (int, float)) else 0
            points[p["point"]] = (e, p)
    if run.get("finished_utc"):
        took = (datetime.datetime.fromisoformat(run["finished_utc"].rstrip("Z")) -
                datetime.datetime.fromisoformat(run["started_utc"].rstrip("Z"))).total_seconds()
        if walls > took + 2:  # whole seconds in the timestamps
            fail("the points' wall_s add up to %.1f s in a run of %.0f s" % (walls, took))
    if finished < min_points:
        fail("%d points finished in run.json, expected at least %d" % (finished, min_points))
    if len(points) != run["progress"]["points_planned"]:
        fail("run.json lists %d points of the %d planned" % (len(points), run["progress"]["points_planned"]))
    if finished != run["progress"]["points_done"]:
        fail("%d points finished, progress says %d" % (finished, run["progress"]["points_done"]))

    with open(d + "/samples.csv", newline="") as f:
        rows = list(csv.reader(f))
    if not ",".join(rows[0]).startswith(SAMPLES):
        fail("samples.csv header: " + ",".join(rows[0]))
    # A failed write (a full disk) may cut the last row of the point it was writing.
    if "--cut-ok" in args and len(rows) > 1 and len(rows[-1]) != len(rows[0]):
        rows.pop()
    per_point = {}
    for r in rows[1:]:
        if len(r) != len(rows[0]):
            fail("samples.csv row has %d fields, header %d: %r" % (len(r), len(rows[0]), r))
        pid = int(r[1])
        if pid not in points:
            fail("samples.csv has point %d that run.json lacks" % pid)
        e, p = points[pid]
        if r[0] != e["name"] or r[2] != e["kernel"] or int(r[4]) != p["threads"]:
            fail("samples.csv row disagrees with run.json: %r" % r)
        if "threads=" in r[3]:
            fail("params must not hold threads: " + r[3])
        if int(r[6]) <= 0 or int(r[7]) <= 0:
            fail("elapsed or work not positive: %r" % r)
        per_point[pid] = per_point.get(pid, 0) + 1
    for pid, (e, p) in points.items():
        if p["status"] == "not_run":
            continue  # rows the run cut short are not counted as the point's
        want = p["reps"] if p["status"] == "ok" else 0
        if per_point.get(pid, 0) != want:
            fail("point %d has %d sample rows, run.json says %d reps" % (pid, per_point.get(pid, 0), want))

    with open(d + "/threads.csv", newline="") as f:
        trows = list(csv.reader(f))
    if not ",".join(trows[0]).startswith(THREADS):
        fail("threads.csv header: " + ",".join(trows[0]))
    if "--cut-ok" in args and len(trows) > 1 and len(trows[-1]) != len(trows[0]):
        trows.pop()
    counted = {}
    for r in trows[1:]:
        if len(r) != len(trows[0]):
            fail("threads.csv row has %d fields, header %d" % (len(r), len(trows[0])))
        pid = int(r[0])
        counted[pid] = counted.get(pid, 0) + 1
        if int(r[6]) < int(r[5]):
            fail("thread ended before it started: %r" % r)
    for pid, (e, p) in points.items():
        if p["status"] == "not_run":
            continue
        workers = 1 if p.get("team") == "openmp" else p["threads"]
        want = p["reps"] * workers if p["status"] == "ok" else 0
        if counted.get(pid, 0) != want:
            fail("point %d has %d thread rows, expected %d" % (pid, counted.get(pid, 0), want))
    with open(d + "/config.ini") as f:
        if not f.read().strip():
            fail("config.ini is empty")
    print("check_results: %s: %d points, %d samples: ok" % (d, len(points), len(rows) - 1))


main()
