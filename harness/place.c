/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Placement: the policy parser and the planner. Pure functions of (topology, policy, N) built
 * on the public topology queries of topo.h; nothing here binds. Every policy works on hwloc's
 * logical structure (package, NUMA node, core, SMT rank), never on arithmetic over CPU numbers,
 * because vendors number the same structure in different ways (sibling of n is n+1 or n+16).
 */
#include "harness/topo.h"

#include <stdlib.h>
#include <string.h>

#include "harness/cpuexpr.h"
#include "harness/topo_domain.h"

#define PLACE_ALLOWED                                                                              \
	"allowed: compact, cores, scatter, pairs, node:N, list:CPUS such as list:0,2,4-7 or "      \
	"list:0-14:2, or expr:EXPR with likwid thread domains such as expr:S0:0-3@S1:0-3"
#define PLACE_LIST_ALLOWED                                                                         \
	"allowed: CPU numbers N, ranges A-B and A-B:STEP separated by commas, "                    \
	"e.g. list:0,2,4-7,16-30:2"

/* ---- parsing ---- */

/* Reads a non-negative number at *s (LONG_MAX when it is larger); advances *s past it and the
 * blanks around it. Returns -1 when there is none. The caller says which range it allows: a
 * number too large is a value out of range, not text that cannot be read. */
static long place_number(const char **s)
{
	char *end;
	long v;

	while (**s == ' ')
		(*s)++;
	if (**s < '0' || **s > '9')
		return -1;
	v = strtol(*s, &end, 10); /* too large: LONG_MAX, end past every digit */
	*s = end;
	while (**s == ' ')
		(*s)++;
	return v;
}

/*
 * Reads the CPU number at *s into *cpu. No topology has a CPU past LAB_TOPO_OS_MAX (topo.c
 * refuses one), so such a number is an error on any machine, said with the digits as written.
 */
static int place_cpu(const char **s, const char *text, long *cpu, struct lab_err *err)
{
	const char *digits = *s + strspn(*s, " ");

	*cpu = place_number(s);
	if (*cpu <= LAB_TOPO_OS_MAX)
		return 0;
	return lab_err_set(err, LAB_ECONFIG,
	                   "placement '%s': cpu %.*s is past the highest CPU number (allowed 0 "
	                   ".. %d)",
	                   text, (int)strspn(digits, "0123456789"), digits, LAB_TOPO_OS_MAX);
}

/* Parses one item "N", "A-B" or "A-B:STEP" ending at ',' or the end, and appends its CPUs. */
static int place_list_item(const char **s, const char *text, struct lab_placement *p,
                           struct lab_err *err)
{
	const char *item = *s;
	long a, b, step = 1;
	int rc;

	if ((rc = place_cpu(s, text, &a, err)) < 0)
		return rc;
	if (a < 0)
		goto bad;
	b = a;
	if (**s == '-') {
		(*s)++;
		if ((rc = place_cpu(s, text, &b, err)) < 0)
			return rc;
		if (b < 0)
			goto bad;
		if (**s == ':') {
			(*s)++;
			/* A step past the highest CPU number takes the range's first CPU only, as
			 * the highest does: larger ones add nothing. */
			step = place_number(s);
			if (step < 1 || step > LAB_TOPO_OS_MAX)
				return lab_err_set(err, LAB_ECONFIG,
				                   "placement '%s': the step of a range must be a "
				                   "number from 1 to %d (%s)",
				                   text, LAB_TOPO_OS_MAX, PLACE_LIST_ALLOWED);
		}
		if (b < a)
			return lab_err_set(err, LAB_ECONFIG,
			                   "placement '%s': range %ld-%ld runs backwards (%s)",
			                   text, a, b, PLACE_LIST_ALLOWED);
	}
	if (**s != ',' && **s != '\0')
		goto bad;
	for (long c = a; c <= b; c += step) {
		if (p->nlist == LAB_PLACE_LIST_MAX)
			return lab_err_set(err, LAB_ECONFIG,
			                   "placement '%s': too many CPUs (allowed: at most %d)",
			                   text, LAB_PLACE_LIST_MAX);
		for (unsigned i = 0; i < p->nlist; i++)
			if (p->list[i] == c)
				return lab_err_set(
				    err, LAB_ECONFIG,
				    "placement '%s': cpu %ld is listed twice (each CPU once)", text,
				    c);
		p->list[p->nlist++] = (int)c;
	}
	return 0;
bad:
	return lab_err_set(err, LAB_ECONFIG, "placement '%s': cannot read '%.*s' (%s)", text,
	                   (int)strcspn(item, ","), item, PLACE_LIST_ALLOWED);
}

