/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first n bytes of s, n moved back to the start of a UTF-8 character. */
static size_t diag_cut(const char *s, size_t n)
{
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

/*
 * line (len bytes) at most LAB_DIAG_LINE_MAX bytes: a line that quotes a long key or value
 * keeps its start (where it is) and its end (what is allowed) around "...". Returns line, or a
 * new string (line freed); NULL out of memory (line freed).
 */
static char *diag_clip(char *line, size_t len)
{
	const size_t tail_max = LAB_DIAG_LINE_MAX / 3;
	size_t head, tail;
	char *out;

	if (len <= LAB_DIAG_LINE_MAX)
		return line;
	head = diag_cut(line, LAB_DIAG_LINE_MAX - tail_max - 3);
	tail = tail_max; /* from the start of a UTF-8 character */
	while (tail > 0 && ((unsigned char)line[len - tail] & 0xc0) == 0x80)
		tail--;
	out = malloc(head + 3 + tail + 1);
	if (out) {
		memcpy(out, line, head);
		memcpy(out + head, "...", 3);
		memcpy(out + head + 3, line + len - tail, tail + 1);
	}
	free(line);
	return out;
}

/* The formatted line, clipped; NULL out of memory. */
__attribute__((format(printf, 1, 0))) static char *diag_format(const char *fmt, va_list ap)
{
	char *line = NULL;
	int len = vasprintf(&line, fmt, ap);

	return len < 0 ? NULL : diag_clip(line, (size_t)len);
}

static void diag_push(struct lab_diag *d, char *line)
{
	char **grown = line ? realloc(d->msg, (d->n + 1) * sizeof(*d->msg)) : NULL;

	if (!grown) {
		free(line);
		d->dropped++;
		return;
	}
	d->msg = grown;
	d->msg[d->n++] = line;
}

void lab_diag_add(struct lab_diag *d, const char *fmt, ...)
{
	va_list ap;

	if (d->n >= LAB_DIAG_MAX) {
		d->dropped++;
		return;
	}
	va_start(ap, fmt);
	char *line = diag_format(fmt, ap);
	va_end(ap);
	diag_push(d, line);
}

/* Puts line's hash into d->seen; 1 when it was not there (or no memory to tell), else 0. */
static int diag_seen_add(struct lab_diag *d, const char *line)
{
	unsigned long long h = 1469598103934665603ull;

	for (const unsigned char *c = (const unsigned char *)line; *c; c++)
		h = (h ^ *c) * 1099511628211ull;
	h += !h;
	if (2 * (d->nseen + 1) > d->capseen) { /* grow, at most half full */
		size_t cap = d->capseen ? 2 * d->capseen : 256;
		unsigned long long *t = calloc(cap, sizeof(*t));
		if (!t)
			return 1;
		for (size_t i = 0; i < d->capseen; i++)
			for (size_t j = d->seen[i] % cap; d->seen[i]; j = (j + 1) % cap)
				if (!t[j]) {
					t[j] = d->seen[i];
					break;
				}
		free(d->seen);
		d->seen = t;
		d->capseen = cap;
	}
	for (size_t j = h % d->capseen;; j = (j + 1) % d->capseen) {
		if (d->seen[j] == h)
			return 0;
		if (!d->seen[j]) {
			d->seen[j] = h;
			d->nseen++;
			return 1;
		}
	}
}

void lab_diag_add_once(struct lab_diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	char *line = diag_format(fmt, ap);
	va_end(ap);
	for (unsigned i = 0; line && i < d->n; i++)
		if (!strcmp(d->msg[i], line)) {
			free(line);
			return;
		}
	if (d->n >= LAB_DIAG_MAX) {
		d->dropped += line ? diag_seen_add(d, line) : 1;
		free(line);
		return;
	}
	diag_push(d, line);
}

unsigned lab_diag_count(const struct lab_diag *d)
{
	return d->n + d->dropped;
}

void lab_diag_free(struct lab_diag *d)
{
	for (unsigned i = 0; i < d->n; i++)
		free(d->msg[i]);
	free(d->msg);
	free(d->seen);
	d->msg = NULL;
	d->seen = NULL;
	d->n = d->dropped = 0;
	d->nseen = d->capseen = 0;
}
