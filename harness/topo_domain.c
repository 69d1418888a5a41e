/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * likwid's thread domains of a topology (see topo_domain.h). Built from the same usable PUs and
 * SMT ranks the placement policies use, so `expr:N:0-7` and `cores` agree on what "a physical
 * core first" means; dies and caches come from hwloc directly.
 */
#include "harness/topo_domain.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness/topo_internal.h"

#define DOM_KINDS 5
static const char dom_kinds[DOM_KINDS] = {'N', 'S', 'D', 'C', 'M'};

/* A usable PU: its place in topology order, its SMT rank among the usable PUs of its core, the
 * OS index of its core's first usable PU, and its domain index per kind (-1: in no domain of that
 * kind). */
struct dom_pu {
	int cpu, order, rank, core_cpu;
	int idx[DOM_KINDS];
};

static int dom_cmp3(int a, int b, int c, int x, int y, int z)
{
	if (a != x)
		return a < x ? -1 : 1;
	if (b != y)
		return b < y ? -1 : 1;
	return (c > z) - (c < z);
}

/* Physical cores first: by SMT rank, then in topology order. */
static int dom_cmp(const void *a, const void *b)
{
	const struct dom_pu *x = a, *y = b;

	return dom_cmp3(x->rank, 0, x->order, y->rank, 0, y->order);
}

/* likwid's NUMA node lists (its numa_hwloc.c walks the PUs by OS index and puts each core's
 * siblings after its first): cores by the OS index of their first PU, a core's PUs adjacent;
 * with physical cores first, by SMT rank and then so. Topology order differs where a node's
 * cores are not numbered in it (sockets interleaved under one node, cores round-robin across
 * the caches). */
static int dom_cmp_m(const void *a, const void *b)
{
	const struct dom_pu *x = a, *y = b;

	return dom_cmp3(0, x->core_cpu, x->order, 0, y->core_cpu, y->order);
}

static int dom_cmp_m_rank(const void *a, const void *b)
{
	const struct dom_pu *x = a, *y = b;

	return dom_cmp3(x->rank, x->core_cpu, x->order, y->rank, y->core_cpu, y->order);
}

static int dom_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The deepest data (or unified) cache type the topology has, and its name; 0 when none. */
static hwloc_obj_type_t dom_llc(hwloc_topology_t hw, char *name, size_t size)
{
	unsigned level;
	hwloc_obj_type_t t = lab__topo_llc(hw, &level);

	if (level)
		snprintf(name, size, "L%c", (char)('0' + level)); /* 1 .. 5 */
	else
		name[0] = '\0';
	return t;
}

/* The logical index of the ancestor of type t of the PU of logical index i, -1 when it has none
 * (by logical index, O(1): a lookup by OS index scans every PU, and each PU was looked up). */
static int dom_ancestor(hwloc_topology_t hw, hwloc_obj_type_t t, unsigned i)
{
	hwloc_obj_t pu = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PU, i);
	hwloc_obj_t o = pu ? hwloc_get_ancestor_obj_by_type(hw, t, pu) : NULL;

	return o ? (int)o->logical_index : -1;
}

/* The usable PUs in topology order with their SMT ranks and domain indices: a core's PUs are
 * adjacent there (hwloc's logical order), the order E: walks. */
static int dom_usable(const struct lab_topo *topo, hwloc_obj_type_t llc, unsigned *count,
                      struct dom_pu **out)
{
	hwloc_topology_t hw = lab__topo_hwloc(topo);
	unsigned npus = lab_topo_pus(topo, NULL, 0), n = 0, nallowed;
	struct lab_pu_info *info = calloc(npus, sizeof(*info));
	struct dom_pu *u = calloc(npus, sizeof(*u));
	int *allowed = calloc(npus, sizeof(int));
	int *seen = calloc(npus, sizeof(int));  /* usable PUs so far, per core */
	int *first = calloc(npus, sizeof(int)); /* per core, its first usable PU's OS index */
	bool packages = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PACKAGE) > 0;
	int rc = 0;

	if (!info || !u || !allowed || !seen || !first) {
		rc = -LAB_ENOMEM;
		goto out;
	}
	lab_topo_pus(topo, info, npus);
	nallowed = lab_topo_cpus_allowed(topo, allowed, npus);
	for (unsigned i = 0; i < npus; i++) {
		if (!bsearch(&info[i].cpu, allowed, nallowed, sizeof(int), dom_cmp_int))
			continue;
		LAB_BUG_ON(info[i].core < 0 || (unsigned)info[i].core >= npus);
		struct dom_pu *p = &u[n++];
		p->cpu = info[i].cpu;
		p->order = (int)i;
		p->rank = seen[info[i].core]++;
		if (p->rank == 0)
			first[info[i].core] = p->cpu;
		p->core_cpu = first[info[i].core];
		p->idx[0] = 0;
		p->idx[1] = packages ? info[i].package : 0;
		p->idx[2] = dom_ancestor(hw, HWLOC_OBJ_DIE, i); /* info is in logical order */
		p->idx[3] = llc ? dom_ancestor(hw, llc, i) : -1;
		p->idx[4] = info[i].numa;
	}
	*out = u;
	*count = n;
	u = NULL;
