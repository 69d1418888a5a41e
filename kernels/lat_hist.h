/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The latency helpers of the kernels that time their own operations (lock, c2c_latency, and the
 * NUMA latency kernels to come): one place for how latencies are kept and turned into
 * percentiles.
 *
 * struct lh_hist: a log-scale histogram for a sampled subset of many operations: values below
 * 8 ns get a bucket each, above that every power of two is split into 8 buckets (about 9 %
 * wide), up to 2^40 ns. Fixed size, no allocation, add is a few instructions, so a thread keeps
 * one in its private memory and the kernel's summarize hook merges them.
 *
 * struct lh_ring: the last LH_RING_MAX values exactly (per-batch latencies, fractional ns), for
 * exact type-7 percentiles where a bucket's 9 % would blur the modes a VM shows.
 */
#ifndef LAB_KERNELS_LAT_HIST_H
#define LAB_KERNELS_LAT_HIST_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LH_SUB     8 /* buckets per power of two */
#define LH_SUB_LOG 3
#define LH_EXP_MAX 40
#define LH_BUCKETS (LH_SUB + (LH_EXP_MAX - LH_SUB_LOG) * LH_SUB)

struct lh_hist {
	uint64_t count;
	uint64_t bucket[LH_BUCKETS];
};

static inline void lh_reset(struct lh_hist *h)
{
	memset(h, 0, sizeof(*h));
}

static inline unsigned lh_index(uint64_t v)
{
	if (v < LH_SUB)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v); /* e >= LH_SUB_LOG */
	if (e >= LH_EXP_MAX)
		return LH_BUCKETS - 1;
	unsigned sub = (unsigned)(v >> (e - LH_SUB_LOG)) & (LH_SUB - 1);
	return LH_SUB + (e - LH_SUB_LOG) * LH_SUB + sub;
}

static inline void lh_add(struct lh_hist *h, uint64_t v)
{
	h->bucket[lh_index(v)]++;
	h->count++;
}

static inline void lh_merge(struct lh_hist *into, const struct lh_hist *from)
{
	for (unsigned i = 0; i < LH_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	into->count += from->count;
}

/* The middle of bucket i: exact below 8 ns, else the bucket's lower edge plus half its width. */
static inline double lh_bucket_mid(unsigned i)
{
	if (i < LH_SUB)
		return (double)i;
	unsigned e = (i - LH_SUB) / LH_SUB + LH_SUB_LOG, sub = (i - LH_SUB) % LH_SUB;
	double lo = ldexp(1.0 + (double)sub / LH_SUB, (int)e);
	return lo + ldexp(1.0 / LH_SUB, (int)e) / 2;
}

/* The q-quantile (0 < q <= 1) as a bucket middle; NaN for an empty histogram. */
static inline double lh_quantile(const struct lh_hist *h, double q)
{
	if (h->count == 0)
		return NAN;
	double rank = ceil(q * (double)h->count);
	uint64_t need = rank < 1 ? 1 : (uint64_t)rank, seen = 0;
	for (unsigned i = 0; i < LH_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= need)
			return lh_bucket_mid(i);
	}
	return lh_bucket_mid(LH_BUCKETS - 1);
}

/* ---- exact values ---- */

#define LH_RING_MAX 16384

struct lh_ring {
	uint64_t n; /* values added since the reset (may exceed LH_RING_MAX: the oldest are gone) */
	double v[LH_RING_MAX];
};

static inline void lh_ring_reset(struct lh_ring *r)
{
	r->n = 0;
}

static inline void lh_ring_add(struct lh_ring *r, double v)
{
	r->v[r->n % LH_RING_MAX] = v;
	r->n++;
}

static int lh_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Type-7 quantiles q[0..k-1] (0 <= q <= 1) of the values kept, into out (NaN when empty).
 * Sorts the ring in place: call it once the values are complete, not between adds.
 */
static inline void lh_ring_quantiles(struct lh_ring *r, const double *q, double *out, unsigned k)
{
	uint64_t n = r->n < LH_RING_MAX ? r->n : LH_RING_MAX;

	if (n)
		qsort(r->v, n, sizeof(r->v[0]), lh_cmp_double);
	for (unsigned i = 0; i < k; i++) {
		if (!n) {
			out[i] = NAN;
			continue;
		}
		double h = (double)(n - 1) * q[i];
		uint64_t lo = (uint64_t)floor(h);
		out[i] = lo + 1 >= n ? r->v[n - 1]
		                     : r->v[lo] + (h - (double)lo) * (r->v[lo + 1] - r->v[lo]);
	}
}

#endif
