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

# usl_fleet NODE...: $tmp/f, a fleet whose COMPLETED tasks are the nodes, each a copy of the
# results-usl fixture.
usl_fleet() {
	local tasks="" n
	mkdir -p "$tmp/f"
	for n in "$@"; do
		cp -r "$src/tests/fixtures/results-usl" "$tmp/f/$n"
		tasks="$tasks${tasks:+, }{\"node\": \"$n\", \"state\": \"COMPLETED\", \"exit_code\": 0}"
	done
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "COMPLETED", "tasks": [%s]}' \
		"$tasks" >"$tmp/f/fleet.json"
}

# contend_unit NODE UNIT: $tmp/f/NODE's [contend] measured in UNIT instead of ops (samples.csv
# and run.json alike): another quantity than the other hosts'.
contend_unit() {
	sed -i "s/^\(contend,.*\),op,/\1,$2,/" "$tmp/f/$1/samples.csv"
	python3 - "$tmp/f/$1/run.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["experiments"]:
    if e["name"] == "contend":
        e["work_unit"] = sys.argv[2]
json.dump(d, open(sys.argv[1], "w"))
PY
}

# fake_slurm: sbatch, scancel, squeue, scontrol and sacct in $tmp/bin that log every call to
# $tmp/slurm.log (one argument per line, a call ending in "--"); sbatch prints job ids 101, 102...
fake_slurm() {
	mkdir -p "$tmp/bin"
	for cmd in sbatch scancel squeue scontrol sacct; do
		cat >"$tmp/bin/$cmd" <<SH
#!/bin/sh
{ echo "$cmd"; for a in "\$@"; do printf '%s\n' "\$a"; done; echo --; } >>"$tmp/slurm.log"
if [ $cmd = sbatch ]; then
	n=\$(grep -c '^sbatch\$' "$tmp/slurm.log"); echo \$((100 + n))
fi
[ $cmd = sbatch ] || [ $cmd = scancel ]
SH
		chmod +x "$tmp/bin/$cmd"
	done
	: >"$tmp/slurm.log"
	export PATH="$tmp/bin:$PATH"
}
# no_slurm_call: the fake Slurm was never run.
no_slurm_call() { [ ! -s "$tmp/slurm.log" ] || fail "Slurm was called: $(head -c 300 "$tmp/slurm.log")"; }

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
	# an empty node name, and more nodes than --nodes allows, went to sbatch as given
	expect 2 "an empty or malformed node name" "$lab" fleet "$cfg" --nodelist ',,' --dry-run
	expect 2 "an empty or malformed node name" "$lab" fleet "$cfg" --nodelist 'n1,' --dry-run
	expect 2 "an empty or malformed node name or range" "$lab" fleet "$cfg" --nodelist 'n[1-3],m[]' --dry-run
	# red team: reversed, open, stray or doubled brackets went to sbatch as given
	for bad in 'n[5-1]' 'n[1-3' 'n[1--2]' 'n[[1-2]]' 'n]' 'n[1-]' 'n[1,]' 'n[20000000000-20000009999]'; do
		expect 2 "an empty or malformed node name or range" "$lab" fleet "$cfg" --nodelist "$bad" --dry-run
	done
	"$lab" fleet "$cfg" --nodelist 'n[01-03,7],m[1-2]x[3-4]' --dry-run >/dev/null || fail "a good host list refused"
	# red team: names that cannot be a node's directory passed and failed on each node
	for bad in '..' '.' '.x' '..[1-2]' 'a*' 'a(b)' 'a&b' 'a|b' 'a:b' 'n1,.m'; do
		expect 2 "a node name that cannot be a directory of the fleet" "$lab" fleet "$cfg" --nodelist "$bad" --dry-run
	done
	# a name past 63 characters, plain or through a range, was refused by each node's task
	x60=$(printf 'x%.0s' $(seq 60))
	expect 2 "a node name of more than 63 characters" "$lab" fleet "$cfg" --nodelist "n${x60}abc,n1" --dry-run
	expect 2 "a node name of more than 63 characters" "$lab" fleet "$cfg" --nodelist "${x60}[1000-1001]" --dry-run
	"$lab" fleet "$cfg" --nodelist "${x60}[1-9]" --dry-run >/dev/null || fail "a 61-character range refused"
	expect 2 "more than 1024 nodes" "$lab" fleet "$cfg" --nodelist 'n[1-2000]' --dry-run
	expect 2 "more than 1024 nodes" "$lab" fleet "$cfg" --nodelist 'r[1-2]n[1-600]' --dry-run
	"$lab" fleet "$cfg" --nodelist 'n[1-1000],m[1-4,9]' --dry-run >/dev/null || fail "1005 nodes refused"
	expect 2 "cannot read" "$lab" fleet "$tmp/absent.ini" --dry-run
	expect 2 "give a CONFIG" "$lab" fleet --nodes 2
	expect 2 "'%' not allowed" "$lab" fleet "$cfg" -o "$tmp/a%j" --dry-run
	expect 2 "not allowed (sbatch reads it in --output as an escape)" "$lab" fleet "$cfg" -o "$tmp/a\\dir" --dry-run
	expect 2 "control character" "$lab" fleet "$cfg" -o "$tmp/a
b" --dry-run
	;;
status_not_a_fleet)
	expect 2 "not a fleet directory (no fleet.json; allowed: a directory lab fleet wrote)" \
		"$lab" fleet status "$tmp"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "", "analyze": ""}, "tasks": [{"node": "../../x", "state": "COMPLETED"}]}' \
		>"$tmp/fleet.json"
	expect 2 "not a plain name" "$lab" fleet status "$tmp"
	;;
reserved_node_names)
	# A node named like the fleet's own plots/ or logs/: its results directory would be the
	# fleet's, and the fleet's plots would be written into it. Refused wherever a name comes in.
	mkdir "$tmp/f"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/plots"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h2"
	cat >"$tmp/f/fleet.json" <<'JSON'
{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "COMPLETED",
 "tasks": [{"node": "plots", "state": "COMPLETED", "exit_code": 0},
           {"node": "h2", "state": "COMPLETED", "exit_code": 0}]}
