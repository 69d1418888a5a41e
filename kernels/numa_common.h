/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the chapter-27 kernels (numa_bw, numa_lat, numa_policy, loaded_latency) share: a
 * dependent pointer chase over a random cyclic permutation, the node a thread runs on, page
 * histograms reported as point facts, and the check that pages are where they were asked to be.
 */
#ifndef LAB_KERNELS_NUMA_COMMON_H
#define LAB_KERNELS_NUMA_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/buffer.h"
#include "harness/kernel_api.h"

#define KNUMA_THREADS_MAX 1024 /* = the planner's LAB_THREADS_MAX */

/* hugepages = off | on, for the kernels that offer it. */
extern const struct lab_enum_val knuma_huge_vals[];

/* One pointer per 64-byte line; every line of the buffer is on one cycle, in random order. */
struct knuma_chase {
	struct lab_buf buf;
	size_t nlines;
	void *start; /* where every chase begins */
	void *pos;   /* where the last chase ended */
	uint64_t loads;
};

/*
 * Maps size_bytes with o (touched by the calling thread, so placement follows o and the
 * caller's node) and links its lines into one random cycle drawn with seed. Returns 0 or a
 * negative code with err filled (-LAB_EINVAL below 2 lines).
 */
int knuma_chase_build(struct knuma_chase *c, size_t size_bytes, const struct lab_buf_opts *o,
                      uint64_t seed, struct lab_err *err);

/* n dependent loads from c->pos; each address comes from the previous load. */
static inline void knuma_chase_run(struct knuma_chase *c, uint64_t n)
{
	void *p = c->pos;

	for (uint64_t i = 0; i < n; i++)
		p = *(void **)p;
	c->pos = p;
	c->loads += n;
}

/*
 * The chain is one cycle through every line, and c->pos is where c->loads loads from the start
 * lead. Returns 0 or -LAB_EVERIFY with the step that broke in err.
 */
int knuma_chase_verify(const struct knuma_chase *c, struct lab_err *err);

void knuma_chase_free(struct knuma_chase *c);

/* The NUMA node the calling thread runs on now (getcpu), or -1 when unknown. */
int knuma_node_here(void);

/* Adds the page counts of x into acc. */
void knuma_pages_add(struct lab_buf_pages *acc, const struct lab_buf_pages *x);

/*
 * Point facts of a page histogram: "pages_per_node" (index = node, up to the highest node of
 * the machine or of a page), "pages_absent" and, when nonzero, "pages_unknown".
 */
void knuma_fact_pages(struct lab_ctx *ctx, const struct lab_buf_pages *pg);
/* With hugepages = on: the percent of b's mapping in huge pages as the fact "huge_pct" (THP
 * is advice: off or fragmented, the buffer got base pages, and the analyzer says so). */
void knuma_fact_huge(struct lab_ctx *ctx, bool asked, const struct lab_buf *b);

/*
 * Compares the histogram got with what was expected (expect[node], nexpect nodes), allowing
 * tol pages of difference per node (slices and interleave rounding). Returns true when every
 * node is within tol and every page is present; otherwise false with why filled ("expected
 * n0=0 n1=768, found n0=768 n1=0").
 */
bool knuma_hist_matches(const uint64_t *expect, unsigned nexpect, const struct lab_buf_pages *got,
                        uint64_t tol, char *why, size_t why_len);

/*
 * A node this machine lacks, asked for by what ("mem_node = 1", "init = bind:1"): LAB_SKIP with
 * the reason ("mem_node = 1: this machine has 1 NUMA node (0 .. 0)"), so one config serves
 * every machine; else 0.
 */
int knuma_check_node(uint64_t node, const char *what, const struct lab_env *env,
                     struct lab_err *err);

/* The node all n threads ran on (nodes[i] of thread i), or -1 when they ran on several. */
int knuma_common_node(const int *nodes, unsigned n);

#endif
