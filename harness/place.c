/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Placement planning: a parsed policy (place_parse.c) put onto a topology. Pure functions of
 * (topology, policy, N) built on the public topology queries of topo.h; nothing here binds.
 * Every policy works on hwloc's logical structure (package, NUMA node, core, SMT rank), never
 * on arithmetic over CPU numbers, because vendors number the same structure in different ways
 * (sibling of n is n+1 or n+16).
 */
#include "harness/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cpuexpr.h"
#include "harness/topo_domain.h"

/* A usable PU with the keys the policies sort on. */
struct place_pu {
	int cpu, package, numa, core;
	int numa_os; /* the node's OS number: what node:N names */
	int order;   /* position in topology order */
	int rank;    /* position among the usable PUs of its core */
	int key1, key2;
};

static int place_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The usable PUs in topology order, with their SMT rank among usable PUs. Caller frees. */
static int place_usable(const struct lab_topo *topo, struct place_pu **out, unsigned *nout,
                        struct lab_err *err)
{
	unsigned npus = lab_topo_pus(topo, NULL, 0), n = 0, nallowed;
	struct lab_pu_info *info = calloc(npus, sizeof(*info));
	struct place_pu *u = calloc(npus, sizeof(*u));
	int *seen = calloc(npus, sizeof(int)); /* usable PUs so far, per core */
	int *allowed = calloc(npus, sizeof(int));
	int rc = 0;

	if (!info || !u || !seen || !allowed) {
		rc = lab_err_set(err, LAB_ENOMEM, "plan: out of memory");
		goto out;
	}
	lab_topo_pus(topo, info, npus);
	/* One affinity read for the whole plan; the list is ascending, so search it. */
	nallowed = lab_topo_cpus_allowed(topo, allowed, npus);
	for (unsigned i = 0; i < npus; i++) {
		if (!bsearch(&info[i].cpu, allowed, nallowed, sizeof(int), place_cmp_int))
			continue;
		LAB_BUG_ON(info[i].core < 0 || (unsigned)info[i].core >= npus);
		u[n] = (struct place_pu){.cpu = info[i].cpu,
		                         .package = info[i].package,
		                         .numa = info[i].numa,
		                         .numa_os = info[i].numa_os,
		                         .core = info[i].core,
		                         .order = (int)i,
		                         .rank = seen[info[i].core]++};
		n++;
	}
	*out = u;
	*nout = n;
	u = NULL;
out:
	free(info);
	free(u);
	free(seen);
	free(allowed);
	return rc;
}

static int place_cmp3(int a1, int a2, int a3, int b1, int b2, int b3)
{
	if (a1 != b1)
		return a1 < b1 ? -1 : 1;
	if (a2 != b2)
		return a2 < b2 ? -1 : 1;
	return a3 < b3 ? -1 : a3 > b3;
}

/* cores: the first usable PU of every core in order, then every second one, ... */
static int place_cmp_cores(const void *a, const void *b)
{
	const struct place_pu *x = a, *y = b;
	return place_cmp3(x->rank, x->order, 0, y->rank, y->order, 0);
}

/* Groups by (rank, package, NUMA node) in topology order, to number cores inside a node. */
static int place_cmp_node(const void *a, const void *b)
{
	const struct place_pu *x = a, *y = b;
	int c = place_cmp3(x->rank, x->package, x->numa, y->rank, y->package, y->numa);
	return c ? c : place_cmp3(x->order, 0, 0, y->order, 0, 0);
}

/* Round-robin over the NUMA nodes of a package: key1 = position in its node. */
static int place_cmp_pkg(const void *a, const void *b)
{
	const struct place_pu *x = a, *y = b;
	int c = place_cmp3(x->rank, x->package, x->key1, y->rank, y->package, y->key1);
	return c ? c : place_cmp3(x->numa, x->order, 0, y->numa, y->order, 0);
}

/* Round-robin over packages: key2 = position in its package's round-robin list. */
static int place_cmp_scatter(const void *a, const void *b)
{
	const struct place_pu *x = a, *y = b;
	return place_cmp3(x->rank, x->key2, x->package, y->rank, y->key2, y->package);
}

/*
 * scatter, as nested round-robin merges: within a package, the cores of its NUMA nodes are
 * dealt one node at a time; the packages' lists are then dealt one package at a time. Each SMT
 * rank is a separate round, so siblings come only after every core has a thread.
 */