JSON
	ls -A "$tmp/f/plots" >"$tmp/before"
	reserved="is one the fleet directory uses itself (reserved: config.ini, fleet.sbatch, analyze.sbatch, fleet.json, fleet-analysis.json, analysis-files.txt, logs, tasks, plots, run.json)"
	expect 2 "fleet.json:2: task 1: node name 'plots' $reserved" "$lab" analyze "$tmp/f"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(cat "$tmp/err")"
	ls -A "$tmp/f/plots" | diff "$tmp/before" - || fail "the analysis wrote into the host plots"
	[ ! -e "$tmp/f/fleet-analysis.json" ] && [ ! -e "$tmp/f/h2/summary.csv" ] ||
		fail "a refused fleet was analyzed"
	expect 2 "fleet.json:2: task 1: node name 'plots' $reserved" "$lab" fleet status "$tmp/f"
	# without tasks in fleet.json, a directory of a reserved name is no host
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "", "analyze": ""}, "tasks": []}' >"$tmp/f/fleet.json"
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>&1 || fail "analyze without tasks: $(cat "$tmp/out")"
	grep -q "1 hosts" "$tmp/out" || fail "plots/ counted as a host: $(cat "$tmp/out")"
	# --no-plots: no "0 fleet plots in DIR/plots" for a directory it never wrote
	grep -q "wrote $tmp/f/fleet-analysis.json$" "$tmp/out" && ! grep -q "fleet plots" "$tmp/out" ||
		fail "--no-plots said fleet plots: $(cat "$tmp/out")"
	ls -A "$tmp/f/plots" | diff "$tmp/before" - || fail "the analysis wrote into the host plots"
	# a --nodelist that names one plainly, and a task started on such a node
	fake_slurm
	expect 2 "node 'logs' is a name the fleet directory uses itself (reserved: " \
		"$lab" fleet "$cfg" --nodelist 'n[1-2],logs' -o "$tmp/g"
	no_slurm_call
	[ ! -e "$tmp/g" ] || fail "a refused --nodelist left $tmp/g"
	"$lab" fleet "$cfg" --nodelist 'n[1-2],logs2' --dry-run >/dev/null || fail "logs2 refused"
	# a node named run.json made the fleet directory read as neither a fleet nor a host
	expect 2 "node 'run.json' is a name the fleet directory uses itself" \
		"$lab" fleet "$cfg" --nodelist 'n1,run.json' --dry-run
	mkdir "$tmp/t"
	expect 2 "node name 'tasks' $reserved; nothing was run" \
		env SLURMD_NODENAME=tasks "$lab" fleet task "$tmp/t"
	[ -z "$(ls -A "$tmp/t")" ] || fail "a refused task wrote into $tmp/t"
	# one node twice was merged into one host; exit codes out of 0 .. 255 (or a string) read
	# as none
	rm -rf "$tmp/f/plots"
	for tasks in '{"node": "h2", "exit_code": 0}, {"node": "h2", "exit_code": 1}' \
		'{"node": "h2", "exit_code": 4294967296}' '{"node": "h2", "exit_code": -1}' \
		'{"node": "h2", "exit_code": "0"}' '{"node": "h2", "exit_code": 1.5}'; do
		printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "tasks": [%s]}' \
			"$tasks" >"$tmp/f/fleet.json"
		case $tasks in
		*'}, {'*) want="fleet.json:1: task 2: node 'h2' again (allowed: each node once)" ;;
		*) want='fleet.json:1: task 1: "exit_code": allowed: null or a whole number 0 .. 255' ;;
		esac
		expect 2 "$want" "$lab" analyze "$tmp/f" --no-plots
		expect 2 "$want" "$lab" fleet status "$tmp/f"
	done
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "tasks": [%s]}' \
		'{"node": "h2", "state": "COMPLETED", "exit_code": 255}' >"$tmp/f/fleet.json"
	rc=0
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>&1 || rc=$?
	[ "$rc" = 1 ] || fail "exit code 255: not a failed host (exit $rc): $(cat "$tmp/out")"
	grep -q "host h2: failed: task COMPLETED exited with 255" "$tmp/out" ||
		fail "exit code 255: no reason: $(cat "$tmp/out")"
	# a state is Slurm's word: "failed" read as a healthy host, "<script>" too
	for state in failed '<script>' 'COMPLETED;x' 'CANCELLED by x'; do
		printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "tasks": [%s]}' \
			"{\"node\": \"h2\", \"state\": \"$state\", \"exit_code\": 0}" >"$tmp/f/fleet.json"
		want='fleet.json:1: task 1: "state": allowed: a Slurm state (PENDING, RUNNING, COMPLETED'
		expect 2 "$want" "$lab" analyze "$tmp/f" --no-plots
		expect 2 "$want" "$lab" fleet status "$tmp/f"
	done
	for state in COMPLETED 'CANCELLED+' 'CANCELLED by 1000' OUT_OF_MEMORY; do
		printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "tasks": [%s]}' \
			"{\"node\": \"h2\", \"state\": \"$state\", \"exit_code\": 0}" >"$tmp/f/fleet.json"
		rc=0
		"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>&1 || rc=$?
		[ "$rc" -le 1 ] || fail "state '$state' refused: $(cat "$tmp/out")"
	done
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
	grep -Eq "^  h2 +missing .* +- +- +- +- +-$" "$tmp/out" || fail "h2's row: $(grep h2 "$tmp/out")"
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
    # what the missing host's run.json would say is unknown, not 0
    h2 = [h for h in a["hosts"] if h["node"] == "h2"][0]
    for k in ("packages", "numa_nodes", "cores", "pus", "clock_resolution_ns", "slurm_cpus"):
        assert h2[k] is None, (k, h2)
    assert any(h["n"] > 0 for p in a["points"] for h in p["hosts"]), "no measured point"
    for p in a["points"]:
        hs = {h["node"]: h for h in p["hosts"]}
        assert hs["h1"]["mean"] == hs["h3"]["mean"], p
        assert hs["h1"]["n"] > 0 or hs["h1"]["status"] == "skipped", p
        # a host without the point is counted, not listed (hosts[] names it)
        assert "h2" not in hs and p["hosts_without"] == 1, p
PY
	"$lab" compare "$tmp/f/h1" "$tmp/f/h3" >/dev/null || fail "lab compare of two hosts"
	# A host that is a link elsewhere is refused, and nothing is written there.
	cp -r "$src/tests/fixtures/results-usl" "$tmp/elsewhere"
	rm -rf "$tmp/f/h3" && ln -s "$tmp/elsewhere" "$tmp/f/h3"
	expect 1 "host h3: a symbolic link" "$lab" analyze "$tmp/f" --no-plots
	[ ! -e "$tmp/elsewhere/summary.csv" ] || fail "analyzed through the link h3"
	;;
analyze_no_hosts)
	# A fleet with nothing to analyze (no tasks in fleet.json, no node's results directory in
	# it: submitted, not yet run) exited 1 and wrote an empty analysis. Bad input: exit 2, one
	# line naming fleet.json and what is missing, nothing written.
	mkdir -p "$tmp/f/logs" "$tmp/f/x y"
	for tasks in '' ', "tasks": []'; do
		printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": ""}%s}' "$tasks" >"$tmp/f/fleet.json"
		for opt in --no-plots --json; do
			expect 2 "$tmp/f/fleet.json: no tasks, and no node's results directory in $tmp/f (allowed: " \
				"$lab" analyze "$tmp/f" $opt
			[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(cat "$tmp/err")"
			[ ! -s "$tmp/out" ] || fail "printed an analysis: $(cat "$tmp/out")"
			[ "$(ls -A "$tmp/f" | sort | paste -sd' ')" = "fleet.json logs x y" ] ||
				fail "wrote into the fleet: $(ls -A "$tmp/f")"
		done
	done
	;;
status_tasks_over_limit)
	# More task records than a fleet has tasks (1024): the rest were dropped without a word,
	# which ones depending on the directory's order. A warning says so.
	mkdir -p "$tmp/f/tasks"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "", "analyze": ""}, "tasks": []}' >"$tmp/f/fleet.json"
	for i in $(seq 1 1030); do
		printf '{"state": "COMPLETED", "exit_code": 0}' >"$tmp/f/tasks/n$i.json"
	done
	"$lab" fleet status "$tmp/f" >"$tmp/out" 2>"$tmp/err" || fail "status: $(cat "$tmp/err")"
	[ "$(grep -c "beyond the fleet's 1024 tasks; no record of a node beyond them is read" "$tmp/err")" = 1 ] ||
		fail "not one warning: $(cat "$tmp/err")"
	;;
host_values_checked)
	# A host's run.json said 1e300 packages, -3 NUMA nodes, 2.5 cores and a clock step of
	# -1e-300 ns: the hosts table printed a 301-digit number and fleet-analysis.json carried
	# them. A count is a whole number 1 .. 2^20 and a clock step in (0, 1 s], else unknown.
	usl_fleet h1 h2
	python3 - "$tmp/f/h2/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r["host"]["topology"]
t.update(packages=1e300, numa_nodes=-3, cores=2.5, pus="2")
r["host"]["clock"]["resolution_ns"] = -1e-300
json.dump(r, open(sys.argv[1], "w"))
PY
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
	grep -q '[0-9]\{12\}' "$tmp/out" && fail "a huge number printed: $(grep -n '[0-9]\{12\}' "$tmp/out")"
	python3 - "$tmp/f/fleet-analysis.json" <<'PY'
import json, sys
hosts = {h["node"]: h for h in json.load(open(sys.argv[1]))["hosts"]}
assert hosts["h1"]["packages"] == 2 and hosts["h1"]["cores"] == 32, hosts["h1"]
for k in ("packages", "numa_nodes", "cores", "pus", "clock_resolution_ns"):
    assert hosts["h2"][k] is None, (k, hosts["h2"][k])
PY
	;;
analyze_reader_left)
	# `lab analyze FLEET | head -1` died of SIGPIPE after the first host's text: the second
	# host and the fleet's own files were never written. A reader that left is EPIPE: every
	# host and fleet-analysis.json are written, silently.
	usl_fleet h1 h2
	rc=$(set +e +o pipefail
		"$lab" analyze "$tmp/f" --no-plots 2>"$tmp/err" | true # a reader that left at once
		echo "${PIPESTATUS[0]}")
	[ "$rc" -lt 128 ] || fail "killed by signal $((rc - 128)): $(cat "$tmp/err")"
	[ -s "$tmp/f/h2/analysis.json" ] || fail "h2 not analyzed: $(cat "$tmp/err")"
	[ -s "$tmp/f/fleet-analysis.json" ] || fail "no fleet-analysis.json: $(cat "$tmp/err")"
	if grep -q "cannot write standard output" "$tmp/err"; then fail "EPIPE reported: $(cat "$tmp/err")"; fi
	;;
