#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Integration cases that run the lab binary: run_cases.sh LAB SRCDIR CASE
set -euo pipefail
lab=$1 src=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
check() { python3 tests/integration/check_results.py "$@"; }
# wait_rows DIR LINES: until DIR/samples.csv has more than LINES lines (at most 30 s).
wait_rows() {
	for _ in $(seq 1 600); do
		[ -f "$1/samples.csv" ] && [ "$(wc -l <"$1/samples.csv")" -gt "$2" ] && break
		sleep 0.05
	done
}
# interrupt_run CONFIG DIR LINES: lab run CONFIG into DIR, Ctrl-C once samples.csv has more than
# LINES lines (out and err in $tmp); it must exit 1.
interrupt_run() {
	"$lab" run --set global.retry_flagged=0 "$1" -o "$2" --no-progress >"$tmp/out" 2>"$tmp/err" &
	local pid=$! rc=0
	wait_rows "$2" "$3"
	kill -INT "$pid"
	wait "$pid" || rc=$?
	[ "$rc" = 1 ] || { echo "exit code $rc, expected 1"; cat "$tmp/err"; exit 1; }
}

# unprivileged_copy: tests/fixtures/results-locks in $tmp/r and lab in $tmp/lab, for a case that
# needs permissions to hold (root reads and removes anything: as root the case runs as nobody
# through the array as, skipped (77, with why) without setpriv or where nobody cannot reach
# $tmp, as under a TMPDIR in /root).
unprivileged_copy() {
	as=()
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null || { echo "Skipped: root without setpriv"; exit 77; }
		as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	fi
	cp -r tests/fixtures/results-locks "$tmp/r"
	cp "$lab" "$tmp/lab"
	chmod -R a+rwX "$tmp"
	"${as[@]}" test -r "$tmp/r/samples.csv" || { echo "Skipped: $tmp out of nobody's reach"; exit 77; }
}

# long_ini: a config of 20 noop points of 20 samples of 20 ms each, on stdout: a sweep to cut.
# The first of the CPU features given that LAB_CPU_MASK may hide in this build (a build whose
# own flags use one refuses its mask: -march=x86-64-v3 code needs avx2), or nothing.
free_mask() {
	local m
	for m in "$@"; do
		if LAB_CPU_MASK=$m "$lab" topo >/dev/null 2>&1; then
			echo "$m"
			return
		fi
	done
}

long_ini() {
	cat <<'INI'
[long]
kernel = noop
threads = 1
delay_loops = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19
reps = 20
min_time = 20ms
warmup = 0
INI
}

# start_until_run_json: lab run of 10 noop points into $tmp/i in the background ($pid), until
# its run.json exists (the self-check is then under way).
start_until_run_json() {
	printf '[a]\nkernel = noop\nthreads = 1\ndelay_loops = 0..9\nreps = 50\n' >"$tmp/a.ini"
	"$lab" run --set global.retry_flagged=0 "$tmp/a.ini" -o "$tmp/i" --no-progress >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 1 400); do
		[ -f "$tmp/i/run.json" ] && break
		sleep 0.01
	done
}

# start_long_samples REPS MIN_TIME: lab run of one noop point of REPS samples of MIN_TIME each
# (iteration counts run in 50 ms chunks) into $tmp/i in the background ($pid), until it
# announced its points (the samples are next).
start_long_samples() {
	printf '[a]\nkernel = noop\nthreads = 1\nreps = %s\nwarmup = 0\nmin_time = %s\n' "$1" "$2" >"$tmp/a.ini"
	"$lab" run --set global.retry_flagged=0 "$tmp/a.ini" -o "$tmp/i" --no-progress >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 1 500); do
		grep -Eq 'points? into' "$tmp/err" && break
		sleep 0.02
	done
}