out:
	free(info);
	free(u);
	free(allowed);
	free(seen);
	free(first);
	return rc;
}

/* How many domains of each kind the topology has. */
static void dom_counts(hwloc_topology_t hw, hwloc_obj_type_t llc, unsigned counts[DOM_KINDS])
{
	int s = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PACKAGE);
	int d = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_DIE);
	int c = llc ? hwloc_get_nbobjs_by_type(hw, llc) : 0;
	int m = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_NUMANODE);

	counts[0] = 1;
	counts[1] = s > 0 ? (unsigned)s : 1;
	counts[2] = d > 0 ? (unsigned)d : 0;
	counts[3] = c > 0 ? (unsigned)c : 0;
	counts[4] = m > 0 ? (unsigned)m : 0;
}

/* Whether PU p is in domain d of kind k. A NUMA node holds every PU of its cpuset: an HBM or
 * CXL node shares its package's CPUs with the DRAM node there, and the PU's one node (the first
 * covering it) left it with none ("M1: 0 cpus" where hwloc-calc numa:1 gives 8). The other
 * kinds are the PU's one ancestor. */
static bool dom_has(hwloc_topology_t hw, unsigned k, unsigned d, const struct dom_pu *p)
{
	hwloc_obj_t node;

	if (dom_kinds[k] != 'M')
		return p->idx[k] == (int)d;
	node = hwloc_get_obj_by_type(hw, HWLOC_OBJ_NUMANODE, d);
	return node && node->cpuset && hwloc_bitmap_isset(node->cpuset, (unsigned)p->cpu);
}

/* The first domain of kind k at or after d that PU p is in, ndom when none: O(1) for a kind of
 * one domain per PU, a scan of the nodes for M. */
static unsigned dom_next(hwloc_topology_t hw, unsigned k, unsigned ndom, const struct dom_pu *p,
                         unsigned d)
{
	if (dom_kinds[k] != 'M')
		return p->idx[k] >= (int)d && p->idx[k] < (int)ndom ? (unsigned)p->idx[k] : ndom;
	while (d < ndom && !dom_has(hw, k, d, p))
		d++;
	return d;
}

/* Writes the PUs u of the domains of kind k into each domain's list (cpus, or tcpus when
 * topo_order), in u's order; ncpus ends as the domain's count. */
static void dom_put(hwloc_topology_t hw, struct lab_topo_domain *dom, unsigned ndom, unsigned k,
                    const struct dom_pu *u, unsigned nu, bool topo_order)
{
	for (unsigned d = 0; d < ndom; d++)
		dom[d].ncpus = 0;
	for (unsigned i = 0; i < nu; i++)
		for (unsigned d = dom_next(hw, k, ndom, &u[i], 0); d < ndom;
		     d = dom_next(hw, k, ndom, &u[i], d + 1))
			(topo_order ? dom[d].tcpus : dom[d].cpus)[dom[d].ncpus++] = u[i].cpu;
}

/* Sizes and fills the domains of kind k from the usable PUs: u in topology order (tcpus) and
 * byrank, the same PUs physical cores first (cpus). */
static int dom_fill(hwloc_topology_t hw, struct lab_topo_domain *dom, unsigned ndom, unsigned k,
                    const struct dom_pu *u, const struct dom_pu *byrank, unsigned nu)
{
	for (unsigned i = 0; i < nu; i++)
		for (unsigned d = dom_next(hw, k, ndom, &u[i], 0); d < ndom;
		     d = dom_next(hw, k, ndom, &u[i], d + 1)) {
			dom[d].ncpus++;
			dom[d].ncores += u[i].rank == 0;
		}
	for (unsigned d = 0; d < ndom; d++) {
		dom[d].cpus = calloc(dom[d].ncpus ? dom[d].ncpus : 1, sizeof(int));
		dom[d].tcpus = calloc(dom[d].ncpus ? dom[d].ncpus : 1, sizeof(int));
		if (!dom[d].cpus || !dom[d].tcpus)
			return -LAB_ENOMEM;
	}
	dom_put(hw, dom, ndom, k, byrank, nu, false);
	dom_put(hw, dom, ndom, k, u, nu, true);
	return 0;
}

