#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# lab fleet cases that need no cluster. usage: fleet_cases.sh LAB SRCDIR CASE
set -euo pipefail
lab=$(realpath "$1") src=$2 case=$3
tmp=$(realpath "$(mktemp -d)")
trap 'rm -rf "$tmp"' EXIT
cfg=$src/tests/slurm/tiny.ini
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect CODE PATTERN CMD...: CMD exits CODE and its stderr matches PATTERN.
expect() {
	local code=$1 pat=$2 rc=0
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = "$code" ] || fail "$* exited $rc, expected $code: $(cat "$tmp/err")"
	grep -q -- "$pat" "$tmp/err" || fail "$*: stderr lacks '$pat': $(cat "$tmp/err")"
}

case $case in
dry_run_golden)
	# A quote and a space in DIR: the scripts must quote it as one shell word.
	"$lab" fleet "$cfg" --nodes 2 --partition debug --constraint 'skylake&ib' --time 00:10:00 \
		-o "$tmp/fleet dir's" --dry-run >"$tmp/out"
	sed -e "s|$lab|@LAB@|g" -e "s|$tmp|@TMP@|g" "$tmp/out" >"$tmp/got"
	diff -u "$src/tests/slurm/dry_run.golden" "$tmp/got" || fail "dry-run output differs"
	;;
dry_run_writes_nothing)
	"$lab" fleet "$cfg" --nodelist 'n[1-3]' -o "$tmp/f" --dry-run >/dev/null
	[ ! -e "$tmp/f" ] || fail "--dry-run created $tmp/f"
	;;
bad_values)
	expect 2 "not a Slurm value" "$lab" fleet "$cfg" --nodelist '../x' --dry-run
	expect 2 "not a Slurm value" "$lab" fleet "$cfg" --partition '--wrap=id' --dry-run
	expect 2 "not a Slurm value" "$lab" fleet "$cfg" --constraint 'a;id' --dry-run
	expect 2 "out of range" "$lab" fleet "$cfg" --nodes 0 --dry-run
	expect 2 "not a count" "$lab" fleet "$cfg" --nodes 2x --dry-run
	expect 2 "give one of them" "$lab" fleet "$cfg" --nodes 2 --nodelist n1 --dry-run
	expect 2 "cannot read" "$lab" fleet "$tmp/absent.ini" --dry-run
	expect 2 "give a CONFIG" "$lab" fleet --nodes 2
	expect 2 "'%' not allowed" "$lab" fleet "$cfg" -o "$tmp/a%j" --dry-run
	expect 2 "control character" "$lab" fleet "$cfg" -o "$tmp/a
b" --dry-run
	;;
status_not_a_fleet)
	expect 1 "fleet.json" "$lab" fleet status "$tmp"
	printf '{"schema": "lab.fleet/1", "tasks": [{"node": "../../x", "state": "COMPLETED"}]}' \
		>"$tmp/fleet.json"
	expect 2 "not a plain name" "$lab" fleet status "$tmp"
	;;
analyze_missing_host)
	# h1 finished; h2 failed before writing anything: h2 is reported, h1 still analyzed.
	mkdir "$tmp/f"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h1"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h3"
	cat >"$tmp/f/fleet.json" <<'JSON'
{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "COMPLETED",
 "tasks": [{"node": "h1", "state": "COMPLETED", "exit_code": 0},
           {"node": "h2", "state": "FAILED", "exit_code": 1},
           {"node": "h3", "state": "COMPLETED", "exit_code": 0}]}
JSON
	expect 1 "host h2: no results directory (task FAILED)" "$lab" analyze "$tmp/f" --no-plots
	grep -q "same point on every host" "$tmp/out" || fail "no cross-host table"
	[ -f "$tmp/f/h1/summary.csv" ] && [ -f "$tmp/f/h3/analysis.json" ] || fail "hosts not analyzed"
	rc=0
	"$lab" analyze "$tmp/f" --json >"$tmp/json" 2>/dev/null || rc=$?
	[ $rc = 1 ] || fail "--json exited $rc"
	python3 - "$tmp/json" "$tmp/f/fleet-analysis.json" <<'PY'
import json, sys
for path in sys.argv[1:]:
    a = json.load(open(path))
    st = {h["node"]: h["status"] for h in a["hosts"]}
    assert st == {"h1": "ok", "h2": "missing", "h3": "ok"}, st
    assert any(h["n"] > 0 for p in a["points"] for h in p["hosts"]), "no measured point"
    for p in a["points"]:
        hs = {h["node"]: h for h in p["hosts"]}
        assert hs["h1"]["mean"] == hs["h3"]["mean"], p
        assert hs["h1"]["n"] > 0 or hs["h1"]["status"] == "skipped", p
        assert hs["h2"]["status"] == "absent" and hs["h2"]["mean"] is None, p
PY
	"$lab" compare "$tmp/f/h1" "$tmp/f/h3" >/dev/null || fail "lab compare of two hosts"
	# A host that is a link elsewhere is refused, and nothing is written there.
	cp -r "$src/tests/fixtures/results-usl" "$tmp/elsewhere"
	rm -rf "$tmp/f/h3" && ln -s "$tmp/elsewhere" "$tmp/f/h3"
	expect 1 "host h3: a symbolic link" "$lab" analyze "$tmp/f" --no-plots
	[ ! -e "$tmp/elsewhere/summary.csv" ] || fail "analyzed through the link h3"
	;;
cpu_refusal)
	# A 1-CPU task of a Slurm job (faked by its variables) asked for 2 threads: refused, and
	# the message says which job gave how many CPUs and what to submit instead.
	command -v taskset >/dev/null || { echo "taskset missing" >&2; exit 77; }
	expect 2 "the Slurm job 99 gives this task 1 CPU on node n7: submit with --exclusive or -c 2" \
		env SLURM_JOB_ID=99 SLURMD_NODENAME=n7 taskset -c 0 "$lab" run --set global.retry_flagged=0 "$cfg" -o "$tmp/r"
	[ ! -e "$tmp/r" ] || fail "a refused run wrote $tmp/r"
	;;
slurm_context)
	env SLURM_JOB_ID=99 SLURM_ARRAY_TASK_ID=3 SLURM_PROCID=0 SLURMD_NODENAME=n7 \
		SLURM_JOB_PARTITION=debug SLURM_CPUS_ON_NODE=1 \
		"$lab" run --set global.retry_flagged=0 "$cfg" --set noop.threads=1 -o "$tmp/s" --no-progress >/dev/null 2>&1
	env -u SLURM_JOB_ID "$lab" run --set global.retry_flagged=0 "$cfg" --set noop.threads=1 -o "$tmp/n" --no-progress \
		>/dev/null 2>&1
	python3 - "$tmp/s/run.json" "$tmp/n/run.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["host"]["slurm"]
assert s["job_id"] == "99" and s["array_task_id"] == "3" and s["node"] == "n7", s
assert s["partition"] == "debug" and s["cpus_on_node"] == "1" and s["cpus_allowed"] >= 1, s
assert json.load(open(sys.argv[2]))["host"]["slurm"] is None
PY
	;;
no_sbatch)
	expect 1 "sbatch: cannot run it" env PATH=/nonexistent "$lab" fleet "$cfg" -o "$tmp/f"
	[ ! -e "$tmp/f" ] || fail "a failed submission left $tmp/f"
	;;
*) fail "unknown case $case" ;;
esac