case $case in
not_a_results_or_fleet_dir)
	# A directory of the wrong kind is bad input, exit 2 with one line naming what is allowed,
	# for every command that takes one (fleet status and compare said 1), and nothing written.
	mkdir "$tmp/empty" "$tmp/fleet"
	: >"$tmp/file"
	cp -r tests/fixtures/results-usl "$tmp/res"
	printf '{"schema": "lab.fleet/1", "jobs": {"run": "", "analyze": ""}, "tasks": []}' >"$tmp/fleet/fleet.json"
	bad_dir() { # pattern, then the command
		local pat=$1 rc=0
		shift
		"$lab" "$@" >"$tmp/out" 2>"$tmp/all" || rc=$?
		[ "$rc" = 2 ] || { echo "exit code $rc, expected 2: $*"; cat "$tmp/all"; exit 1; }
		# one line alone: the good directory loaded first notes nothing before it (its
		# flagged samples and warnings are said once both loaded)
		cp "$tmp/all" "$tmp/err"
		[ "$(wc -l <"$tmp/err")" = 1 ] && grep -qF -- "$pat" "$tmp/err" ||
			{ echo "stderr of $* lacks '$pat' on one line:"; cat "$tmp/err"; exit 1; }
	}
	# each with why (newcomer32: "not a results directory" said nothing of a typo)
	gone="not a results directory (No such file or directory; allowed: a directory lab run wrote)"
	res="not a results directory (a regular file; allowed: a directory lab run wrote)"
	nores="not a results directory (no samples.csv; allowed: a directory lab run wrote)"
	fl="fleet: a fleet directory, not a results directory (allowed: a directory lab run wrote"
	for cmd in analyze report; do
		bad_dir "$tmp/nonexistent: $gone" $cmd "$tmp/nonexistent"
		bad_dir "$tmp/file: $res" $cmd "$tmp/file"
		bad_dir "$tmp/empty: $nores" $cmd "$tmp/empty"
	done
	bad_dir "$tmp/$fl" report "$tmp/fleet"
	for other in nonexistent file empty fleet; do
		want="$tmp/$other: $res"
		[ $other = nonexistent ] && want="$tmp/nonexistent: $gone"
		[ $other = empty ] && want="$tmp/empty: $nores"
		[ $other = fleet ] && want="$tmp/$fl"
		bad_dir "$want" compare "$tmp/$other" "$tmp/res"
		bad_dir "$want" compare "$tmp/res" "$tmp/$other" --json
	done
	notfl="not a fleet directory (allowed: a directory lab fleet wrote)"
	bad_dir "$tmp/nonexistent: $notfl" fleet status "$tmp/nonexistent"
	bad_dir "$tmp/file: $notfl" fleet status "$tmp/file"
	bad_dir "$tmp/empty: not a fleet directory (no fleet.json; allowed: a directory lab fleet wrote)" \
		fleet status "$tmp/empty"
	bad_dir "$tmp/res: a results directory, not a fleet directory (allowed: a directory lab fleet wrote" \
		fleet status "$tmp/res"
	[ -z "$(ls -A "$tmp/empty")" ] && [ "$(ls -A "$tmp/fleet")" = fleet.json ] &&
		[ ! -e "$tmp/res/summary.csv" ] && [ ! -e "$tmp/res/fleet.json" ] ||
		{ echo "a refused command wrote a file"; ls -A "$tmp"/*; exit 1; }
	;;
next_line_quoted)
	# The "next:" line is pasted into a shell: a directory with a blank, a ';' or a quote is
	# one quoted word ('o;touch X' ran touch).
	printf '[x]\nkernel = noop\nthreads = 1\nreps = 2\nmin_time = 1ms\nwarmup = 0\n' >"$tmp/n.ini"
	"$lab" run "$tmp/n.ini" -o "$tmp/a b;touch X'y" --no-progress >"$tmp/out" 2>"$tmp/err"
	line=$(grep '^next: ' "$tmp/out")
	[ "$line" = "next: $lab analyze '$tmp/a b;touch X'\\''y'" ] || { echo "got: $line"; exit 1; }
	(cd "$tmp" && eval "${line#next: }" >/dev/null 2>&1) || { echo "pasted line failed"; exit 1; }
	[ ! -e "$tmp/X" ] && [ -f "$tmp/a b;touch X'y/summary.csv" ] || { echo "not one word"; exit 1; }
	# a leading '-' would be an option; a newline in quotes is another name: $'...'
	for d in -x "$(printf 'n\nl')"; do
		(cd "$tmp" && "$lab" run "$tmp/n.ini" -o "$d" --no-progress >"$tmp/out" 2>"$tmp/err")
		line=$(grep '^next: ' "$tmp/out")
		(cd "$tmp" && eval "${line#next: }" >/dev/null 2>&1) || { echo "pasted '$line' failed"; exit 1; }
		[ -f "$tmp/$d/summary.csv" ] || { echo "'$line' analyzed another directory"; exit 1; }
	done
	;;
bad_topology_no_standin_errors)
	# After a --topology that does not load, placements are checked for syntax only: the 1-package
	# stand-in the planner goes on with said "no domain S1" of a 4-package machine.
	printf '[a]\nkernel = noop\nthreads = 4\nplacement = expr:S1:0-3\n[b]\nkernel = noop\nthreads = 2\nplacement = expr:S0:0-\n' >"$tmp/s.ini"
	rc=0
	"$lab" plan "$tmp/s.ini" --topology 'synthetic:pack:4 numa:4 core:129 pu:2' >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q 'more than 4096 PUs' "$tmp/err" && grep -q "cannot read index '0-'" "$tmp/err" &&
		! grep -q 'no domain S1' "$tmp/err" && grep -q '^lab: 2 errors' "$tmp/err" ||
		{ echo "rc $rc"; cat "$tmp/err"; exit 1; }
	;;
run_refuses_years)
	# An estimate past --max-hours (72 unless given) is refused before anything is written:
	# 4096 points of 100000 x 60 s started as "about 857 years".
	printf '[x]\nkernel = noop\nthreads = 1\nreps = 100000\nmin_time = 60s\ndelay_loops = 0..4095\n' >"$tmp/y.ini"
	rc=0
	"$lab" run "$tmp/y.ini" -o "$tmp/r" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/r" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
		grep -q 'estimated run time about 857 years is past --max-hours 72; nothing was run' "$tmp/err" ||
		{ echo "rc $rc"; cat "$tmp/err"; exit 1; }
	for bad in x -1 1.5 876001 ""; do
		rc=0
		"$lab" run "$tmp/y.ini" -o "$tmp/r" --max-hours "$bad" >"$tmp/out" 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] && [ ! -e "$tmp/r" ] && grep -q 'allowed: a whole number 0 .. 876000' "$tmp/err" ||
			{ echo "--max-hours '$bad': rc $rc"; cat "$tmp/err"; exit 1; }
	done
	# A kernel's own long iterations count: one omp_schedule loop of 16M iterations of 1 ms
	# (4.7 h a sample) and an omp_fractal pass of 2^30 pixels at 2^20 iterations were planned as
	# "under 1 s".
	for k in 'omp_schedule\niterations = 16777216\ncost = 1ms' \
		'omp_fractal\npixels = 1073741824\nmax_iter = 1048576'; do
		printf "[x]\nkernel = $k\nthreads = 1\nreps = 2\nmin_time = 1ms\nwarmup = 0\n" >"$tmp/k.ini"
		rc=0
		"$lab" run "$tmp/k.ini" -o "$tmp/r" --max-hours 1 >"$tmp/out" 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] && [ ! -e "$tmp/r" ] && grep -q 'is past --max-hours 1; nothing was run' "$tmp/err" ||
			{ echo "$k: rc $rc"; cat "$tmp/err"; exit 1; }
	done
	# a short plan under a small limit runs
	printf '[x]\nkernel = noop\nthreads = 1\nreps = 2\nmin_time = 1ms\nwarmup = 0\n' >"$tmp/s.ini"
	"$lab" run "$tmp/s.ini" -o "$tmp/s" --max-hours 1 --no-progress >"$tmp/out" 2>"$tmp/err"
	grep -q '"status": "complete"' "$tmp/s/run.json" || { cat "$tmp/err"; exit 1; }
	;;
default_dir_names_config)
	# Without -o the directory is results/<stamp>-<config name>: a name of odd bytes becomes
	# '_'s, and a config named ".ini" is "config" (it made results/<stamp>-).
	printf '[x]\nkernel = noop\nthreads = 1\nreps = 2\nmin_time = 1ms\nwarmup = 0\n' >"$tmp/.ini"
	cp "$tmp/.ini" "$tmp/a%b c.ini"
	long=$(printf 'a%.0s' $(seq 1 125))
	cp "$tmp/.ini" "$tmp/$long.ini" # ".ini" goes before the name is cut: it left "aaa...a.i"
	for c in .ini "a%b c.ini" "$long.ini"; do
		(cd "$tmp" && "$lab" run "$c" --no-progress >"$tmp/out" 2>"$tmp/err")
	done
	ls "$tmp/results" >"$tmp/names"
	grep -Eqx '[0-9]{8}T[0-9]{6}Z-config' "$tmp/names" &&
		grep -Eqx '[0-9]{8}T[0-9]{6}Z-a_b_c' "$tmp/names" &&
		grep -Eqx "[0-9]{8}T[0-9]{6}Z-$long" "$tmp/names" || { cat "$tmp/names"; exit 1; }
	;;
quick)
	# The built-in quick config: every kernel, threads 1..max.
	"$lab" run --set global.retry_flagged=0 -o "$tmp/q" --no-progress >"$tmp/out" 2>"$tmp/err"
	check "$tmp/q" --min-points 6
	grep -q '^results: ' "$tmp/out"
	grep -q '^self-check: ' "$tmp/err"
	# the next step names the binary as it was called, so it works from here
	grep -qF "next: $lab analyze $tmp/q" "$tmp/out"
	# each line's cost says whose time it is: the team's, or a unit done once by the pair
	grep -q '^# median ns per unit of work, all threads together' "$tmp/out"
	grep -qE '^noop .* ns/iteration  ' "$tmp/out"
	grep -qE '^c2c .* ns/roundtrip \[shared\] ' "$tmp/out"
	python3 -c 'import json, sys
e = {x["name"]: x["work_scope"] for x in json.load(open(sys.argv[1]))["experiments"]}
assert e["noop"] == "team" and e["c2c"] == "shared", e
assert set(e.values()) <= {"team", "shared", "one"}, e' "$tmp/q/run.json"
	;;
quick_file_equals_builtin)
	# configs/quick.ini and the embedded copy plan the same points. The estimate prices first
	# touches at what they cost when it is made, and a guest's last-level check says what its
	# loads showed (both measured each time): compared apart.
	"$lab" run --set global.retry_flagged=0 --dry-run >"$tmp/builtin"
	"$lab" run --set global.retry_flagged=0 --dry-run configs/quick.ini >"$tmp/file"
	grep -q 'points planned' "$tmp/builtin"
	grep -q '^estimated run time: ' "$tmp/builtin"
	grep -q '^estimated run time: ' "$tmp/file"
	cmp <(grep -Ev '^(estimated run time|caches): ' "$tmp/builtin") \
		<(grep -Ev '^(estimated run time|caches): ' "$tmp/file")
	# Each planned point has its estimate (its runs together), a skipped one none.
	"$lab" plan --json configs/quick.ini |
		python3 -c 'import json,sys; a=json.load(sys.stdin); assert a["experiments"], a
p = [p for e in a["experiments"] for p in e["points"]]
assert all((p.get("estimate_s", 0) > 0) == (p["status"] == "planned") for p in p), p'
	;;
plan_synthetic)
	# The text plan ends with an estimate of the run time (ch26-locks on 32 PUs: 3212 points,
	# each warm-up + calibration + 10 x 50 ms: about half an hour).
	"$lab" plan configs/ch26-locks.ini --topology 'synthetic:pack:2 core:8 pu:2' >"$tmp/p.txt"
	grep -q "^3212 points planned$" "$tmp/p.txt"
	grep -qE '^estimated run time: about [0-9]+ min ' "$tmp/p.txt"
	# a lesson a --set leaves without its point says so up front, in the text and the JSON
	"$lab" plan configs/ch26-locks.ini --topology 'synthetic:pack:2 core:8 pu:2' \
		--set global.threads=1,4 >"$tmp/p4.txt"
	grep -q '^        NOT RUN on this plan: \[fairness\] lock=ticket, threads=2: no planned point' "$tmp/p4.txt" ||
		{ cat "$tmp/p4.txt"; exit 1; }
	"$lab" plan configs/ch26-locks.ini --topology 'synthetic:pack:2 core:8 pu:2' \
		--set global.threads=1,4 --json |
		python3 -c 'import json,sys; l=json.load(sys.stdin)["lessons"]
assert l and all("no planned point" in x["unplanned"] for x in l), l'
	"$lab" plan configs/ch26-locks.ini --topology 'synthetic:pack:2 core:8 pu:2' --json |
		python3 -c 'import json,sys; l=json.load(sys.stdin)["lessons"]
assert l and all(x["unplanned"] is None for x in l), l'
	# a --set that narrows the key another applies at (layout: stride) leaves the config's
	# stride sweep and the lessons naming stride to the points that take it: not run, not errors
	"$lab" plan configs/ch25-false-sharing.ini --set global.layout=struct_aligned >"$tmp/pl.txt" ||
		{ cat "$tmp/pl.txt"; exit 1; }
	grep -q '^        NOT RUN on this plan: \[stride_sweep\] op=rmw, stride=8, threads=2: no planned point' "$tmp/pl.txt"
	"$lab" run --set false_sharing.layout=struct --dry-run >/dev/null
	# A precision target stops when met: its budget is the ceiling, said as such.
	printf '[global]\nthreads = 1\nreps = 3\nprecision = 1%%\nbudget = 10s\n\n[noop]\nkernel = noop\n' >"$tmp/pp.ini"
	"$lab" plan "$tmp/pp.ini" >"$tmp/pp.txt"
	grep -qE '^estimated run time: (under 1 s|about [0-9]+ s), up to 1[0-9] s where precision targets use their budget' "$tmp/pp.txt"
	# An absurd plan is said in days or years, with what to do about it.
	printf '[e]\nkernel = noop\nreps = 100000\nmin_time = 600s\ndelay_loops = 1..100\n' >"$tmp/yrs.ini"
	"$lab" plan "$tmp/yrs.ini" >"$tmp/yrs.txt"
	grep -qE '^estimated run time: about [0-9]+ years \(narrow the sweep, or lower reps and min_time\)' "$tmp/yrs.txt"
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
plan_cache_sizes)
	# Sizes relative to the caches of the topology: resolved to bytes in the plan, in the
	# params every result file carries; a level the topology lacks is a config error (exit 2).
	printf '[s]\nkernel = stream\nthreads = 1\nsize = L1/2, L2/2, L3/2, L3*4\n' >"$tmp/c.ini"
	"$lab" plan "$tmp/c.ini" --topology 'synthetic:pack:2 l3:1(size=33554432) l2:4(size=1048576) l1d:1(size=32768) core:1 pu:1' >"$tmp/out"
	grep -q 'size=16K;' "$tmp/out"
	grep -q 'size=512K;' "$tmp/out"
	grep -q 'size=16M;' "$tmp/out"
	grep -q 'size=128M;' "$tmp/out"
	rc=0
	"$lab" plan "$tmp/c.ini" --topology 'synthetic:pack:2 core:4 pu:1' >"$tmp/out" 2>"$tmp/err" || rc=$?
	test "$rc" = 2
	grep -q "c.ini:4: \[s\] size = L1/2, L2/2, L3/2, L3\*4: 'L1/2': this topology reports no L1 cache" "$tmp/err"
	;;
cache_sizes_given_and_checked)
	# --cache LK=SIZE replaces a level's size for sizes like L3/2 (also where the topology has
	# none), LK=reported keeps the topology's; anything else is one line and exit 2.
	printf '[s]\nkernel = stream\nthreads = 1\nsize = L2/2, L3/2\n' >"$tmp/c.ini"
	syn='synthetic:pack:1 l3:1(size=33554432) l2:2(size=1048576) l1d:1(size=32768) core:1 pu:1'
	"$lab" plan "$tmp/c.ini" --topology "$syn" --cache L3=8M >"$tmp/out"
	grep -q 'size=512K;' "$tmp/out"
	grep -q 'size=4M;' "$tmp/out"
	"$lab" plan "$tmp/c.ini" --topology "$syn" --cache L3=reported --cache l2=2M >"$tmp/out"
	grep -q 'size=1M;' "$tmp/out"
	grep -q 'size=16M;' "$tmp/out"
	"$lab" plan "$tmp/c.ini" --topology "$syn" --cache L3=8M --json >"$tmp/plan.json"
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
c = {c["level"]: c for c in j["caches"]}
assert c[3]["size"] == 8 << 20 and c[3]["size_from"] == "given" and c[3]["reported_size"] == 32 << 20, c
assert c[2]["size_from"] == "hwloc" and "reported_size" not in c[2], c
assert j["cache_note"] is None, j' "$tmp/plan.json"
	"$lab" plan "$tmp/c.ini" --topology 'synthetic:pack:1 core:2 pu:1' --cache L2=256K \
		--cache L3=16M >"$tmp/out"
	grep -q 'size=128K;' "$tmp/out"
	grep -q 'size=8M;' "$tmp/out"
	for bad in L9=1M L3 3=1M L3=12Q L3=; do
		rc=0
		"$lab" plan "$tmp/c.ini" --topology "$syn" --cache "$bad" >"$tmp/out" 2>"$tmp/err" || rc=$?
		test "$rc" = 2
		test "$(wc -l <"$tmp/err")" = 1
		grep -q -- "--cache $bad: allowed: L1..L5=SIZE" "$tmp/err"
	done
	# a size is one a described topology's cache may have, 1 KiB .. 1 TiB (L1=3 was taken, and
	# size = L1/4 then failed as 0 bytes)
	for bad in L1=3:3 L1=1e3:1000 L1=1023:1023 L3=0:0 L3=1025G:1100585369600; do
		rc=0
		"$lab" plan "$tmp/c.ini" --topology "$syn" --cache "${bad%:*}" >"$tmp/out" 2>"$tmp/err" || rc=$?
		test "$rc" = 2
		test "$(wc -l <"$tmp/err")" = 1
		grep -q -- "--cache ${bad%:*}: an L${bad:1:1} cache of ${bad#*:} bytes (allowed 1 KiB .. 1 TiB)" "$tmp/err"
	done
	printf '[s]\nkernel = stream\nthreads = 1\nsize = L1\n' >"$tmp/l1.ini"
	"$lab" plan "$tmp/l1.ini" --topology 'synthetic:pack:1 core:2 pu:1' --cache L1=1K \
		--cache L3=1024G >"$tmp/out"
	grep -q 'size=1K;' "$tmp/out"
	rc=0 # lab run the same, before anything is written
	"$lab" run "$tmp/l1.ini" --cache L1=3 -o "$tmp/r3" >"$tmp/out" 2>"$tmp/err" || rc=$?
	test "$rc" = 2
	test ! -e "$tmp/r3"
	grep -q -- "--cache L1=3: an L1 cache of 3 bytes (allowed 1 KiB .. 1 TiB)" "$tmp/err"
	# Sizes must grow with the level (a given L4 of 1 MiB under a 32 MiB L3 had turned the
	# check of L3 off and was used without a word); a deeper level than reported may be given.
	# sizes that print alike are given in bytes (1048577 read "1.0 MiB" beside "1 MiB")
	rc=0
	"$lab" plan "$tmp/c.ini" --topology "$syn" --cache L1=1048577 --cache L2=1M >"$tmp/out" 2>"$tmp/err" || rc=$?
	test "$rc" = 2 && grep -q -- "L1 is 1048577 B, L2 1048576 B: allowed" "$tmp/err"
	rc=0
	"$lab" plan "$tmp/c.ini" --topology "$syn" --cache L3=1025 >"$tmp/out" 2>"$tmp/err" || rc=$?
	test "$rc" = 2 && grep -q -- "L2 is 1048576 B, L3 1025 B: allowed" "$tmp/err"
	rc=0 # whole KiB that round alike (both read "1.0 MiB")
	"$lab" plan "$tmp/c.ini" --topology "$syn" --cache L2=1060K --cache L3=1030K >"$tmp/out" 2>"$tmp/err" || rc=$?
	test "$rc" = 2 && grep -q -- "L2 is 1085440 B, L3 1054720 B: allowed" "$tmp/err"
	for bad in L4=1M L2=64M; do
		rc=0
		"$lab" plan "$tmp/c.ini" --topology "$syn" --cache "$bad" >"$tmp/out" 2>"$tmp/err" || rc=$?
		test "$rc" = 2 && test "$(wc -l <"$tmp/err")" = 1
		grep -q -- "--cache $bad: L[23] is [0-9]* MiB, L[34] [0-9]* MiB: allowed: sizes that grow with the level" "$tmp/err"
	done
	"$lab" plan "$tmp/c.ini" --topology "$syn" --cache L4=1G >"$tmp/out"
	grep -q 'size=16M;' "$tmp/out"
	# a level given twice (the last won without a word), a CR or LF in the value: refused
	rc=0
	"$lab" plan "$tmp/c.ini" --topology "$syn" --cache L3=64M --cache L3=1M >"$tmp/out" 2>"$tmp/err" || rc=$?
	test "$rc" = 2 && test "$(wc -l <"$tmp/err")" = 1
	grep -q -- "--cache L3=1M: L3 given twice (allowed: one --cache a level)" "$tmp/err"
	for bad in $'L3=32M\r' $'L3=32M\n'; do
		rc=0
		"$lab" plan "$tmp/c.ini" --topology "$syn" --cache "$bad" >"$tmp/out" 2>"$tmp/err" || rc=$?
		test "$rc" = 2 && test "$(wc -l <"$tmp/err")" = 1
	done
	# lab topo shows the sizes, and, on this machine under a hypervisor, what loads say of the
	# last level; another machine's topology is never measured.
	"$lab" topo --topology "$syn" --json >"$tmp/t.json"
	"$lab" topo --json >"$tmp/t2.json"
	"$lab" topo >"$tmp/t.txt"
	python3 - "$tmp/t.json" "$tmp/t2.json" "$tmp/t.txt" <<'PY'
import json, sys
syn, here = (json.load(open(p)) for p in sys.argv[1:3])
txt = open(sys.argv[3]).read()
assert [(c["level"], c["size"]) for c in syn["caches"]] == [(1, 32 << 10), (2, 1 << 20), (3, 32 << 20)], syn
assert syn["cache_check"] is None, syn["cache_check"]
c = here["cache_check"]
if c is not None:
    last = here["caches"][-1]
    assert c["level"] == last["level"] and c["reported_size"] == last["size"], (c, last)
    assert c["contradicted"] == (c["size_plans_use"] < c["reported_size"] / 2), c
    assert c["size_plans_use"] <= c["reported_size"] and c["sets_measured"] >= 0, c
    assert "  checked: L%d: the hypervisor (%s) reports" % (c["level"], c["hypervisor"]) in txt
else:
    assert "checked:" not in txt, txt
PY
	# A size relative to the last level has it checked, and so does a kernel a roofline shows
	# (its ceilings are named by the level a size falls in: a guest's 508 MiB L3 put DRAM
	# points under an L3 roof); L1 and L2 alone, for another kernel, measure nothing.
	printf '[s]\nkernel = numa_lat\nthreads = 1\nsize = L1/2..L2:x2\n' >"$tmp/l12.ini"
	"$lab" plan "$tmp/l12.ini" >"$tmp/out"
	if grep -q '^caches:' "$tmp/out"; then exit 1; fi # (! cmd does not stop set -e)
	printf '[s]\nkernel = stream\nthreads = 1\nsize = 64K\n' >"$tmp/abs.ini"
	"$lab" plan "$tmp/abs.ini" --json >"$tmp/abs.json"
	python3 - "$tmp/abs.json" "$tmp/t2.json" <<'PY'
import json, sys
plan, here = (json.load(open(p)) for p in sys.argv[1:3])
# The plan's own check decides its sizes (lab topo's check, a moment earlier, may have read
# the shared cache differently: load comes and goes).
last, c = plan["caches"][-1], plan["cache_check"]
assert (c is None) == (here["cache_check"] is None), (c, here["cache_check"])
if c is None:
    assert plan["cache_note"] is None and last["size_from"] != "measured", (plan, here)
elif c["contradicted"]:
    # a report far beyond what loads show (this guest: 508 MiB against 8-16): replaced
    assert last["size_from"] == "measured" and last["size"] == c["size_plans_use"], plan
    assert last["reported_size"] == c["reported_size"], plan
    assert plan["cache_note"] and "the hypervisor" in plan["cache_note"], plan
else:  # the loads did not contradict the report this time
    assert plan["cache_note"] is None and last["size"] == c["reported_size"], plan
    assert last["size_from"] == "hwloc" and c["size_plans_use"] == c["reported_size"], plan
PY
	# Under a hypervisor, a level below the last given at least what the last one measures
	# (L2=32M where loads slow past 16 MiB) keeps the last level's report, with a note: the
	# plan's L2/2 came out larger than its L3/2.
	below=$(python3 -c 'import json, sys
h = json.load(open(sys.argv[1])); c = h["caches"]
ok = h["cache_check"] and len(c) >= 2 and c[-2]["level"] == c[-1]["level"] - 1
# half the report: above what the loads measure wherever they contradict it (under a quarter)
print("L%d=%d" % (c[-2]["level"], c[-1].get("reported_size", c[-1]["size"]) // 2) if ok else "")' "$tmp/t2.json")
	if [ -n "$below" ]; then
		"$lab" plan "$tmp/abs.ini" --cache "$below" --json >"$tmp/below.json"
		python3 - "$tmp/below.json" "${below#*=}" <<'PY'
import json, sys
plan, given = json.load(open(sys.argv[1])), int(sys.argv[2])
last, c = plan["caches"][-1], plan["cache_check"]
assert last["size"] > given, plan  # the sizes grow with the level, whatever loads said
if c["contradicted"] and c["fits"] <= given:
    assert last["size"] == c["reported_size"] and last["size_from"] == "hwloc", plan
    assert "is no smaller: sizes relative to L%d keep the hypervisor's" % last["level"] in plan["cache_note"], plan
PY
	fi
	# This machine: a given size is recorded beside the one hwloc reports; run again with
	# fresh_process = on, the runs' processes plan the sizes lab run planned (a guest's last
	# level, when checked, is handed to them), and run.json says where each size came from.
	printf '[global]\nreps = 2\nwarmup = 1ms\nmin_time = 1ms\nruns = 2\nretry_flagged = 0\n\n[s]\nkernel = stream\nthreads = 1\nop = load\nsize = L1/2, L3/64\n' >"$tmp/r.ini"
	if "$lab" plan "$tmp/r.ini" >/dev/null 2>&1; then
		"$lab" run "$tmp/r.ini" --cache L3=8M -o "$tmp/given" --no-progress >/dev/null 2>&1
		"$lab" run "$tmp/r.ini" --set global.fresh_process=on -o "$tmp/fresh" --no-progress \
			>/dev/null 2>"$tmp/err"
		python3 - "$tmp/given/run.json" "$tmp/fresh/run.json" "$tmp/err" <<'PY'
import json, sys
given, fresh = (json.load(open(p)) for p in sys.argv[1:3])
err = open(sys.argv[3]).read()
l3 = {c["level"]: c for c in given["host"]["topology"]["caches"]}[3]
assert l3["size"] == 8 << 20 and l3["size_from"] == "given", l3
hw = {c["level"]: c for c in fresh["host"]["topology"]["caches"]}
assert l3.get("reported_size", l3["size"]) == hw[3].get("reported_size", hw[3]["size"]), (l3, hw)
sizes = [p["params"]["size"] for p in fresh["experiments"][0]["points"]]
assert all(p["status"] == "ok" and len(p["processes"]) == 2
           for p in fresh["experiments"][0]["points"]), fresh["experiments"][0]["points"]
c = hw[3]
if c["size_from"] == "measured":  # a guest whose reported L3 its loads contradict
    assert c["size"] < c["reported_size"] / 4 and c["size"] > 2 * hw[2]["size"], c  # the power of two at or below a set >= 4 x L2
    assert "caches: L3: the hypervisor" in err, err
else:
    assert c["size_from"] == "hwloc" and "reported_size" not in c, c
    assert "caches:" not in err, err
PY
	fi
	;;
plan_xml)
	"$lab" plan configs/quick.ini --only noop --set noop.threads=1..max:x2 --set noop.placement=cores \
		--topology xml:configs/topologies/2s8c2t-intel.xml >"$tmp/out"
	grep -q 'threads=16  cpus=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 ' "$tmp/out"
	grep -q 'threads=32 ' "$tmp/out"
	;;
perf_c2c_unavailable)
	# perf_c2c = on without perf: the point says why and runs; off says nothing.
	PATH=/nonexistent "$lab" run configs/quick.ini --only noop --set noop.threads=1 \
		--set noop.perf_c2c=off,on --set noop.reps=2 -o "$tmp/r" --no-progress 2>"$tmp/err"
	python3 -c 'import json, sys
pts = json.load(open(sys.argv[1]))["experiments"][0]["points"]
assert [p["status"] for p in pts] == ["ok", "ok"], pts
assert "perf_c2c" not in (pts[0].get("point_facts") or {}), pts[0]
assert pts[1]["point_facts"]["perf_c2c"] == "unavailable (perf not found in PATH)", pts[1]
assert pts[1]["params"]["perf_c2c"] == "on", pts[1]' "$tmp/r/run.json"
	"$lab" analyze "$tmp/r" --no-plots >"$tmp/an" 2>&1
	# The view's section of experiment noop with its params, then the point's row: point 1,
	# 1 thread, perf's status, no shared lines recorded.
	grep -A3 '^== perf c2c: .*: noop  .*perf_c2c=on' "$tmp/an" >"$tmp/sec"
	grep -Eq '^1 +1 +unavailable \(perf not found in PATH\) +not recorded *$' "$tmp/sec"
	# The view of a point where perf c2c ran (this VM has no PMU for it: the facts as the
	# harness writes them, from the parser's fixture), in the text and analysis.json.
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
r["experiments"][0]["points"][1]["point_facts"] = {"perf_c2c": "ok", "perf_c2c_lines": 3,
    "perf_c2c_top": "0x7f3a1c000040 rmt_hitm=706 lcl_hitm=2391: +0x0 61.0%/52.7% [.] f (a.so); "
                    "0x7f3a1c000080 rmt_hitm=174 lcl_hitm=966: +0x38 100.0%/100.0% [.] g (a.so)"}
json.dump(r, open(sys.argv[1], "w"))' "$tmp/r/run.json"
	"$lab" analyze "$tmp/r" --no-plots >"$tmp/an" 2>&1
	grep -A8 '^== perf c2c: .*: noop  .*perf_c2c=on' "$tmp/an" >"$tmp/sec"
	grep -Eq '^1 +1 +ok +3 *$' "$tmp/sec"
	grep -Eq '^1 +0x7f3a1c000080 +174 +966 +\+0x38 100\.0%/100\.0% \[\.\] g \(a\.so\) *$' "$tmp/sec"
	"$lab" analyze "$tmp/r" --no-plots --json >"$tmp/an.json"
	python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))
v = [e["perf_c2c"] for e in a["experiments"] if "perf_c2c" in e]
assert len(v) == 1 and len(v[0]["sections"]) == 1, v
s = v[0]["sections"][0]
assert "perf_c2c=on" in s["params"].split(";"), s
p = s["tables"]["points"]["rows"]
assert len(p) == 1 and p[0]["point"] == "1" and p[0]["threads"] == "1", p
assert p[0]["perf_c2c"] == "ok" and p[0]["lines"] == 3, p
h = [(r["point"], r["line"], r["rmt_hitm"], r["lcl_hitm"], r["offsets"])
     for r in s["tables"]["hot_lines"]["rows"]]
assert h == [("1", "0x7f3a1c000040", 706, 2391, "+0x0 61.0%/52.7% [.] f (a.so)"),
             ("1", "0x7f3a1c000080", 174, 966, "+0x38 100.0%/100.0% [.] g (a.so)")], h' \
		"$tmp/an.json"
	# the same rows in the view's CSV files (a field a spreadsheet would take for a formula,
	# "+0x38 ...", after an apostrophe)
	grep -q '^noop,".*perf_c2c=on.*",1,1,ok,3,$' "$tmp/r/perf_c2c_points.csv"
	grep -qF ",1,0x7f3a1c000080,174,966,'+0x38 100.0%/100.0% [.] g (a.so)," \
		"$tmp/r/perf_c2c_hot_lines.csv"
	# counts perf could not have made, an address that is no hex: not shown as perf's
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
r["experiments"][0]["points"][1]["point_facts"]["perf_c2c_top"] = (
    "0xzz rmt_hitm=1 lcl_hitm=2: +0x0 x; 0x40 rmt_hitm=-1 lcl_hitm=1: +0x0 y; "
    "0x80 rmt_hitm=1 lcl_hitm=1e308: +0x0 z; 0xc0 rmt_hitm=1.5 lcl_hitm=1: +0x0 w")
json.dump(r, open(sys.argv[1], "w"))' "$tmp/r/run.json"
	"$lab" analyze "$tmp/r" --no-plots --json >"$tmp/an.json"
	python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))
s = [e["perf_c2c"] for e in a["experiments"] if "perf_c2c" in e][0]["sections"][0]
h = s["tables"]["hot_lines"]["rows"]
assert len(h) == 4 and all(r["rmt_hitm"] is None and r["lcl_hitm"] is None for r in h), h' \
		"$tmp/an.json"
	;;
topo_numa_memory)
	# Each NUMA node's memory, in text and --json, from the fixture's hwloc local_memory.
	"$lab" topo --topology xml:configs/topologies/2s4n-amd.xml >"$tmp/out"
	grep -qx '  node 3: 1.0 GiB (1073741824 bytes)' "$tmp/out"
	"$lab" topo --topology xml:configs/topologies/2s4n-amd.xml --json >"$tmp/topo.json"
	python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["numa_memory"]
assert [(n["node"], n["os_index"], n["local_memory_bytes"]) for n in m] == [(i, i, 1 << 30) for i in range(4)], m' "$tmp/topo.json"
	# A synthetic node attached as '[numa]' has no memory recorded: said, not 0 bytes.
	"$lab" topo --topology 'synthetic:pack:2 [numa] core:2 pu:2' >"$tmp/out"
	grep -qx '  node 1: not recorded' "$tmp/out"
	"$lab" topo --topology 'synthetic:pack:2 [numa] core:2 pu:2' --json >"$tmp/topo.json"
	python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["numa_memory"]
assert [n["local_memory_bytes"] for n in m] == [None, None], m' "$tmp/topo.json"
	;;
run_refuses_other_topology)
	rc=0
	"$lab" run --set global.retry_flagged=0 configs/quick.ini --topology 'synthetic:pack:2 core:8 pu:2' -o "$tmp/x" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/x" ] && grep -q 'not this machine' "$tmp/err"
	;;
cpu_mask)
	# LAB_CPU_MASK hides features in lab topo and run.json; a bad one is a usage error. The
	# feature hidden is one the build's own code does not use (march29: avx2 in an
	# -march=x86-64-v3 build is refused, as it should be)
	m=$(free_mask avx2 avx512f avx512vnni avx512vbmi)
	[ -n "$m" ] || { echo "no CPU feature this build lets LAB_CPU_MASK hide"; exit 1; }
	LAB_CPU_MASK=$m "$lab" topo --json >"$tmp/topo.json"
	LAB_CPU_MASK=$m "$lab" run --set global.retry_flagged=0 configs/quick.ini --only noop --set noop.threads=1 \
		--set noop.reps=1 --set noop.min_time=1ms -o "$tmp/r" --no-progress >/dev/null 2>&1
	python3 - "$tmp/topo.json" "$tmp/r/run.json" "$m" <<'PY'
import json, sys
m = sys.argv[3]
for f, path in ((sys.argv[1], ()), (sys.argv[2], ("host",))):
    doc = json.load(open(f))
    for k in path:
        doc = doc[k]
    c = doc["cpu_features"]
    assert set(c["usable"]) == set(c["detected"]) - set(c["masked"]), c
    assert m not in c["usable"], c
    assert m != "avx2" or "avx512f" not in c["usable"], c  # AVX-512 implies AVX2
    assert (m in c["masked"]) == (m in c["detected"]), c
PY
	rc=0
	LAB_CPU_MASK=avx3 "$lab" run --set global.retry_flagged=0 configs/quick.ini --only noop -o "$tmp/x" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/x" ] && grep -q "LAB_CPU_MASK=avx3: unknown CPU feature 'avx3'" "$tmp/err"
	rc=0
	LAB_CPU_MASK=avx3 "$lab" topo >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q "unknown CPU feature" "$tmp/err"
	# hiding what the build's own code uses everywhere (sse2 on x86-64) is a usage error: no
	# CPU without it could start the lab, so no skip would follow from it
	rc=0
	LAB_CPU_MASK=sse2 "$lab" run configs/quick.ini --only noop -o "$tmp/y" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/y" ] &&
		grep -q "LAB_CPU_MASK hides sse2[ a-z0-9.]*, which this build's own code" "$tmp/err"
	# lab topo too: it printed "cpu features: none" with exit 0
	rc=0
	LAB_CPU_MASK=sse2 "$lab" topo >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && grep -q "LAB_CPU_MASK hides sse2" "$tmp/err"
	;;
dry_run_writes_nothing)
	"$lab" run --set global.retry_flagged=0 configs/quick.ini --dry-run -o "$tmp/x/y" >"$tmp/out"
	[ ! -e "$tmp/x" ] && grep -q 'points planned' "$tmp/out"
	;;
dry_run_refuses_what_the_run_refuses)
	# --dry-run exited 0 for an -o under a file, a full directory and a plan past --max-hours,
	# all refused by the run itself (hostile33), and under a link to nothing (hostile35); it
	# still makes nothing
	touch "$tmp/afile" && mkdir "$tmp/full" && touch "$tmp/full/keep"
	ln -s "$tmp/nowhere" "$tmp/dangle"
	printf '[n]\nkernel = noop\nthreads = 1\nreps = 100000\nmin_time = 600s\n' >"$tmp/long.ini"
	for o in "$tmp/dangle/x" "$tmp/dangle/x/y" "$tmp/afile/x" "$tmp/full" "$tmp/afile"; do
		rc=0
		"$lab" run configs/quick.ini --only noop --dry-run -o "$o" >"$tmp/out" 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] || exit 1
	done
	grep -q 'exists and is not a directory' "$tmp/err"
	rc=0
	"$lab" run "$tmp/long.ini" --dry-run -o "$tmp/new" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q 'past --max-hours 72' "$tmp/err" && [ ! -e "$tmp/new" ]
	"$lab" run "$tmp/long.ini" --dry-run --max-hours 0 -o "$tmp/new" >"$tmp/out"
	[ ! -e "$tmp/new" ] && [ "$(ls "$tmp/full")" = keep ]
	;;
dry_run_checks_write_access)
	# --dry-run exited 0 for a new -o in a directory the user cannot write and for an empty
	# one it cannot write into, both refused by the run (hostile37); as nobody when root
	unprivileged_copy
	mkdir "$tmp/ro" "$tmp/roe" "$tmp/nx" "$tmp/nxe" && chmod 555 "$tmp/ro" "$tmp/roe"
	chmod 700 "$tmp/nx" && chmod 600 "$tmp/nxe" # nobody cannot search them (review38)
	for o in "$tmp/ro/new" "$tmp/roe" "$tmp/nx/new" "$tmp/nxe"; do
		rc=0
		"${as[@]}" "$tmp/lab" run configs/quick.ini --only noop --dry-run -o "$o" >"$tmp/out" \
			2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
			grep -q 'Permission denied (allowed: -o a new directory' "$tmp/err" ||
			{ echo "-o $o: exit $rc"; cat "$tmp/err"; exit 1; }
	done
	[ ! -e "$tmp/ro/new" ] && [ -z "$(ls "$tmp/roe")" ]
	;;
output_dir_empty_name)
	# -o '' read past a one-byte heap copy; now a clear usage error.
	rc=0
	"$lab" run --set global.retry_flagged=0 configs/quick.ini --only noop -o '' 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q 'empty output directory name' "$tmp/err"
	;;
output_dir_not_empty)
	mkdir "$tmp/full" && touch "$tmp/full/keep"
	rc=0
	"$lab" run --set global.retry_flagged=0 configs/quick.ini --only noop -o "$tmp/full" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ "$(ls "$tmp/full")" = keep ] && grep -q 'not empty' "$tmp/err"
	;;
interrupted)
	# SIGINT mid-sweep: finished points stay on disk, the files are valid, status says so.
	long_ini >"$tmp/long.ini"
	interrupt_run "$tmp/long.ini" "$tmp/i" 45
	grep -q 'interrupted' "$tmp/err"
	check "$tmp/i" --status interrupted --min-points 2
	python3 - "$tmp/i/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
done = r["progress"]["points_done"]
assert 2 <= done < r["progress"]["points_planned"], r["progress"]
PY
	;;
interrupted_before_a_skipped_point)
	# Ctrl-C before a point the plan skipped (node:99: no CPUs) and one it hid (LAB_CPU_MASK):
	# both are written skipped with their reasons, and the cut run is analyzed (a not_run point
	# with no CPUs had the analyzer refuse the directory).
	# The simd isa hidden is one the build's own code does not need (march29: an
	# -march=x86-64-v3 build refuses LAB_CPU_MASK=avx2, as it should).
	m=$(free_mask avx2 avx512f)
	[ -n "$m" ] || { echo "Skipped: this build's own code uses avx512f: no simd isa can be hidden"; exit 77; }
	long_ini >"$tmp/long.ini"
	cat >>"$tmp/long.ini" <<INI
[far]
kernel = noop
threads = 1
placement = node:99
[masked]
kernel = simd
threads = 1
isa = ${m%f}
INI
	export LAB_CPU_MASK=$m
	interrupt_run "$tmp/long.ini" "$tmp/i" 45
	python3 - "$tmp/i/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "interrupted", r["status"]
far, masked = (e["points"][0] for e in r["experiments"][1:])
assert far["status"] == "skipped" and far["cpus"] == [] and "node" in far["reason"], far
assert masked["status"] == "skipped" and "LAB_CPU_MASK" in masked["reason"], masked
PY
	"$lab" analyze "$tmp/i" --no-plots >"$tmp/aout" 2>"$tmp/aerr" || { cat "$tmp/aerr"; exit 1; }
	grep -q 'LAB_CPU_MASK' "$tmp/i/analysis.json"
	;;
run_json_unreadable)
	# A run.json that cannot be read (EACCES) stops the analysis: as a warning, the points it
	# says failed their verification were analyzed as good. Only a missing one is hand-made
	# data.
	unprivileged_copy
	chmod 000 "$tmp/r/run.json"
	rc=0
	"${as[@]}" "$tmp/lab" analyze "$tmp/r" --no-plots >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 1 ] || { echo "exit $rc, expected 1"; cat "$tmp/err"; exit 1; }
	grep -q 'cannot open .*run.json: Permission denied' "$tmp/err"
	[ ! -e "$tmp/r/analysis.json" ]
	rm -f "$tmp/r/run.json"
	"${as[@]}" "$tmp/lab" analyze "$tmp/r" --no-plots >"$tmp/out" 2>"$tmp/err"
	grep -q 'provenance and point status unknown' "$tmp/err"
	;;
analyze_waits_for_another)
	# two analyses of one directory wrote at once and left one's report.html beside the
	# other's analysis.json, recorded as one (hostile38): one waits for the other's lock
	command -v flock >/dev/null || { echo "Skipped: no flock command"; exit 77; }
	cp -r tests/fixtures/results-locks "$tmp/r"
	flock -x "$tmp/r" sleep 3 &
	for _ in $(seq 50); do flock -n "$tmp/r" true || break; sleep 0.1; done
	! flock -n "$tmp/r" true || { echo "the holder did not take the lock"; exit 1; }
	"$lab" analyze "$tmp/r" --no-plots >/dev/null 2>"$tmp/err"
	grep -q 'lab analyze: waiting for another lab analyze or report of .*/r to finish writing' \
		"$tmp/err"
	wait
	[ -s "$tmp/r/analysis.json" ] && [ -s "$tmp/r/report.html" ]
	;;
analyze_earlier_files_kept)
	# A file of an earlier analysis that cannot be removed (a read-only plots/) is said: the
	# next analysis said nothing, or that no earlier file was kept.
	unprivileged_copy
	"${as[@]}" "$tmp/lab" analyze "$tmp/r" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
	ls "$tmp/r/plots/"*.dat >/dev/null
	chmod 555 "$tmp/r/plots"
	"${as[@]}" "$tmp/lab" analyze "$tmp/r" --no-plots >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
	grep -q 'of an earlier analysis could not be removed' "$tmp/err" || { cat "$tmp/err"; exit 1; }
	# still recorded: said again, and removed once plots/ is writable (dropped from the record,
	# they stayed for good without a word)
	"${as[@]}" "$tmp/lab" analyze "$tmp/r" --no-plots >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
	grep -q 'of an earlier analysis could not be removed' "$tmp/err" || { cat "$tmp/err"; exit 1; }
	chmod 777 "$tmp/r/plots"
	"${as[@]}" "$tmp/lab" analyze "$tmp/r" --no-plots >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
	if grep -q 'could not be removed' "$tmp/err"; then cat "$tmp/err"; exit 1; fi
	if ls "$tmp/r/plots/"*.dat 2>/dev/null; then echo "earlier plots stayed"; exit 1; fi
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
	"$lab" run --set global.retry_flagged=0 "$tmp/e.ini" -o "$tmp/x" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/x" ]
	grep -q "e.ini:4: \[a\] reps = 4: duplicate key" "$tmp/err"
	grep -q "e.ini:8: \[b\] op = add: unknown choice" "$tmp/err"
	grep -q "e.ini:7: \[b\] stride = 4: out of range" "$tmp/err"
	tail -n 1 "$tmp/err" | grep -q '^lab: 3 errors in .*; nothing was run$'
	;;
