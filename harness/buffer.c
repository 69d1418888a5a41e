/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Only libnuma's system-call wrappers (mbind, get_mempolicy) are used: its higher functions
 * print warnings to stderr, and library code never prints. Where the pages are (lab_buf_pages)
 * is asked in buffer_pages.c.
 */
#include "harness/buffer.h"

#include <errno.h>
#include <numaif.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/clock.h"
#include "harness/kernel_api.h"
#include "harness/memavail.h"
#include "harness/membind.h"

#define BUF_HUGE_BYTES ((size_t)2 << 20)
#ifndef MADV_POPULATE_WRITE /* Linux 5.14; older headers */
#define MADV_POPULATE_WRITE 23
#endif
#define BUF_MASK_LONGS (LAB_BUF_NODES_MAX / (8 * sizeof(unsigned long)))

static size_t buf_page(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096;
}

/* The nodes this process may allocate on (cpuset mems), as a mask; -1 without NUMA support. */
static int buf_mems_allowed(unsigned long *mask)
{
	memset(mask, 0, BUF_MASK_LONGS * sizeof(*mask));
	return get_mempolicy(NULL, mask, LAB_BUF_NODES_MAX + 1, NULL, MPOL_F_MEMS_ALLOWED);
}

static void buf_mask_format(const unsigned long *mask, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int n = 0; n < LAB_BUF_NODES_MAX && used < len; n++)
		if (mask[n / 64] & (1ul << (n % 64))) {
			int w = snprintf(buf + used, len - used, "%s%d", used ? "," : "", n);
			used += w > 0 ? (size_t)w : 0;
		}
}

/* Sets the memory policy of [p, p + len) as o asks, before any page exists. */
static int buf_policy(void *p, size_t len, const struct lab_buf_opts *o, struct lab_err *err)
{
	unsigned long allowed[BUF_MASK_LONGS], want[BUF_MASK_LONGS] = {0};
	char names[256];
	int mode = o->place == LAB_BUF_BIND        ? MPOL_BIND
	           : o->place == LAB_BUF_PREFERRED ? MPOL_PREFERRED
	                                           : MPOL_INTERLEAVE;

	if (o->place == LAB_BUF_LOCAL || o->place == LAB_BUF_DEFAULT)
		return 0;
	if (buf_mems_allowed(allowed) != 0)
		return lab_err_set(err, LAB_EUNSUP, "NUMA memory policy unavailable: %s",
		                   strerror(errno));
	if (o->place == LAB_BUF_INTERLEAVE) {
		memcpy(want, allowed, sizeof(want));
	} else if (o->node < 0 || o->node >= LAB_BUF_NODES_MAX ||
	           !(allowed[o->node / 64] & (1ul << (o->node % 64)))) {
		buf_mask_format(allowed, names, sizeof(names));
		return lab_err_set(err, LAB_EINVAL,
		                   "NUMA node %d: not a node this process may use (nodes %s)",
		                   o->node, names);
	} else {
		want[o->node / 64] |= 1ul << (o->node % 64);
	}
	if (mbind(p, len, mode, want, LAB_BUF_NODES_MAX + 1, 0) != 0)
		return lab_err_set(err, LAB_ESYS, "mbind: %s", strerror(errno));
	return 0;
}

