/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/cacheprobe.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/clock.h"

/* One measurement of the sweep, counted. */
static double cp_measure(struct lab_cache_probe *p, lab_cache_gbs_fn gbs, void *arg, uint64_t bytes)
{
	double b = gbs(bytes, arg);

	p->sizes++;
	return b > 0 ? b : 0;
}

/* A working set measured twice when the first reading is below floor: a neighbour's burst
 * slows one reading, a level's end slows both. */
static bool cp_past(struct lab_cache_probe *p, lab_cache_gbs_fn gbs, void *arg, uint64_t bytes,
                    double floor, double *gb)
{
	*gb = cp_measure(p, gbs, arg, bytes);
	if (*gb >= floor)
		return false;
	*gb = fmax(*gb, cp_measure(p, gbs, arg, bytes));
	return *gb < floor;
}

/* Clears what p reports; the largest working set the sweep may measure, 0 when the level is
 * under 32 x the one below (no room to tell a plateau from a quarter of the report). */
static uint64_t cp_start(struct lab_cache_probe *p)
{
	p->fits = 0;
	p->inside_gbs = p->past_gbs = 0;
	p->sizes = 0;
	if (!p->below || p->reported / 32 < p->below)
		return 0;
	return p->reported / 4 > LAB_CACHE_PROBE_MAX ? LAB_CACHE_PROBE_MAX : p->reported / 4;
}

void lab_cache_probe_search(struct lab_cache_probe *p, lab_cache_gbs_fn gbs, void *arg)
{
	uint64_t limit = cp_start(p), last = 4 * p->below;
	double floor, gb;

	p->sweeps = 1;
	if (!limit)
		return;
	p->inside_gbs = cp_measure(p, gbs, arg, last);
	if (!(p->inside_gbs > 0))
		return;
	floor = p->inside_gbs / LAB_CACHE_PROBE_DROP;
	for (uint64_t s = 2 * last; s <= limit; last = s, s *= 2) {
		if (!cp_past(p, gbs, arg, s, floor, &gb)) {
			/* The plateau is the fastest set inside: a first reading a neighbour slowed
			 * must not lower the bar. */
			if (gb > p->inside_gbs) {
				p->inside_gbs = gb;
				floor = gb / LAB_CACHE_PROBE_DROP;
			}
			continue;
		}
		p->past_gbs = gb;
		p->fits = last;
		/* Quarter steps (2^(1/4)) from the last size on the plateau towards s, in whole
		 * pages. */
		for (int k = 1; k < 4; k++) {
			uint64_t t = (uint64_t)((double)last * pow(2.0, k / 4.0)) & ~4095ull;
			if (t <= p->fits || cp_past(p, gbs, arg, t, floor, &gb))
				break;
			p->fits = t;
		}
		return;
	}
}

static uint64_t cp_end(const struct lab_cache_probe *p)
{
	return p->fits ? p->fits : UINT64_MAX;
}

void lab_cache_probe_median(struct lab_cache_probe *p, lab_cache_gbs_fn gbs, void *arg, unsigned n)
{
	struct lab_cache_probe s[LAB_CACHE_PROBE_SWEEPS * 2 + 1], t;

	n = n < 1 ? 1 : n > sizeof(s) / sizeof(s[0]) ? sizeof(s) / sizeof(s[0]) : n;
	for (unsigned k = 0; k < n; k++) {
		s[k] = (struct lab_cache_probe){.reported = p->reported, .below = p->below};
		lab_cache_probe_search(&s[k], gbs, arg);
		for (unsigned i = k; i > 0 && cp_end(&s[i]) < cp_end(&s[i - 1]); i--) {
			t = s[i];
			s[i] = s[i - 1];
			s[i - 1] = t;
		}
	}
	*p = s[n / 2];
	p->sweeps = n;
}

bool lab_cache_probe_contradicts(const struct lab_cache_probe *p)
{
	return p->fits && p->fits < p->reported / 4;
}

/* ---- the measurement ---- */

typedef uint64_t cp_vec __attribute__((vector_size(16)));

/* The probe's memory: mapped once for the largest working set, touched as the sets grow. */
struct cp_mem {
	unsigned char *p;
	uint64_t map, touched;
};

/* Sums n bytes (a multiple of 64) in 16-byte loads, four lines' worth of adds in flight. */
static uint64_t cp_sum(const unsigned char *p, uint64_t n)
{
	const cp_vec *v = (const cp_vec *)(const void *)p;
	cp_vec a = {0, 0}, b = {0, 0}, c = {0, 0}, d = {0, 0};

	for (uint64_t i = 0; i < n / sizeof(cp_vec); i += 4) {
		a += v[i];
		b += v[i + 1];
		c += v[i + 2];
		d += v[i + 3];
	}
	a += b + c + d;
	return a[0] + a[1];
}

/* Best of five passes, each of at least 16 MiB of loads (the set re-read as often as that
 * takes), after one pass that brings it into the cache. */
static double cp_gbs(uint64_t bytes, void *arg)
{
	struct cp_mem *m = arg;
	uint64_t reps = bytes >= (16u << 20) ? 1 : (16u << 20) / bytes, sink = 0;
	double best = 0;

	bytes &= ~63ull;
	if (!bytes || bytes > m->map)
		return 0;
	if (bytes > m->touched) {
		memset(m->p + m->touched, 1, bytes - m->touched);
		m->touched = bytes;
	}
	sink += cp_sum(m->p, bytes);
	for (int pass = 0; pass < 5; pass++) {
		uint64_t t0 = lab_clock_ns(), dt;
		for (uint64_t r = 0; r < reps; r++) {
			sink += cp_sum(m->p, bytes);
			__asm__ volatile("" : : : "memory"); /* each rep loads the set again */
		}
		dt = lab_clock_ns() - t0;
		if (dt && (double)(bytes * reps) / (double)dt > best)
			best = (double)(bytes * reps) / (double)dt; /* bytes per ns = GB/s */
	}
	__asm__ volatile("" : : "r"(sink));
	return best;
}

int lab_cache_probe_run(struct lab_cache_probe *p, struct lab_err *err)
{
	uint64_t limit = cp_start(p);
	struct cp_mem m = {.map = limit + 4096};
	cpu_set_t was, one;
	int cpu = sched_getcpu(), pinned = 0;

	if (!limit)
		return 0;
	m.p = mmap(NULL, m.map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
	           -1, 0);
	if (m.p == MAP_FAILED)
		return lab_err_set(err, errno == ENOMEM ? LAB_ENOMEM : LAB_ESYS,
		                   "cache probe: mmap of %llu bytes: %s", (unsigned long long)m.map,
		                   strerror(errno));
	/* Held on one CPU: a move between cores would restart the set in a cold cache. */
	if (cpu >= 0 && pthread_getaffinity_np(pthread_self(), sizeof(was), &was) == 0) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		pinned = pthread_setaffinity_np(pthread_self(), sizeof(one), &one) == 0;
	}
	lab_cache_probe_median(p, cp_gbs, &m, LAB_CACHE_PROBE_SWEEPS);
	if (pinned)
		pthread_setaffinity_np(pthread_self(), sizeof(was), &was);
	munmap(m.p, m.map);
	return 0;
}
