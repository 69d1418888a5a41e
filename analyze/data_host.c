/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run.json's "host" facts that name what the views print (data_int.h): the cache table the
 * roofline names its bandwidth ceilings by. Checked once in the loader, so a view can trust it:
 * a cache of size 0 or of level 1e308 relabelled every ceiling "DRAM".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/data_int.h"

/* The largest whole number a double holds exactly. */
#define AN_HOST_WHOLE_MAX 9007199254740992.0

/* v is a whole number in [lo, hi]. */
static int an_whole_in(const struct lab_an_json *v, double lo, double hi)
{
	return v->type == LAB_AN_JSON_NUM && v->num >= lo && v->num <= hi &&
	       v->num == floor(v->num);
}

/* The member key of o is absent (when optional) or a whole number in [lo, hi]. */
static int an_host_whole(const struct lab_an_json *o, const char *key, int optional, double lo,
                         double hi, const struct lab_an_json **at)
{
	const struct lab_an_json *v = lab_an_json_get(o, key);

	*at = v ? v : o;
	return v ? an_whole_in(v, lo, hi) : optional;
}

/* One entry of host.topology.caches (harness/prov.c writes them): level 1 ..
 * LAB_AN_CACHE_LEVELS, size in bytes > 0, line size and sharing PUs counts. seen marks the
 * levels met so far: each once. */
static int an_cache_check(const char *path, const struct lab_an_json *c, unsigned *seen,
                          struct lab_err *err)
{
	const struct lab_an_json *at;
	unsigned bit;

	if (c->type != LAB_AN_JSON_OBJ)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: a cache of host.topology.caches: allowed: an object "
		                   "{level, size, linesize, pus_sharing}",
		                   path, c->line);
	if (!an_host_whole(c, "level", 0, 1, LAB_AN_CACHE_LEVELS, &at))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: cache \"level\": allowed: a whole number 1 .. %d", path,
		                   at->line, LAB_AN_CACHE_LEVELS);
	bit = 1u << (unsigned)lab_an_json_num(c, "level", 0);
	if (*seen & bit)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: cache level %.0f again, allowed: each level once", path,
		                   at->line, at->num);
	*seen |= bit;
	if (!an_host_whole(c, "size", 0, 1, AN_HOST_WHOLE_MAX, &at))
		return lab_err_set(
		    err, LAB_EDATA,
		    "%s:%u: cache \"size\": allowed: a whole number of bytes 1 .. %.0f", path,
		    at->line, AN_HOST_WHOLE_MAX);
	if (!an_host_whole(c, "linesize", 1, 0, AN_HOST_WHOLE_MAX, &at) ||
	    !an_host_whole(c, "pus_sharing", 1, 0, AN_HOST_WHOLE_MAX, &at))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: cache \"linesize\" and \"pus_sharing\": allowed: whole "
		                   "numbers 0 .. %.0f",
		                   path, at->line, AN_HOST_WHOLE_MAX);
	return 0;
}

/* host.topology.numa_distances (the firmware's SLIT, as hwloc reports it): n rows of n whole
 * distances 1 .. 65535 (10 is a node's own). 1e308 gave a remote-to-local ratio of 0, and a
 * 1 x 1 table stood beside a 2-node matrix. */
static int an_distances_check(const char *path, const struct lab_an_json *m, struct lab_err *err)
{
	if (!m)
		return 0;
	for (size_t i = 0; m->type == LAB_AN_JSON_ARR && i < m->n; i++) {
		const struct lab_an_json *r = &m->items[i];

		if (r->type != LAB_AN_JSON_ARR || r->n != m->n)
			break;
		for (size_t j = 0; j < r->n; j++)
			if (!an_whole_in(&r->items[j], 1, 65535))
				return lab_err_set(
				    err, LAB_EDATA,
				    "%s:%u: host.topology.numa_distances: allowed: whole "
				    "distances 1 .. 65535",
				    path, r->items[j].line);
		if (i + 1 == m->n)
			return 0;
	}
	return lab_err_set(err, LAB_EDATA,
	                   "%s:%u: host.topology.numa_distances: allowed: n rows of n distances, "
	                   "a row per NUMA node",
	                   path, m->line);
}

