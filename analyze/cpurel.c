/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/cpurel.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* (cpu, index) pairs by cpu, then index. */
static int an_cmp_pair(const void *a, const void *b)
{
	const double *x = a, *y = b;

	if (x[0] != y[0])
		return (x[0] > y[0]) - (x[0] < y[0]);
	return (x[1] > y[1]) - (x[1] < y[1]);
}

void lab_an_cpurel_init(struct lab_an_cpurel *r, const struct lab_an_json *run)
{
	const struct lab_an_json *host = lab_an_json_get(run, "host");
	const struct lab_an_json *t = lab_an_json_get(host, "topology");
	const struct lab_an_json *pus = lab_an_json_get(t, "pus_detail");
	const char *smt = lab_an_json_str(host, "smt");
	double cores = lab_an_json_num(t, "cores", -1), npus = lab_an_json_num(t, "pus", -2);

	memset(r, 0, sizeof(*r));
	r->pus = pus && pus->type == LAB_AN_JSON_ARR && pus->n ? pus : NULL;
	r->one_package = lab_an_json_num(t, "packages", 0) == 1;
	r->one_numa = lab_an_json_num(t, "numa_nodes", 0) == 1;
	/* "off"/"notsupported" is the kernel's SMT control; equal counts prove it on any OS. */
	r->no_smt = cores == npus || (smt && (!strcmp(smt, "off") || !strcmp(smt, "notsupported")));
	if (r->pus && (r->by_cpu = malloc(2 * r->pus->n * sizeof(*r->by_cpu)))) {
		for (size_t i = 0; i < r->pus->n; i++) {
			r->by_cpu[2 * i] = (int)lab_an_json_num(&r->pus->items[i], "cpu", -1);
			r->by_cpu[2 * i + 1] = (double)i;
		}
		/* equal cpus in listed order: the first listed wins, as in a scan */
		qsort(r->by_cpu, r->pus->n, 2 * sizeof(*r->by_cpu), an_cmp_pair);
	}
}

void lab_an_cpurel_free(struct lab_an_cpurel *r)
{
	free(r->by_cpu);
	r->by_cpu = NULL;
}

int lab_an_cpurel_detailed(const struct lab_an_cpurel *r)
{
	return r->pus != NULL;
}

static const struct lab_an_json *an_pu(const struct lab_an_cpurel *r, int cpu)
{
	if (r->by_cpu) { /* the first pair of that cpu: lowest index among equal cpus */
		size_t lo = 0, hi = r->pus->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (r->by_cpu[2 * mid] < cpu)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < r->pus->n && r->by_cpu[2 * lo] == cpu
		           ? &r->pus->items[(size_t)r->by_cpu[2 * lo + 1]]
		           : NULL;
	}
	for (size_t i = 0; r->pus && i < r->pus->n; i++)
		if ((int)lab_an_json_num(&r->pus->items[i], "cpu", -1) == cpu)
			return &r->pus->items[i];
	return NULL;
}

/* 1/0 when both PUs carry a non-negative index under key, else -1. */
static int an_same(const struct lab_an_json *x, const struct lab_an_json *y, const char *key)
{
	double a = lab_an_json_num(x, key, -1), b = lab_an_json_num(y, key, -1);

	return a < 0 || b < 0 ? -1 : a == b;
}

void lab_an_cpurel_get(const struct lab_an_cpurel *r, int a, int b, int *smt_siblings,
                       int *same_package, int *same_numa, int *same_llc)
{
	const struct lab_an_json *x = an_pu(r, a), *y = an_pu(r, b);

	*same_llc = x && y ? an_same(x, y, "llc") : -1;
	if (x && y) {
		*same_package = an_same(x, y, "package");
		*same_numa = an_same(x, y, "numa");
		/* core is a machine-wide index: siblings share it (a PU is not its own sibling) */
		*smt_siblings = a == b ? 0 : an_same(x, y, "core");
	} else {
		*same_package = r->one_package ? 1 : -1;
		*same_numa = r->one_numa ? 1 : -1;
		*smt_siblings = r->no_smt || a == b ? 0 : -1;
	}
}