errors_across_files_and_topology)
	# A bad --topology and an unreadable file do not hide the other files' errors.
	printf '[a]\nkernel = noop\nreps = 0x10\n' >"$tmp/a.ini"
	printf '[b]\nkernel = noop\nreps = 0\n' >"$tmp/b.ini"
	rc=0
	"$lab" run --set global.retry_flagged=0 "$tmp/a.ini" "$tmp/missing.ini" "$tmp/b.ini" --topology synthetic:bogus \
		-o "$tmp/x" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/x" ]
	grep -q '^--topology synthetic:bogus: hwloc rejects' "$tmp/err"
	grep -q 'missing.ini: cannot open: No such file' "$tmp/err"
	grep -q 'a.ini:3: \[a\] reps = 0x10: not a number' "$tmp/err"
	grep -q 'b.ini:3: \[b\] reps = 0: out of range' "$tmp/err"
	tail -n 1 "$tmp/err" | grep -q '^lab: 4 errors in the 3 configs and on the command line; nothing was run$'
	# an unreadable config and --only: no follow-on "--only a: no experiment [a]" error
	rc=0
	"$lab" plan "$tmp/missing.ini" --only a 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'missing.ini: cannot open' "$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	# errors of the command line alone are not the file's
	rc=0
	"$lab" plan "$tmp/b.ini" --set b.reps=3 --set b.bogus=1 --topology synthetic:bogus 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && tail -n 1 "$tmp/err" | grep -q '^lab: 2 errors on the command line; nothing was run$' ||
		{ cat "$tmp/err" >&2; exit 1; }
	# one file twice (two names of it too): one line, not a duplicate error per section
	rc=0
	"$lab" plan "$tmp/a.ini" "$tmp/../$(basename "$tmp")/a.ini" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 3 ] && grep -q 'a.ini: the same config as argument 1, .*a.ini (allowed: each config once)' "$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	# the stand-in it checks a config on reports nothing of its own: no missing cache for L1/2,
	# no sweep of 1..max too large for its 1024 CPUs
	printf '[p]\nkernel = c2c_latency\nplacement = pairs\n' >"$tmp/pairs.ini"
	for c in configs/ch19-roofline.ini configs/ch26-locks.ini "$tmp/pairs.ini"; do
		rc=0
		"$lab" plan "$c" --topology synthetic:bogus 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] || { cat "$tmp/err" >&2; exit 1; }
	done
	;;
