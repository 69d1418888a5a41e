#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs bench/harness.ini and prints the figures the README quotes. usage: bench/harness.sh [LAB]
set -euo pipefail
cd "$(dirname "$0")/.."
lab=${1:-build/lab/lab}
out=$(mktemp -d)/bench
"$lab" run bench/harness.ini -o "$out" --no-progress >/dev/null
python3 - "$out" <<'PY'
import csv, json, statistics, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
sc = run["self_check"]
rows = list(csv.DictReader(open(d + "/samples.csv")))
def med(exp, **kw):
    v = [int(r["elapsed_ns"]) / int(r["work"]) for r in rows
         if r["experiment"] == exp and all(("%s=%s" % kv) in r["params"] for kv in kw.items())]
    return statistics.median(v)
print("machine: %s, %s" % (run["host"]["cpu_model"], run["host"]["topology"]["summary"]))
print("self-check: overhead %.3f ns/iter, 50 us spin %.3f us (error %+.2f%%)" %
      (sc["overhead_ns_per_iter"], sc["spin_50us_ns"] / 1e3, 100 * sc["spin_error"]))
print("noop at 1 thread: %.3f ns/iteration" % med("overhead"))
for op in ("store", "rmw"):
    a, b = med("false_sharing", op=op, stride="8;"), med("false_sharing", op=op, stride="128;")
    print("false sharing, 2 threads, op=%s: stride 8 %.2f ns, stride 128 %.2f ns, ratio %.2fx"
          % (op, a, b, a / b))
flag = sum(int(r["flagged"]) for r in rows)
print("samples flagged for foreign load: %d of %d" % (flag, len(rows)))
PY
echo "results: $out"
