/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A log-scale latency histogram for kernels that time a sampled subset of their operations:
 * values below 8 ns get a bucket each, above that every power of two is split into 8 buckets
 * (about 9 % wide), up to 2^40 ns. Fixed size, no allocation, add is a few instructions, so a
 * thread keeps one in its private memory and the kernel's summarize hook merges them.
 */
#ifndef LAB_KERNELS_LAT_HIST_H
#define LAB_KERNELS_LAT_HIST_H

#include <math.h>
#include <stdint.h>
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

#endif
