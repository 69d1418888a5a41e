/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Whether the last cache level holds what the machine says it holds. Under a hypervisor the
 * sizes hwloc reads come from the CPUID the hypervisor shows, and some show an L3 no CPU has
 * (508 MB per core on an EPYC guest, 480 MiB on a Xeon one): a working set of "L3/2" then sits
 * in DRAM, and a roofline's L3 ceiling is a DRAM one. One thread's load bandwidth over growing
 * working sets shows where the level really ends: it stays on the level's plateau while the set
 * fits and falls to the next level's once it does not. Only a report the loads refute by more
 * than 4x is called contradicted: a guest on a shared L3 may see half or a quarter of an honest
 * report (the neighbours' share), a made-up one is 15x to 30x off.
 */
#ifndef LAB_HARNESS_CACHEPROBE_H
#define LAB_HARNESS_CACHEPROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/err.h"

/* A working set whose loads run slower than the level's plateau by this factor is past it. */
#define LAB_CACHE_PROBE_DROP 1.5
/* The largest working set a probe measures (and so the most memory it maps). */
#define LAB_CACHE_PROBE_MAX (1ull << 30)

/* What the sweep over one level found. */
struct lab_cache_probe {
	uint64_t reported; /* bytes the topology reports for the level */
	uint64_t below;    /* bytes of the level under it (L2 for an L3) */
	/* The largest working set measured at the level's speed when the sweep found the drop
	 * before reported / 4; 0 when it found none (the report holds as far as it was checked)
	 * or did not look (reported < 32 x below: no room to tell a plateau from a quarter). */
	uint64_t fits;
	double inside_gbs; /* the level's plateau: the fastest load GB/s of the sets inside */
	double past_gbs;   /* load GB/s of the first working set past the drop; 0 without one */
	unsigned sizes;    /* working sets measured (by the sweep kept) */
	unsigned sweeps;   /* sweeps made (lab_cache_probe_median), 1 for one search */
};

/* Load bandwidth in GB/s over a working set of bytes (the best of a few passes); 0 when it
 * could not be measured. */
typedef double (*lab_cache_gbs_fn)(uint64_t bytes, void *arg);

/*
 * The sweep, with its measurement handed in: from 4 x below (inside the level) the working set
 * doubles up to reported / 4 (at most LAB_CACHE_PROBE_MAX); the first one slower than the
 * plateau (the fastest set so far) by LAB_CACHE_PROBE_DROP, measured twice, is past the level,
 * and quarter steps between it and the last one on the plateau find the largest that fits.
 * p->reported and p->below are read, the rest written.
 */
void lab_cache_probe_search(struct lab_cache_probe *p, lab_cache_gbs_fn gbs, void *arg);

/* Sweeps a shared host's load can shorten (the level's end read at 8 MiB in one plan and 16
 * in the next): lab_cache_probe_run keeps the median of this many. */
#define LAB_CACHE_PROBE_SWEEPS 3

/* lab_cache_probe_search n times (n odd), p the sweep whose end is the median of theirs (a sweep
 * that found none counts as past them all); p->sweeps = n. */
void lab_cache_probe_median(struct lab_cache_probe *p, lab_cache_gbs_fn gbs, void *arg, unsigned n);

/* True when p found the level ending before a quarter of its reported size. */
bool lab_cache_probe_contradicts(const struct lab_cache_probe *p);

/*
 * lab_cache_probe_median of LAB_CACHE_PROBE_SWEEPS sweeps measured on the calling thread, held
 * on the CPU it is on: sequential 16-byte loads over a fresh anonymous mapping (touched as the
 * working set grows; about a second on a guest whose page faults cost 10 us). Returns 0, or
 * -LAB_ENOMEM / -LAB_ESYS with err filled when the memory cannot be had (p then says nothing was
 * measured).
 */
int lab_cache_probe_run(struct lab_cache_probe *p, struct lab_err *err);

#endif