error_list_capped)
	# 250 bad keys: 200 lines, then one line that counts the rest.
	{ printf '[a]\nkernel = noop\n'; for i in $(seq 1 250); do echo "bad$i = 1"; done; } >"$tmp/c.ini"
	rc=0
	"$lab" run --set global.retry_flagged=0 "$tmp/c.ini" -o "$tmp/x" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 202 ]
	grep -qx '\.\.\. and 50 more errors' "$tmp/err"
	tail -n 1 "$tmp/err" | grep -q '^lab: 250 errors in '
	;;
global_sweeps_once)
	# [global] sweeps too long for any point limit (kernel params: a run setting does not sweep),
	# inherited by 1,000 sections: expanded once,
	# not per section (1.1 GB and 12 s before; under this limit "out of memory" at the [global]
	# lines and the later sections' errors lost). No address-space limit under ASan (its shadow
	# memory needs terabytes of it).
	limit=200000
	[ -z "${ASAN_OPTIONS:-}" ] || limit=unlimited
	python3 - "$tmp/g.ini" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("[global]\ncs_ns = 0..4095ns\ncs_lines = 0..4095\nthink_ns = 0..4095ns\n"
            "lat_every = 0..4095\nlock = tas, ttas, ticket, mcs, clh\n")
    for i in range(1000):
        f.write(f"[e{i}]\nkernel = lock\n")
PY
	rc=0
	(ulimit -v "$limit" && exec timeout 120 "$lab" plan "$tmp/g.ini") >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && ! grep -q 'out of memory' "$tmp/err" &&
		[ "$(grep -c 'the sweeps expand to 1407374883553280 points.*(allowed at most 100000' "$tmp/err")" = 200 ] &&
		grep -qx '\.\.\. and 800 more errors' "$tmp/err" &&
		tail -n 1 "$tmp/err" | grep -q '^lab: 1000 errors in ' ||
		{ echo "exit $rc"; head -5 "$tmp/err"; tail -3 "$tmp/err"; exit 1; }
	;;
topology_limits)
	# Bounded time and memory: a device is not a file; a huge synthetic machine is refused.
	rc=0
	timeout 90 "$lab" plan configs/quick.ini --topology xml:/dev/zero 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q 'xml:/dev/zero: not a regular file' "$tmp/err"
	rc=0
	timeout 90 "$lab" plan configs/quick.ini --topology 'synthetic:pack:256 core:64 pu:4' \
		2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q 'more than 4096 PUs' "$tmp/err"
	# An OS index past any OS's: hwloc sized a bitmap to it (2^31: 8 GB and a crash; 2^32 - 1
	# wrapped to -1 and freed twice). Refused before hwloc reads the file.
	for big in 4294967295 2147483647 65536 -2 +4294967295 ' 4294967295'; do
		sed "0,/type=\"PU\" os_index=\"[0-9]*\"/s//type=\"PU\" os_index=\"$big\"/" \
			configs/topologies/1s4c.xml >"$tmp/big.xml"
		grep -q "os_index=\"$big\"" "$tmp/big.xml"
		rc=0
		"$lab" topo --topology "xml:$tmp/big.xml" >/dev/null 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] && grep -q "an object's os_index is out of range (allowed a whole number 0 .. 65535)" "$tmp/err" ||
			{ echo "os_index $big: exit $rc"; cat "$tmp/err"; exit 1; }
	done
	;;
topology_input_limits)
	# Refused from the text before hwloc builds anything, in 200 MB and seconds: an index past
	# 65535 (2^31 crashed inside hwloc after 1.8 GB), one index twice (two PUs were one), levels
	# without type names (64 64 64 hung over a minute in 1.2 GB), XML objects nested 20,000 deep
	# (hwloc's recursive parser overflowed its stack).
	# (no address-space limit under ASan: its shadow memory needs terabytes of it)
	limit=200000
	[ -z "${ASAN_OPTIONS:-}" ] || limit=unlimited
	limited() { (ulimit -v "$limit" && exec timeout 30 "$lab" topo --topology "$1") >/dev/null; }
	refused() { # SPEC MESSAGE
		rc=0
		limited "$1" 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -qF -- "$2" "$tmp/err" ||
			{ echo "$1: exit $rc"; cat "$tmp/err"; exit 1; }
	}
	range="is out of range (allowed in indexes=: whole numbers 0 .. 65535 in decimal digits"
	refused 'synthetic:pu:1(indexes=2147483648)' "index '2147483648' $range"
	refused 'synthetic:pu:2(indexes=2147483647,0)' "index '2147483647' $range"
	refused 'synthetic:pack:2 numa:1(indexes=2147483648,0) pu:1' "index '2147483648' $range"
	refused 'synthetic:pu:2(indexes=0,0)' 'index 0 appears twice in one indexes= list'
	refused 'synthetic:pack:2 core:2(indexes=0,1) pu:1' "indexes= of level 'core:2' lists 2 indexes, but the machine has 4 such objects (allowed: exactly 4"
	for s in '64 64 64' '64 64 2' 'pack:64 core:64(memory=1GB) pu:0x40'; do
		refused "synthetic:$s" 'more than 4096 PUs (the lab plans topologies of at most 4096'
	done
	python3 - "$tmp/deep.xml" 20000 <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
sets = 'cpuset="0x1" complete_cpuset="0x1" nodeset="0x1" complete_nodeset="0x1"'
with open(path, "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<topology version="2.0">\n')
    f.write(f'<object type="Machine" os_index="0" {sets}>\n')
    f.write(f'<object type="NUMANode" os_index="0" {sets} local_memory="1073741824"/>\n')
    f.write(f'<object type="Group" {sets}>\n' * n)
    f.write(f'<object type="PU" os_index="0" {sets}/>\n' + "</object>\n" * (n + 1))
    f.write("</topology>\n")
PY
	refused "xml:$tmp/deep.xml" "$tmp/deep.xml:259: objects nested more than 256 deep (allowed: at most 256)"
	limited 'synthetic:pack:2 core:2 pu:2(indexes=Core:Package)'
	limited 'synthetic:pu:2(indexes=65535,0)'
	;;
interrupt_during_selfcheck)
	# SIGINT as soon as run.json exists, during the self-check: the handler is already there,
	# so the run ends with status "interrupted" and every point "not_run" (it was killed and
	# left "running" before).
	start_until_run_json
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 1 ] || { echo "exit code $rc, expected 1"; cat "$tmp/err"; exit 1; }
	check "$tmp/i" --status interrupted --min-points 0 --selfcheck-may-be-null
	grep -q 'is incomplete: .* of 10 points finished (interrupted)' "$tmp/out"
	;;
interrupt_twice)
	# A second Ctrl-C (or SIGTERM) stops at once and takes the lock with it: the lock of a dead
	# process was left behind. Both signals wait while the process is stopped, so the second
	# arrives while the first is handled, whatever the machine's speed.
	start_until_run_json
	kill -STOP "$pid"
	kill -INT "$pid"
	kill -TERM "$pid"
	kill -CONT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 130 ] || { echo "exit code $rc, expected 130"; cat "$tmp/err"; exit 1; }
	[ ! -e "$tmp/i/run.lock" ] || { echo "run.lock left behind"; exit 1; }
	grep -q 'interrupted again: stopped at once' "$tmp/err"
	;;
term_twice)
	# The same request twice is one request: timeout(1) sends SIGTERM to the process and then
	# to its group (a hangup likewise reaches the group and the shell passes it on). The run
	# ends as interrupted, run.json says so and the lock goes; taken as a second Ctrl-C, it
	# stopped at once and left run.json "running". Two of one signal pending are one, so the
	# second goes once the first is no longer pending, while the run finishes its 50 ms chunk.
	start_long_samples 5 2s
	sleep 0.5
	kill -TERM "$pid"
	for _ in $(seq 1 20000); do
		pending=0
		while read -r key mask; do
			[[ $key == SigPnd: || $key == ShdPnd: ]] && ((pending |= 0x$mask))
		done <"/proc/$pid/status" || break
		((pending & 0x4000)) || break
	done
	kill -TERM "$pid" 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 1 ] || { echo "exit code $rc, expected 1"; cat "$tmp/err"; exit 1; }
	! grep -q 'interrupted again' "$tmp/err"
	[ ! -e "$tmp/i/run.lock" ]
	check "$tmp/i" --status interrupted --min-points 0
	;;
interrupt_long_sample)
	# An iteration-count sample of min_time = 60s runs in chunks: Ctrl-C ends it promptly
	# (it ran to its end before). The bound below is generous: it only tells a hang.
	start_long_samples 1 60s
	sleep 3 # well into the calibrated samples
	kill -INT "$pid"
	for _ in $(seq 1 150); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		echo "still running 15 s after Ctrl-C"
		exit 1
	fi
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 1 ]
	check "$tmp/i" --status interrupted --min-points 0
	;;
disk_full)
	# A file-size limit stands in for a full disk (SIGXFSZ ignored: writes fail with EFBIG).
	# The failure is recorded in run.json, printed once, no temp file stays, and the last
	# lines say how much finished.
	printf '[f]\nkernel = noop\nthreads = 1\ndelay_loops = 0..9\nreps = 200\nmin_time = 1ms\nwarmup = 0\nretry_flagged = 0\n' >"$tmp/f.ini"
	rc=0
	bash -c 'trap "" XFSZ; ulimit -f 64; exec "$0" run "$1" -o "$2" --no-progress' \
		"$lab" "$tmp/f.ini" "$tmp/f" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 1 ] || { echo "exit code $rc, expected 1"; cat "$tmp/err"; exit 1; }
	[ "$(grep -c 'File too large' "$tmp/err")" = 1 ] || { cat "$tmp/err"; exit 1; }
	[ ! -e "$tmp/f/run.json.tmp" ]
	grep -q '^results: .* is incomplete: [0-9]* of 10 points finished (the run failed)$' "$tmp/out"
	check "$tmp/f" --status failed --min-points 0 --cut-ok
	python3 - "$tmp/f/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert "File too large" in r["error"], r.get("error")
st = [p["status"] for p in r["experiments"][0]["points"]]
assert "not_run" in st, st
PY
	;;
analyze_reads_pending_points)
	# run.json lists the whole plan. A point still "running" whose rows are in samples.csv
	# (killed between the two writes) is analyzed from its rows; a "not_run" point is not,
	# whatever rows the run left (a full disk cuts them).
	printf '[a]\nkernel = noop\nthreads = 1\ndelay_loops = 0, 1, 2\nreps = 3\nmin_time = 1ms\nwarmup = 0\n' >"$tmp/a.ini"
	"$lab" run --set global.retry_flagged=0 "$tmp/a.ini" -o "$tmp/r" --no-progress >/dev/null 2>&1
	python3 - "$tmp/r/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["status"] = "interrupted"
pts = r["experiments"][0]["points"]
pts[0]["status"] = "running"
pts[1]["status"], pts[1]["reason"] = "not_run", "the run ended while this point ran"
pts[2]["status"], pts[2]["reason"] = "planned", ""
json.dump(r, open(sys.argv[1], "w"))
PY
	# (--include-flagged: on a busy machine a point all of whose samples were flagged says
	# "flagged", which is not what this case is about)
	"$lab" analyze "$tmp/r" --no-plots --json --include-flagged >"$tmp/a.json" 2>"$tmp/err"
	python3 - "$tmp/a.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
