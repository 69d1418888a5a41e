#!/bin/bash
# bench/alternate.sh ROUNDS OUTDIR — the issue #4 comparisons, repeated and interleaved so
# that a noisy, shared host hits lab and reference alike. Each round: bench_pingpong (5 samples
# x 100k round trips), the lab's c2c (10 samples), then the 1-thread lock pairs (lab vs ck).
# Summarise with bench/summarize.py OUTDIR/rNN-*; see bench/RESULTS-locks.md.
set -e
rounds=${1:-10}
out=${2:-/tmp/alternate}
lab=${LAB:-./build/lab/lab}
pp=${PINGPONG:-./build/bench/bench_pingpong}
mkdir -p "$out"
for r in $(seq -w 1 "$rounds"); do
	"$pp" 0 1 100000 5 | tail -1 >"$out/r$r-pingpong.txt"
	rm -rf "$out/r$r-c2c" "$out/r$r-locks1"
	"$lab" run bench/locks-vs-ck.ini --only c2c --set c2c.reps=10 -o "$out/r$r-c2c" \
		--no-progress >/dev/null 2>&1
	"$lab" run bench/locks-vs-ck.ini --only locks --set locks.threads=1 --set locks.reps=10 \
		--set locks.min_time=20ms -o "$out/r$r-locks1" --no-progress >/dev/null 2>&1
	echo "round $r: $(cat "$out/r$r-pingpong.txt")"
done
