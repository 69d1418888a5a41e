/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Where a buffer's pages are: move_pages with no target asks the kernel, page by page (libnuma's
 * system-call wrapper only; its higher functions print). Used by kernels that report placement
 * and by membind.c, which counts the pages of the buffers a point allocated.
 */
#include <errno.h>
#include <inttypes.h>
#include <numaif.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/buffer.h"

#define BUF_QUERY_PAGES 1024 /* pages per move_pages call */

int lab_buf_pages(const struct lab_buf *b, struct lab_buf_pages *out, struct lab_err *err)
{
	long page_size = sysconf(_SC_PAGESIZE);
	size_t page = page_size > 0 ? (size_t)page_size : 4096;
	void *addr[BUF_QUERY_PAGES];
	int status[BUF_QUERY_PAGES];
	uintptr_t first = (uintptr_t)b->p & ~(uintptr_t)(page - 1);
	uintptr_t end = (uintptr_t)b->p + b->size_bytes;

	memset(out, 0, sizeof(*out));
	out->max_node = -1;
	for (uintptr_t a = first; b->p && a < end;) {
		unsigned long n = 0;
		for (; n < BUF_QUERY_PAGES && a < end; n++, a += page)
			addr[n] = (void *)a;
		if (move_pages(0, n, addr, NULL, status, 0) != 0)
			return lab_err_set(err, LAB_ESYS, "move_pages (where are the pages?): %s",
			                   strerror(errno));
		for (unsigned long i = 0; i < n; i++) {
			int s = status[i];
			if (s >= 0 && s < LAB_BUF_NODES_MAX) {
				out->on_node[s]++;
				out->max_node = s > out->max_node ? s : out->max_node;
			} else if (s == -ENOENT) {
				out->absent++;
			} else {
				out->other++;
			}
		}
		out->pages += n;
	}
	return 0;
}

int lab_buf_huge_pct(const struct lab_buf *b)
{
	return b->p ? lab__buf_huge_pct_in("/proc/self/smaps", b->map, b->map_bytes) : -1;
}

int lab__buf_huge_pct_in(const char *smaps, const void *p, size_t len)
{
	FILE *f = fopen(smaps, "re");
	uintptr_t at = (uintptr_t)p, l, h;
	char *line = NULL;
	size_t cap = 0;
	int in = 0;
	unsigned long long kb;
	double huge = 0, size = 0;

	if (!f)
		return -1;
	/* whole lines, however long (a file mapping's path past a fixed buffer read as a new
	 * mapping); every mapping that overlaps [p, p + len) counts (madvise may split one) */
	while (getline(&line, &cap, f) > 0) {
		/* a mapping's line ("7f..-7f.. rw-p ..."); a field's never scans two numbers */
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &l, &h) == 2) {
			in = l < at + len && h > at;
			size += in ? (double)(h - l) : 0;
		} else if (in && sscanf(line, "AnonHugePages: %llu kB", &kb) == 1) {
			huge += (double)kb * 1024;
		}
	}
	free(line);
	fclose(f);
	if (!(size > 0))
		return -1;
	return huge >= size ? 100 : (int)(100 * huge / size + 0.5);
}
