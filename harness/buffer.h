/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one way kernels get memory: aligned, placed on NUMA nodes the way the experiment asks,
 * with or without transparent huge pages, zeroed, and first touched by the thread that calls
 * lab_buf_alloc (do it in thread_setup, so each thread's pages land on its own node), and able
 * to say where its pages really are. Placement a kernel asked for but did not get must show in
 * its results, not hide in them: lab_buf_pages asks the kernel (move_pages) page by page.
 *
 * Every buffer is its own anonymous mapping, so no two buffers share a page (nor, therefore, a
 * cache line or a placement). Part of the kernel API: kernels may include this header.
 */
#ifndef LAB_HARNESS_BUFFER_H
#define LAB_HARNESS_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/err.h"

/*
 * Where the pages go (Linux memory policies, set on the buffer before its first touch).
 * LAB_BUF_DEFAULT (a zeroed struct) hands the choice to the experiment's `membind` key
 * (harness/membind.h; `local` unless the config says otherwise); any other value is the
 * kernel's explicit choice and wins over membind.
 */
enum lab_buf_place {
	LAB_BUF_DEFAULT,    /* what the point's membind says (local by default) */
	LAB_BUF_LOCAL,      /* the process's policy: usually the node of the thread that touches */
	LAB_BUF_BIND,       /* only on node (MPOL_BIND): the allocation fails rather than spill */
	LAB_BUF_PREFERRED,  /* node first, any other when it is full (MPOL_PREFERRED) */
	LAB_BUF_INTERLEAVE, /* page by page over every node this process may use */
};

enum lab_buf_huge {
	LAB_BUF_HUGE_DEFAULT, /* whatever /sys/kernel/mm/transparent_hugepage says */
	LAB_BUF_HUGE_ON,      /* MADV_HUGEPAGE, start aligned to 2 MiB so THP can back it */
	LAB_BUF_HUGE_OFF,     /* MADV_NOHUGEPAGE: 4 KiB pages (placement checks stay exact) */
};

/* A zeroed struct asks for a cache-line-pair-aligned, touched buffer placed as membind says. */
struct lab_buf_opts {
	size_t align_bytes;       /* a power of two; 0 = LAB_SLOT (128) */
	enum lab_buf_place place; /* LAB_BUF_DEFAULT: the point's membind */
	int node;                 /* for BIND and PREFERRED */
	enum lab_buf_huge huge;
	bool no_touch; /* leave the pages untouched: threads touch their parts (lab_buf_touch) */
};

struct lab_buf {
	void *p;           /* size_bytes usable bytes at the requested alignment, zeroed */
	size_t size_bytes; /* as asked */
	void *map;         /* the whole mapping, for lab_buf_free */
	size_t map_bytes;
	size_t held_bytes; /* taken from the point's memory budget (harness/memavail.h) */
	size_t node_held;  /* bound to one node: taken from that node's budget */
	int held_node;
};

#define LAB_BUF_NODES_MAX 64

/* Where a buffer's pages are, counted in base pages (a 2 MiB huge page counts 512). */
struct lab_buf_pages {
	uint64_t pages;                      /* pages asked about */
	uint64_t on_node[LAB_BUF_NODES_MAX]; /* pages present on each node */
	uint64_t absent;                     /* never touched: no page behind the address yet */
	uint64_t other;                      /* the kernel could not say, or a node >= the max */
	int max_node;                        /* highest node that holds a page, -1 if none */
};

/*
 * Maps size_bytes (> 0) with the options o (NULL: defaults) into *b: sets the memory policy and
 * huge-page advice, then (unless o->no_touch) writes every page from the calling thread. Returns
 * 0, or -LAB_EINVAL (size 0, alignment not a power of two, a node this process cannot use, named
 * in the message with the nodes it can), -LAB_EUNSUP (no NUMA support in this kernel for a
 * policy other than LOCAL), -LAB_ENOMEM or -LAB_ESYS; *b is then empty (lab_buf_free is safe).
 * -LAB_ENOMEM also when the buffer, touched now or later, would not fit in the memory left
 * (MemAvailable when the point began, less the point's other buffers: harness/memavail.h),
 * with both sizes in the message: call it in setup or thread_setup, before anything is timed.
 */
int lab_buf_alloc(struct lab_buf *b, size_t size_bytes, const struct lab_buf_opts *o,
                  struct lab_err *err);

/* Writes one byte of every page of [offset, offset + len) of b from the calling thread, so the
 * pages are placed now, by the policy, for this thread's node. The range is clipped to b. */
void lab_buf_touch(const struct lab_buf *b, size_t offset, size_t len);

/*
 * What fresh memory costs a setup here, in ns per byte: a buffer of size_bytes (> 0) mapped,
 * first-touched by the calling thread (as lab_buf_alloc does, placed locally) and freed, in
 * the thread's CPU time (a busy machine's other threads left out), the median of tries (at most
 * 16; the best of three swung 1 to 10 us a page from one plan to the next on a KVM guest, whose
 * host backs a page or not); 0 when none could be mapped. Page faults cost ten times more on
 * some guests than on others: the plan's estimate prices the kernels' touched bytes with this.
 */
double lab_buf_touch_ns_per_byte(size_t size_bytes, unsigned tries);

/* Unmaps b and empties it; an empty b is fine. */
void lab_buf_free(struct lab_buf *b);

/*
 * A small object (a thread's counters, a lock's state): size_bytes zeroed bytes aligned to
 * LAB_SLOT on pages of its own, touched by the calling thread and placed LAB_BUF_LOCAL (membind
 * does not move it: it is bookkeeping, not the data an experiment streams). Returns NULL with err
 * filled
 * (-LAB_ENOMEM). Free it with lab_buf_obj_free.
 */
void *lab_buf_obj_alloc(size_t size_bytes, struct lab_err *err);

/* Frees what lab_buf_obj_alloc returned; NULL is fine. */
void lab_buf_obj_free(void *obj);

/*
 * Asks the kernel where every page of b is (move_pages with no target: a query) into *out.
 * Returns 0, or -LAB_ESYS when the query is refused (no NUMA support, a seccomp filter).
 */
int lab_buf_pages(const struct lab_buf *b, struct lab_buf_pages *out, struct lab_err *err);
/* The percent (0 .. 100) of b's mapping that the kernel backs with transparent huge pages
 * (/proc/self/smaps: AnonHugePages over the size of the mappings that overlap it), or -1 when
 * that cannot be read. madvise(MADV_HUGEPAGE) is advice: with THP off or memory fragmented a
 * buffer asked for huge pages gets base pages, and this says so. */
int lab_buf_huge_pct(const struct lab_buf *b);
/* The same of [p, p + len), read from the smaps file at path (tests). */
int lab__buf_huge_pct_in(const char *smaps, const void *p, size_t len);

#endif