int lab_placement_parse(const char *text, struct lab_placement *p, struct lab_err *err)
{
	static const struct {
		const char *name;
		enum lab_place_kind kind;
	} names[] = {
	    {"compact", LAB_PLACE_COMPACT},
	    {"cores", LAB_PLACE_CORES},
	    {"scatter", LAB_PLACE_SCATTER},
	    {"pairs", LAB_PLACE_PAIRS},
	};
	const char *s;
	int rc;

	memset(p, 0, sizeof(*p));
	if (!text)
		text = "";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(text, names[i].name)) {
			p->kind = names[i].kind;
			return 0;
		}
	}
	if (!strncmp(text, "node:", 5)) {
		const char *d = text + 5;
		long node = place_number(&d);
		p->kind = LAB_PLACE_NODE;
		p->node = node < 0 || node >= 4096 ? -1 : (int)node;
		if (p->node < 0 || *d)
			return lab_err_set(err, LAB_ECONFIG,
			                   "placement '%s': node:N takes one NUMA node number "
			                   "(allowed node:0 .. node:4095)",
			                   text);
		return 0;
	}
	if (!strncmp(text, "expr:", 5)) {
		p->kind = LAB_PLACE_EXPR;
		if (strlen(text + 5) >= sizeof(p->expr))
			return lab_err_set(
			    err, LAB_ECONFIG,
			    "placement '%.40s...': the expression is longer than %zu "
			    "characters",
			    text, sizeof(p->expr) - 1);
		snprintf(p->expr, sizeof(p->expr), "%s", text + 5);
		rc = lab_cpuexpr_count(p->expr, err);
		if (rc < 0 && err)
			lab_err_prefix(err, "placement '%s': ", text);
		p->nexpr = rc < 0 ? 0 : (unsigned)rc;
		return rc < 0 ? rc : 0;
	}
	if (strncmp(text, "list:", 5) != 0)
		return lab_err_set(err, LAB_ECONFIG, "placement '%s': unknown policy (%s)", text,
		                   PLACE_ALLOWED);
	p->kind = LAB_PLACE_LIST;
	s = text + 5;
	if (strspn(s, " ") == strlen(s))
		return lab_err_set(err, LAB_ECONFIG, "placement '%s': the list is empty (%s)", text,
		                   PLACE_LIST_ALLOWED);
	for (;;) {
		rc = place_list_item(&s, text, p, err);
		if (rc < 0)
			return rc;
		if (*s == '\0')
			return 0;
		s++; /* the comma */
	}
}

void lab_placement_canon(const char *text, char *buf, size_t len)
{
	struct lab_placement p;

	if (!lab_placement_parse(text, &p, NULL) && p.kind == LAB_PLACE_NODE)
		snprintf(buf, len, "node:%d", p.node);
	else
		snprintf(buf, len, "%s", text);
}

int lab_placement_check_threads(const struct lab_placement *p, unsigned n, struct lab_err *err)
{
	if (p->kind == LAB_PLACE_LIST && n > p->nlist)
		return lab_err_set(err, LAB_ECONFIG,
		                   "%u threads but the placement list has only %u CPU%s (allowed: "
		                   "at most %u thread%s, or a longer list)",
		                   n, p->nlist, p->nlist == 1 ? "" : "s", p->nlist,
		                   p->nlist == 1 ? "" : "s");
	/* As place_expr says it, but for the CPUs: there are none before a topology. */
	if (p->kind == LAB_PLACE_EXPR && n > p->nexpr)
		return lab_err_set(err, LAB_ECONFIG,
		                   "%u threads but the expression yields only %u CPU%s (allowed: "
		                   "threads 1 .. %u, or a longer expression)",
		                   n, p->nexpr, p->nexpr == 1 ? "" : "s", p->nexpr);
	return 0;
}

/* ---- planning ---- */

/* A usable PU with the keys the policies sort on. */
struct place_pu {
	int cpu, package, numa, core;
	int order; /* position in topology order */
	int rank;  /* position among the usable PUs of its core */
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

/* list: every CPU must exist, be usable and appear once; then the first n are the plan. */
static int place_list(const struct lab_topo *topo, const struct lab_placement *p, unsigned n,
                      int *cpus, struct lab_err *err)
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
	}
	if (lab_placement_check_threads(p, n, err) < 0)
		return -LAB_ECONFIG;
	memcpy(cpus, p->list, n * sizeof(int));
	return 0;
}