st = {p["point"]: p["status"] for s in a["series"] for p in s["points"]}
assert st == {0: "ok", 1: "not_run", 2: "ok"}, st
PY
	;;
help_lists_every_option)
	# One table per subcommand drives both parsing and --help: every option the help lists
	# is accepted (parsing goes on to the next argument), and nothing else is. A value named
	# FRACTION is checked as it is parsed, so it gets a valid one.
	for cmd in run plan topo counters list analyze report compare fleet; do
		"$lab" "$cmd" --help >"$tmp/help"
		grep -q "^usage: lab $cmd " "$tmp/help"
		grep -E '^  -' "$tmp/help" | sed -E 's/^  (-[a-z], )?//' | awk '{print $1, ($2 ~ /^[A-Z.=_]+$/) ? $2 : ""}' >"$tmp/opts"
		[ -s "$tmp/opts" ]
		while read -r opt arg; do
			rc=0
			val=X
			[ "$arg" = FRACTION ] && val=0.5
			"$lab" "$cmd" "$opt" ${arg:+"$val"} --bogus-option >/dev/null 2>"$tmp/err" || rc=$?
			[ "$rc" = 2 ] && grep -qE "unknown option.*'--bogus-option'" "$tmp/err" ||
				{ echo "lab $cmd: $opt ${arg:+X}: not accepted"; cat "$tmp/err"; exit 1; }
		done <"$tmp/opts"
	done
	;;
help_top_matches_commands)
	# `lab --help` names, per command, exactly the options of the usage lines of `lab CMD
	# --help`; every option there has a described row (fleet status's in `lab fleet status
	# --help`) and every row's option is in the usage; no help line ends in a blank.
	cmds="run plan topo counters list describe analyze report compare fleet version"
	"$lab" --help >"$tmp/top"
	for cmd in $cmds; do "$lab" "$cmd" --help >"$tmp/help-$cmd"; done
	"$lab" fleet status --help >"$tmp/help-fleet-status"
	# an unknown command lists the commands there are
	rc=0
	"$lab" bogus 2>"$tmp/bogus" || rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/bogus")" = 1 ]
	grep -q "unknown command 'bogus' (allowed: $(echo $cmds | sed 's/ /, /g'); see lab --help)" "$tmp/bogus"
	python3 - "$tmp" $cmds <<'PY'
import re, sys
tmp, cmds = sys.argv[1], sys.argv[2:]
OPT = re.compile(r"(?:^|(?<=[\s\[|]))(--?[a-z][a-z-]*)")
def read(name):
    text = open(f"{tmp}/{name}").read()
    for i, line in enumerate(text.split("\n")):
        assert not line.endswith(" "), f"{name}:{i + 1}: ends in a blank: {line!r}"
    return text
top = read("top").split("\n")
bad = []
for cmd in cmds:
    start = next(i for i, l in enumerate(top) if re.match(rf"  lab {cmd}( |$)", l))
    end = next(i for i in range(start + 1, len(top)) if not top[i].startswith(" " * 16))
    listed = set(OPT.findall(" ".join(l.split(f"lab {cmd}", 1)[-1] for l in top[start:end])))
    helps = [read(f"help-{cmd}")] + ([read("help-fleet-status")] if cmd == "fleet" else [])
    usage, rows = set(), set()
    for h in helps:
        head = h.split("\n\n", 1)[0]
        usage |= set(OPT.findall(head.replace(f"lab {cmd}", "")))
        for l in h.split("\n"):
            m = re.match(r"  (-[a-z]), (--[a-z-]+)|  (--[a-z-]+)", l)
            if m:
                rows.add(frozenset(x for x in m.groups() if x))
    if listed != usage:
        bad.append(f"lab --help, {cmd}: {sorted(listed)}; lab {cmd} --help: {sorted(usage)}")
    for r in rows:
        if not r & usage:
            bad.append(f"lab {cmd} --help: {sorted(r)} described but not in the usage")
    for o in usage:
        if not any(o in r for r in rows):
            bad.append(f"lab {cmd} --help: {o} in the usage but not described")
assert not bad, "\n".join(bad)
PY
	;;
describe_all)
	# Every kernel says, in its facts block, what it needs, what its verify checks and what
	# metrics it has (none included), and lab list --json carries the same verify and needs.
	for k in $("$lab" list | awk '{print $1}'); do
		"$lab" describe "$k" >"$tmp/d"
		grep -q 'harness parameters' "$tmp/d"
		awk '/^unit of work:/,/^$/' "$tmp/d" >"$tmp/facts"
		grep -q '^needs: .' "$tmp/facts" || { echo "$k: no needs: line"; exit 1; }
		grep -q '^verify: .' "$tmp/facts" || { echo "$k: no verify: line"; exit 1; }
		grep -q '^metrics: .' "$tmp/facts" || { echo "$k: no metrics: line"; exit 1; }
		if grep -q '^metrics: none' "$tmp/facts"; then
			! grep -q '^metrics:$' "$tmp/d"
		else
			grep -q '^metrics:$' "$tmp/d"
		fi
		"$lab" list --json | python3 -c '
import json, sys
k = next(k for k in json.load(sys.stdin)["kernels"] if k["name"] == sys.argv[1])
facts = open(sys.argv[2]).read().splitlines()
assert "verify: " + k["verify"] in facts, k["name"]
needs = [ln[len("needs: "):] for ln in facts if ln.startswith("needs: ")]
assert needs == (k["needs"] or ["nothing beyond its CPUs"]), (needs, k["needs"])
' "$k" "$tmp/facts"
	done
	"$lab" describe c2c_latency | grep -q '^needs: 2 CPUs'
	"$lab" describe numa_bw | grep -q '^needs: 2 or more NUMA nodes'
	"$lab" describe omp_triad | grep -q '^needs: a lab built with OpenMP'
	"$lab" describe lock | grep -q '^needs: lock = ck_'
	"$lab" describe noop | grep -q '^needs: nothing beyond its CPUs'
	"$lab" list --json | python3 -c 'import json,sys; assert json.load(sys.stdin)["kernels"]'
	"$lab" topo --json | python3 -c 'import json,sys; assert json.load(sys.stdin)["pus"] >= 1'
	;;
counters_auto)
	# Software events counted for real; hardware events null with their reason where no PMU.
	"$lab" run --set global.retry_flagged=0 configs/quick.ini --only noop --set noop.threads=1 --set noop.reps=2 \
		-o "$tmp/a" --no-progress >"$tmp/out" 2>"$tmp/err"
	python3 - "$tmp/a" <<'PY'
import csv, json, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
assert run["self_check"]["core_ghz"] > 0 and "estimated" in run["self_check"]["core_ghz_method"]
host = run["host"]["counters"]
pt = run["experiments"][0]["points"][0]
assert pt["status"] == "ok", pt
ev = {e["name"]: e for e in pt["counters"]["events"]}
assert ev["task-clock"]["status"] == "ok" and ev["cpu-migrations"]["status"] == "ok", ev
rows = list(csv.DictReader(open(d + "/samples.csv")))
assert all(float(r["ctr_task_clock"]) > 0 for r in rows), rows
assert all(r["ctr_cpu_migrations"] == "0" for r in rows), rows
trows = list(csv.DictReader(open(d + "/threads.csv")))
assert all(float(r["ctr_task_clock"]) > 0 for r in trows), trows
if not host["core_pmu"]:
    for name in ("cycles", "instructions"):
        assert ev[name]["status"] == "unsupported" and ev[name]["reason"], ev[name]
        assert all(r["ctr_" + name] == "" for r in rows), rows
PY
	;;
counters_require)
	# require: a point whose events cannot all be counted fails with the reason, exit 1.
	pmu=$("$lab" counters --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["host"]["core_pmu"])')
	rc=0
	"$lab" run --set global.retry_flagged=0 configs/quick.ini --only noop --set noop.threads=1 --set noop.reps=2 \
		--set noop.counters=require -o "$tmp/r" --no-progress >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$pmu" = False ]; then
		[ "$rc" = 1 ] || exit 1
		grep -q 'FAILED: counters = require: cycles: unsupported' "$tmp/out"
		python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["experiments"][0]["points"][0]; assert p["status"] == "failed" and "require" in p["reason"], p' "$tmp/r/run.json"
	else
		[ "$rc" = 0 ]
	fi
	;;
counters_off)
	"$lab" run --set global.retry_flagged=0 configs/quick.ini --only noop --set noop.threads=1 --set noop.reps=2 \
		--set noop.counters=off -o "$tmp/o" --no-progress >"$tmp/out" 2>"$tmp/err"
	if grep -q ctr_ "$tmp/o/samples.csv"; then exit 1; fi
	"$lab" counters >"$tmp/c"
	grep -q '^perf_event_paranoid: ' "$tmp/c"
	grep -q '^  sw  *available' "$tmp/c"
	# A fixture: raw counts with ids and times, CPUID and kernel version.
	"$lab" counters --record-fixture "$tmp/fx.json" --events 'sw ipc' 2>/dev/null
	python3 - "$tmp/fx.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
assert f["schema"] == "lab.counters-fixture/1" and f["host"]["kernel"] and f["host"]["vendor"]
g = f["passes"][0]["groups"][0]
assert g["formula"] == "sw" and g["time_enabled"] > 0 and g["time_running"] > 0, g
ev = {e["name"]: e for e in g["events"]}
assert ev["task-clock"]["raw"] > 0 and ev["task-clock"]["id"] > 0, ev
assert {e["name"] for e in f["counters"]["events"]} >= {"cycles", "task-clock"}
PY
	rc=0
	"$lab" counters --record-fixture "$tmp/bad.json" --events 'cylces' 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/bad.json" ] && grep -q "unknown event 'cylces'" "$tmp/err"
	;;
output_dir_taken)
	# A run.lock another run holds (created with O_EXCL when a run claims the directory):
	# a second run is refused with one line and exit 2, and writes nothing; a finished run
	# leaves no lock behind.
	printf '[n]\nkernel = noop\nthreads = 1\nreps = 2\nmin_time = 1ms\nwarmup = 0\nretry_flagged = 0\n' >"$tmp/n.ini"
	mkdir "$tmp/d" && echo 12345 >"$tmp/d/run.lock"
	rc=0
	"$lab" run "$tmp/n.ini" -o "$tmp/d" --no-progress >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] || { echo "exit code $rc, expected 2"; cat "$tmp/err"; exit 1; }
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'taken by another lab run' "$tmp/err"
	[ "$(ls "$tmp/d")" = run.lock ]
	"$lab" run "$tmp/n.ini" -o "$tmp/e" --no-progress >"$tmp/out" 2>"$tmp/err"
	[ ! -e "$tmp/e/run.lock" ] && [ -s "$tmp/e/samples.csv" ]
	;;
disk_full_at_open)
	# A full disk while the first result files are written (a file-size limit of 0 or 512
	# bytes stands in for it; SIGXFSZ ignored: writes fail with EFBIG) is a runtime failure,
	# exit 1 as it is later in the run, not bad usage; one line names the file and cause, and
	# nothing the run made stays. stderr goes to a pipe, which the limit does not cover.
	printf '[n]\nkernel = noop\nthreads = 1\nreps = 2\nmin_time = 1ms\nwarmup = 0\nretry_flagged = 0\n' >"$tmp/n.ini"
	mkdir "$tmp/empty"
	for lim in 0 1; do
		for d in "$tmp/new$lim" "$tmp/empty"; do
			rc=0
			err=$(bash -c 'trap "" XFSZ; ulimit -f "$3"; exec "$0" run "$1" -o "$2" --no-progress' \
				"$lab" "$tmp/n.ini" "$d" "$lim" 2>&1 >/dev/null) || rc=$?
			[ "$rc" = 1 ] || { echo "limit $lim, $d: exit code $rc, expected 1: $err"; exit 1; }
			printf '%s\n' "$err" | grep -q '^lab: write .*: File too large$' || { echo "$err"; exit 1; }
		done
		[ ! -e "$tmp/new$lim" ] && [ -z "$(ls -A "$tmp/empty")" ]
	done
	;;
errors_escape_control_bytes)
	# Errors that quote the user's text escape control bytes: each error stays one line and
	# nothing reaches the terminal raw (an ESC sequence could erase a line and fake output).
	printf '[n]\nkernel = noop\n' >"$tmp/n.ini"
	esc=$(printf '\033')
	expect_one_line() { # exit code, then the command; stderr must be $lines lines, no raw control byte
		want=$1
		shift
		rc=0
		"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
		[ "$rc" = "$want" ] || { echo "exit code $rc, expected $want: $*"; cat "$tmp/err"; exit 1; }
		[ "$(wc -l <"$tmp/err")" = "$lines" ] || { echo "not $lines lines: $*"; cat -A "$tmp/err"; exit 1; }
		if LC_ALL=C grep -q '[[:cntrl:]]' "$tmp/err"; then
			echo "raw control bytes: $*"
			cat -A "$tmp/err"
			exit 1
		fi
	}
	lines=1 # one error is one line
	expect_one_line 2 "$lab" run "$tmp/n.ini" --dry-run --set "$(printf 'n.reps=1\n2')"
	grep -qF 'n.reps=1\n2' "$tmp/err"
	expect_one_line 2 "$lab" run "$tmp/n.ini" --dry-run --set "n.reps=1${esc}[2K"
	grep -qF 'n.reps=1\e[2K' "$tmp/err"
	expect_one_line 2 "$lab" run "$tmp/n.ini" --dry-run --set "$(printf 'n.bogus\r=1')"
	expect_one_line 2 "$lab" run "$tmp/n.ini" --dry-run "$(printf -- '--bo\ngus')"
	grep -qF -- "--bo\\ngus" "$tmp/err"
	expect_one_line 2 "$lab" "$(printf 'r\tun\001')"
	grep -qF 'r\tun\x01' "$tmp/err"
	expect_one_line 2 "$lab" counters "$(printf '%s\302\233x' "$esc")"
	grep -qF '\e\u009bx' "$tmp/err"
	expect_one_line 2 "$lab" run "$tmp/n.ini" -o "$(printf '%s/n.ini/a\nb' "$tmp")"
	grep -qF 'n.ini/a\nb: ' "$tmp/err"
	grep -qF 'n.ini is not a directory' "$tmp/err"
	# --topology, describe, analyze and report echo their argument escaped too
	expect_one_line 2 "$lab" topo --topology "$(printf 'synthetic:pack:2 pu:1\033[31m\a')"
	grep -qF 'pu:1\e[31m\x07' "$tmp/err"
	expect_one_line 2 "$lab" topo --topology "foo${esc}[31m"
	grep -qF -- '--topology foo\e[31m: unknown topology' "$tmp/err"
	expect_one_line 2 "$lab" topo --topology "xml:/nonexist/${esc}[31mx"
	grep -qF 'xml:/nonexist/\e[31mx' "$tmp/err"
	expect_one_line 2 "$lab" describe "noop${esc}[31m"
	grep -qF "unknown kernel 'noop\e[31m'" "$tmp/err"
	expect_one_line 2 "$lab" analyze "nodir${esc}[31m"
	grep -qF 'nodir\e[31m: not a results directory' "$tmp/err"
	expect_one_line 2 "$lab" report "nodir${esc}[31m"
	grep -qF 'nodir\e[31m: not a results directory' "$tmp/err"
	# a raw C1 byte (0x9b, the 8-bit CSI) and the bidi overrides: escaped, UTF-8 text kept
	expect_one_line 2 "$lab" describe "$(printf 'a\233b\342\200\256c\342\201\246d\303\251')"
	grep -qF "'a\x9bb\u202ec\u2066d$(printf '\303\251')'" "$tmp/err"
	if LC_ALL=C grep -q "$(printf '[\200-\237]')" "$tmp/err"; then
		echo "raw C1 bytes"
		exit 1
	fi
	;;
