#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Integration cases that run the lab binary: run_cases.sh LAB SRCDIR CASE
set -euo pipefail
lab=$1 src=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
check() { python3 tests/integration/check_results.py "$@"; }

case $case in
quick)
	# The built-in quick config: every kernel, threads 1..max.
	"$lab" run -o "$tmp/q" --no-progress >"$tmp/out" 2>"$tmp/err"
	check "$tmp/q" --min-points 6
	grep -q '^results: ' "$tmp/out"
	grep -q '^self-check: ' "$tmp/err"
	;;
quick_file_equals_builtin)
	# configs/quick.ini and the embedded copy plan the same points.
	"$lab" run --dry-run >"$tmp/builtin"
	"$lab" run --dry-run configs/quick.ini >"$tmp/file"
	grep -q 'points planned' "$tmp/builtin"
	cmp "$tmp/builtin" "$tmp/file"
	"$lab" plan --json configs/quick.ini |
		python3 -c 'import json,sys; a=json.load(sys.stdin); assert a["experiments"], a'
	;;
plan_synthetic)
	# A 2-socket plan on a 2-vCPU machine: scatter alternates packages.
	"$lab" plan configs/quick.ini --only noop --set noop.placement=scatter --set noop.threads=4 \
		--topology 'synthetic:pack:2 core:8 pu:2' --json >"$tmp/p.json"
	python3 - "$tmp/p.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
pts = p["experiments"][0]["points"]
assert len(pts) == 1 and pts[0]["threads"] == 4, pts
assert pts[0]["cpus"] == [0, 16, 2, 18], pts[0]["cpus"]
assert p["thissystem"] is False
PY
	;;
plan_xml)
	"$lab" plan configs/quick.ini --only noop --set noop.threads=1..max:x2 --set noop.placement=cores \
		--topology xml:configs/topologies/2s8c2t-intel.xml >"$tmp/out"
	grep -q 'threads=16  cpus=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 ' "$tmp/out"
	grep -q 'threads=32 ' "$tmp/out"
	;;
run_refuses_other_topology)
	rc=0
	"$lab" run configs/quick.ini --topology 'synthetic:pack:2 core:8 pu:2' -o "$tmp/x" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/x" ] && grep -q 'not this machine' "$tmp/err"
	;;
cpu_mask)
	# LAB_CPU_MASK hides features in lab topo and run.json; a bad one is a usage error.
	LAB_CPU_MASK=avx2 "$lab" topo --json >"$tmp/topo.json"
	LAB_CPU_MASK=avx2 "$lab" run configs/quick.ini --only noop --set noop.threads=1 \
		--set noop.reps=1 --set noop.min_time=1ms -o "$tmp/r" --no-progress >/dev/null 2>&1
	python3 - "$tmp/topo.json" "$tmp/r/run.json" <<'PY'
import json, sys
for f, path in ((sys.argv[1], ()), (sys.argv[2], ("host",))):
    doc = json.load(open(f))
    for k in path:
        doc = doc[k]
    c = doc["cpu_features"]
    assert set(c["usable"]) == set(c["detected"]) - set(c["masked"]), c
    assert "avx2" not in c["usable"] and "avx512f" not in c["usable"], c
    assert ("avx2" in c["masked"]) == ("avx2" in c["detected"]), c
PY
	rc=0
	LAB_CPU_MASK=avx3 "$lab" run configs/quick.ini --only noop -o "$tmp/x" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/x" ] && grep -q "LAB_CPU_MASK=avx3: unknown CPU feature 'avx3'" "$tmp/err"
	rc=0
	LAB_CPU_MASK=avx3 "$lab" topo >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q "unknown CPU feature" "$tmp/err"
	;;
dry_run_writes_nothing)
	"$lab" run configs/quick.ini --dry-run -o "$tmp/x" >"$tmp/out"
	[ ! -e "$tmp/x" ] && grep -q 'points planned' "$tmp/out"
	;;
output_dir_not_empty)
	mkdir "$tmp/full" && touch "$tmp/full/keep"
	rc=0
	"$lab" run configs/quick.ini --only noop -o "$tmp/full" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ "$(ls "$tmp/full")" = keep ] && grep -q 'not empty' "$tmp/err"
	;;
interrupted)
	# SIGINT mid-sweep: finished points stay on disk, the files are valid, status says so.
	cat >"$tmp/long.ini" <<'INI'
[long]
kernel = noop
threads = 1
delay_loops = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19
reps = 20
min_time = 20ms
warmup = 0
INI
	"$lab" run "$tmp/long.ini" -o "$tmp/i" --no-progress >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 1 200); do
		[ -f "$tmp/i/samples.csv" ] && [ "$(wc -l <"$tmp/i/samples.csv")" -gt 45 ] && break
		sleep 0.05
	done
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 1 ] || { echo "exit code $rc, expected 1"; cat "$tmp/err"; exit 1; }
	grep -q 'interrupted' "$tmp/err"
	check "$tmp/i" --status interrupted --min-points 2
	python3 - "$tmp/i/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
done = r["progress"]["points_done"]
assert 2 <= done < r["progress"]["points_planned"], r["progress"]
PY
	;;
pairs_ignore_global_threads)
	# A pairs kernel runs on two threads whatever [global] threads says; the section decides.
	printf '[global]\nthreads = 1..max\n[c2c]\nkernel = c2c_latency\nplacement = pairs\n' >"$tmp/p.ini"
	"$lab" plan "$tmp/p.ini" --topology 'synthetic:pack:2 core:2 pu:2' --json >"$tmp/p.json"
	python3 - "$tmp/p.json" <<'PY'
import json, sys
pts = json.load(open(sys.argv[1]))["experiments"][0]["points"]
assert len(pts) == 28 and all(p["threads"] == 2 for p in pts), len(pts)
assert {tuple(p["cpus"]) for p in pts} == {(a, b) for a in range(8) for b in range(a + 1, 8)}
PY
	printf '[c2c]\nkernel = c2c_latency\nthreads = 4\n' >"$tmp/q.ini"
	rc=0
	"$lab" plan "$tmp/q.ini" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q 'runs on CPU pairs (allowed 2)' "$tmp/err"
	;;
all_errors_one_pass)
	# A syntax error does not hide the value errors after it: all are listed, then one count.
	printf '[a]\nkernel = noop\nreps = 3\nreps = 4\n[b]\nkernel = false_sharing\nstride = 4\nop = add\n' >"$tmp/e.ini"
	rc=0
	"$lab" run "$tmp/e.ini" -o "$tmp/x" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/x" ]
	grep -q "e.ini:4: \[a\] reps = 4: duplicate key" "$tmp/err"
	grep -q "e.ini:8: \[b\] op = add: unknown choice" "$tmp/err"
	grep -q "e.ini:7: \[b\] stride = 4: out of range" "$tmp/err"
	tail -n 1 "$tmp/err" | grep -q '^lab: 3 errors in .*; nothing was run$'
	;;
describe_all)
	for k in $("$lab" list | awk '{print $1}'); do
		"$lab" describe "$k" >"$tmp/d"
		grep -q 'harness parameters' "$tmp/d"
	done
	"$lab" list --json | python3 -c 'import json,sys; assert json.load(sys.stdin)["kernels"]'
	"$lab" topo --json | python3 -c 'import json,sys; assert json.load(sys.stdin)["pus"] >= 1'
	;;
*)
	echo "unknown case $case" >&2
	exit 2
	;;
esac