/* Maps len bytes whose start is aligned to align (a power of two), trimming the slack. */
static void *buf_map_aligned(size_t len, size_t align, void **map, size_t *map_bytes)
{
	size_t page = buf_page(), slack = align > page ? align : 0;
	char *m =
	    mmap(NULL, len + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	char *p = (char *)(((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1));
	if (p > m)
		munmap(m, (size_t)(p - m));
	if (m + len + slack > p + len)
		munmap(p + len, (size_t)(m + len + slack - (p + len)));
	*map = p;
	*map_bytes = len;
	return p;
}

int lab_buf_alloc(struct lab_buf *b, size_t size_bytes, const struct lab_buf_opts *o,
                  struct lab_err *err)
{
	struct lab_buf_opts opts = o ? *o : (struct lab_buf_opts){0};
	bool harness_placed = opts.place == LAB_BUF_DEFAULT;
	size_t page = buf_page(), align, len;
	int rc;

	memset(b, 0, sizeof(*b));
	lab__membind_apply(&opts); /* the kernel's explicit place wins; else the point's membind */
	o = &opts;
	align = o->align_bytes ? o->align_bytes : LAB_SLOT;
	if (size_bytes == 0 || (align & (align - 1)) != 0)
		return lab_err_set(err, LAB_EINVAL,
		                   "buffer of %zu bytes aligned to %zu: need a size > 0 and a "
		                   "power-of-two alignment",
		                   size_bytes, align);
	if (o->huge == LAB_BUF_HUGE_ON && align < BUF_HUGE_BYTES)
		align = BUF_HUGE_BYTES;
	/* Whole pages (whole huge pages when asked for), so the buffer shares none. */
	size_t unit = o->huge == LAB_BUF_HUGE_ON ? BUF_HUGE_BYTES : page;
	len = (size_bytes + unit - 1) / unit * unit;
	/* Touched here or later (no_touch: by the threads): a buffer past the memory left is no
	 * measurement but swapping, or the OOM killer ending the run (harness/memavail.h). */
	size_t held;
	if ((rc = lab_mem_reserve(len, &held, err)) != 0)
		return rc;
	size_t node_held = 0;
	if (o->place == LAB_BUF_BIND &&
	    (rc = lab_mem_node_reserve(o->node, len, &node_held, err)) != 0) {
		lab_mem_release(held);
		return rc;
	}
	if (!buf_map_aligned(len, align, &b->map, &b->map_bytes)) {
		lab_mem_release(held);
		lab_mem_node_release(o->node, node_held);
		return lab_err_set(err, LAB_ENOMEM, "mmap of %zu bytes: %s", len, strerror(errno));
	}
	b->held_bytes = held;
	b->node_held = node_held;
	b->held_node = o->node;
	b->p = b->map;
	b->size_bytes = size_bytes;
	if (o->huge != LAB_BUF_HUGE_DEFAULT &&
	    madvise(b->map, len, o->huge == LAB_BUF_HUGE_ON ? MADV_HUGEPAGE : MADV_NOHUGEPAGE)) {
		rc = lab_err_set(err, LAB_ESYS, "madvise(%s): %s",
		                 o->huge == LAB_BUF_HUGE_ON ? "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE",
		                 strerror(errno));
		goto fail;
	}
	if ((rc = buf_policy(b->map, len, o, err)) != 0)
		goto fail;
	if (!o->no_touch)
		lab_buf_touch(b, 0, size_bytes);
	if (harness_placed)
		lab__membind_track(b);
	return 0;
fail:
	lab_buf_free(b);
	return rc;
}

void lab_buf_touch(const struct lab_buf *b, size_t offset, size_t len)
{
	size_t page = buf_page();

	if (!b->p || offset >= b->size_bytes)
		return;
	if (len > b->size_bytes - offset)
		len = b->size_bytes - offset;
	/* The kernel first faults the range in for the calling thread in one call (placed as a
	 * write from this thread would place it): taken one by one, each fault costs an exception,
	 * and several us on a guest that shadows its page tables. Kernels before 5.14 refuse it
	 * (EINVAL): then the writes below fault. The writes come either way, so that a guest's
	 * shadow entries are made here, not in the first timed pass. A write, not a read: a read
	 * of a fresh anonymous page maps the shared zero page. */
	char *c0 = (char *)b->p, *lo = (char *)((uintptr_t)(c0 + offset) & ~(uintptr_t)(page - 1));
	char *hi = (char *)(((uintptr_t)(c0 + offset + len) + page - 1) & ~(uintptr_t)(page - 1));
	if (lo >= (char *)b->map && hi <= (char *)b->map + b->map_bytes)
		(void)madvise(lo, (size_t)(hi - lo), MADV_POPULATE_WRITE);
	volatile char *c = (volatile char *)b->p;
	for (size_t i = offset; i < offset + len; i = (i / page + 1) * page)
		c[i] = 0;
}

static int buf_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double lab_buf_touch_ns_per_byte(size_t size_bytes, unsigned tries)
{
	struct lab_buf_opts o = {.place = LAB_BUF_LOCAL};
	double ns[16];
	unsigned n = 0;

	for (unsigned i = 0; size_bytes && i < tries && i < 16; i++) {
		struct lab_buf b;
		uint64_t t0 = lab_thread_cpu_ns();
		if (lab_buf_alloc(&b, size_bytes, &o, NULL) != 0)
			break;
		lab_buf_free(&b);
		ns[n++] = (double)(lab_thread_cpu_ns() - t0) / (double)size_bytes;
	}
	if (!n)
		return 0;
	qsort(ns, n, sizeof(ns[0]), buf_cmp_double);
	return n % 2 ? ns[n / 2] : (ns[n / 2 - 1] + ns[n / 2]) / 2;
}

void lab_buf_free(struct lab_buf *b)
{
	if (b->map) {
		lab__membind_untrack(b);
		munmap(b->map, b->map_bytes);
		lab_mem_release(b->held_bytes);
		lab_mem_node_release(b->held_node, b->node_held);
	}
	memset(b, 0, sizeof(*b));
}

/* The object's own lab_buf sits in the LAB_SLOT bytes before it. */
_Static_assert(sizeof(struct lab_buf) <= LAB_SLOT, "lab_buf fits the object header");

void *lab_buf_obj_alloc(size_t size_bytes, struct lab_err *err)
{
	struct lab_buf b;

	if (lab_buf_alloc(&b, LAB_SLOT + size_bytes, &(struct lab_buf_opts){.place = LAB_BUF_LOCAL},
	                  err) != 0)
		return NULL;
	memcpy(b.p, &b, sizeof(b));
	return (char *)b.p + LAB_SLOT;
}

void lab_buf_obj_free(void *obj)
{
	struct lab_buf b;

	if (!obj)
		return;
	memcpy(&b, (char *)obj - LAB_SLOT, sizeof(b));
	lab_buf_free(&b);
}