host_one_sample_no_interval)
	# A host whose point kept one sample printed "0.1656 [0.1656, 0.1656]  n=1" and a ci95 of
	# two equal numbers: one sample has no interval.
	mkdir "$tmp/f"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h1"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h2"
	awk -F, 'NR == 1 || $2 != 0 || $6 == 0' "$src/tests/fixtures/results-usl/samples.csv" \
		>"$tmp/f/h2/samples.csv"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "COMPLETED", "tasks": [{"node": "h1", "state": "COMPLETED", "exit_code": 0}, {"node": "h2", "state": "COMPLETED", "exit_code": 0}]}' >"$tmp/f/fleet.json"
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
	grep -q "^    h2 .*, no interval  n=1$" "$tmp/out" || fail "no 'no interval': $(cat "$tmp/out")"
	python3 - "$tmp/f/fleet-analysis.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
one = [h for p in a["points"] for h in p["hosts"] if h["n"] == 1]
assert one and all(h["ci95"] is None or h["ci95"] == [None, None] for h in one), one
assert all(h["ci95"][0] < h["ci95"][1] for p in a["points"] for h in p["hosts"] if h["n"] > 1)
PY
	;;
host_runs_interval)
	# A host of three runs a point printed its samples' interval (1.079 [1.049, 1.11] n=30)
	# where lab analyze DIR/h1 gives the run means' (1.079 [0.832, 1.327]), and a host that kept
	# one of three planned runs looked the more precise, with no ONE SETUP flag.
	mkdir "$tmp/f"
	cp -r "$src/tests/fixtures/results-compare-runs-b" "$tmp/f/h1"
	cp -r "$src/tests/fixtures/results-compare-runs-b" "$tmp/f/h2"
	python3 - "$tmp/f/h2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
for e in d["experiments"]:
    for p in e["points"]:
        p["runs"], p["runs_planned"], p["reps"] = 1, 3, p["reps"] // 3
json.dump(d, open(sys.argv[1] + "/run.json", "w"), indent=1)
rows = open(sys.argv[1] + "/samples.csv").read().splitlines()
open(sys.argv[1] + "/samples.csv", "w").write(
    "\n".join([rows[0]] + [r for r in rows[1:] if r.endswith(",0")]) + "\n")
PY
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "COMPLETED", "tasks": [{"node": "h1", "state": "COMPLETED", "exit_code": 0}, {"node": "h2", "state": "COMPLETED", "exit_code": 0}]}' >"$tmp/f/fleet.json"
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
	"$lab" analyze "$tmp/f/h1" --no-plots --json >"$tmp/h1.json" 2>"$tmp/err" ||
		fail "h1: exit $?: $(cat "$tmp/err")"
	grep -q "^    h1 .*\]  3 runs (n=30)$" "$tmp/out" || fail "h1 not of runs: $(cat "$tmp/out")"
	grep -q "^    h2 .*  n=10  ONE SETUP: 1 of 3 planned runs$" "$tmp/out" ||
		fail "h2 not flagged: $(cat "$tmp/out")"
	python3 - "$tmp/f/fleet-analysis.json" "$tmp/f/h1/analysis.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
own = {(s["experiment"], s["params"], t["threads"]): t
       for s in json.load(open(sys.argv[2]))["series"] for t in s["points"]}
for p in a["points"]:
    h1, h2 = p["hosts"]
    t = own[(p["experiment"], p["params"], p["threads"])]
    assert h1["interval_of"] == "runs" and h1["runs"] == 3 and h1["one_setup"] is None, h1
    assert abs(h1["ci95"][0] - t["run_ci95"][0]) < 1e-6 * t["run_ci95"][1], (h1, t)
    assert abs(h1["ci95"][1] - t["run_ci95"][1]) < 1e-6 * t["run_ci95"][1], (h1, t)
    assert h2["interval_of"] == "samples" and h2["one_setup"].startswith("ONE SETUP"), h2
PY
	;;
analyze_other_quantity)
	# h2 measured [contend] in bytes, h1 in ops: not one quantity, so not one row (8 ns/op
	# beside 8000 ns/byte under one header compared nothing) and not one plot axis.
	mkdir "$tmp/f"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h1"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h2"
	contend_unit h2 byte
	cat >"$tmp/f/fleet.json" <<'JSON'
{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "COMPLETED",
 "tasks": [{"node": "h1", "state": "COMPLETED", "exit_code": 0},
           {"node": "h2", "state": "COMPLETED", "exit_code": 0}]}
JSON
	"$lab" analyze "$tmp/f" >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
	python3 - "$tmp/f/fleet-analysis.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
units = {}
for p in a["points"]:
    measured = [h["node"] for h in p["hosts"] if h["n"] > 0]
    if p["experiment"] == "contend":
        assert len(measured) <= 1, p  # each quantity its own row
        units.setdefault(p["unit"], set()).update(measured)
        # the other host measured it too, as another quantity: not "without" it
        assert p["hosts_without"] == 0 and p["hosts_other_quantity"] == 1, p
        assert p["kernel"] == "atomic_add", p
    else:
        assert sorted(measured) == ["h1", "h2"], p
assert units == {"ns/op": {"h1"}, "ns/byte": {"h2"}}, units
PY
	grep -q "^    measured as another quantity on 1 of 2 hosts (a row of its own)$" "$tmp/out" ||
		fail "no other-quantity line: $(cat "$tmp/out")"
	grep -q "not measured on" "$tmp/out" && fail "a host said not to have measured: $(cat "$tmp/out")"
	for gp in "$tmp"/f/plots/fleet-*contend*.gp; do
		[ "$(grep -c "title 'h" "$gp")" = 1 ] || fail "$gp draws two quantities on one axis"
	done
	# a third quantity on h3: three rows of one point, each counting the other two hosts
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h3"
	sed -i 's/"node": "h2", "state": "COMPLETED", "exit_code": 0}/&, {"node": "h3", "state": "COMPLETED", "exit_code": 0}/' "$tmp/f/fleet.json"
	contend_unit h3 element
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
	python3 - "$tmp/f/fleet-analysis.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
rows = [p for p in a["points"] if p["experiment"] == "contend" and p["threads"] == 2]
assert sorted(p["unit"] for p in rows) == ["ns/byte", "ns/element", "ns/op"], rows
assert all(p["hosts_other_quantity"] == 2 and p["hosts_without"] == 0 for p in rows), rows
PY
	;;
cpu_refusal)
	# A 1-CPU task of a Slurm job (faked by its variables) asked for 2 threads: refused, and
	# the message says which job gave how many CPUs and what to submit instead.
	command -v taskset >/dev/null || { echo "taskset missing" >&2; exit 77; }
	expect 2 "the Slurm job 99 gives this task 1 CPU on node n7: submit with --exclusive or -c 2" \
		env SLURM_JOB_ID=99 SLURMD_NODENAME=n7 taskset -c 0 "$lab" run --set global.retry_flagged=0 "$cfg" -o "$tmp/r"
	[ ! -e "$tmp/r" ] || fail "a refused run wrote $tmp/r"
	;;
