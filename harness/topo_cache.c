/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cache sizes of a topology, for run.json's provenance (the roofline names its bandwidth
 * ceilings by the level a working set fits in). Reads the hwloc topology it is handed: the
 * handle (topo.c) calls here, never the other way. */
#include "harness/topo_internal.h"

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