static int an_cmp_num(const void *a, const void *b)
{
	const struct lab_an_json *const *x = a, *const *y = b;

	return ((*x)->num > (*y)->num) - ((*x)->num < (*y)->num);
}

/* host.topology.pus_detail (harness/prov.c): per PU an object whose "cpu" is a whole OS CPU
 * number 0 .. 65535, each once, and whose package, numa, numa_os, llc, core and smt_rank are
 * whole numbers -1 (none) .. 65535. A numa of 1e400 read "other NUMA node" on a 1-node host,
 * a cpu of 0.5 passed as CPU 0 and 4294967296 went through an int cast. */
static int an_pus_check(const char *path, const struct lab_an_json *pus, struct lab_err *err)
{
	static const char *const keys[] = {"package", "numa", "numa_os", "llc", "core", "smt_rank"};
	const struct lab_an_json *at, **cpu;
	int rc = 0;

	if (!pus)
		return 0;
	if (pus->type != LAB_AN_JSON_ARR || pus->n > 65536)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: host.topology.pus_detail: allowed: an array of at most "
		                   "65536 PUs",
		                   path, pus->line);
	for (size_t i = 0; i < pus->n; i++) {
		const struct lab_an_json *pu = &pus->items[i];

		at = pu;
		if (pu->type != LAB_AN_JSON_OBJ || !an_host_whole(pu, "cpu", 0, 0, 65535, &at))
			return lab_err_set(err, LAB_EDATA,
			                   "%s:%u: a PU of host.topology.pus_detail: allowed: an "
			                   "object whose \"cpu\" is a whole number 0 .. 65535",
			                   path, at->line);
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!an_host_whole(pu, keys[k], 1, -1, 65535, &at))
				return lab_err_set(err, LAB_EDATA,
				                   "%s:%u: PU \"%s\": allowed: a whole number -1 "
				                   "(none) .. 65535",
				                   path, at->line, keys[k]);
	}
	if (pus->n < 2)
		return 0;
	if (!(cpu = malloc(pus->n * sizeof(*cpu))))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t i = 0; i < pus->n; i++)
		cpu[i] = lab_an_json_get(&pus->items[i], "cpu");
	qsort(cpu, pus->n, sizeof(*cpu), an_cmp_num);
	for (size_t i = 1; i < pus->n && !rc; i++)
		if (cpu[i]->num == cpu[i - 1]->num)
			rc = lab_err_set(
			    err, LAB_EDATA,
			    "%s:%u: host.topology.pus_detail lists CPU %.0f again, "
			    "allowed: each CPU once",
			    path, cpu[i]->line > cpu[i - 1]->line ? cpu[i]->line : cpu[i - 1]->line,
			    cpu[i]->num);
	free(cpu);
	return rc;
}

int lab_an_run_host_check(const char *path, const struct lab_an_json *run, struct lab_err *err)
{
	const struct lab_an_json *topo = lab_an_json_get(lab_an_json_get(run, "host"), "topology");
	const struct lab_an_json *c = lab_an_json_get(topo, "caches");
	unsigned seen = 0;
	int rc = an_distances_check(path, lab_an_json_get(topo, "numa_distances"), err);

	if (rc || (rc = an_pus_check(path, lab_an_json_get(topo, "pus_detail"), err)))
		return rc;

	if (c && c->type != LAB_AN_JSON_ARR)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: host.topology.caches: allowed: an array of caches", path,
		                   c->line);
	for (size_t i = 0; c && i < c->n && !rc; i++)
		rc = an_cache_check(path, &c->items[i], &seen, err);
	return rc;
}
