/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The harness key `membind = local | node:N | interleave | first_touch`: where the pages of
 * every buffer a kernel allocates with lab_buf_alloc go, unless the kernel chose (harness/
 * buffer.h: a place other than LAB_BUF_DEFAULT wins; small objects stay local). The runner sets
 * it around a point and records, in the point's facts, where those buffers' pages really are.
 */
#ifndef LAB_HARNESS_MEMBIND_H
#define LAB_HARNESS_MEMBIND_H

#include <stdbool.h>

#include "harness/buffer.h"
#include "harness/kernel_api.h"

enum lab_membind_kind {
	LAB_MEMBIND_LOCAL,       /* the allocating thread touches every page: its node */
	LAB_MEMBIND_NODE,        /* MPOL_BIND to node */
	LAB_MEMBIND_INTERLEAVE,  /* page by page over every node this process may use */
	LAB_MEMBIND_FIRST_TOUCH, /* no touch at allocation: each page goes where it is first written
	                          */
};

struct lab_membind {
	enum lab_membind_kind kind;
	int node; /* for LAB_MEMBIND_NODE */
};

/* Parses text into *m. Returns 0 or -LAB_ECONFIG with the allowed forms in err. */
int lab_membind_parse(const char *text, struct lab_membind *m, struct lab_err *err);

/* The text in buf as the plan records it: node:00 is node:0, so that one binding written two
 * ways is one point (as placement = node:00 is node:0); a text that does not parse as given. */
void lab_membind_canon(const char *text, char *buf, size_t len);

/*
 * Whether this machine has m's node (nodes 0 .. numa_nodes - 1): 0, or LAB_SKIP with the reason
 * in err (`membind = node:1: this machine has 1 NUMA node (0 .. 0)`).
 */
int lab_membind_check(const struct lab_membind *m, unsigned numa_nodes, struct lab_err *err);

/*
 * The point's binding, from now until lab_membind_end: lab_buf_alloc applies it to every
 * LAB_BUF_DEFAULT buffer and remembers those buffers (while they live) for lab_membind_facts.
 * Also opens the point's memory budget (harness/memavail.h), which lab_membind_end closes: the
 * runner brackets a point's buffers with these two.
 */
void lab_membind_begin(const struct lab_membind *m);

/*
 * Writes into ctx's facts where the remembered buffers' pages are now: membind (the key's
 * text), membind_buffers, membind_pages_per_node (index = node), membind_pages_absent, and
 * membind_note when the query failed or a buffer was not remembered (more than the table holds).
 */
void lab_membind_facts(struct lab_ctx *ctx, const char *text);

/* Back to local, nothing remembered. */
void lab_membind_end(void);

/* For lab_buf_alloc/lab_buf_free only. */
void lab__membind_apply(struct lab_buf_opts *o);
void lab__membind_track(const struct lab_buf *b);
void lab__membind_untrack(const struct lab_buf *b);

#endif