unusable_paths)
	# A config that is no regular file, and an -o that cannot be a results directory (a
	# dangling link, a loop of links, a file, a name cut short): bad usage, exit 2, one line
	# that says what is allowed, nothing written.
	printf '[n]\nkernel = noop\n' >"$tmp/n.ini"
	mkdir "$tmp/adir"
	bad_path() { # pattern, then the command
		pat=$1
		shift
		rc=0
		"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] && grep -qF -- "$pat" "$tmp/err" ||
			{ echo "exit code $rc: $*"; cat "$tmp/err"; exit 1; }
	}
	bad_path "adir: not a regular file (a directory; allowed: a regular file)" \
		"$lab" plan "$tmp/adir"
	ln -s "$tmp/nowhere" "$tmp/dangling"
	bad_path "dangling is a symbolic link to nothing that exists (allowed: -o a new directory" \
		"$lab" run "$tmp/n.ini" -o "$tmp/dangling"
	[ ! -e "$tmp/nowhere" ]
	ln -s "$tmp/loop" "$tmp/loop"
	bad_path "loop is a symbolic link to itself or a loop of links (allowed:" \
		"$lab" run "$tmp/n.ini" -o "$tmp/loop"
	bad_path "dangling/sub: No such file or directory (allowed: -o a new directory" \
		"$lab" run "$tmp/n.ini" -o "$tmp/dangling/sub"
	bad_path "n.ini exists and is not a directory (allowed:" "$lab" run "$tmp/n.ini" -o "$tmp/n.ini"
	# A directory that refuses the lock (procfs): not empty is what is wrong with it.
	bad_path "/proc/self exists and is not empty (choose a new directory with -o)" \
		"$lab" run "$tmp/n.ini" -o /proc/self
	long="$tmp/$(printf '%0600d' 0 | tr 0 a | sed 's|\(a\{100\}\)|\1/|g')"
	bad_path "bytes (allowed at most 511)" "$lab" run "$tmp/n.ini" -o "$long"
	# A refused name leaves none of the parents it made (new/q/ stayed), and a file in the
	# path is named (./results a file: "Not a directory" after 98 suffixes tried)
	bad_path "File name too long (allowed: -o a new directory" \
		"$lab" run "$tmp/n.ini" -o "$tmp/new/q/$(printf '%0300d' 0)"
	(cd "$tmp/adir" && : >results &&
		bad_path "results is not a directory (allowed: -o a new directory" \
			"$lab" run "$tmp/n.ini" && rm results)
	# Past 64 new parents a made one read as failed with a stale errno (hostile29): seventy
	# are made, and a refused name below them leaves none
	deep="$tmp/deep/$(printf 'd/%.0s' $(seq 70))"
	"$lab" run "$tmp/n.ini" -o "${deep}res" --no-progress >/dev/null
	[ -f "${deep}res/run.json" ]
	rm -rf "$tmp/deep"
	bad_path "File name too long (allowed: -o a new directory" \
		"$lab" run "$tmp/n.ini" -o "${deep}$(printf '%0300d' 0)"
	[ "$(ls "$tmp")" = "$(printf 'adir\ndangling\nerr\nloop\nn.ini\nout')" ]
	;;
double_dash_ends_options)
	# "--" ends the options: a config named "-n.ini" is a config, also for the processes of
	# fresh_process = on (they are handed it after their own "--"); without "--" it is an
	# unknown option (exit 2).
	printf '[global]\nreps = 2\nwarmup = 1ms\nmin_time = 1ms\nruns = 2\nfresh_process = on\nretry_flagged = 0\n\n[n]\nkernel = noop\nthreads = 1\n' >"$tmp/-n.ini"
	cd "$tmp"
	"$lab" plan -- -n.ini >"$tmp/out"
	grep -q '1 point planned' "$tmp/out"
	rc=0
	"$lab" plan -n.ini >"$tmp/out" 2>"$tmp/err" || rc=$?
	test "$rc" = 2
	grep -q "unknown option '-n.ini'" "$tmp/err"
	"$lab" run -o "$tmp/r" --no-progress -- -n.ini >/dev/null 2>"$tmp/err"
	python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["experiments"][0]["points"][0]
assert p["status"] == "ok" and len(p["processes"]) == 2, p' "$tmp/r/run.json"
	;;
options_given_twice)
	# A single-valued option given twice is bad usage (exit 2, one line naming both values);
	# every subcommand refuses what it does not know, lab version included. Of two --set of
	# one key the last wins, as lab run --help says.
	printf '[n]\nkernel = noop\n' >"$tmp/n.ini"
	usage_line() { # pattern, then the command: exit 2, one line on stderr, nothing on stdout
		pat=$1
		shift
		rc=0
		"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] &&
			grep -qF -- "$pat" "$tmp/err" ||
			{ echo "exit code $rc: $*"; cat "$tmp/err" "$tmp/out"; exit 1; }
	}
	usage_line "lab version: unknown option '--bogus'" "$lab" version --bogus
	usage_line "lab version: unexpected argument 'x'" "$lab" version x
	usage_line "-o/--output given twice ('$tmp/a', then '$tmp/b'; allowed once)" \
		"$lab" run "$tmp/n.ini" -o "$tmp/a" -o "$tmp/b"
	[ ! -e "$tmp/a" ] && [ ! -e "$tmp/b" ]
	usage_line "--output given twice" "$lab" run "$tmp/n.ini" --output="$tmp/a" -o "$tmp/b"
	usage_line "--topology given twice" "$lab" plan "$tmp/n.ini" --topology synthetic:pu:1 \
		--topology synthetic:pu:2
	usage_line "--topology given twice" "$lab" topo --topology synthetic:pu:1 \
		--topology synthetic:pu:2
	usage_line "--objective given twice" "$lab" analyze "$tmp" --objective absolute \
		--objective relative
	usage_line "--csv given twice" "$lab" analyze --csv a --csv b
	usage_line "--noise given twice" "$lab" compare "$tmp" "$tmp" --noise 0.1 --noise 0.2
	usage_line "--events given twice" "$lab" counters --events sw --events ipc
	# --events names what --record-fixture records: alone it would be ignored
	usage_line "goes with --record-fixture FILE" "$lab" counters --events sw
	usage_line "-o 'b': given twice" "$lab" fleet "$tmp/n.ini" -o a -o b
	usage_line "--nodes '2': given twice" "$lab" fleet "$tmp/n.ini" --nodes 1 --nodes 2
	usage_line "lab describe: unknown option '--bogus'" "$lab" describe --bogus
	usage_line "lab describe: give a KERNEL" "$lab" describe
	usage_line "lab describe: too many kernels" "$lab" describe noop noop
	"$lab" version --help | grep -q '^usage: lab version'
	# hwloc's release, not its API level (hwloc 2.9.0 has API 2.8.0), labelled as the headers'
	"$lab" version | grep -Eq '^hwloc: [0-9]+\.[0-9]+\.[0-9]+[^ ]* \(headers built against\), API 0x'
	if command -v pkg-config >/dev/null && pkg-config --exists hwloc; then
		"$lab" version | grep -qF "hwloc: $(pkg-config --modversion hwloc) (headers"
	fi
	"$lab" plan "$tmp/n.ini" --set n.delay_loops=3 --set n.delay_loops=4 | grep -q 'delay_loops=4;'
	"$lab" run --help | grep -q 'the last --set of a key wins'
	;;
runs_and_precision)
	# Issue 22. runs = 3: samples.csv ends with a run column holding 0, 1 and 2 for every point,
	# and analysis.json gives each point var_between, var_within and an interval from run means.
	printf '[global]\nthreads = 1..max\nreps = 3\nwarmup = 1ms\nmin_time = 1ms\nretry_flagged = 0\nruns = 3\n\n[noop]\nkernel = noop\n\n[fs]\nkernel = false_sharing\nthreads = 1\nstride = 8, 128\n' >"$tmp/r.ini"
	"$lab" run "$tmp/r.ini" -o "$tmp/r" --no-progress >"$tmp/out" 2>"$tmp/err"
	check "$tmp/r" --min-points 1
	# a line a run, saying which (four lines of one point read as contradicting results)
	grep -q '^fs  .*stride=8;.* thr=1   run 1/3 ' "$tmp/out"
	grep -q '^fs  .*stride=8;.* thr=1   run 3/3 ' "$tmp/out"
	"$lab" analyze "$tmp/r" --no-plots --include-flagged >"$tmp/a.txt"
	grep -q "runs: up to 3 per point, intervals from the run means; share of a run mean's variance between runs at threads 1: " "$tmp/a.txt"
	# (and fits, where the machine has CPUs enough for 4 thread counts)
	grep -Eq '  note: levels: speedup intervals (and fits )?from run means' "$tmp/a.txt"
	if grep -q 'levels: one setup per point' "$tmp/a.txt"; then exit 1; fi # (! cmd does not stop set -e)
	# runs = 1: the series say their intervals hold one setup's samples only (setups of one
	# triad point differed by 47 % where each interval was +-4 %, and nothing said so)
	"$lab" run "$tmp/r.ini" -o "$tmp/r1" --no-progress --only noop --set global.runs=1 >"$tmp/out" 2>"$tmp/err"
	"$lab" analyze "$tmp/r1" --no-plots --include-flagged >"$tmp/a1.txt"
	grep -q '  note: levels: one setup per point (runs = 1): the intervals hold the spread of its samples, not of setups' "$tmp/a1.txt"
	# external data has no setups and no runs key: no such note
	cp tests/fixtures/csv/amdahl.csv "$tmp/ext.csv"
	"$lab" analyze --csv "$tmp/ext.csv" >"$tmp/a2.txt"
	grep -q '^== ' "$tmp/a2.txt"
	if grep -q 'one setup per point' "$tmp/a2.txt"; then exit 1; fi
	python3 - "$tmp/r" <<'PY'
import csv, json, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/samples.csv")))
runs = {}
for r in rows:
    runs.setdefault(r["point"], set()).add(r["run"])
assert runs and all(v == {"0", "1", "2"} for v in runs.values()), runs
run = json.load(open(d + "/run.json"))
assert run["run_order"]["shuffled"] is True and "seed" in run["run_order"], run["run_order"]
for e in run["experiments"]:
    for p in e["points"]:
        assert p["runs"] == 3 and p["reps"] == 9, p
a = json.load(open(d + "/analysis.json"))
pts = [p for s in a["series"] for p in s["points"]]
assert pts
for p in pts:
    for k in ("var_between", "var_within", "between_share", "run_ci95", "within_run_ci95"):
        assert k in p, (k, p)
    assert p["runs"] == 3 and p["interval_level"] == "runs", p
    assert p["run_ci95"][0] <= p["mean"] <= p["run_ci95"][1], p
    assert p["mean_ci95"] == p["run_ci95"], p
# a view's table (cost vs stride) gives each point the interval of its run means too
summ = {(r["experiment"], r["threads"], r["params"]): r for r in csv.DictReader(open(d + "/summary.csv"))}
rows = [r for e in a["experiments"] if e["name"] == "fs"
        for s in e["stride"]["sections"] for r in s["tables"]["points"]["rows"]]
assert len(rows) == 2, rows
for r in rows:
    s = [v for k, v in summ.items() if k[0] == "fs" and ("stride=%s;" % r["stride"]) in k[2]][0]
    assert abs(r["cost_ci95"][0] - float(s["ci95_lo"])) <= 1e-6 * float(s["ci95_hi"]), (r, s["ci95_lo"])
    assert abs(r["cost_ci95"][1] - float(s["ci95_hi"])) <= 1e-6 * float(s["ci95_hi"]), (r, s["ci95_hi"])
PY
	# precision = 1%, budget = 1s: each point reaches the target or says the budget ran out
	# (which of the two depends on the machine's noise: only the bookkeeping is checked).
	printf '[global]\nthreads = 1..max\nreps = 3\nwarmup = 1ms\nmin_time = 1ms\nretry_flagged = 0\nprecision = 1%%\nbudget = 1s\n\n[noop]\nkernel = noop\n\n[atom]\nkernel = atomic_rmw\nthreads = 1\nop = fetch_add\ntarget = shared\n' >"$tmp/p.ini"
	"$lab" run "$tmp/p.ini" -o "$tmp/p" --no-progress >"$tmp/out" 2>"$tmp/err"
	check "$tmp/p" --min-points 1
	"$lab" analyze "$tmp/p" --no-plots --include-flagged >"$tmp/a.txt"
	grep -q 'precision: +-1% asked' "$tmp/a.txt"
	# a view's section says its points' targets too (the atomics view said nothing)
	grep -q 'note: shared, threads 1: precision: +-1% asked' "$tmp/a.txt"
	python3 - "$tmp/p" <<'PY'
import json, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
a = json.load(open(d + "/analysis.json"))
for e in run["experiments"]:
    for p in e["points"]:
        assert p["precision_target"] == 0.01 and p["runs"] == 1, p
        assert p["samples"] == p["reps"] >= 10, p  # the pilot is at least 10 samples
        assert p["precision"]["rule"] == "stein_two_stage", p
        # null: fewer than 2 unflagged samples (a busy machine), never a figure from flagged ones
        got = p["precision_achieved"]
        assert (got is not None and got <= 0.01) or p["budget_exhausted"] is True, p
        assert got is None or p["precision"]["kept"] >= 2, p
for s in a["series"]:
    for p in s["points"]:
        assert "precision_achieved" in p and "budget_exhausted" in p, p
        # what the analysis reached is its own interval's half-width, not run.json's figure
        lo, hi = p["mean_ci95"]
        if lo is None or hi is None:
            assert p["precision_achieved"] is None, p
        else:
            want = max(hi - p["mean"], p["mean"] - lo) / p["mean"]
            assert abs(p["precision_achieved"] - want) <= 1e-6 * want + 1e-12, (want, p)
PY
	# total_budget = 1ms: spent by the first pilot (10 samples of >= 1 ms), so no point adds a
	# sample; each says the config's total ran out (run.json, analysis.json and the text).
	printf '[global]\nthreads = 1\nwarmup = 1ms\nmin_time = 1ms\nretry_flagged = 0\nprecision = 0.01%%\nbudget = 10s\ntotal_budget = 1ms\n\n[noop]\nkernel = noop\nruns = 1\n\n[noop3]\nkernel = noop\nruns = 3\n' >"$tmp/t.ini"
	"$lab" run "$tmp/t.ini" -o "$tmp/t" --no-progress >"$tmp/out" 2>"$tmp/err"
	"$lab" analyze "$tmp/t" --no-plots --include-flagged >"$tmp/a.txt"
	grep -q "the config's total_budget ran out first" "$tmp/a.txt"
	grep -q 'total_budget spent: 2 points stopped adding precision samples' "$tmp/err"
	python3 - "$tmp/t" <<'PY'
import json, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
pts = [p for e in run["experiments"] for p in e["points"]]
assert len(pts) == 2, pts
for p in pts:
    assert p["budget_exhausted"] is True and p["total_budget_exhausted"] is True, p
    # only the pilot ran: its 3 runs, or its samples (one run); the pilot counts the samples it
    # could use, so a sample flagged under load is taken but not counted there
    if p["precision"]["level"] == "samples":
        pilot = p["precision"]["pilot"]
        assert pilot <= p["samples"] <= pilot + p.get("flagged", 0) and p["runs"] == 1, p
    else:  # the pilot counts the runs with an unflagged sample, as the analyzer does
        assert p["runs"] == 3 and p["precision"]["pilot"] == p["precision"]["kept"] <= 3, p
a = json.load(open(d + "/analysis.json"))
for s in a["series"]:
    for p in s["points"]:
        assert p["total_budget_exhausted"] is True, p
PY
	;;