environment_refused)
	# What every node inherits and would refuse to run on is refused before anything is
	# submitted: hwloc's topology variables (each node would plan on them), a LAB_CPU_MASK
	# hiding what the build needs everywhere.
	expect 2 "HWLOC_SYNTHETIC is set: every node's lab run would plan on it" \
		env HWLOC_SYNTHETIC="pack:1 pu:8" "$lab" fleet "$cfg" --dry-run -o "$tmp/f1"
	expect 2 "HWLOC_XMLFILE is set" env HWLOC_XMLFILE=/dev/zero "$lab" fleet "$cfg" \
		--topology 'synthetic:pack:2 core:8 pu:2' --dry-run -o "$tmp/f2"
	expect 2 "LAB_CPU_MASK hides sse2" env LAB_CPU_MASK=sse2 "$lab" fleet "$cfg" --dry-run -o "$tmp/f3"
	expect 2 "HWLOC_COMPONENTS, HWLOC_CPUID_PATH are set" env HWLOC_COMPONENTS=-linux \
		HWLOC_CPUID_PATH=/nonexistent "$lab" fleet "$cfg" --dry-run -o "$tmp/f4"
	[ ! -e "$tmp/f1" ] && [ ! -e "$tmp/f2" ] && [ ! -e "$tmp/f3" ] && [ ! -e "$tmp/f4" ] ||
		fail "a refused fleet wrote"
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
config_validated)
	# Issue 19: an unknown key used to exit 0 and submit twice; --dry-run exited 0 too.
	fake_slurm
	printf '[global]\nreps = 3\n\n[noop]\nkernel = noop\nthreads = 1\nstrid = 4\n' >"$tmp/bad.ini"
	expect 2 "bad.ini:7: .*strid" "$lab" fleet "$tmp/bad.ini" -o "$tmp/f"
	grep -q "nothing was submitted" "$tmp/err" || fail "no closing line: $(cat "$tmp/err")"
	no_slurm_call
	[ ! -e "$tmp/f" ] || fail "a config error left $tmp/f"
	expect 2 "bad.ini:7: .*strid" "$lab" fleet "$tmp/bad.ini" -o "$tmp/f" --dry-run
	[ -s "$tmp/out" ] && fail "--dry-run printed scripts for a bad config"
	# Planned for the nodes' topology when given: 2 threads on a 1-PU node is refused ...
	expect 2 "tiny.ini:9: .*threads" "$lab" fleet "$cfg" --topology 'synthetic:pu:1' --dry-run
	grep -q "checked for" "$tmp/err" || fail "no topology named: $(cat "$tmp/err")"
	expect 2 "--topology" "$lab" fleet "$cfg" --topology 'synthetic:nonsense' --dry-run
	# a bad --topology is the option's one line, not an error counted in the config
	expect 2 "^lab fleet: --topology nodes.xml: unknown topology (allowed: .*xml:FILE.*); nothing was submitted$" \
		"$lab" fleet "$cfg" --topology nodes.xml --dry-run
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "more than one line: $(cat "$tmp/err")"
	# ... and accepted on a larger one, then submitted once per job.
	"$lab" fleet "$cfg" --topology 'synthetic:core:4 pu:2' --dry-run >/dev/null
	"$lab" fleet "$cfg" --topology 'synthetic:core:4 pu:2' -o "$tmp/g" >/dev/null
	[ "$(grep -c '^sbatch$' "$tmp/slurm.log")" = 2 ] || fail "not two sbatch calls"
	cmp "$cfg" "$tmp/g/config.ini" || fail "config.ini differs from the validated config"
	;;
config_special_files)
	# Issue 19: /dev/zero was copied forever, a FIFO hung and left config.ini and logs/, a
	# directory exited 1. Each is refused up front (exit 2) and leaves nothing.
	fake_slurm
	expect 2 "not a regular file (a character device; allowed: a regular file)" timeout 20 "$lab" fleet /dev/zero -o "$tmp/f"
	[ ! -e "$tmp/f" ] || fail "/dev/zero left $tmp/f"
	mkfifo "$tmp/fifo"
	expect 2 "not a regular file (a FIFO; allowed: a regular file)" timeout 20 "$lab" fleet "$tmp/fifo" -o "$tmp/f"
	[ ! -e "$tmp/f" ] || fail "a FIFO left $tmp/f"
	expect 2 "not a regular file (a directory; allowed: a regular file)" "$lab" fleet "$tmp" -o "$tmp/f" --dry-run
	expect 2 "not a regular file (a directory; allowed: a regular file)" "$lab" fleet "$tmp" -o "$tmp/f"
	[ ! -e "$tmp/f" ] || fail "a directory as config left $tmp/f"
	truncate -s 65M "$tmp/huge.ini"
	expect 2 "allowed at most 64 MiB" "$lab" fleet "$tmp/huge.ini" -o "$tmp/f"
	no_slurm_call
	# A write that fails (file size limit: EFBIG) is an error, and nothing is left behind,
	# not even an -o directory that existed empty before.
	{ cat "$cfg"; for i in $(seq 200); do echo "; padding line $i of a config over 4 KiB"; done; } \
		>"$tmp/big.ini"
	mkdir "$tmp/e"
	expect 1 "config.ini: cannot write" bash -c 'trap "" XFSZ; ulimit -f 2; exec "$@"' _ \
		"$lab" fleet "$tmp/big.ini" -o "$tmp/e"
	[ -d "$tmp/e" ] && [ -z "$(ls -A "$tmp/e")" ] || fail "a failed write left $(ls -A "$tmp/e")"
	no_slurm_call
	;;
long_nodelist)
	# Issue 19: 5,399 characters reached sbatch cut to 4,288 and fleet.json kept 511.
	fake_slurm
	list=$(seq -f 'node%05g' 1 600 | paste -sd, -)
	list=${list:0:5399}
	list=${list%,*}
	"$lab" fleet "$cfg" --nodelist "$list" -o "$tmp/f" >/dev/null
	grep -qxF -- "--nodelist=$list" "$tmp/slurm.log" || fail "sbatch did not get the whole list"
	python3 - "$tmp/f/fleet.json" "$list" <<'PY'
import json, sys
got = json.load(open(sys.argv[1]))["request"]["nodelist"]
assert got == sys.argv[2], (len(got), len(sys.argv[2]))
PY
	"$lab" fleet "$cfg" --nodelist "$list" -o "$tmp/g" --dry-run | grep -qF -- "--nodelist=$list " ||
		fail "--dry-run did not print the whole list"
	long=$(seq -f 'node%06g' 1 7000 | paste -sd, -)
	expect 2 "nodelist: 76999 characters (allowed at most 65535" \
		"$lab" fleet "$cfg" --nodelist "$long" -o "$tmp/h"
	[ ! -e "$tmp/h" ] || fail "a refused list left $tmp/h"
	expect 2 "partition: 200 characters (allowed at most 127" \
		"$lab" fleet "$cfg" --partition "$(printf 'p%.0s' $(seq 200))" --dry-run
	;;
nodes_checked)
	# Issue 19: --nodes 4294967297 wrapped through atoi to 1 and reached sbatch.
	fake_slurm
	for v in 4294967297 18446744073709551617 99999999999999999999999 1025; do
		expect 2 "'$v': out of range (allowed 1 .. 1024)" "$lab" fleet "$cfg" --nodes "$v" -o "$tmp/f"
	done
	for v in 0x10 1e3 +3 -3 ' 3' '3 ' 3.0 ''; do
		expect 2 "not a count\|not a Slurm value\|missing value" \
			"$lab" fleet "$cfg" --nodes "$v" -o "$tmp/f"
	done
	no_slurm_call
	[ ! -e "$tmp/f" ] || fail "a refused count left $tmp/f"
	"$lab" fleet "$cfg" --nodes 007 --dry-run | grep -q -- " --nodes=7 " || fail "007 not read as 7"
	;;
job_ids_checked)
	# Issue 19: a job id from fleet.json became an option of squeue/scontrol/sacct.
	fake_slurm
	for id in --cluster=x -1 '1;2' '12 3' 12_ _3 1_2_3 x12; do
		printf '{"schema": "lab.fleet/1", "jobs": {"run": "%s", "analyze": "8"}}' "$id" \
			>"$tmp/fleet.json"
		expect 2 "jobs.run is not a Slurm job id" "$lab" fleet status "$tmp"
	done
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "--cluster=x"}}' \
		>"$tmp/fleet.json"
	expect 2 "jobs.analyze is not a Slurm job id" "$lab" fleet status "$tmp"
	# A job id as a number was read as none ("job -: RUNNING") and written back as "", and a
	# fleet.json without "jobs" passed: one line, exit 2, fleet.json as it was.
	printf '{"schema": "lab.fleet/1",\n "jobs": {"run": 1, "analyze": "8"}}' >"$tmp/fleet.json"
	cp "$tmp/fleet.json" "$tmp/before"
	expect 2 "$tmp/fleet.json:2: jobs.run is not a string (allowed: digits, optionally _N)" \
		"$lab" fleet status "$tmp"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(cat "$tmp/err")"
	cmp -s "$tmp/before" "$tmp/fleet.json" || fail "fleet.json was rewritten"
	printf '{"schema": "lab.fleet/1", "tasks": []}' >"$tmp/fleet.json"
	expect 2 "$tmp/fleet.json:1: \"jobs\" is missing (allowed: " "$lab" fleet status "$tmp"
	no_slurm_call
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "12_3", "analyze": "13"}}' >"$tmp/fleet.json"
	"$lab" fleet status "$tmp" >/dev/null 2>&1
	grep -qx -- "12_3" "$tmp/slurm.log" || fail "an array job id was not asked about"
	;;
