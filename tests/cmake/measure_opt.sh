#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# harness/CMakeLists.txt: what times or measures (the clock, the sample loop, the team, the
# self-check, the core clock, the cache probe) and every kernel file is compiled optimized in a
# Debug build too (at -O0 the cache probe read 20 GB/s and kept a guest's false 508 MiB L3).
# Configures a Debug tree (nothing is built) and reads its compile_commands.json.
#   measure_opt.sh CMAKE CC SRCDIR
set -u
cmake=$1 cc=$2 src=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-measureopt-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$cmake" -S "$src" -B "$tmp" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER="$cc" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; echo "FAILED: configure"; exit 1; }
python3 - "$tmp/compile_commands.json" <<'PY'
import json, re, sys
cmds = json.load(open(sys.argv[1]))
want = ["harness/" + f for f in ("clock.c", "cacheprobe.c", "coreclock.c", "selfcheck.c",
                                  "runner_sample.c", "team.c")]
seen, bad = set(), []
for c in cmds:
    f = c["file"]
    name = next((w for w in want if f.endswith("/" + w)), None)
    if name is None and "/kernels/" not in f.replace("/tests/kernels/", "/"):
        continue
    seen.add(name or "kernels")
    opts = re.findall(r"(?:^|\s)-O(\S*)", c.get("command", " ".join(c.get("arguments", []))))
    if not opts or opts[-1] in ("0", "g"):
        bad.append("%s: last -O is %s" % (f, opts[-1] if opts else "none"))
missing = [w for w in want + ["kernels"] if w not in seen]
for m in missing:
    print("FAILED: %s not in compile_commands.json" % m)
for b in bad:
    print("FAILED: " + b)
print("%d files checked" % len(seen))
sys.exit(1 if bad or missing else 0)
PY
