/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "kernels/numa_common.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct lab_enum_val knuma_huge_vals[] = {
    {"off", 0, "4 KiB pages (MADV_NOHUGEPAGE): every line costs a TLB entry's share"},
    {"on", 1, "2 MiB transparent huge pages (MADV_HUGEPAGE): far fewer TLB misses"},
    {NULL, 0, NULL},
};

static uint64_t knuma_splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int knuma_chase_build(struct knuma_chase *c, size_t size_bytes, const struct lab_buf_opts *o,
                      uint64_t seed, struct lab_err *err)
{
	size_t n = size_bytes / LAB_CACHELINE;
	uint32_t *order;
	int rc;

	memset(c, 0, sizeof(*c));
	if (n < 2 || n > UINT32_MAX)
		return lab_err_set(err, LAB_EINVAL,
		                   "pointer chase of %zu bytes: needs 128 B .. 256 GiB",
		                   size_bytes);
	rc = lab_buf_alloc(&c->buf, n * LAB_CACHELINE, o, err);
	if (rc)
		return rc;
	order = malloc(n * sizeof(*order));
	if (!order) {
		lab_buf_free(&c->buf);
		return lab_err_set(err, LAB_ENOMEM, "out of memory for a %zu-line chase order", n);
	}
	/* A random order of the lines (Fisher-Yates), linked in that order into one cycle: the
	 * prefetchers see no stride, and every load waits for the one before. */
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(knuma_splitmix(&seed) % (i + 1));
		uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	char *base = c->buf.p;
	for (size_t i = 0; i < n; i++)
		*(void **)(base + (size_t)order[i] * LAB_CACHELINE) =
		    base + (size_t)order[(i + 1) % n] * LAB_CACHELINE;
	c->nlines = n;
	c->start = c->pos = base + (size_t)order[0] * LAB_CACHELINE;
	free(order);
	return 0;
}

int knuma_chase_verify(const struct knuma_chase *c, struct lab_err *err)
{
	uint64_t at = c->loads % c->nlines;
	void *p = c->start, *expect = at == 0 ? c->start : NULL;

	for (size_t i = 1; i <= c->nlines; i++) {
		p = *(void **)p;
		if (i == at)
			expect = p;
		if (p == c->start && i != c->nlines)
			return lab_err_set(err, LAB_EVERIFY,
			                   "the chase cycle closes after %zu of %zu lines", i,
			                   c->nlines);
	}
	if (p != c->start)
		return lab_err_set(err, LAB_EVERIFY,
		                   "the chase does not return to its start after %zu lines",
		                   c->nlines);
	if (c->pos != expect)
		return lab_err_set(err, LAB_EVERIFY,
		                   "after %llu loads the chase is not where the cycle leads",
		                   (unsigned long long)c->loads);
	return 0;
}

void knuma_chase_free(struct knuma_chase *c)
{
	lab_buf_free(&c->buf);
	memset(c, 0, sizeof(*c));
}

int knuma_node_here(void)
{
	unsigned cpu, node;

	return getcpu(&cpu, &node) == 0 ? (int)node : -1;
}

void knuma_pages_add(struct lab_buf_pages *acc, const struct lab_buf_pages *x)
{
	acc->pages += x->pages;
	acc->absent += x->absent;
	acc->other += x->other;
	for (int i = 0; i < LAB_BUF_NODES_MAX; i++)
		acc->on_node[i] += x->on_node[i];
	if (x->max_node > acc->max_node)
		acc->max_node = x->max_node;
}

void knuma_fact_pages(struct lab_ctx *ctx, const struct lab_buf_pages *pg)
{
	int top = (int)ctx->env->numa_nodes - 1;

	if (pg->max_node > top)
		top = pg->max_node;
	if (top < 0)
		top = 0;
	if (top >= LAB_BUF_NODES_MAX)
		top = LAB_BUF_NODES_MAX - 1;
	lab_ctx_fact_uints(ctx, "pages_per_node", pg->on_node, (unsigned)top + 1);
	lab_ctx_fact_int(ctx, "pages_absent", (int64_t)pg->absent);
	if (pg->other)
		lab_ctx_fact_int(ctx, "pages_unknown", (int64_t)pg->other);
}

void knuma_fact_huge(struct lab_ctx *ctx, bool asked, const struct lab_buf *b)
{
	int pct = asked ? lab_buf_huge_pct(b) : -1;

	if (pct >= 0)
		lab_ctx_fact_int(ctx, "huge_pct", pct);
}

/* "n0=12 n1=0" into buf, for n nodes of v. */
static void knuma_hist_text(char *buf, size_t len, const uint64_t *v, unsigned n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%sn%u=%llu", i ? " " : "", i,
		                 (unsigned long long)v[i]);
		used += w > 0 ? (size_t)w : 0;
	}
}

bool knuma_hist_matches(const uint64_t *expect, unsigned nexpect, const struct lab_buf_pages *got,
                        uint64_t tol, char *why, size_t why_len)
{
	unsigned n = nexpect;
	bool ok = got->absent == 0 && got->other == 0;
	char e[128], g[128];

	if (got->max_node >= 0 && (unsigned)got->max_node + 1 > n)
		n = (unsigned)got->max_node + 1;
	if (n > LAB_BUF_NODES_MAX)
		n = LAB_BUF_NODES_MAX;
	for (unsigned i = 0; i < n; i++) {
		uint64_t want = i < nexpect ? expect[i] : 0, have = got->on_node[i];
		if ((have > want ? have - want : want - have) > tol)
			ok = false;
	}
	if (!ok && why_len) {
		uint64_t full[LAB_BUF_NODES_MAX] = {0};
		memcpy(full, expect, (nexpect < n ? nexpect : n) * sizeof(*expect));
		knuma_hist_text(e, sizeof(e), full, n);
		knuma_hist_text(g, sizeof(g), got->on_node, n);
		snprintf(why, why_len, "expected %s, found %s (%llu absent, %llu unknown)", e, g,
		         (unsigned long long)got->absent, (unsigned long long)got->other);
	}
	return ok;
}

int knuma_common_node(const int *nodes, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		if (nodes[i] != nodes[0])
			return -1;
	return n ? nodes[0] : -1;
}

int knuma_check_node(uint64_t node, const char *what, const struct lab_env *env,
                     struct lab_err *err)
{
	if (node < env->numa_nodes)
		return 0;
	lab_err_set(err, LAB_EUNSUP, "%s: this machine has %u NUMA node%s (0 .. %u)", what,
	            env->numa_nodes, env->numa_nodes == 1 ? "" : "s",
	            env->numa_nodes ? env->numa_nodes - 1 : 0);
	return LAB_SKIP;
}
