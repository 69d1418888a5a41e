/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lab_an_warn(struct lab_an_warnings *w, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (lab_an_grow(&w->msg, &w->cap, w->n + 1, sizeof(*w->msg)))
		return;
	w->msg[w->n] = lab_an_strdup(buf);
	if (w->msg[w->n])
		w->n++;
}

void lab_an_warnings_free(struct lab_an_warnings *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->msg[i]);
	free(w->msg);
	memset(w, 0, sizeof(*w));
}

char *lab_an_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

char *lab_an_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

void lab_an_cat(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*used + 1 >= len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	*used = w < 0 ? *used : *used + (size_t)w < len ? *used + (size_t)w : len - 1;
}

int lab_an_grow(void *p, size_t *cap, size_t need, size_t elem)
{
	void **pp = p;
	/* large elements (a series' row) start at one: most arrays of them hold few */
	size_t ncap = *cap ? *cap : elem >= 64 ? 1 : 8;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*pp, ncap * elem);
	if (!np)
		return -LAB_ENOMEM;
	*pp = np;
	*cap = ncap;
	return 0;
}

int lab_an_utf8_fit(const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1), k;

	if (n <= max)
		return (int)n;
	/* s[max] is the first byte left out: a continuation byte of a character begun within
	 * the 3 bytes before it leaves that character out too */
	for (k = max; k > 0 && max - k < 3 && ((unsigned char)s[k] & 0xc0) == 0x80; k--)
		;
	return (int)(((unsigned char)s[k] & 0xc0) == 0x80 ? max : k);
}