long_cwd)
	# Issue 19: from a long working directory the scripts named a cut one.
	d=$tmp
	for i in $(seq 2); do d=$d/$(printf "d$i%.0s" $(seq 100) | head -c 190); done
	mkdir -p "$d"
	(cd "$d" && "$lab" fleet "$cfg" -o f --dry-run) >"$tmp/out"
	[ "$(wc -c <"$tmp/out")" -gt 2000 ] || fail "short dry-run output"
	grep -qF "'$lab' fleet task '$d/f'" "$tmp/out" || fail "the script does not name $d/f"
	grep -qF -- " --output=$d/f/logs/fleet-%j.out " "$tmp/out" || fail "--output not whole"
	# Past what lab run -o DIR/<node> takes on the nodes (511 bytes, node names of up to 63):
	# refused before anything is submitted, not failed on every node (a 520-byte DIR/n1 was).
	d=$d/$(printf "e%.0s" $(seq 100))
	mkdir -p "$d"
	fake_slurm
	for dry in --dry-run ""; do
		(cd "$d" && expect 2 "absolute path is .* characters (allowed at most 447: each node runs lab run -o DIR/<node>, which takes 511, with node names of up to 63)" \
			"$lab" fleet "$cfg" -o f $dry)
		[ ! -e "$d/f" ] || fail "a refused DIR was made"
	done
	no_slurm_call
	# A working directory with '%' or a control byte is refused like such an -o.
	mkdir "$tmp/p%j" "$tmp/c"$'\x1b'
	(cd "$tmp/p%j" && expect 2 "'%' not allowed" "$lab" fleet "$cfg" -o f --dry-run)
	(cd "$tmp/c"$'\x1b' && expect 2 "fleet directory '.*c.x1b/f': a control character" \
		"$lab" fleet "$cfg" -o f --dry-run)
	;;
status_escapes)
	# Issue 19: strings read from fleet.json were printed raw: "\e[2K\r" erased the line.
	fake_slurm
	printf '{"schema": "lab.fleet/1", "config_source": "a\\u001b[2K\\rOK.ini\\u009b2K",
	 "state": "COMPLETED", "jobs": {"run": "7", "analyze": "8"},
	 "tasks": [{"node": "n1", "state": "COMPLETED", "exit_code": 0}]}' >"$tmp/fleet.json"
	mkdir -p "$tmp/tasks"
	printf '{"state": "X\\u001b[2K", "exit_code": 0}' >"$tmp/tasks/n1.json"
	"$lab" fleet status "$tmp" >"$tmp/out" 2>"$tmp/err"
	LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]' "$tmp/out" "$tmp/err" &&
		fail "a control byte reached the terminal: $(od -c "$tmp/out" | head -20)"
	grep -qF 'config a\x1b[2K\x0dOK.ini\xc2\x9b2K' "$tmp/out" || fail "config not escaped: $(cat "$tmp/out")"
	# the fleet's state decides which tasks are final and is written back: a Slurm state, or
	# refused at its line ("COMPLETED\e" was kept, and made the tasks without a record MISSING)
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"},\n "state": "DONE\\u001b]0;x\\u0007",
	 "tasks": [{"node": "n1", "state": "COMPLETED", "exit_code": 0}]}' >"$tmp/fleet.json"
	expect 2 'fleet.json:2: "state": allowed: a Slurm state' "$lab" fleet status "$tmp"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(cat "$tmp/err")"
	# the request's values as lab fleet takes them ("$(id)" was kept and written back)
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"},\n "request": {"nodes": "2",\n "time": "$(id)"},
	 "tasks": [{"node": "n1", "state": "COMPLETED", "exit_code": 0}]}' >"$tmp/fleet.json"
	expect 2 'fleet.json:3: request.time: not a Slurm value' "$lab" fleet status "$tmp"
	# a value of another type was read as "" and written back so: the value was lost
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"},\n "request": {"nodes": 3},
	 "tasks": []}' >"$tmp/fleet.json"
	expect 2 'fleet.json:2: "nodes" is no string (allowed: a string)' "$lab" fleet status "$tmp"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"},\n "request": "--nodes=3",
	 "tasks": []}' >"$tmp/fleet.json"
	expect 2 'fleet.json:2: "request" is no object' "$lab" fleet status "$tmp"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"},\n "tasks": [\n{"node": "n1", "state": 7}]}' >"$tmp/fleet.json"
	expect 2 'fleet.json:3: "state" is no string' "$lab" fleet status "$tmp"
	;;
status_no_links)
	# Round 4: a task record or fleet.json that is a symbolic link was read through the link
	# (a link out of DIR showed the state of a file elsewhere); neither is followed.
	mkdir -p "$tmp/f/tasks" "$tmp/elsewhere"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "", "analyze": ""},
	 "tasks": [{"node": "n1", "state": "PENDING"}]}' \
		>"$tmp/f/fleet.json"
	printf '{"state": "LINKED", "exit_code": 7}' >"$tmp/elsewhere/n1.json"
	ln -s "$tmp/elsewhere/n1.json" "$tmp/f/tasks/n1.json"
	"$lab" fleet status "$tmp/f" >"$tmp/out" 2>"$tmp/err" || fail "status: $(cat "$tmp/err")"
	grep -q LINKED "$tmp/out" "$tmp/f/fleet.json" && fail "a linked task record was read"
	grep -q 'tasks/n1.json: a symbolic link' "$tmp/err" || fail "no word on the link: $(cat "$tmp/err")"
	mkdir "$tmp/g"
	mv "$tmp/f/fleet.json" "$tmp/elsewhere/fleet.json"
	ln -s "$tmp/elsewhere/fleet.json" "$tmp/g/fleet.json"
	expect 2 "fleet.json: a symbolic link" "$lab" fleet status "$tmp/g"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "more than one line: $(cat "$tmp/err")"
	;;
analyze_escapes)
	# lab analyze on a fleet prints what fleet.json and the hosts' files say escaped.
	mkdir "$tmp/f"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h1"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "COMPLETED",
	 "tasks": [{"node": "h1", "state": "COMPLETED", "exit_code": 0},
	           {"node": "h2", "state": "FAILED\\u001b[2K\\rOK", "exit_code": 1}]}' >"$tmp/f/fleet.json"
	# a task's state is a Slurm word: one with control bytes is refused, the message escaped
	expect 2 'fleet.json:3: task 2: "state": allowed: a Slurm state' \
		"$lab" analyze "$tmp/f" --no-plots
	if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$tmp/out" "$tmp/err"; then
		fail "a control byte reached the terminal"
	fi
	;;
analyze_stale_plots)
	# The cross-host plots of a series no host has any more go at the next analysis (the
	# record DIR/analysis-files.txt); a user's file in plots/ stays; a hard link planted under
	# a fleet plot's name is replaced, the file it links to untouched.
	mkdir "$tmp/f"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h1"
	cp -r "$src/tests/fixtures/results-locks" "$tmp/f/h2"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "COMPLETED",
	 "tasks": [{"node": "h1", "state": "COMPLETED", "exit_code": 0},
	           {"node": "h2", "state": "COMPLETED", "exit_code": 0}]}' >"$tmp/f/fleet.json"
	"$lab" analyze "$tmp/f" >/dev/null 2>"$tmp/err" || fail "first analysis: $(cat "$tmp/err")"
	compgen -G "$tmp/f/plots/fleet-*-locks*.gp" >/dev/null || fail "no locks plot at first"
	echo precious >"$tmp/victim"
	echo mine >"$tmp/f/plots/important.png"
	dat=$(compgen -G "$tmp/f/plots/fleet-01-*.dat")
	ln -f "$tmp/victim" "$dat"
	rm -rf "$tmp/f/h2" && cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h2"
	"$lab" analyze "$tmp/f" >/dev/null 2>"$tmp/err" || fail "second analysis: $(cat "$tmp/err")"
	if compgen -G "$tmp/f/plots/fleet-*-locks*" >/dev/null; then
		fail "stale fleet plots: $(ls "$tmp/f/plots")"
	fi
	[ "$(cat "$tmp/victim")" = precious ] || fail "a fleet plot was written through a hard link"
	[ -f "$dat" ] && [ "$(stat -c %h "$dat")" = 1 ] || fail "$dat not replaced"
	[ -f "$tmp/f/plots/important.png" ] || fail "a user's file in plots/ was removed"
	grep -q '^fleet-analysis.json	[0-9]*	[0-9]*$' "$tmp/f/analysis-files.txt" || fail "no record"
	;;
submit_interrupted)
	# Ctrl-C during sbatch (which ran in lab's process group) killed lab silently and left a
	# submitted job that no fleet.json tracked. Now sbatch finishes in a group of its own, lab
	# cancels what was submitted, removes what it wrote and says so in one line.
	fake_slurm
	cat >"$tmp/bin/sbatch" <<SH
