#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end, run then analyze (issue 7): `lab run --only noop` on a tiny config, then
# `lab analyze` on what it wrote; summary.csv and analysis.json must exist and agree with the
# run's samples.csv (summary.csv writes each point's params as samples.csv did). Usage: run_analyze.sh LAB
set -euo pipefail
lab=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/tiny.ini" <<'INI'
[global]
threads = 1..2
reps = 3
warmup = 1ms
min_time = 2ms

[noop]
kernel = noop
; membind puts params out of sorted order (it comes after placement): summary.csv must keep
; samples.csv's order, not the analyzer's sorted key
membind = first_touch

[other]
kernel = noop
INI
"$lab" run "$tmp/tiny.ini" --only noop --set global.retry_flagged=0 -o "$tmp/R" --no-progress >"$tmp/run.out" 2>"$tmp/run.err"
"$lab" analyze "$tmp/R" --no-plots >"$tmp/an.out" 2>"$tmp/an.err"
python3 - "$tmp/R" <<'PY'
import csv, json, sys
d = sys.argv[1]
samples = list(csv.DictReader(open(d + "/samples.csv")))
summary = list(csv.DictReader(open(d + "/summary.csv")))
analysis = json.load(open(d + "/analysis.json"))
assert samples, "no samples"
assert {r["experiment"] for r in samples} == {"noop"}, "--only noop ran other sections"
points = {(r["point"], r["threads"]) for r in samples}
per_point = {}
for r in samples:
    per_point[r["point"]] = per_point.get(r["point"], 0) + 1
assert len(summary) == len(points), (len(summary), points)
assert analysis["schema"] == "lab.analysis/3", analysis.get("schema")
assert analysis["samples"] == len(samples), (analysis["samples"], len(samples))
series = analysis["series"]
assert len(series) == 1 and series[0]["experiment"] == "noop", series
pts = series[0]["points"]
assert sorted(p["threads"] for p in pts) == sorted(int(t) for _, t in points), pts
for p in pts:
    # a busy machine flags samples: used + flagged is every repetition
    assert p["n"] + p["n_flagged"] == 3, p
assert all(v == 3 for v in per_point.values()), per_point
written = {r["point"]: r["params"] for r in samples}
assert any(list(v.split(";")) != sorted(v.split(";")) for v in written.values()), written
for r in summary:
    assert r["params"] == written[r["point"]], (r["params"], written[r["point"]])
PY
