/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the document builders share (doc.c, doc_cells.c, doc_figure.c); not an interface. */
#ifndef LAB_ANALYZE_RENDER_DOC_INT_H
#define LAB_ANALYZE_RENDER_DOC_INT_H

#include <stdarg.h>

#include "analyze/render/doc.h"

/* n zeroed bytes owned by d; NULL (d marked failed) when memory runs out or d failed. */
void *lab__doc_alloc(struct lab_doc *d, size_t n);
/* Grows *arr (of elem bytes each) to hold n; 0 or -1 (d marked failed). */
int lab__doc_grow(struct lab_doc *d, void *arr, size_t *cap, size_t n, size_t elem);
/* A copy owned by d of the formatted text ("" when out of memory); of s (NULL stays NULL). */
const char *lab__doc_vprintf(struct lab_doc *d, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
const char *lab__doc_str(struct lab_doc *d, const char *s);
/* Appends a block of type to s; NULL when out of memory. */
struct lab_doc_block *lab__doc_block(struct lab_doc_section *s, enum lab_doc_btype type);

/* *dst = the formatted text of a variadic builder whose last named parameter is fmt. */
#define LAB_DOC_VSET(d, dst, fmt)                                                                  \
	do {                                                                                       \
		va_list ap_;                                                                       \
		va_start(ap_, fmt);                                                                \
		*(dst) = lab__doc_vprintf(d, fmt, ap_);                                            \
		va_end(ap_);                                                                       \
	} while (0)

#endif
