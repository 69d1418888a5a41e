/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the two files of the canonical placement text share (place_text.h): the output buffer
 * and the number reader, inline so that place_text.c calls place_text_expr.c and never back. */
#ifndef LAB_HARNESS_PLACE_TEXT_INT_H
#define LAB_HARNESS_PLACE_TEXT_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "harness/place_text.h"

/* The blanks that may stand around a separator: spaces and tabs, as everywhere in a config. */
#define PT_BLANKS " \t"

/* Text written into a buffer of size bytes; len counts what the whole text needs. */
struct pt_out {
	char *buf;
	size_t size, len;
};

__attribute__((format(printf, 2, 3))) static inline void pt_put(struct pt_out *o, const char *fmt,
                                                                ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->len < o->size ? o->buf + o->len : NULL,
	              o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* Digits of v >= 0. */
static inline size_t pt_digits(long v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Reads the digits at *s as a number up to max (the blanks around them skipped, as the planner
 * reads lists and expressions), and advances *s past them. -1 when there are none or the number
 * is larger. */
static inline long pt_number(const char **s, long max)
{
	const char *c = *s;
	long v = 0;

	c += strspn(c, PT_BLANKS);
	if (*c < '0' || *c > '9')
		return -1;
	for (; *c >= '0' && *c <= '9'; c++)
		if ((v = v * 10 + (*c - '0')) > max)
			return -1;
	c += strspn(c, PT_BLANKS);
	*s = c;
	return v;
}

/* Writes "expr:" and the canonical text of the expression s (after "expr:") to o; false when s
 * is not an expression the planner takes (place_text_expr.c). */
bool lab__place_text_expr(const char *s, struct pt_out *o);

#endif