/* The usable PUs' orders: [0] topology order (tcpus), [1] physical cores first (cpus), [2]
 * and [3] the same for M domains, cores by their first PU's OS index (dom_cmp_m). */
static int dom_orders(const struct lab_topo *topo, hwloc_obj_type_t llc, unsigned *nu,
                      struct dom_pu *ord[4])
{
	static int (*const cmp[4])(const void *, const void *) = {NULL, dom_cmp, dom_cmp_m,
	                                                          dom_cmp_m_rank};

	if (dom_usable(topo, llc, nu, &ord[0]) < 0)
		return -LAB_ENOMEM;
	for (unsigned o = 1; o < 4; o++) {
		if (!(ord[o] = malloc((*nu ? *nu : 1) * sizeof(*ord[o]))))
			return -LAB_ENOMEM;
		memcpy(ord[o], ord[0], *nu * sizeof(*ord[0]));
		qsort(ord[o], *nu, sizeof(*ord[o]), cmp[o]);
	}
	return 0;
}

int lab_topo_domains_list(const struct lab_topo *topo, struct lab_topo_domains **out,
                          struct lab_err *err)
{
	hwloc_topology_t hw = lab__topo_hwloc(topo);
	struct lab_topo_domains *doms = calloc(1, sizeof(*doms));
	struct dom_pu *ord[4] = {NULL};
	unsigned counts[DOM_KINDS], nu = 0, total = 0;
	hwloc_obj_type_t llc;
	int rc = 0;

	*out = NULL;
	if (!doms)
		return lab_err_set(err, LAB_ENOMEM, "thread domains: out of memory");
	llc = dom_llc(hw, doms->llc, sizeof(doms->llc));
	dom_counts(hw, llc, counts);
	for (unsigned k = 0; k < DOM_KINDS; k++)
		total += counts[k];
	doms->dom = calloc(total, sizeof(*doms->dom));
	if (!doms->dom || dom_orders(topo, llc, &nu, ord) < 0) {
		rc = lab_err_set(err, LAB_ENOMEM, "thread domains: out of memory");
		goto out;
	}
	for (unsigned k = 0; k < DOM_KINDS; k++) {
		struct lab_topo_domain *dom = &doms->dom[doms->n];
		unsigned m = dom_kinds[k] == 'M' ? 2 : 0;
		for (unsigned d = 0; d < counts[k]; d++) {
			dom[d].kind = dom_kinds[k];
			dom[d].index = d;
			if (dom_kinds[k] == 'N')
				snprintf(dom[d].name, sizeof(dom[d].name), "N");
			else
				snprintf(dom[d].name, sizeof(dom[d].name), "%c%u", dom_kinds[k], d);
		}
		doms->n += counts[k];
		if (dom_fill(hw, dom, counts[k], k, ord[m], ord[m + 1], nu) < 0) {
			rc = lab_err_set(err, LAB_ENOMEM, "thread domains: out of memory");
			goto out;
		}
	}
	*out = doms;
	doms = NULL;
out:
	for (unsigned o = 0; o < 4; o++)
		free(ord[o]);
	lab_topo_domains_free(doms);
	return rc;
}

void lab_topo_domains_free(struct lab_topo_domains *doms)
{
	if (!doms)
		return;
	for (unsigned i = 0; doms->dom && i < doms->n; i++) {
		free(doms->dom[i].cpus);
		free(doms->dom[i].tcpus);
	}
	free(doms->dom);
	free(doms);
}

const struct lab_topo_domain *lab_topo_domain_find(const struct lab_topo_domains *doms,
                                                   const char *name)
{
	for (unsigned i = 0; i < doms->n; i++)
		if (!strcmp(doms->dom[i].name, name))
			return &doms->dom[i];
	return NULL;
}

void lab_topo_domains_names(const struct lab_topo_domains *doms, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < doms->n;) {
		unsigned j = i;
		while (j + 1 < doms->n && doms->dom[j + 1].kind == doms->dom[i].kind)
			j++;
		int w;
		if (j == i)
			w = snprintf(buf + len, len < size ? size - len : 0, "%s%s", i ? ", " : "",
			             doms->dom[i].name);
		else
			w = snprintf(buf + len, len < size ? size - len : 0, "%s%s-%s",
			             i ? ", " : "", doms->dom[i].name, doms->dom[j].name);
		if (w > 0)
			len += (size_t)w;
		if (len >= size)
			return;
		i = j + 1;
	}
}