#!/bin/sh
{ echo sbatch; for a in "\$@"; do printf '%s\n' "\$a"; done; echo --; } >>"$tmp/slurm.log"
n=\$(grep -c '^sbatch\$' "$tmp/slurm.log")
: >"$tmp/sbatch.\$n"
sleep 2
echo \$((100 + n))
SH
	for sig_at in INT:1:130 TERM:2:143 HUP:2:129; do
		IFS=: read -r sig at code <<<"$sig_at"
		rm -f "$tmp"/sbatch.*
		: >"$tmp/slurm.log"
		# job control: lab in a process group of its own, SIGINT not ignored
		set -m
		"$lab" fleet "$cfg" -o "$tmp/f" >"$tmp/out" 2>"$tmp/err" &
		pid=$!
		set +m
		for _ in $(seq 100); do [ -e "$tmp/sbatch.$at" ] && break; sleep 0.1; done
		[ -e "$tmp/sbatch.$at" ] || fail "sbatch $at never ran: $(cat "$tmp/err")"
		[ "$(ps -o pgid= -p "$pid" | tr -d ' ')" = "$pid" ] || fail "lab is no group leader"
		kill -s "$sig" -- "-$pid" # the whole process group, as the terminal's Ctrl-C
		rc=0
		wait "$pid" || rc=$?
		[ "$rc" = "$code" ] || fail "SIG$sig: exit $rc, expected $code: $(cat "$tmp/err")"
		[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "interrupted (SIG$sig)" "$tmp/err" ||
			fail "SIG$sig: $(cat "$tmp/err")"
		[ ! -e "$tmp/f" ] || fail "SIG$sig: left $(ls -A "$tmp/f")"
		[ "$(grep -c '^sbatch$' "$tmp/slurm.log")" = "$at" ] || fail "SIG$sig: submitted on"
		for id in $(seq 101 $((100 + at))); do
			grep -A1 '^scancel$' "$tmp/slurm.log" | grep -qx "$id" ||
				fail "SIG$sig: job $id not cancelled: $(cat "$tmp/slurm.log")"
		done
	done
	;;
analyze_failed_host)
	# A cancelled fleet (every task FAILED, every run.json "interrupted") was analyzed as
	# healthy: exit 0, every host "ok". A host whose task failed or whose run did not complete
	# is named on stderr and in the table, its finished points are marked, and the exit is 1.
	mkdir "$tmp/f"
	for h in h1 h2 h3; do cp -r "$src/tests/fixtures/results-usl" "$tmp/f/$h"; done
	sed -i 's/"status": *"complete"/"status": "interrupted"/' "$tmp/f/h3/run.json"
	grep -q '"status": "interrupted"' "$tmp/f/h3/run.json" || fail "fixture not changed"
	cat >"$tmp/f/fleet.json" <<'JSON'
{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "CANCELLED",
 "tasks": [{"node": "h1", "state": "COMPLETED", "exit_code": 0},
           {"node": "h2", "state": "CANCELLED by 0", "exit_code": 0},
           {"node": "h3", "state": "FAILED", "exit_code": 1}]}
JSON
	expect 1 "host h2: failed: task CANCELLED by 0, run complete" "$lab" analyze "$tmp/f" --no-plots
	grep -q "host h3: failed: task FAILED, run interrupted" "$tmp/err" || fail "h3: $(cat "$tmp/err")"
	grep -q "host h1" "$tmp/err" && fail "h1 named: $(cat "$tmp/err")"
	grep -q "3 hosts, 0 missing, 2 failed" "$tmp/out" || fail "no count: $(cat "$tmp/out")"
	grep -q "^  h3 *FAILED " "$tmp/out" || fail "h3 not FAILED in the table: $(cat "$tmp/out")"
	grep -q "^    h3 .*(host FAILED)" "$tmp/out" || fail "h3's points not marked"
	python3 - "$tmp/f/fleet-analysis.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
st = {h["node"]: h["status"] for h in a["hosts"]}
assert st == {"h1": "ok", "h2": "failed", "h3": "failed"}, st
assert all(h["reason"] for h in a["hosts"] if h["node"] != "h1"), a["hosts"]
for p in a["points"]:
    hs = {h["node"]: h for h in p["hosts"]}
    assert hs["h3"]["host_failed"] and not hs["h1"]["host_failed"], p
PY
	;;
status_tasks_refused)
	# A tasks/ that is a link was followed out of DIR (its record's exit code went into
	# fleet.json); a record with a refused state kept its exit code ("MISSING 77"); a FIFO or
	# a directory as a record was skipped without a word; a stray unreadable record added a
	# task; a record that gives a key twice is no record either. Each is refused with a warning
	# and changes nothing.
	mkdir -p "$tmp/f" "$tmp/elsewhere"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "", "analyze": ""},
	 "tasks": [{"node": "n1", "state": "PENDING"}]}' >"$tmp/f/fleet.json"
	printf '{"state": "COMPLETED", "exit_code": 77}' >"$tmp/elsewhere/n1.json"
	ln -s "$tmp/elsewhere" "$tmp/f/tasks"
	"$lab" fleet status "$tmp/f" >"$tmp/out" 2>"$tmp/err" || fail "status: $(cat "$tmp/err")"
	grep -q "$tmp/f/tasks: a symbolic link" "$tmp/err" || fail "no word on tasks/: $(cat "$tmp/err")"
	# the outputs name $tmp, whose random name may hold "77": read them without it
	cat "$tmp/out" "$tmp/f/fleet.json" | sed "s|$tmp|TMP|g" | grep -q '77\|COMPLETED' &&
		fail "read through tasks/: $(cat "$tmp/out")"
	rm "$tmp/f/tasks" && echo x >"$tmp/f/tasks"
	"$lab" fleet status "$tmp/f" >"$tmp/out" 2>"$tmp/err" || fail "status: $(cat "$tmp/err")"
	grep -q "$tmp/f/tasks: not a directory" "$tmp/err" || fail "no word on tasks: $(cat "$tmp/err")"
	rm "$tmp/f/tasks" && mkdir "$tmp/f/tasks"
	printf '{"state": "DONE;rm", "exit_code": 77}' >"$tmp/f/tasks/n1.json"
	mkfifo "$tmp/f/tasks/n2.json"
	mkdir "$tmp/f/tasks/n3.json"
	printf '{"state": ' >"$tmp/f/tasks/zz.json"
	ln -s "$tmp/elsewhere/n1.json" "$tmp/f/tasks/zz2.json"
	# a key twice (which value counts depends on the reader, as in fleet.json and run.json)
	printf '{"state": "COMPLETED", "exit_code": 77,\n "exit_code": 0}' >"$tmp/f/tasks/n4.json"
	printf '{"state": "FAILED", "exit_code": 1, "state": "COMPLETED"}' >"$tmp/f/tasks/n5.json"
	# a NUL byte ended the record: what followed it was never read
	printf '{"state": "COMPLETED", "exit_code": 0}\0{"state": "FAILED"' >"$tmp/f/tasks/n6.json"
	timeout 20 "$lab" fleet status "$tmp/f" >"$tmp/out" 2>"$tmp/err" || fail "status: $(cat "$tmp/err")"
	for w in "n1.json: not a task record" "n2.json: a FIFO" "n3.json: a directory" \
		"zz.json: not a task record" "zz2.json: a symbolic link" \
		'n4.json: not a task record: n4.json:2: key "exit_code" again' \
		'n5.json: not a task record: n5.json:1: key "state" again' \
		'n6.json: not a task record: n6.json:1:'; do
		grep -q "tasks/$w" "$tmp/err" || fail "no warning '$w': $(cat "$tmp/err")"
	done
	sed "s|$tmp|TMP|g" "$tmp/out" | grep -q '77' &&
		fail "a refused record's exit code was kept: $(cat "$tmp/out")"
	python3 - "$tmp/f/fleet.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["tasks"]
assert [x["node"] for x in t] == ["n1"], t
assert t[0]["exit_code"] is None and t[0]["state"] != "DONE;rm", t
PY
	;;
