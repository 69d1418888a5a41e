/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run.json's "host" facts that name what the views print (data_int.h): the cache table the
 * roofline names its bandwidth ceilings by. Checked once in the loader, so a view can trust it:
 * a cache of size 0 or of level 1e308 relabelled every ceiling "DRAM".
 */
#include <math.h>
#include <stdio.h>
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
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: cache \"size\": allowed: a whole number of bytes > 0",
		                   path, at->line);
	if (!an_host_whole(c, "linesize", 1, 0, AN_HOST_WHOLE_MAX, &at) ||
	    !an_host_whole(c, "pus_sharing", 1, 0, AN_HOST_WHOLE_MAX, &at))
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: cache \"linesize\" and \"pus_sharing\": allowed: whole "
		                   "numbers >= 0",
		                   path, at->line);
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

int lab_an_run_host_check(const char *path, const struct lab_an_json *run, struct lab_err *err)
{
	const struct lab_an_json *topo = lab_an_json_get(lab_an_json_get(run, "host"), "topology");
	const struct lab_an_json *c = lab_an_json_get(topo, "caches");
	unsigned seen = 0;
	int rc = an_distances_check(path, lab_an_json_get(topo, "numa_distances"), err);

	if (rc)
		return rc;

	if (c && c->type != LAB_AN_JSON_ARR)
		return lab_err_set(err, LAB_EDATA,
		                   "%s:%u: host.topology.caches: allowed: an array of caches", path,
		                   c->line);
	for (size_t i = 0; c && i < c->n && !rc; i++)
		rc = an_cache_check(path, &c->items[i], &seen, err);
	return rc;
}
