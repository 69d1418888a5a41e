/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by topo.c, topo_input.c, topo_cache.c and topo_domain.c only: not the topology
 * interface. */
#ifndef LAB_HARNESS_TOPO_INTERNAL_H
#define LAB_HARNESS_TOPO_INTERNAL_H

#include <stddef.h>

#include <hwloc.h>

#include "harness/topo.h"

/* The hwloc topology behind topo (topo_domain.c reads its dies). */
hwloc_topology_t lab__topo_hwloc(const struct lab_topo *topo);

/* lab_topo_caches on the hwloc topology hw (topo_cache.c). */
unsigned lab__topo_caches(hwloc_topology_t hw, struct lab_cache_info *c, unsigned max);

/*
 * Checks that the synthetic description desc (of --topology spec) has at most LAB_TOPO_PUS_MAX
 * PUs before hwloc builds it. Returns 0 or -LAB_ETOPO.
 */
int lab__topo_synthetic_check(const char *spec, const char *desc, struct lab_err *err);

/*
 * Reads the XML topology at path: a regular file of at most LAB_TOPO_XML_MAX bytes. Returns 0
 * with *buf (malloc'd, NUL-terminated) and *len, or a negative code naming spec.
 */
int lab__topo_xml_read(const char *spec, const char *path, char **buf, size_t *len,
                       struct lab_err *err);

#endif