static void place_scatter(struct place_pu *u, unsigned n)
{
	qsort(u, n, sizeof(*u), place_cmp_node);
	for (unsigned i = 0; i < n; i++) {
		bool same = i && u[i].rank == u[i - 1].rank && u[i].package == u[i - 1].package &&
		            u[i].numa == u[i - 1].numa;
		u[i].key1 = same ? u[i - 1].key1 + 1 : 0;
	}
	qsort(u, n, sizeof(*u), place_cmp_pkg);
	for (unsigned i = 0; i < n; i++) {
		bool same = i && u[i].rank == u[i - 1].rank && u[i].package == u[i - 1].package;
		u[i].key2 = same ? u[i - 1].key2 + 1 : 0;
	}
	qsort(u, n, sizeof(*u), place_cmp_scatter);
}

/* The usable CPUs as a list for messages. */
static void place_allowed_text(const struct lab_topo *topo, char *buf, size_t size)
{
	unsigned n = lab_topo_cpus_allowed(topo, NULL, 0);
	int *cpus = calloc(n ? n : 1, sizeof(int));

	if (!cpus) {
		snprintf(buf, size, "?");
		return;
	}
	n = lab_topo_cpus_allowed(topo, cpus, n);
	lab_topo_cpulist_format(buf, size, cpus, n);
	free(cpus);
}

/* list: every CPU must exist, be usable and appear once; the threads take them in order. */
static int place_list(const struct lab_topo *topo, const struct lab_placement *p, int *order,
                      struct lab_err *err)
{
	struct lab_pu_info info;
	char allowed[256];

	if (p->nlist > LAB_PLACE_LIST_MAX)
		return lab_err_set(err, LAB_EINVAL, "plan: list of %u CPUs (at most %d)", p->nlist,
		                   LAB_PLACE_LIST_MAX);
	for (unsigned i = 0; i < p->nlist; i++) {
		int cpu = p->list[i];
		bool exists = lab_topo_pu_info(topo, cpu, &info) == 0;
		if (!exists || !lab_topo_cpu_allowed(topo, cpu)) {
			place_allowed_text(topo, allowed, sizeof(allowed));
			return lab_err_set(
			    err, LAB_ECONFIG, "cpu %d %s (allowed %s)", cpu,
			    exists ? "is not allowed for this process" : "does not exist", allowed);
		}
		for (unsigned j = 0; j < i; j++)
			if (p->list[j] == cpu)
				return lab_err_set(err, LAB_ECONFIG,
				                   "cpu %d is listed twice (each thread needs its "
				                   "own CPU)",
				                   cpu);
		order[i] = cpu;
	}
	return (int)p->nlist;
}

/* Whether node (an OS number) holds cpu: its first node, or another whose CPUs include it. */
static bool place_in_node(const struct lab_topo *topo, const struct place_pu *u, int node)
{
	int os[64];
	unsigned n;

	if (u->numa_os == node)
		return true;
	n = lab_topo_pu_nodes(topo, u->cpu, os, 64);
	for (unsigned i = 0; i < n && i < 64; i++)
		if (os[i] == node)
			return true;
	return false;
}

/* node:N keeps the usable PUs of node N, in `cores` order (one PU per core first). */
static int place_node(const struct lab_topo *topo, const struct lab_placement *p,
                      struct place_pu *u, unsigned *nu, struct lab_err *err)
{
	unsigned kept = 0;

	qsort(u, *nu, sizeof(*u), place_cmp_cores);
	for (unsigned i = 0; i < *nu; i++)
		if (place_in_node(topo, &u[i], p->node))
			u[kept++] = u[i];
	*nu = kept;
	if (kept == 0)
		return lab_err_set(
		    err, LAB_EUNSUP,
		    "placement node:%d: NUMA node %d has no CPU this process may use", p->node,
		    p->node);
	return 0;
}

/* expr: the CPUs the expression selects on the topology's thread domains. */
static int place_expr(const struct lab_topo *topo, const struct lab_placement *p, int *order,
                      struct lab_err *err)
{
	struct lab_topo_domains *doms = NULL;
	int rc = lab_topo_domains_list(topo, &doms, err);

	if (rc == 0)
		rc = lab_cpuexpr_resolve(p->expr, doms, order, LAB_CPUEXPR_MAX, err);
	lab_topo_domains_free(doms);
	return rc;
}

/* compact, cores, scatter, node:N and pairs (its first pair: the two lowest CPUs): the usable
 * PUs in the policy's order. */
static int place_policy(const struct lab_topo *topo, const struct lab_placement *p, int *order,
                        struct lab_err *err)
{
	struct place_pu *u = NULL;
	unsigned nu = 0;
	int rc = place_usable(topo, &u, &nu, err);