/* node:N keeps the usable PUs of node N, in `cores` order (one PU per core first). */
static int place_node(const struct lab_placement *p, struct place_pu *u, unsigned *nu, unsigned n,
                      struct lab_err *err)
{
	unsigned kept = 0;

	qsort(u, *nu, sizeof(*u), place_cmp_cores);
	for (unsigned i = 0; i < *nu; i++)
		if (u[i].numa == p->node)
			u[kept++] = u[i];
	*nu = kept;
	if (kept == 0)
		return lab_err_set(
		    err, LAB_EUNSUP,
		    "placement node:%d: NUMA node %d has no CPU this process may use", p->node,
		    p->node);
	if (n > kept)
		return lab_err_set(err, LAB_ECONFIG,
		                   "%u threads but NUMA node %d has only %u usable CPU%s", n,
		                   p->node, kept, kept == 1 ? "" : "s");
	return 0;
}

/* expr: the first n CPUs the expression selects on the topology's thread domains. */
static int place_expr(const struct lab_topo *topo, const struct lab_placement *p, unsigned n,
                      int *cpus, struct lab_err *err)
{
	struct lab_topo_domains *doms = NULL;
	int *sel = malloc(LAB_CPUEXPR_MAX * sizeof(int));
	char list[256];
	int rc;

	if (!sel)
		return lab_err_set(err, LAB_ENOMEM, "plan: out of memory");
	rc = lab_topo_domains_list(topo, &doms, err);
	if (rc < 0)
		goto out;
	rc = lab_cpuexpr_resolve(p->expr, doms, sel, LAB_CPUEXPR_MAX, err);
	if (rc < 0)
		goto out;
	if (n > (unsigned)rc) {
		lab_topo_cpulist_format(list, sizeof(list), sel, (unsigned)rc);
		rc =
		    lab_err_set(err, LAB_ECONFIG,
		                "%u threads but the expression yields only %d CPU%s (%s) (allowed: "
		                "threads 1 .. %d, or a longer expression)",
		                n, rc, rc == 1 ? "" : "s", list, rc);
		goto out;
	}
	memcpy(cpus, sel, n * sizeof(int));
	rc = 0;
out:
	lab_topo_domains_free(doms);
	free(sel);
	return rc;
}

int lab_topo_plan(const struct lab_topo *topo, const struct lab_placement *p, unsigned n, int *cpus,
                  struct lab_err *err)
{
	struct place_pu *u = NULL;
	unsigned nu = 0;
	char allowed[256];
	int rc;

	if (p->kind == LAB_PLACE_LIST)
		return place_list(topo, p, n, cpus, err);
	if (p->kind == LAB_PLACE_EXPR)
		return place_expr(topo, p, n, cpus, err);
	if (p->kind == LAB_PLACE_PAIRS && n != 2)
		return lab_err_set(err, LAB_ECONFIG,
		                   "placement pairs runs 2 threads per CPU pair, not %u", n);
	rc = place_usable(topo, &u, &nu, err);
	if (rc < 0)
		return rc;
	if (p->kind == LAB_PLACE_NODE) {
		rc = place_node(p, u, &nu, n, err);
		if (rc < 0)
			goto out;
	}
	if (n > nu) {
		place_allowed_text(topo, allowed, sizeof(allowed));
		rc = lab_err_set(err, LAB_ECONFIG,
		                 "%u threads but only %u CPU%s can be used (allowed %s)", n, nu,
		                 nu == 1 ? "" : "s", allowed);
		goto out;
	}
	switch (p->kind) {
	case LAB_PLACE_COMPACT:
	case LAB_PLACE_PAIRS: /* the first pair of lab_topo_plan_pairs: the two lowest CPUs */
		break;
	case LAB_PLACE_CORES:
		qsort(u, nu, sizeof(*u), place_cmp_cores);
		break;
	case LAB_PLACE_NODE: /* already in order */
		break;
	case LAB_PLACE_SCATTER:
		place_scatter(u, nu);
		break;
	default:
		rc = lab_err_set(err, LAB_EINVAL, "plan: unknown placement kind %d", (int)p->kind);
		goto out;
	}
	for (unsigned i = 0; i < n; i++)
		cpus[i] = u[i].cpu;
	if (p->kind == LAB_PLACE_PAIRS && n == 2)
		lab_topo_cpus_allowed(topo, cpus, 2);
out:
	free(u);
	return rc;
}
