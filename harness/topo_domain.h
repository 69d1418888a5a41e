/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Thread domains as likwid names them: N (the whole node), S<i> (package, "socket"), D<i> (die,
 * when the topology has dies), C<i> (last-level cache) and M<i> (NUMA node), i the hwloc
 * logical index of the object. A domain lists its CPUs in the two orders likwid-pin uses:
 *   cpus   physical cores first (DOMAIN:INDICES, likwid's logical numbering): the first PU of
 *          every core of the domain in topology order, then every core's second PU, and so on;
 *   tcpus  the processor list as `likwid-pin -p` prints it (E:DOMAIN:COUNT walks it): the PUs
 *          in topology order, core by core, a core's hardware threads next to each other.
 * On 4 cores with 2 PUs each, sibling of n is n+4: cpus is 0,1,2,3,4,5,6,7, tcpus is
 * 0,4,1,5,2,6,3,7. An M domain takes its cores by the OS index of each one's first PU instead of
 * topology order, as likwid builds its NUMA lists (the two differ where a node's cores are
 * numbered across sockets or caches). Only CPUs this process may use are listed (as for every
 * placement), so on a synthetic or XML topology every PU is. Expressions over these domains:
 * harness/cpuexpr.h.
 */
#ifndef LAB_HARNESS_TOPO_DOMAIN_H
#define LAB_HARNESS_TOPO_DOMAIN_H

#include <stddef.h>

#include "harness/err.h"
#include "harness/topo.h"

#define LAB_DOMAIN_NAME_MAX 16

struct lab_topo_domain {
	char name[LAB_DOMAIN_NAME_MAX]; /* "N", "S0", "D1", "C3", "M0" */
	char kind;                      /* 'N', 'S', 'D', 'C' or 'M' */
	unsigned index;                 /* logical index of its object; 0 for N */
	unsigned ncores;                /* physical cores: cpus[0 .. ncores-1] are one per core */
	unsigned ncpus;                 /* the length of cpus and of tcpus */
	int *cpus;  /* OS indices, physical cores first (SMT siblings after every core) */
	int *tcpus; /* the same CPUs in topology order, a core's PUs adjacent (likwid-pin -p) */
};

struct lab_topo_domains {
	struct lab_topo_domain *dom; /* N, then S, D, C and M domains, each kind by index */
	unsigned n;
	char llc[8]; /* the cache level the C domains are ("L3"); "" when the topology has none */
};

/*
 * Lists the thread domains of topo into *out (the caller frees it with lab_topo_domains_free).
 * A topology without package objects has one S0 covering the node; D and C domains exist only
 * when hwloc reports dies and data caches. A domain with no usable CPU is kept (empty), so
 * indices mean the same objects on every run. Returns 0, or -LAB_ENOMEM with err filled.
 */
int lab_topo_domains_list(const struct lab_topo *topo, struct lab_topo_domains **out,
                          struct lab_err *err);

/* Frees what lab_topo_domains_list made; NULL is allowed. */
void lab_topo_domains_free(struct lab_topo_domains *doms);

/* The domain called name ("S1"), or NULL when doms has none by that name. */
const struct lab_topo_domain *lab_topo_domain_find(const struct lab_topo_domains *doms,
                                                   const char *name);

/*
 * Writes the domains there are, kind by kind with index ranges: "N, S0-S1, C0-C3, M0-M3".
 * Truncates to size like snprintf.
 */
void lab_topo_domains_names(const struct lab_topo_domains *doms, char *buf, size_t size);

#endif