out_dir_kept)
	# An existing empty -o directory was taken by rmdir and mkdir 0755: a private directory
	# (2700, group daemon) became drwxr-xr-x root:root. It is used as it is.
	fake_slurm
	mkdir -m 2700 "$tmp/priv"
	grp=$(id -gn)
	if [ "$(id -u)" = 0 ] && getent group daemon >/dev/null; then grp=daemon; fi
	chgrp "$grp" "$tmp/priv"
	before=$(stat -c '%a %G %i' "$tmp/priv")
	"$lab" fleet "$cfg" -o "$tmp/priv" >/dev/null 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
	[ "$(stat -c '%a %G %i' "$tmp/priv")" = "$before" ] ||
		fail "mode, group or inode changed: $before -> $(stat -c '%a %G %i' "$tmp/priv")"
	[ -f "$tmp/priv/fleet.json" ] || fail "no fleet.json"
	# a failed submission leaves it as it was: there, empty, its mode kept
	mkdir -m 2700 "$tmp/priv2"
	expect 1 "sbatch: cannot run it" env PATH=/nonexistent "$lab" fleet "$cfg" -o "$tmp/priv2"
	[ -z "$(ls -A "$tmp/priv2")" ] && [ "$(stat -c %a "$tmp/priv2")" = 2700 ] ||
		fail "priv2 not as it was: $(stat -c %a "$tmp/priv2") $(ls -A "$tmp/priv2")"
	;;
out_dir_refused)
	# -o a file, a non-empty directory or a link to an empty one exited 1 ("not a new or empty
	# directory", wrong for the link), --dry-run did not look at -o at all, and -o "" was
	# taken (the working directory). Each is bad usage: one line with the reason, exit 2.
	fake_slurm
	: >"$tmp/afile"
	mkdir "$tmp/full" "$tmp/empty" "$tmp/cwd"
	: >"$tmp/full/x"
	ln -s "$tmp/empty" "$tmp/dlink"
	for dry in --dry-run ""; do
		expect 2 "-o $tmp/afile: not a directory (a regular file) (allowed: a new or empty directory)" \
			"$lab" fleet "$cfg" -o "$tmp/afile" $dry
		expect 2 "-o $tmp/full: not empty (allowed: a new or empty directory)" \
			"$lab" fleet "$cfg" -o "$tmp/full/" $dry
		expect 2 "-o $tmp/dlink: a symbolic link, never followed (allowed: a new or empty directory)" \
			"$lab" fleet "$cfg" -o "$tmp/dlink" $dry
		# review30: a missing parent passed --dry-run and failed the real run with exit 1
		expect 2 "-o $tmp/none/x: its parent directory does not exist (allowed: a new or empty directory)" \
			"$lab" fleet "$cfg" -o "$tmp/none/x" $dry
		expect 2 "-o $tmp/afile/x: Not a directory (allowed: a new or empty directory)" \
			"$lab" fleet "$cfg" -o "$tmp/afile/x" $dry
		(cd "$tmp/cwd" && expect 2 "-o '': empty output directory name" "$lab" fleet "$cfg" -o "" $dry)
		[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(cat "$tmp/err")"
	done
	no_slurm_call
	[ ! -s "$tmp/afile" ] && [ "$(ls -A "$tmp/full")" = x ] && [ -z "$(ls -A "$tmp/empty")" ] &&
		[ -z "$(ls -A "$tmp/cwd")" ] || fail "a refused -o was written to"
	# the default directory (results/NAME) is made with its parent: --dry-run takes it where
	# no results/ is yet (review31: refused once parents were checked)
	mkdir "$tmp/fresh"
	(cd "$tmp/fresh" && "$lab" fleet "$cfg" --dry-run >/dev/null) || fail "default dir refused"
	[ -z "$(ls -A "$tmp/fresh")" ] || fail "--dry-run wrote into $tmp/fresh"
	# a path with '//', '.' and a trailing '/' is printed and used tidied
	"$lab" fleet "$cfg" -o "$tmp//./x/" --dry-run >"$tmp/out"
	grep -qF "# $tmp/x/fleet.sbatch" "$tmp/out" || fail "not tidied: $(head -1 "$tmp/out")"
	"$lab" fleet "$cfg" -o "$tmp//./x/" >"$tmp/out"
	grep -qF "results: $tmp/x/<node>/" "$tmp/out" || fail "not tidied: $(cat "$tmp/out")"
	grep -q '//' "$tmp/out" "$tmp/x/fleet.sbatch" "$tmp/x/fleet.json" && fail "a '//' is left"
	true
	;;
status_scheduler_down)
	# With slurmctld down, status said "the scheduler knows nothing of job 41" and rewrote
	# tasks recorded COMPLETED/0 as MISSING/null. Now it says what happened and keeps them.
	fake_slurm
	for cmd in squeue scontrol sacct; do
		printf '#!/bin/sh\necho "slurm_load_jobs error: Unable to contact slurm controller (connect failure)" >&2\nexit 1\n' >"$tmp/bin/$cmd"
	done
	mkdir "$tmp/f"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "41", "analyze": "42"}, "state": "COMPLETED",
	 "tasks": [{"node": "n1", "state": "COMPLETED", "exit_code": 0},
	           {"node": "n2", "state": "FAILED", "exit_code": 3}]}' >"$tmp/f/fleet.json"
	kept() {
		python3 - "$tmp/f/fleet.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
assert f["state"] == "COMPLETED", f["state"]
got = [(t["node"], t["state"], t["exit_code"]) for t in f["tasks"]]
assert got == [("n1", "COMPLETED", 0), ("n2", "FAILED", 3)], got
PY
	}
	"$lab" fleet status "$tmp/f" >"$tmp/out" 2>"$tmp/err" || fail "status: $(cat "$tmp/err")"
	grep -q "squeue failed: slurm_load_jobs error: Unable to contact slurm controller" "$tmp/err" &&
		grep -q "the recorded states are kept" "$tmp/err" || fail "not said: $(cat "$tmp/err")"
	grep -q "knows nothing" "$tmp/err" && fail "an unreachable scheduler 'knows nothing'"
	kept || fail "recorded states changed: $(cat "$tmp/f/fleet.json")"
	printf '#!/bin/sh\nexec sleep 60\n' >"$tmp/bin/squeue"
	timeout 100 "$lab" fleet status "$tmp/f" >"$tmp/out" 2>"$tmp/err" || fail "status: $(cat "$tmp/err")"
	grep -q "squeue did not answer within 15 s" "$tmp/err" || fail "no word on the time: $(cat "$tmp/err")"
	kept || fail "recorded states changed: $(cat "$tmp/f/fleet.json")"
	# one that closes its output and then hangs was waited for as long as it lived
	printf '#!/bin/sh
exec >/dev/null 2>&1
exec sleep 600
' >"$tmp/bin/squeue"
	timeout 100 "$lab" fleet status "$tmp/f" >"$tmp/out" 2>"$tmp/err" || fail "status: $(cat "$tmp/err")"
	grep -q "squeue did not answer within 15 s" "$tmp/err" || fail "no word on the time: $(cat "$tmp/err")"
	kept || fail "recorded states changed: $(cat "$tmp/f/fleet.json")"
	;;