	if (rc == 0 && p->kind == LAB_PLACE_NODE)
		rc = place_node(topo, p, u, &nu, err);
	else if (rc == 0 && p->kind == LAB_PLACE_CORES)
		qsort(u, nu, sizeof(*u), place_cmp_cores);
	else if (rc == 0 && p->kind == LAB_PLACE_SCATTER)
		place_scatter(u, nu);
	else if (rc == 0 && p->kind != LAB_PLACE_COMPACT && p->kind != LAB_PLACE_PAIRS)
		rc = lab_err_set(err, LAB_EINVAL, "plan: unknown placement kind %d", (int)p->kind);
	for (unsigned i = 0; rc == 0 && i < nu; i++)
		order[i] = u[i].cpu;
	free(u);
	return rc < 0 ? rc : (int)nu;
}

int lab_topo_plan_order(const struct lab_topo *topo, const struct lab_placement *p, int **order,
                        unsigned *count, struct lab_err *err)
{
	unsigned cap = lab_topo_pus(topo, NULL, 0);
	int rc;

	if (p->kind == LAB_PLACE_LIST && p->nlist > cap)
		cap = p->nlist;
	if (p->kind == LAB_PLACE_EXPR)
		cap = LAB_CPUEXPR_MAX;
	*order = malloc((cap ? cap : 1) * sizeof(int));
	*count = 0;
	if (!*order)
		return lab_err_set(err, LAB_ENOMEM, "plan: out of memory");
	if (p->kind == LAB_PLACE_LIST)
		rc = place_list(topo, p, *order, err);
	else if (p->kind == LAB_PLACE_EXPR)
		rc = place_expr(topo, p, *order, err);
	else
		rc = place_policy(topo, p, *order, err);
	if (rc < 0) {
		free(*order);
		*order = NULL;
		return rc;
	}
	*count = (unsigned)rc;
	return 0;
}

int lab_topo_plan_take(const struct lab_topo *topo, const struct lab_placement *p, const int *order,
                       unsigned count, unsigned n, int *cpus, struct lab_err *err)
{
	char list[256];

	if (p->kind == LAB_PLACE_PAIRS && n != 2)
		return lab_err_set(err, LAB_ECONFIG,
		                   "placement pairs runs 2 threads per CPU pair, not %u", n);
	if (p->kind == LAB_PLACE_LIST && lab_placement_check_threads(p, n, err) < 0)
		return -LAB_ECONFIG;
	if (n > count && p->kind == LAB_PLACE_EXPR) {
		lab_topo_cpulist_format(list, sizeof(list), order, count);
		return lab_err_set(
		    err, LAB_ECONFIG,
		    "%u threads but the expression yields only %u CPU%s (%s) (allowed: "
		    "threads 1 .. %u, or a longer expression)",
		    n, count, count == 1 ? "" : "s", list, count);
	}
	/* how many CPUs a node has depends on the machine (a 2-node guest of one vCPU a node): the
	 * planner skips the point with this reason, as for a node the machine lacks */
	if (n > count && p->kind == LAB_PLACE_NODE)
		return lab_err_set(err, LAB_EUNSUP,
		                   "%u threads but NUMA node %d has only %u usable CPU%s (allowed "
		                   "threads 1 .. %u with node:%d)",
		                   n, p->node, count, count == 1 ? "" : "s", count, p->node);
	if (n > count) {
		place_allowed_text(topo, list, sizeof(list));
		return lab_err_set(err, LAB_ECONFIG,
		                   "%u threads but only %u CPU%s can be used (allowed %s)", n,
		                   count, count == 1 ? "" : "s", list);
	}
	memcpy(cpus, order, n * sizeof(int));
	if (p->kind == LAB_PLACE_PAIRS && n == 2)
		lab_topo_cpus_allowed(topo, cpus, 2);
	return 0;
}

int lab_topo_plan(const struct lab_topo *topo, const struct lab_placement *p, unsigned n, int *cpus,
                  struct lab_err *err)
{
	int *order = NULL;
	unsigned count = 0;
	int rc;

	if (p->kind == LAB_PLACE_PAIRS && n != 2) /* said before any CPU is looked at */
		return lab_topo_plan_take(topo, p, NULL, 0, n, cpus, err);
	rc = lab_topo_plan_order(topo, p, &order, &count, err);
	if (rc == 0)
		rc = lab_topo_plan_take(topo, p, order, count, n, cpus, err);
	free(order);
	return rc;
}
