/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by topo.c, topo_input.c, topo_synthetic.c, topo_cache.c and topo_domain.c only: not
 * the topology interface. */
#ifndef LAB_HARNESS_TOPO_INTERNAL_H
#define LAB_HARNESS_TOPO_INTERNAL_H

#include <stddef.h>

#include <hwloc.h>

#include "harness/topo.h"

/* The hwloc topology behind topo (topo_domain.c reads its dies). */
hwloc_topology_t lab__topo_hwloc(const struct lab_topo *topo);

/* lab_topo_caches on the hwloc topology hw (topo_cache.c). */
unsigned lab__topo_caches(hwloc_topology_t hw, struct lab_cache_info *c, unsigned max);
/* The last-level cache's type: the highest cache level the topology has (L3 on most servers),
 * its level into *level; 0 (and level 0) without caches. */
hwloc_obj_type_t lab__topo_llc(hwloc_topology_t hw, unsigned *level);

/* The sizes a described topology (XML, synthetic, hwloc's environment) gives: every cache 1 KiB
 * .. 1 TiB, every NUMA node's memory up to 1 PiB. Returns 0 or -LAB_ETOPO naming source
 * (topo_cache.c). */
int lab__topo_sizes_check(hwloc_topology_t hw, const char *source, struct lab_err *err);

/*
 * Checks the synthetic description desc (of --topology spec) before hwloc builds it: at most
 * LAB_TOPO_PUS_MAX PUs, and every indexes= list of distinct numbers 0 .. LAB_TOPO_OS_MAX, one
 * per object of its level in the whole machine.
 * Returns 0 or -LAB_ETOPO naming spec (topo_synthetic.c).
 */
int lab__topo_synthetic_check(const char *spec, const char *desc, struct lab_err *err);

/*
 * Loads the topology spec names (NULL or "" this system, synthetic:..., xml:FILE) into *hw, and
 * *source (malloc'd) says where it came from: the input bounded before hwloc sees it (at most
 * LAB_TOPO_PUS_MAX PUs in a synthetic description, whose indexes= are distinct numbers 0 ..
 * LAB_TOPO_OS_MAX; an XML topology a regular file of at most LAB_TOPO_XML_MAX bytes whose
 * os_index are 0 .. LAB_TOPO_OS_MAX and whose elements nest at most LAB_TOPO_XML_DEPTH_MAX
 * deep). Returns 0 or a negative code naming spec (an XML file's depth names FILE:LINE); *hw
 * and *source are the caller's to free either way (topo_input.c).
 */
int lab__topo_load(hwloc_topology_t *hw, char **source, const char *spec, struct lab_err *err);

#endif
