#!/usr/bin/env python3
"""bench/likwid_summary.py OUTDIR: medians over rounds of bench/likwid.sh, and the ratios."""
import csv
import glob
import json
import os
import re
import statistics
import sys


def likwid_value(path):
    """MFlops/s (peak kernels) or MByte/s as likwid-bench printed it, in G units, or None."""
    try:
        text = open(path).read()
    except OSError:
        return None
    what = 'MFlops/s' if 'peak' in os.path.basename(path) else 'MByte/s'
    m = re.search(r'^' + re.escape(what) + r':\s*([0-9.]+)', text, re.M)
    return float(m.group(1)) / 1e3 if m else None


def lab_values(directory):
    """{params: median G units} for one lab run: GB/s (read+written) or GFLOP/s per point."""
    run = json.load(open(os.path.join(directory, 'run.json')))
    work = {p['point']: p.get('work_per_unit', {})
            for e in run['experiments'] for p in e['points']}
    per = {}
    for row in csv.DictReader(open(os.path.join(directory, 'samples.csv'))):
        per.setdefault((row['kernel'], row['params'], int(row['point'])), []).append(
            float(row['work']) / float(row['elapsed_ns']))
    out = {}
    for (kernel, params, point), rates in per.items():
        w = work.get(point, {})
        unit = w.get('flops', 0) if kernel == 'peak' else \
            w.get('bytes_read', 0) + w.get('bytes_written', 0)
        out[params] = statistics.median(rates) * unit  # units per ns = G per s
    return out


def main():
    d = sys.argv[1]
    rounds = sorted({re.match(r'r\d+', os.path.basename(p)).group(0)
                     for p in glob.glob(os.path.join(d, 'r*-*'))})
    lw, lab = {}, {}
    for r in rounds:
        for f in glob.glob(os.path.join(d, r + '-lw-*.txt')):
            v = likwid_value(f)
            if v:
                lw.setdefault(os.path.basename(f)[len(r) + 4:-4], []).append(v)
        for sub in glob.glob(os.path.join(d, r + '-lab-*')):
            try:
                for k, v in lab_values(sub).items():
                    lab.setdefault(k, []).append(v)
            except (OSError, ValueError, KeyError):
                pass
    med = {k: statistics.median(v) for k, v in lw.items()}
    lmed = {k: statistics.median(v) for k, v in lab.items()}

    def find(sub):
        for k, v in lmed.items():
            if all(s in k for s in sub):
                return v
        return None
    rows = [
        ('triad 1 GiB GB/s', find(['op=triad', 'size=1G']), 'stream_avx', 0.98),
        ('triad 1 GiB GB/s', find(['op=triad', 'size=1G']), 'triad_avx', 0.98),
        ('triad 16 KiB GB/s', find(['op=triad', 'size=16K']), 'stream_avx', 0.95),
        ('triad 16 KiB GB/s', find(['op=triad', 'size=16K']), 'triad_avx', 0.95),
        ('peak fma avx2 GFLOP/s', find(['op=fma;', 'isa=avx2']), 'peak_avx2', 0.98),
        ('peak fma avx512 GFLOP/s', find(['op=fma;', 'isa=avx512']), 'peak_avx512', 0.98),
        ('peak fma_add avx512 GFLOP/s', find(['op=fma_add', 'isa=avx512']), 'peak_avx512', 1.0),
    ]
    names = {'stream_avx': 'triad_dram_stream', 'triad_avx': 'triad_dram_triad'}
    print('| lab (median of %d rounds) | lab | likwid-bench | likwid | lab/likwid | goal |'
          % len(rounds))
    print('|---|---|---|---|---|---|')
    for label, v, lwname, goal in rows:
        key = lwname
        if lwname in names:
            key = names[lwname] if '1 GiB' in label else names[lwname].replace('dram', 'l1')
        ref = med.get(key)
        ratio = v / ref if v and ref else None
        print('| %s | %s | %s | %s | %s | >= %.2f |' % (
            label, '%.1f' % v if v else '-', lwname, '%.1f' % ref if ref else '-',
            '%.3f' % ratio if ratio else '-', goal))


if __name__ == '__main__':
    main()
