/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * CPU pairs for core-to-core matrices. A full matrix grows with the square of the CPU count
 * (8128 pairs on 128 PUs), so large machines get a sample. A uniform sample would lose the rare
 * kinds that make the matrix worth drawing (64 SMT pairs out of 8128), so the sample is
 * stratified by kind: every kind present in the full set keeps at least one pair and the rest is
 * shared in proportion. Within a kind, selection sampling (Knuth's algorithm S) keeps the pairs
 * in the same stable order as the full set, and a seed makes it repeatable.
 */
#include "harness/topo.h"

#include <limits.h>
#include <stdlib.h>

/* Pair kinds, in the order a very small sample keeps them. */
enum pairs_kind {
	PAIRS_SMT,   /* two PUs of one core */
	PAIRS_XPKG,  /* different packages */
	PAIRS_XNUMA, /* one package, different NUMA nodes */
	PAIRS_XLLC,  /* one NUMA node, different last-level caches (CCXs on a Zen) */
	PAIRS_NEAR,  /* one last-level cache (or none known), different cores */
	PAIRS_NKINDS,
};

static enum pairs_kind pairs_kind_of(const struct lab_pu_info *a, const struct lab_pu_info *b)
{
	if (a->core == b->core)
		return PAIRS_SMT;
	if (a->package != b->package)
		return PAIRS_XPKG;
	if (a->numa != b->numa)
		return PAIRS_XNUMA;
	if (a->llc != b->llc)
		return PAIRS_XLLC;
	return PAIRS_NEAR;
}

static uint64_t pairs_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Shares want pairs among the kinds: one for each kind present (in kind order while they last),
 * the rest in proportion to the kind's size, leftovers to the kinds with most room. want is less
 * than the sum of count.
 */
static void pairs_quota(const uint64_t count[PAIRS_NKINDS], uint64_t want,
                        uint64_t quota[PAIRS_NKINDS])
{
	uint64_t total = 0, given = 0;

	for (int k = 0; k < PAIRS_NKINDS; k++) {
		total += count[k];
		quota[k] = count[k] && given < want ? 1 : 0;
		given += quota[k];
	}
	uint64_t rest = want - given;
	for (int k = 0; k < PAIRS_NKINDS && rest; k++) {
		uint64_t share = (uint64_t)((double)rest * (double)count[k] / (double)total);
		if (share > count[k] - quota[k])
			share = count[k] - quota[k];
		quota[k] += share;
		given += share;
	}
	while (given < want) {
		int best = -1;
		for (int k = 0; k < PAIRS_NKINDS; k++)
			if (count[k] > quota[k] &&
			    (best < 0 || count[k] - quota[k] > count[best] - quota[best]))
				best = k;
		LAB_BUG_ON(best < 0);
		quota[best]++;
		given++;
	}
}

int lab_topo_plan_pairs(const struct lab_topo *topo, unsigned max_pairs, uint64_t seed,
                        int (*pairs)[2], unsigned max, struct lab_err *err)
{
	unsigned n = lab_topo_cpus_allowed(topo, NULL, 0);
	int *cpus = calloc(n ? n : 1, sizeof(int));
	struct lab_pu_info *info = calloc(n ? n : 1, sizeof(*info));
	uint64_t count[PAIRS_NKINDS] = {0}, need[PAIRS_NKINDS], total;
	uint64_t state = seed;
	int rc = 0;

	if (!cpus || !info) {
		rc = lab_err_set(err, LAB_ENOMEM, "plan pairs: out of memory");
		goto out;
	}
	n = lab_topo_cpus_allowed(topo, cpus, n);
	if (n < 2) {
		rc = lab_err_set(err, LAB_ECONFIG,
		                 "placement pairs needs at least 2 usable CPUs, found %u", n);
		goto out;
	}
	for (unsigned i = 0; i < n; i++)
		LAB_BUG_ON(lab_topo_pu_info(topo, cpus[i], &info[i]) < 0);
	for (unsigned a = 0; a < n; a++)
		for (unsigned b = a + 1; b < n; b++)
			count[pairs_kind_of(&info[a], &info[b])]++;
	total = (uint64_t)n * (n - 1) / 2;
	bool sample = max_pairs && total > max_pairs;
	if (!sample && total > INT_MAX) {
		rc = lab_err_set(err, LAB_ECONFIG,
		                 "placement pairs: %llu pairs are too many; set a sample size",
		                 (unsigned long long)total);
		goto out;
	}
	if (sample)
		pairs_quota(count, max_pairs, need);
	for (unsigned a = 0; a < n; a++) {
		for (unsigned b = a + 1; b < n; b++) {
			enum pairs_kind k = pairs_kind_of(&info[a], &info[b]);
			if (sample) {
				bool take = need[k] && pairs_next(&state) % count[k] < need[k];
				need[k] -= take;
				count[k]--; /* now: pairs of kind k still to be seen */
				if (!take)
					continue;
			}
			if ((unsigned)rc < max) {
				pairs[rc][0] = cpus[a];
				pairs[rc][1] = cpus[b];
			}
			rc++;
		}
	}
out:
	free(cpus);
	free(info);
	return rc;
}