fresh_process_config_edited)
	# fresh_process = on: each run's process reads the configs again. One edited mid-run (reps
	# = 2 -> 7) made later runs take 7 samples unnoticed; a run whose process planned another
	# measurement of the point (not only another point) now fails and says why.
	printf '[global]\nreps = 2\nwarmup = 1ms\nmin_time = 100ms\nretry_flagged = 0\nruns = 4\nfresh_process = on\n\n[n]\nkernel = noop\nthreads = 1\n' >"$tmp/e.ini"
	"$lab" run "$tmp/e.ini" -o "$tmp/e" --no-progress >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	wait_rows "$tmp/e" 1
	sed -i 's/reps = 2/reps = 7/' "$tmp/e.ini"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 1 ] || { echo "exit code $rc, expected 1"; cat "$tmp/out" "$tmp/err"; exit 1; }
	grep -q 'FAILED: the process of this run (pid [0-9]*) planned another point: a config changed on disk' "$tmp/out" ||
		{ cat "$tmp/out"; exit 1; }
	# the runs whose process started before the edit keep their 2 samples; none took 7
	[ "$(awk -F, 'NR > 1' "$tmp/e/samples.csv" | wc -l)" -le 6 ] || { cat "$tmp/e/samples.csv"; exit 1; }
	;;
long_error_lines)
	# A 5,000-byte argument echoed whole made a 5 KB error line; the line keeps its start and
	# its end (what is allowed) and says what it left out.
	long=$(printf 'x%.0s' $(seq 1 5000))
	rc=0
	"$lab" describe "$long" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ "$(wc -c <"$tmp/err")" -lt 1100 ] ||
		{ echo "exit $rc, $(wc -c <"$tmp/err") bytes"; exit 1; }
	grep -q "bytes left out ...\].*' (kernels: [a-z0-9_, ]*)\$" "$tmp/err" || { cat "$tmp/err"; exit 1; }
	;;
compare_skipped_point_unit)
	# A point skipped on one side has no samples: its unit came from the directory's first
	# sample (noop's "iteration"), so compare called false_sharing's increments "another unit of
	# work". It is its experiment's unit from run.json: the point "did not run" there.
	printf '[global]\nreps = 2\nwarmup = 1ms\nmin_time = 1ms\nretry_flagged = 0\n\n[a]\nkernel = noop\nthreads = 1\n\n[b]\nkernel = false_sharing\nthreads = 1\nstride = 64\nmin_cpus = MC\n' >"$tmp/mc.ini"
	sed s/MC/1024/ "$tmp/mc.ini" >"$tmp/mc4.ini"
	sed s/MC/1/ "$tmp/mc.ini" >"$tmp/mc1.ini"
	"$lab" run "$tmp/mc4.ini" -o "$tmp/m4" --no-progress >/dev/null 2>&1
	"$lab" run "$tmp/mc1.ini" -o "$tmp/m1" --no-progress >/dev/null 2>&1
	"$lab" compare "$tmp/m4" "$tmp/m1" --include-flagged >"$tmp/c.txt"
	grep -q '^b .*did not run in old (skipped)' "$tmp/c.txt" || { cat "$tmp/c.txt"; exit 1; }
	# with run.json's reason, as lab analyze of that side gives it
	grep -q '^b .*did not run in old (skipped) (old: .*1024' "$tmp/c.txt" || { cat "$tmp/c.txt"; exit 1; }
	"$lab" compare "$tmp/m4" "$tmp/m1" --include-flagged --json >"$tmp/c.json"
	python3 - "$tmp/c.json" <<'PY' || exit 1
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["points"] if r["experiment"] == "b"]
assert rows and "1024" in rows[0]["old_reason"] and "new_reason" not in rows[0], rows
PY
	! grep -q 'another unit' "$tmp/c.txt" || { cat "$tmp/c.txt"; exit 1; }
	grep -q '^b: mean cost in ns/increment' "$tmp/c.txt" || { cat "$tmp/c.txt"; exit 1; }
	;;
reader_left_and_hangup)
	# A reader of stdout that left (`| head -1`) killed lab run by SIGPIPE without a word, and a
	# closed terminal (SIGHUP) killed it too: both left run.json "running" and run.lock behind,
	# so the directory could not be used again. Both now end the run as Ctrl-C does.
	cat >"$tmp/long.ini" <<'INI'
[long]
kernel = noop
threads = 1
delay_loops = 0..300
reps = 2
min_time = 2ms
warmup = 0
INI
	rc=0
	{
		"$lab" run "$tmp/long.ini" -o "$tmp/p" --no-progress 2>"$tmp/err" || echo $? >"$tmp/rc"
	} | head -1 >/dev/null
	[ "$(cat "$tmp/rc")" = 1 ] || { echo "exit $(cat "$tmp/rc"), expected 1"; cat "$tmp/err"; exit 1; }
	grep -q 'standard output was closed (its reader left): the run stops here, interrupted unless every point had finished' "$tmp/err"
	check "$tmp/p" --status interrupted
	[ ! -e "$tmp/p/run.lock" ] || { echo "run.lock left behind"; exit 1; }
	"$lab" run "$tmp/long.ini" -o "$tmp/h" --no-progress >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	wait_rows "$tmp/h" 5
	kill -HUP "$pid"
	wait "$pid" || rc=$?
	[ "$rc" = 1 ] || { echo "exit code $rc after SIGHUP, expected 1"; cat "$tmp/err"; exit 1; }
	check "$tmp/h" --status interrupted
	[ ! -e "$tmp/h/run.lock" ] || { echo "run.lock left behind"; exit 1; }
	;;
fresh_process)
	# fresh_process = on: each run of each point in a new process of the lab. run.json lists the
	# pid of each run (all different, none the lab run's own), samples.csv has runs 0..2 and
	# threads.csv's times count from lab run's origin (they rise run after run); the analyzer
	# says so. An OpenMP kernel's CPUs, the counters' record and the kernel's facts come back.
	printf '[global]\nthreads = 1..max\nreps = 2\nwarmup = 1ms\nmin_time = 1ms\nretry_flagged = 0\nruns = 3\nfresh_process = on\n\n[noop]\nkernel = noop\n\n[omp]\nkernel = omp_triad\nsize = 64K\nruns = 2\n\n[numa]\nkernel = numa_policy\nthreads = 1\nsize = 1M\nruns = 2\n' >"$tmp/f.ini"
	"$lab" run "$tmp/f.ini" -o "$tmp/f" --no-progress >"$tmp/out" 2>"$tmp/err" &
	run_pid=$!
	wait $run_pid
	check "$tmp/f" --min-points 3
	"$lab" analyze "$tmp/f" --no-plots --include-flagged >"$tmp/a.txt"
	grep -q "runs: up to 3 per point, each in a new process (fresh_process), intervals" "$tmp/a.txt"
	python3 - "$tmp/f" "$run_pid" <<'PY'
import csv, json, sys
d, parent = sys.argv[1], int(sys.argv[2])
run = json.load(open(d + "/run.json"))
pids = []
for e in run["experiments"]:
    for p in e["points"]:
        assert p["status"] == "ok" and p["verify"] == "pass", p
        assert len(p["processes"]) == p["runs"] >= 2, p
        pids += p["processes"]
        if e["name"] == "omp":
            assert p["team"] == "openmp" and len(p["omp_cpus"]) == p["threads"], p
        if e["name"] == "numa":
            assert p["point_facts"]["placement_ok"] is True, p
        assert p["counters"]["events"], p
assert len(set(pids)) == len(pids) and parent not in pids, pids
rows = list(csv.DictReader(open(d + "/samples.csv")))
assert {r["run"] for r in rows} == {"0", "1", "2"}, rows
last = {}
for r in csv.DictReader(open(d + "/threads.csv")):
    key = (r["point"], r["thread"])
    assert int(r["end_ns"]) > int(r["start_ns"]) > last.get(key, -1), r
    last[key] = int(r["end_ns"])
PY
	# SIGTERM to lab run alone (not its process group) reaches the run's process too: lab run
	# ends "interrupted" and leaves no process behind.
	printf '[global]\nreps = 50\nmin_time = 50ms\nwarmup = 1ms\nruns = 5\nfresh_process = on\n\n[a]\nkernel = noop\n' >"$tmp/long.ini"
	# Each signal goes once a run's process is there (a fixed wait of 1.5 s came, under ASan,
	# during the self-check, before any: the checks below then checked nothing).
	run_child() {
		for _ in $(seq 1 600); do
			for st in $(grep -ls "^PPid:[[:space:]]*$run_pid\$" /proc/[0-9]*/status 2>/dev/null); do
				tr '\0' ' ' <"${st%status}cmdline" 2>/dev/null | grep -q -- __run-point && return 0
			done
			sleep 0.05
		done
		echo "no run's process of lab run within 30 s"
		cat "$tmp/err"
		exit 1
	}
	"$lab" run "$tmp/long.ini" -o "$tmp/long" --no-progress >"$tmp/out" 2>"$tmp/err" &
	run_pid=$!
	run_child
	kill -TERM "$run_pid"
	wait "$run_pid" || true
	grep -q '"status": "interrupted"' "$tmp/long/run.json"
	for c in /proc/[0-9]*/cmdline; do
		if tr '\0' ' ' <"$c" 2>/dev/null | grep -q -- "__run-point .*$tmp/long.ini"; then
			echo "a run's process outlived lab run: $c"; exit 1
		fi
	done
	# SIGKILL to lab run (no handler runs): its run's process ends with it, not when its point
	# is done (it ran on as an orphan for the rest of its point).
	"$lab" run "$tmp/long.ini" -o "$tmp/killed" --no-progress >"$tmp/out" 2>"$tmp/err" &
	run_pid=$!
	run_child
	kill -KILL "$run_pid"
	wait "$run_pid" || true
	sleep 0.5
	for c in /proc/[0-9]*/cmdline; do
		if tr '\0' ' ' <"$c" 2>/dev/null | grep -q -- "__run-point .*$tmp/long.ini"; then
			echo "a run's process outlived a killed lab run: $c"; exit 1
		fi
	done
	# The child command is lab run's own: a terminal or a bad id is refused with one line.
	if "$lab" __run-point --point x "$tmp/f.ini" </dev/null >"$tmp/o2" 2>"$tmp/e2"; then
		echo "__run-point took a bad id"; exit 1
	fi
	grep -q -- "--point ID: a point id" "$tmp/e2"
	if "$lab" __run-point --point 0 --persist -1 "$tmp/f.ini" </dev/null >"$tmp/o2" 2>"$tmp/e2"; then
		echo "__run-point took a bad --persist"; exit 1
	fi
	grep -q -- "--persist N: a count of points" "$tmp/e2"
	# What lab run knows of a persistent load goes to the child and comes back after its
	# identity: from 3, 4 when its load outlasted the retries again, 0 when it ran clean (1
	# would be a child that started from nothing and lost the count: every process then waited
	# out every retry again, 39 s against 15 s beside one busy CPU)
	"$lab" __run-point --point 0 --persist 3 "$tmp/f.ini" </dev/null >"$tmp/o3" 2>"$tmp/e3"
	python3 - "$tmp/o3" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
ilen = struct.unpack_from("<Q", b, 0)[0]
persist = struct.unpack_from("<Q", b, 8 + ilen)[0]
sys.exit(0 if persist in (0, 4) else f"persist after the run: {persist}, allowed 0 or 4")
PY
	;;
runs_interrupted)
	# SIGINT between the runs of points with runs = 3: every finished run stays in samples.csv,
	# a point that got fewer runs than planned says so in run.json (status ok, runs below
	# runs_planned, the reason; it read "ok" with nothing more), the summary counts points, not
	# runs (it said "3 of 2 points finished"), and the analyzer says which points are short.
	printf '[global]\nreps = 10\nmin_time = 20ms\nwarmup = 0\nretry_flagged = 0\n\n[n]\nkernel = noop\nthreads = 1\ndelay_loops = 0, 1\nruns = 3\n' >"$tmp/r.ini"
	interrupt_run "$tmp/r.ini" "$tmp/r" 10
	check "$tmp/r" --status interrupted --min-points 0
	python3 - "$tmp/r" "$tmp/out" <<'PY'
import csv, json, re, sys
d, out = sys.argv[1], open(sys.argv[2]).read()
run = json.load(open(d + "/run.json"))
pts = run["experiments"][0]["points"]
short = [p for p in pts if p["status"] == "ok" and p["runs"] < p["runs_planned"]]
assert short and all(p["runs_planned"] == 3 for p in short), pts
rows = list(csv.DictReader(open(d + "/samples.csv")))
for p in short:
    mine = [r for r in rows if int(r["point"]) == p["point"]]
    assert len(mine) == p["reps"] == 10 * p["runs"], (p, len(mine))
    assert p["reason"] == "the run ended after %d of this point's 3 planned runs" % p["runs"], p
done = sum(p["status"] == "ok" and p["runs"] == p["runs_planned"] == 3 for p in pts)
m = re.search(r"^results: .* is incomplete: (\d+) of 2 points finished, (\d+) more with fewer "
              r"runs than planned \(interrupted\)$", out, re.M)
assert m and (int(m.group(1)), int(m.group(2))) == (done, len(short)), (out, done, len(short))
assert run["progress"]["points_done"] == done, run["progress"]
PY
	"$lab" analyze "$tmp/r" --no-plots --include-flagged >"$tmp/a.txt" 2>"$tmp/a.err"
	grep -q 'got fewer runs than planned, the run ended first' "$tmp/a.err"
	grep -qE '^  note: threads 1: [12] of 3 planned runs \(no more had run\): the interval is from ' "$tmp/a.txt"
	python3 - "$tmp/r/analysis.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
pts = [p for s in a["series"] for p in s["points"]]
# a point the run never reached has no runs_planned
assert any(p.get("runs_planned") == 3 > p["runs_recorded"] for p in pts), pts
assert any("fewer runs than planned" in w for w in a["warnings"]), a["warnings"]
PY
	;;
fresh_process_interrupt_keeps_runs)
	# fresh_process = on: a run whose process measured it and sent its record before lab run
	# saw the Ctrl-C is kept (it was dropped, and a run stopped at the wrong moment kept
	# nothing). lab run is stopped while the process of a run finishes, then interrupted and let
	# go: that run's samples and pid are in the results, and its point says it got fewer of its
	# 3 planned runs.
	printf '[global]\nreps = 4\nmin_time = 20ms\nwarmup = 0\nretry_flagged = 0\n\n[n]\nkernel = noop\nthreads = 1\nruns = 3\nfresh_process = on\n' >"$tmp/f.ini"
	"$lab" run "$tmp/f.ini" -o "$tmp/f" --no-progress >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	trap 'kill -CONT "$pid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
	# lab run's child, if any (a process gone while grep reads is no error)
	children() { grep -ls "^PPid:[[:space:]]*$pid\$" /proc/[0-9]*/status | head -n 1 | cut -d/ -f3 || true; }
	state() { awk '{print $3}' /proc/"$1"/stat 2>/dev/null || true; }
	child=
	for _ in $(seq 1 2000); do
		if [ -n "$(children)" ]; then
			kill -STOP "$pid"
			for _ in $(seq 1 500); do [ "$(state "$pid")" = T ] && break; sleep 0.01; done
			child=$(children)
			[ -n "$child" ] && break
			kill -CONT "$pid" # between two runs: try the next
		fi
		sleep 0.01
	done
	[ -n "$child" ] || { echo "no run process appeared"; cat "$tmp/err"; exit 1; }
	rows=$(wc -l <"$tmp/f/samples.csv")
	for _ in $(seq 1 3000); do
		[ "$(state "$child")" = Z ] && break
		sleep 0.01
	done
	[ "$(state "$child")" = Z ] || { echo "the run's process $child did not end"; exit 1; }
	kill -INT "$pid"
	kill -CONT "$pid"
	rc=0
	wait "$pid" || rc=$?
	trap 'rm -rf "$tmp"' EXIT
	[ "$rc" = 1 ] || { echo "exit code $rc, expected 1"; cat "$tmp/err"; exit 1; }
	check "$tmp/f" --status interrupted --min-points 0
	python3 - "$tmp/f/run.json" "$child" "$rows" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
child, rows = int(sys.argv[2]), int(sys.argv[3])
p = run["experiments"][0]["points"][0]
before = (rows - 1) // 4  # runs handed over before lab run was stopped
assert p["status"] == "ok" and child in p.get("processes", []), (child, p)
assert p["runs"] == before + 1 < p["runs_planned"] == 3, (before, p)
PY
	grep -q 'is incomplete: 0 of 1 points finished, 1 more with fewer runs than planned (interrupted)' "$tmp/out"
	;;
