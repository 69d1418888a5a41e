#!/bin/bash
# bench/likwid.sh ROUNDS OUTDIR — the lab's stream and peak kernels side by side with
# likwid-bench (Debian package likwid), interleaved round by round so a noisy, shared host hits
# both alike, then the medians and ratios (bench/likwid_summary.py). One thread, CPU 0.
#   stream triad 1 GiB and 16 KiB (AVX2)  vs  likwid stream_avx (the same 3-stream a = b + s*c)
#                                            and triad_avx (4-stream a = b*c + d), -w S0:SIZE:1
#   peak fma avx2 / avx512                vs  peakflops_avx_fma / peakflops_avx512_fma
#   peak fma_add avx512                   vs  peakflops_avx512_fma (must beat it where the CPU
#                                            has separate add pipes)
# Bytes are counted the same way on both sides: read + written, no write-allocate.
set -e
rounds=${1:-3}
out=${2:-/tmp/likwid-compare}
lab=${LAB:-./build/lab/lab}
command -v likwid-bench >/dev/null || { echo "likwid-bench not found (apt-get install likwid)"; exit 2; }
mkdir -p "$out"
lw() { # name kernel workgroup
	likwid-bench -t "$2" -w "$3" >"$out/r$r-lw-$1.txt" 2>&1 || true
}
for r in $(seq -w 1 "$rounds"); do
	lw triad_dram_stream stream_avx S0:1073741824B:1
	lw triad_dram_triad triad_avx S0:1073741824B:1
	rm -rf "$out/r$r-lab-dram"
	"$lab" run bench/likwid-compare.ini --only triad_dram -o "$out/r$r-lab-dram" --no-progress \
		>/dev/null 2>&1
	lw triad_l1_stream stream_avx S0:16384B:1
	lw triad_l1_triad triad_avx S0:16384B:1
	rm -rf "$out/r$r-lab-l1"
	"$lab" run bench/likwid-compare.ini --only triad_l1 -o "$out/r$r-lab-l1" --no-progress \
		>/dev/null 2>&1
	lw peak_avx2 peakflops_avx_fma S0:16384B:1
	lw peak_avx512 peakflops_avx512_fma S0:16384B:1
	rm -rf "$out/r$r-lab-peak"
	"$lab" run bench/likwid-compare.ini --only peak -o "$out/r$r-lab-peak" --no-progress \
		>/dev/null 2>&1
	echo "round $r done"
done
python3 "$(dirname "$0")/likwid_summary.py" "$out"