follow_quoted)
	# The follow: line printed DIR bare: -o 'o $(touch PWNED)' gave a line that ran touch when
	# pasted. It is quoted as one shell word, as --dry-run quotes the sbatch lines.
	fake_slurm
	mkdir "$tmp/w"
	(cd "$tmp/w" && "$lab" fleet "$cfg" -o 'o $(touch PWNED)' >"$tmp/out") || fail "exit $?"
	line=$(sed -n 's/^follow:  //p' "$tmp/out")
	[ "$line" = "lab fleet status '$tmp/w/o \$(touch PWNED)'" ] || fail "follow: $line"
	(cd "$tmp/w" && eval "set -- $line" && [ $# = 4 ] && [ "$4" = "$tmp/w/o \$(touch PWNED)" ]) ||
		fail "not read back as 4 words: $line"
	[ ! -e "$tmp/w/PWNED" ] || fail "the follow line ran a command"
	;;
host_cells_say_why)
	# A host's empty cell says why: not measured there, or every sample load-flagged ('-'
	# alone said both); hosts that ran different builds of the lab are noted.
	mkdir "$tmp/f"
	for h in h1 h2; do cp -r "$src/tests/fixtures/results-usl" "$tmp/f/$h"; done
	awk -F, 'BEGIN { OFS = "," } $2 == "0" { $11 = 1 } { print }' \
		"$src/tests/fixtures/results-usl/samples.csv" >"$tmp/f/h2/samples.csv"
	cat >"$tmp/f/fleet.json" <<'JSON'
{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "COMPLETED",
 "tasks": [{"node": "h1", "state": "COMPLETED", "exit_code": 0},
           {"node": "h2", "state": "COMPLETED", "exit_code": 0},
           {"node": "h3", "state": "FAILED", "exit_code": 1}]}
JSON
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>"$tmp/err" || true
	grep -qE '^    h2 +- \(all [0-9]+ samples load-flagged\)$' "$tmp/out" ||
		fail "h2's flagged point: $(cat "$tmp/out")"
	grep -qE '^    not measured on 1 of 3 hosts: h3$' "$tmp/out" ||
		fail "h3's missing point: $(cat "$tmp/out")"
	# hosts of one build: no note; another build on h2: said once
	grep -q "different builds" "$tmp/out" && fail "a note on one build: $(cat "$tmp/out")"
	sed -i 's/"git_sha": "fixture"/"git_sha": "other"/' "$tmp/f/h2/run.json"
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>"$tmp/err" || true
	grep -q "^note: the hosts ran different builds of the lab, in git sha (h1: lab 0.1.0 (fixture), .*; h2: lab 0.1.0 (other), " "$tmp/out" ||
		fail "no note on two builds: $(cat "$tmp/out")"
	;;
analyze_fleet_json_special)
	# A fleet.json that is a FIFO or a directory was "not a results directory (no
	# samples.csv)": the fault is fleet.json's, said by its name; nothing is written.
	mkdir -p "$tmp/f"
	cp -r "$src/tests/fixtures/results-usl" "$tmp/f/h1"
	mkfifo "$tmp/f/fleet.json"
	expect 2 "f/fleet.json: not a regular file (a FIFO; allowed: a regular file)" \
		timeout 20 "$lab" analyze "$tmp/f"
	rm "$tmp/f/fleet.json" && mkdir "$tmp/f/fleet.json"
	expect 2 "f/fleet.json: not a regular file (a directory" "$lab" analyze "$tmp/f"
	[ ! -e "$tmp/f/h1/summary.csv" ] && [ ! -e "$tmp/f/fleet-analysis.json" ] ||
		fail "written: $(ls "$tmp/f" "$tmp/f/h1")"
	;;
analyze_disjoint_points)
	# Hosts of different points: each point lists the hosts that have it and counts the
	# others. Every host listed under every point grew with hosts x points (100 hosts of 200
	# points each, none shared, wrote 636 MB of "absent" entries and 2 million lines).
	usl_fleet h1 h2 h3
	for h in h2 h3; do
		sed -i "s/^contend,/contend_$h,/" "$tmp/f/$h/samples.csv"
		sed -i "s/\"name\": \"contend\"/\"name\": \"contend_$h\"/" "$tmp/f/$h/run.json"
	done
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
	grep -qE '^    not measured on 2 of 3 hosts: h2, h3$' "$tmp/out" ||
		fail "h1's points: $(cat "$tmp/out")"
	grep -qE '^    not measured on 2 of 3 hosts: h1, h3$' "$tmp/out" ||
		fail "h2's points: $(cat "$tmp/out")"
	python3 - "$tmp/f/fleet-analysis.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
assert a["schema"] == "lab.fleet-analysis/2", a["schema"]
seen = {}
for p in a["points"]:
    nodes = [h["node"] for h in p["hosts"]]
    if not p["experiment"].startswith("contend"):  # the fixture's other experiment: shared
        assert nodes == ["h1", "h2", "h3"] and p["hosts_without"] == 0, p
        continue
    assert len(nodes) == 1 and p["hosts_without"] == 2, p
    seen.setdefault(p["experiment"], set()).update(nodes)
assert seen == {"contend": {"h1"}, "contend_h2": {"h2"}, "contend_h3": {"h3"}}, seen
PY
	;;
default_dir_name)
	# Without -o the directory is named after the config: a name with '%' (which sbatch's
	# --output reads as a pattern) or a space was refused as if the user had given it.
	cp "$cfg" "$tmp/pct%j ü.ini"
	cd "$tmp"
	"$lab" fleet "pct%j ü.ini" --nodes 1 --dry-run >"$tmp/out" 2>"$tmp/err" ||
		fail "exit $?: $(cat "$tmp/err")"
	grep -q "results/fleet-[0-9TZ]*-pct_j___/" "$tmp/out" || fail "no tidy name: $(head -c 600 "$tmp/out")"
	[ ! -e "$tmp/results" ] || fail "--dry-run created results/"
	# after "--" a config may start with '-' ('--' was an unknown option)
	cp "$cfg" "$tmp/-x.ini"
	"$lab" fleet --nodes 1 --dry-run -- -x.ini >"$tmp/out" 2>"$tmp/err" ||
		fail "-- -x.ini: exit $?: $(cat "$tmp/err")"
	grep -q "results/fleet-[0-9TZ]*--x/" "$tmp/out" || fail "-x.ini: $(head -c 600 "$tmp/out")"
	;;
analyze_cut_columns)
	# The hosts table cut the CPU model at 36 bytes: inside a UTF-8 character (invalid text on
	# the terminal) or inside an escape ("\x1"). Now cut at a character, marked "...".
	mkdir "$tmp/f"
	for h in h1 h2 h3; do cp -r "$src/tests/fixtures/results-usl" "$tmp/f/$h"; done
	python3 - "$tmp/f" <<'PY'
import json, sys
models = {"h1": "\u00e9" * 40, "h2": "a" * 33 + "\u001b[2K rest of it", "h3": "\u00e9" * 35}
for h, m in models.items():
    p = f"{sys.argv[1]}/{h}/run.json"
    d = json.load(open(p))
    d["host"]["cpu_model"] = m
    json.dump(d, open(p, "w"))
PY
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "7", "analyze": "8"}, "state": "COMPLETED",
	 "tasks": [{"node": "h1", "state": "COMPLETED", "exit_code": 0},
	           {"node": "h2", "state": "COMPLETED", "exit_code": 0},
	           {"node": "h3", "state": "COMPLETED", "exit_code": 0}]}' >"$tmp/f/fleet.json"
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
	python3 - "$tmp/out" <<'PY'
import sys
text = open(sys.argv[1], "rb").read().decode("utf-8")  # strict: a cut character fails here
rows = {l.split()[0]: l for l in text.splitlines() if l.startswith("  h") and " ok " in l}
col = lambda h: rows[h][2 + 16 + 1 + 10 + 1:][:36]
assert col("h1") == "\u00e9" * 33 + "...", repr(col("h1"))
assert col("h2") == "a" * 33 + "...", repr(col("h2"))  # no "\x1" left of an escape
assert col("h3") == "\u00e9" * 35 + " ", repr(col("h3"))  # fits: whole, padded
PY
	;;
builds_over_limit)
	# 18 hosts of 18 builds: 16 are listed, the 2 hosts of the others were left out without a
	# word (their parts still counted). The note and fleet-analysis.json say how many.
	usl_fleet $(seq -f 'h%g' 1 18)
	for i in $(seq 1 18); do
		sed -i "s/\"git_sha\": \"fixture\"/\"git_sha\": \"b$i\"/" "$tmp/f/h$i/run.json"
	done
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
	grep -q "; and 2 hosts of further builds: at most 16 builds are listed)" "$tmp/out" ||
		fail "no word on the unlisted hosts: $(grep '^note: the hosts' "$tmp/out")"
	python3 - "$tmp/f/fleet-analysis.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["builds"]
assert len(b["list"]) == 16 and b["unlisted_hosts"] == 2, b
PY
	;;
builds_named)
	# Three hosts, three builds: the note names every part that differs and every host (it
	# named the first host that differed only).
	usl_fleet h1 h2 h3
	sed -i 's/"git_sha": "fixture"/"git_sha": "other"/' "$tmp/f/h2/run.json"
	sed -i 's/"sanitize": ""/"sanitize": "address"/' "$tmp/f/h3/run.json"
	"$lab" analyze "$tmp/f" --no-plots >"$tmp/out" 2>"$tmp/err" || true
	grep -q "^note: the hosts ran different builds of the lab, in git sha, sanitizer (h1: lab 0.1.0 (fixture), .*; h2: lab 0.1.0 (other), .*; h3: lab 0.1.0 (fixture), .*sanitize=address" "$tmp/out" ||
		fail "not every build named: $(cat "$tmp/out")"
	python3 - "$tmp/f/fleet-analysis.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["builds"]
assert b["differ"] and b["what"] == ["git_sha", "sanitize"] and b["scope"] == "all", b
assert [x["hosts"] for x in b["list"]] == [["h1"], ["h2"], ["h3"]], b
assert [x["sanitize"] for x in b["list"]] == [None, None, "address"], b
assert "-march=?" not in json.dumps(b), b  # the fixture's run.json has no auto_march
PY
	;;
*) fail "unknown case $case" ;;
esac
