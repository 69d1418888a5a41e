/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cache sizes of a topology, for run.json's provenance (the roofline names its bandwidth
 * ceilings by the level a working set fits in). Reads the hwloc topology it is handed: the
 * handle (topo.c) calls here, never the other way. */
#include "harness/topo_internal.h"

/* What a described cache or NUMA node may hold: a cache of LAB_TOPO_CACHE_MIN ..
 * LAB_TOPO_CACHE_MAX, 1 KiB .. 1 TiB (hwloc reads an XML cache_size="-5" as 2^64 - 5,
 * "0x1000000" as 0), a node up to 1 PiB of memory. */
#define TOPO_MEMORY_MAX (1ULL << 50)

/* The data or unified cache nearest above o in the tree (o's next level), or NULL. */
static hwloc_obj_t topo_cache_above(hwloc_obj_t o)
{
	for (hwloc_obj_t a = o->parent; a; a = a->parent)
		if (hwloc_obj_type_is_cache(a->type) && a->attr &&
		    a->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION)
			return a;
	return NULL;
}

/* A described cache as a machine could have it: a line of 0 (not known) or a power of two 16 ..
 * 4096 bytes, and no larger than the cache of the next level above it (an L2 of 1 KiB under an
 * L1 of 32 KiB planned size = L2 as 1K). */
static int topo_cache_check(hwloc_obj_t o, const char *source, struct lab_err *err)
{
	unsigned line = o->attr->cache.linesize;
	hwloc_obj_t up = topo_cache_above(o);

	if (line && (line < 16 || line > 4096 || (line & (line - 1))))
		return lab_err_set(err, LAB_ETOPO,
		                   "%s: an L%u cache line of %u bytes (allowed 0 for not known, "
		                   "or a power of two 16 .. 4096)",
		                   source, o->attr->cache.depth, line);
	if (up && o->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION &&
	    up->attr->cache.size < o->attr->cache.size)
		return lab_err_set(err, LAB_ETOPO,
		                   "%s: an L%u cache of %llu bytes below an L%u of only %llu "
		                   "(allowed: each level at least as large as the one below it)",
		                   source, o->attr->cache.depth,
		                   (unsigned long long)o->attr->cache.size, up->attr->cache.depth,
		                   (unsigned long long)up->attr->cache.size);
	return 0;
}

int lab__topo_sizes_check(hwloc_topology_t hw, const char *source, struct lab_err *err)
{
	hwloc_obj_t o = NULL;

	while ((o = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_NUMANODE, o)))
		if (o->attr && o->attr->numanode.local_memory > TOPO_MEMORY_MAX)
			return lab_err_set(
			    err, LAB_ETOPO,
			    "%s: NUMA node %u has %llu bytes of memory (allowed 0 .. "
			    "1 PiB)",
			    source, o->os_index,
			    (unsigned long long)o->attr->numanode.local_memory);
	for (int depth = 0; depth < hwloc_topology_get_depth(hw); depth++)
		for (o = hwloc_get_obj_by_depth(hw, depth, 0); o; o = o->next_cousin)
			if (hwloc_obj_type_is_cache(o->type) && o->attr &&
			    (o->attr->cache.size < LAB_TOPO_CACHE_MIN ||
			     o->attr->cache.size > LAB_TOPO_CACHE_MAX))
				return lab_err_set(
				    err, LAB_ETOPO,
				    "%s: an L%u cache of %llu bytes (allowed 1 KiB .. "
				    "1 TiB)",
				    source, o->attr->cache.depth,
				    (unsigned long long)o->attr->cache.size);
	for (int depth = 0; depth < hwloc_topology_get_depth(hw); depth++)
		for (o = hwloc_get_obj_by_depth(hw, depth, 0); o; o = o->next_cousin)
			if (hwloc_obj_type_is_cache(o->type) && o->attr &&
			    topo_cache_check(o, source, err))
				return -LAB_ETOPO;
	return 0;
}

hwloc_obj_type_t lab__topo_llc(hwloc_topology_t hw, unsigned *level)
{
	static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE,
	                                         HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE,
	                                         HWLOC_OBJ_L1CACHE};

	for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (hwloc_get_nbobjs_by_type(hw, types[i]) > 0) {
			*level = 5 - i;
			return types[i];
		}
	*level = 0;
	return (hwloc_obj_type_t)0;
}

unsigned lab__topo_caches(hwloc_topology_t hw, struct lab_cache_info *c, unsigned max)
{
	static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE,
	                                         HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE,
	                                         HWLOC_OBJ_L5CACHE};
	unsigned n = 0;

	for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]) && n < max; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(hw, types[i], 0);
		int w;

		if (!o || !o->attr || o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION ||
		    !o->attr->cache.size)
			continue;
		w = o->cpuset ? hwloc_bitmap_weight(o->cpuset) : 0;
		c[n].level = o->attr->cache.depth;
		c[n].size = (unsigned long long)o->attr->cache.size;
		c[n].linesize = o->attr->cache.linesize;
		c[n].pus_sharing = w > 0 ? (unsigned)w : 0;
		n++;
	}
	return n;
}
