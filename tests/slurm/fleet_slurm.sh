#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The fleet end to end on a throwaway Slurm cluster (tests/slurm/cluster.sh): 2 fake nodes on
# this host, `lab fleet` on a tiny config, wait for the fleet and its afterany analysis job, then
# check one complete results directory per node (with its Slurm context), fleet.json and the
# merged analysis. Every daemon it started is stopped on exit (trap). Exit 77 (skipped, with the
# reason) without Slurm, munge or root.
# usage: fleet_slurm.sh LAB SRCDIR
set -euo pipefail
lab=$1 src=$2
here=$src/tests/slurm
rc=0
"$BASH" "$here/cluster.sh" check || rc=$?
# CI installed Slurm (scripts/deps.sh --ci): there a skip is a failure.
if [ $rc = 77 ] && [ -n "${LAB_SLURM_REQUIRED:-}" ]; then
	echo "LAB_SLURM_REQUIRED is set: failing instead of skipping" >&2
	exit 1
fi
[ $rc = 0 ] || exit $rc

# A port base whose ports (ctld, slurmd, the nodes') are all free; its own state dir per port,
# so a later run can still stop what a crashed one left behind.
port=""
for p in 6917 7017 7117 7217 7317 7417; do
	if ! ss -Hltn 2>/dev/null | awk '{print $4}' | grep -Eq ":($p|$((p + 1))|$((p + 11))|$((p + 12)))\$"; then
		port=$p
		break
	fi
done
[ -n "$port" ] || { echo "no free port base for a test cluster" >&2; exit 1; }
base=/tmp/lab-slurm-$port
tmp=$(mktemp -d)
cleanup() {
	"$BASH" "$here/cluster.sh" stop "$base" || true
	rm -rf "$tmp"
}
trap cleanup EXIT
"$BASH" "$here/cluster.sh" start "$base" "$port" 2 lf
export SLURM_CONF=$base/etc/slurm.conf

fail() { echo "FAIL: $*" >&2; exit 1; }
dir=$tmp/fleet
out=$("$lab" fleet "$here/tiny.ini" --nodes 2 -o "$dir") || fail "lab fleet exited $?"
echo "$out"
run=$(sed -n 's/^submitted fleet job \([0-9]*\) .*/\1/p' <<<"$out")
ana=$(sed -n 's/.* and analysis job \([0-9]*\) .*/\1/p' <<<"$out")
[ -n "$run" ] && [ -n "$ana" ] || fail "no job ids in: $out"

# Wait for both jobs to leave the queue (60 s at most; the fleet itself takes a few seconds).
for _ in $(seq 600); do
	[ -z "$(timeout 10 squeue -h -j "$run,$ana" -o %i 2>/dev/null)" ] && break
	sleep 0.1
done
[ -z "$(timeout 10 squeue -h -j "$run,$ana" -o %i 2>/dev/null)" ] || fail "jobs still queued after 60 s"
cat "$dir"/logs/*.out
timeout 10 scontrol -o show job "$ana" | grep -q 'ExitCode=0:0' ||
	fail "the analysis job failed: $(timeout 10 scontrol -o show job "$ana")"
# A requeued fleet job (a node went down) failed on every node's non-empty results directory.
timeout 10 scontrol -o show job "$run" | grep -q ' Requeue=0 ' ||
	fail "the fleet job may be requeued: $(timeout 10 scontrol -o show job "$run")"

"$lab" fleet status "$dir" || fail "lab fleet status exited $?"
python3 - "$dir" "$run" "$ana" <<'PY'
import json, os, sys
d, run, ana = sys.argv[1:]
f = json.load(open(os.path.join(d, "fleet.json")))
assert f["schema"] == "lab.fleet/1", f
assert f["jobs"] == {"run": run, "analyze": ana}, f["jobs"]
assert f["state"] == "COMPLETED", f["state"]
nodes = sorted(t["node"] for t in f["tasks"])
assert nodes == ["lf1", "lf2"], nodes
for t in f["tasks"]:
    assert t["state"] == "COMPLETED" and t["exit_code"] == 0, t
    r = os.path.join(d, t["node"])
    for name in ("run.json", "samples.csv", "threads.csv", "config.ini", "summary.csv",
                 "analysis.json", "report.html"):
        assert os.path.isfile(os.path.join(r, name)), (r, name)
    s = json.load(open(os.path.join(r, "run.json")))["host"]["slurm"]
    assert s["job_id"] == run and s["node"] == t["node"] and s["partition"] == "debug", s
    assert s["cpus_allowed"] >= 1, s
a = json.load(open(os.path.join(d, "fleet-analysis.json")))
assert [h["node"] for h in a["hosts"]] == ["lf1", "lf2"], a["hosts"]
assert all(h["status"] == "ok" for h in a["hosts"]), a["hosts"]
assert len(a["points"]) == 2, a["points"]
for p in a["points"]:
    # A busy machine flags samples for foreign load: used + flagged are the 3 repetitions.
    assert [h["node"] for h in p["hosts"]] == ["lf1", "lf2"], p
    assert all(h["status"] == "ok" and h["n"] + h["n_flagged"] == 3 for h in p["hosts"]), p
print("fleet ok:", nodes)
PY
"$lab" compare "$dir/lf1" "$dir/lf2" >/dev/null || fail "lab compare of two hosts exited $?"