counters_fixture_symlink)
	# --record-fixture never writes through a symbolic link (it used to overwrite the link's
	# target): one line, exit 2, the target untouched; a regular file is replaced whole, under
	# a temporary name then renamed, and no temporary stays.
	echo keep >"$tmp/target"
	ln -s "$tmp/target" "$tmp/link"
	rc=0
	"$lab" counters --record-fixture "$tmp/link" --events sw >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] || { echo "exit code $rc, expected 2"; cat "$tmp/err"; exit 1; }
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'a symbolic link' "$tmp/err"
	[ "$(cat "$tmp/target")" = keep ] && [ -L "$tmp/link" ]
	ln -s "$tmp/nowhere" "$tmp/dangling"
	rc=0
	"$lab" counters --record-fixture "$tmp/dangling" --events sw 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -e "$tmp/nowhere" ]
	mkdir "$tmp/fx" && echo old >"$tmp/fx/f.json"
	"$lab" counters --record-fixture "$tmp/fx/f.json" --events sw 2>"$tmp/err"
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["schema"] == "lab.counters-fixture/1"' "$tmp/fx/f.json"
	[ "$(ls "$tmp/fx")" = f.json ]
	# a directory that is not there, or a file as one: bad usage, of the path given (hostile29:
	# exit 1, naming the temporary beside it)
	for bad in "$tmp/nodir/f.json" "$tmp/target/f.json"; do
		rc=0
		"$lab" counters --record-fixture "$bad" --events sw 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] || { echo "exit code $rc, expected 2"; cat "$tmp/err"; exit 1; }
		grep -q "^lab counters: --record-fixture $bad: .* (allowed: a new or regular file" "$tmp/err"
	done
	rc=0
	"$lab" counters --record-fixture '' --events sw 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q "^lab counters: --record-fixture '': an empty file name" "$tmp/err"
	;;
pairs_too_many)
	# A point per CPU pair: past the point cap (448 CPUs: 100,128 pairs) or the pairs array
	# (2,048 CPUs: 2 million; it crashed) the placement is an error with what is allowed.
	printf '[c]\nkernel = c2c_latency\nplacement = pairs\n' >"$tmp/p.ini"
	for cores in 448 2048; do
		rc=0
		"$lab" plan "$tmp/p.ini" --topology "synthetic:pack:1 core:$cores pu:1" >/dev/null 2>"$tmp/err" || rc=$?
		[ "$rc" = 2 ] || { cat "$tmp/err" >&2; exit 1; }
		grep -q 'p.ini:3: \[c\] placement = pairs: [0-9]* CPU pairs here, a point each (allowed at most [0-9]*; set max_pairs)' "$tmp/err"
	done
	"$lab" plan "$tmp/p.ini" --topology "synthetic:pack:1 core:2048 pu:1" --set c.max_pairs=64 | grep -q '^64 points planned'
	;;
one_cpu_configs)
	# On one CPU every shipped config plans: its 2-CPU sections (pairs, 2-thread comparisons)
	# are skipped with the reason (min_cpus), threads = 1, max is one point.
	one="synthetic:pack:1 l3:1(size=32MB) l2:1(size=1MB) l1d:1(size=32KB) core:1 pu:1"
	for c in configs/*.ini; do
		"$lab" plan "$c" --topology "$one" >"$tmp/plan" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	done
	"$lab" plan configs/ch26-locks.ini --topology "$one" --json | python3 -c '
import json, sys
e = {x["name"]: x["points"] for x in json.load(sys.stdin)["experiments"]}
f = e["fairness"]
assert len(f) == 2 and all(p["status"] == "skipped" and p["cpus"] == [] for p in f), f
assert all("min_cpus = 2" in p["reason"] for p in f), f
assert {p["threads"] for p in e["locks"]} == {1}, e["locks"]'
	# A run on one CPU: the pairs and the 2-thread points are recorded as skipped, and analyzed.
	if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
		printf '[global]\nreps = 2\nmin_time = 1ms\nwarmup = 0\nretry_flagged = 0\n[one]\nkernel = noop\nthreads = 1, max\n[two]\nkernel = noop\nthreads = 2..max\nmin_cpus = 2\n[pairs]\nkernel = c2c_latency\nplacement = pairs\nmin_cpus = 2\nreps = 2\n' >"$tmp/one.ini"
		taskset -c 0 "$lab" run "$tmp/one.ini" -o "$tmp/r" --no-progress >"$tmp/out" 2>&1
		grep -q 'SKIPPED: needs at least 2 CPUs (min_cpus = 2); this process may use 1' "$tmp/out"
		# the run and the plan say the CPUs are restricted (only lab topo did)
		if [ "$(nproc --all)" -gt 1 ]; then
			grep -q '^lab: cpus allowed: 0 (1 of [0-9]*): this process may use only these' "$tmp/out"
			taskset -c 0 "$lab" plan "$tmp/one.ini" | grep -q '^cpus allowed: 0 (1 of '
		fi
		python3 -c '
import json, sys
p = {x["name"]: x for x in json.load(open(sys.argv[1]))["experiments"]}
assert [q["threads"] for q in p["one"]["points"]] == [1], p["one"]
for n in ("two", "pairs"):
    q = p[n]["points"]
    assert len(q) == 1 and q[0]["status"] == "skipped" and q[0]["cpus"] == [], q' "$tmp/r/run.json"
		"$lab" analyze --no-plots "$tmp/r" >"$tmp/an"
		grep -q 'not run: skipped: needs at least 2 CPUs' "$tmp/an"
	else
		echo "taskset -c 0 unavailable: the run on one CPU is not checked" >&2
	fi
	;;
node_skip_records_no_cpus)
	# placement = node:N on a machine without node N: the skipped points record no CPUs in
	# lab plan, --json and run.json (they were the compact plan's, never used), and lab analyze
	# reads them without taking them for a placement that ran on node:0's CPUs.
	printf '[x]\nkernel = noop\nthreads = 1, 2\nplacement = node:1\n' >"$tmp/p.ini"
	"$lab" plan --topology "synthetic:pack:1 core:2 pu:1" --json "$tmp/p.ini" >"$tmp/plan.json"
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["experiments"][0]["points"]
assert [(q["status"], q["threads"], q["cpus"]) for q in p] == [("skipped", 1, []), ("skipped", 2, [])], p' "$tmp/plan.json"
	printf '[global]\nreps = 1\nmin_time = 1ms\nwarmup = 0\nretry_flagged = 0\n[x]\nkernel = noop\nthreads = 1\nplacement = node:0, node:4095\n' >"$tmp/n.ini"
	"$lab" plan "$tmp/n.ini" >"$tmp/plan"
	grep -qE '^ +1 +threads=1 +cpus=- .*SKIPPED: placement node:4095: NUMA node 4095 has no CPU' "$tmp/plan"
	"$lab" run "$tmp/n.ini" -o "$tmp/r" --no-progress >"$tmp/out" 2>&1
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["experiments"][0]["points"]
assert [q["status"] for q in p] == ["ok", "skipped"] and p[1]["cpus"] == [], p' "$tmp/r/run.json"
	"$lab" analyze --no-plots "$tmp/r" >"$tmp/an" 2>"$tmp/anerr"
	grep -q 'skipped: placement node:4095: NUMA node 4095 has no CPU' "$tmp/an"
	if grep -q 'ran on the same CPUs' "$tmp/anerr"; then cat "$tmp/anerr" >&2; exit 1; fi
	;;
placement_written_two_ways)
	# One order of CPUs written two ways is one point, recorded in one canonical text in
	# run.json, samples.csv and the lessons' expr; a lesson naming it in another form is judged.
	printf '[global]\nreps = 2\nmin_time = 1ms\nwarmup = 0\nretry_flagged = 0\n[x]\nkernel = noop\nthreads = 1\nplacement = expr:N:0, expr:N:00, list:0, list:00\n[lessons]\nl = cost(x: placement=expr:N:00) > 1\nm = cost(x: placement=list:00) > 1\n' >"$tmp/p.ini"
	"$lab" run "$tmp/p.ini" -o "$tmp/r" --no-progress >"$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
	python3 -c '
import csv, json, sys
r = json.load(open(sys.argv[1] + "/run.json"))
p = [q["placement"] for q in r["experiments"][0]["points"]]
assert p == ["expr:N:0", "list:0"], p
assert [q["placement_expr"] for q in r["experiments"][0]["points"][:1]] == ["N:0"]
e = sorted(l["expr"] for l in r["lessons"])
assert e == ["cost(x: placement=expr:N:0) > 1", "cost(x: placement=list:0) > 1"], e
rows = list(csv.DictReader(open(sys.argv[1] + "/samples.csv")))
assert sorted({x["params"].split(";")[-1] for x in rows}) == ["placement=expr:N:0", "placement=list:0"], rows' "$tmp/r"
	# judged, not "not run" (a shared machine may flag every sample: they are kept here)
	"$lab" analyze --no-plots --include-flagged "$tmp/r" >"$tmp/an" 2>"$tmp/anerr" || { cat "$tmp/anerr"; exit 1; }
	if grep -qE '^not run |0 hold, 0 fail, 0 inconclusive' "$tmp/an"; then cat "$tmp/an"; exit 1; fi
	;;
chapter_configs_plan)
	# Every shipped config plans cleanly (a typo in a chapter config fails here, not in class).
	for c in configs/ch*.ini bench/omp-vs-epcc.ini; do
		"$lab" plan "$c" >"$tmp/plan" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
		grep -q 'points planned' "$tmp/plan"
		# the claims are shown as checked, in the text and in --json, one per [lessons] key
		n=$(sed -n '/^\[lessons\]/,/^\[/p' "$c" | grep -c '^[a-z_0-9]* = ' || true)
		if [ "$n" -gt 0 ]; then
			grep -q "^\[lessons\] $n claim" "$tmp/plan"
			"$lab" plan "$c" --json | python3 -c "import json,sys; assert len(json.load(sys.stdin)['lessons']) == $n"
		fi
	done
	# On a 2-socket machine with SMT, the chapters whose lessons need a line to move between
	# cores put a 2-thread team on two cores, not on one core's two PUs (compact would).
	topo=xml:configs/topologies/2s8c2t-intel.xml
	"$lab" topo --topology "$topo" --json >"$tmp/topo.json"
	for c in configs/ch25-false-sharing.ini configs/ch25-coherence.ini configs/ch26-atomics.ini \
		configs/ch26-locks.ini configs/ch29-data-parallel.ini configs/ch19-counters.ini; do
		"$lab" plan "$c" --topology "$topo" --json >"$tmp/plan.json"
		python3 - "$tmp/topo.json" "$tmp/plan.json" "$c" <<'PY'
import json, sys
core = {p["cpu"]: (p["package"], p["core"]) for p in json.load(open(sys.argv[1]))["pus_detail"]}
n = 0
for e in json.load(open(sys.argv[2]))["experiments"]:
    two = [p for p in e["points"] if p["threads"] == 2 and p["placement"] != "pairs"]
    if len({p["placement"] for p in two}) != 1:
        continue  # none, or an experiment that compares placements ([placement] of ch25)
    for p in two:
        n += 1
        assert core[p["cpus"][0]] != core[p["cpus"][1]], (sys.argv[3], e["name"], p)
assert n, sys.argv[3]
PY
	done
	;;
chapter_configs_analyze)
	# Every shipped config's run is one lab analyze reads: its lessons' claims and the exprs the
	# planner wrote for this machine agree (ch27's mem_node = far, written as a node number, was
	# refused: the chapter got no analysis). Every point skipped by min_cpus, so it is quick.
	over=$(($(nproc) + 1))
	for c in configs/ch*.ini configs/quick.ini; do
		rm -rf "$tmp/c"
		"$lab" run "$c" --set global.min_cpus=$over -o "$tmp/c" --no-progress \
			>"$tmp/out" 2>"$tmp/err" || { echo "$c"; cat "$tmp/err" >&2; exit 1; }
		"$lab" analyze "$tmp/c" --no-plots >"$tmp/a.txt" 2>"$tmp/err" ||
			{ echo "$c"; cat "$tmp/err" >&2; exit 1; }
		n=$(sed -n '/^\[lessons\]/,/^\[/p' "$c" | grep -c '^[a-z_0-9]* = ' || true)
		if [ "$n" -gt 0 ]; then
			grep -q '^== lessons: 0 hold, 0 fail, 0 inconclusive' "$tmp/a.txt" ||
				{ echo "$c"; grep '^== lessons' "$tmp/a.txt"; exit 1; }
		fi
	done
	;;
openmp_team_on_plan)
	# An OpenMP kernel's team is pinned: no "ran off their planned CPU" warning, and run.json
	# records each OpenMP thread on its planned CPU (skipped points in a build without OpenMP).
	OMP_WAIT_POLICY=active "$lab" run --set global.retry_flagged=0 configs/quick.ini --only omp_triad -o "$tmp/o" \
		--no-progress >"$tmp/out" 2>"$tmp/err"
	if grep -q 'ran off their planned CPU' "$tmp/err"; then cat "$tmp/err" >&2; exit 1; fi
	python3 - "$tmp/o/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
pts = r["experiments"][0]["points"]
assert pts, r
assert r["lab"]["openmp_env"].get("OMP_WAIT_POLICY") == "active", r["lab"]
for p in pts:
    if r["lab"]["openmp"]:
        assert p["status"] == "ok" and p["team"] == "openmp", p
        assert p["omp_cpus"] == p["cpus"], p
    else:
        assert p["status"] == "skipped" and "without OpenMP" in p["reason"], p
PY
	;;
epcc_script_fake)
	# bench/epcc.py against a stand-in syncbench that prints EPCC v4.0's line shapes: the
	# medians, "+/-" and test sd are parsed per construct, and every round is recorded.
	mkdir "$tmp/epcc"
	cat >"$tmp/epcc/syncbench" <<'SH'
#!/bin/sh
name=$2
[ "$name" = PARALLEL_FOR ] && name="PARALLEL FOR"
printf 'Running OpenMP benchmark version 4.0\n\t%s thread(s)\n' "$OMP_NUM_THREADS"
printf 'Computing reference time 1 time using 1000 reps\n\n'
printf 'Sample_size       Mean       Median     Min        Max        StdDev     Outliers\n'
printf ' 20               0.110000   0.100000   0.090000   0.200000   0.010000   0\n'
printf 'Computing %s time using 640 reps\n\n' "$name"
printf 'Sample_size       Mean       Median     Min        Max        StdDev     Outliers\n'
printf ' 20               0.650000   0.600000   0.550000   0.900000   0.050000   1\n'
printf '%s time         = 0.650000 microseconds +/- 0.098000\n' "$name"
printf '%s overhead     = 0.540000 microseconds +/- 0.117600\n' "$name"
printf '%s median_ovrhd = 0.500000 microseconds \n' "$name"
SH
	chmod +x "$tmp/epcc/syncbench"
	EPCC_DIR="$tmp/epcc" LAB="$lab" python3 bench/epcc.py --rounds 2 --threads 1 \
		--constructs parallel,barrier --out "$tmp/o" --markdown >"$tmp/out" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	grep -q '^| parallel | 500 \[500 - 500\] | 118 | ' "$tmp/out"
	grep -q '^| barrier | 500 \[500 - 500\] | 118 | ' "$tmp/out"
	python3 - "$tmp/o/rounds.json" <<'PY'
import json, sys
rs = json.load(open(sys.argv[1]))
assert len(rs) == 2 and all(r["threads"] == 1 for r in rs), rs
e = rs[0]["epcc"]["parallel"]
want = {"median_ovrhd": 500.0, "pm": 117.6, "sd_test": 50.0, "innerreps": 640}
assert all(abs(e[k] - v) < 1e-6 for k, v in want.items()), e
PY
	;;
*)
	echo "unknown case $case" >&2
	exit 2
	;;
esac
