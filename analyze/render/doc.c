/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Building a document (doc.h): its memory, its sections, findings and notes; tables and
 * matrices are doc_cells.c's, figures doc_figure.c's. Objects and strings live in chunks owned
 * by the document (freed at once); the arrays that grow (rows, points, blocks) are realloc'd
 * and freed by a walk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/err.h"
#include "analyze/index.h"
#include "analyze/render/doc_int.h"

struct lab_doc_mem {
	struct lab_doc_mem *next;
	size_t used, size;
	max_align_t buf[];
};

/* n bytes owned by d, aligned to align (a power of two up to max_align_t's) */
static void *doc_alloc(struct lab_doc *d, size_t n, size_t align)
{
	struct lab_doc_mem *m = d && !d->failed ? d->mem : NULL;
	size_t at = m ? (m->used + align - 1) & ~(align - 1) : 0;

	if (!d || d->failed)
		return NULL;
	if (!m || at > m->size || m->size - at < n) {
		size_t size = n > 16384 ? n : 16384;

		if (!(m = malloc(sizeof(*m) + size))) {
			d->failed = 1;
			return NULL;
		}
		m->next = d->mem;
		m->size = size;
		d->mem = m;
		at = 0;
	}
	m->used = at + n;
	return (char *)m->buf + at;
}

void *lab__doc_alloc(struct lab_doc *d, size_t n)
{
	void *p = doc_alloc(d, n, sizeof(max_align_t));

	return p ? memset(p, 0, n) : NULL;
}

/* A copy owned by d of s[0..n-1] (n + 1 bytes with the NUL); with share, a text of AN_DOC_SHARE
 * bytes or more that d holds already is that one. "" when out of memory. */
#define AN_DOC_SHARE 24
static const char *doc_text(struct lab_doc *d, const char *s, size_t n, int share)
{
	char *c;
	size_t i;

	if (!d)
		return "";
	share = share && n >= AN_DOC_SHARE;
	if (share && !d->failed && (d->texts || (d->texts = calloc(1, sizeof(*d->texts)))) &&
	    (i = lab_an_strset_find(d->texts, s)) != (size_t)-1)
		return d->texts->s[i];
	if (!(c = doc_alloc(d, n + 1, 1)))
		return "";
	memcpy(c, s, n);
	c[n] = 0;
	if (share && (!d->texts || lab_an_strset_add(d->texts, c, NULL) == (size_t)-1))
		d->failed = 1;
	return c;
}

int lab__doc_grow(struct lab_doc *d, void *arr, size_t *cap, size_t n, size_t elem)
{
	if (lab_an_grow(arr, cap, n, elem) == 0)
		return 0;
	d->failed = 1;
	return -1;
}

const char *lab__doc_vprintf(struct lab_doc *d, const char *fmt, va_list ap)
{
	char buf[256]; /* most texts fit: formatted once, copied */
	va_list cp;
	int n;
	char *s;

	va_copy(cp, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, cp);
	va_end(cp);
	if (n < 0 || !d || d->failed)
		return "";
	if ((size_t)n < sizeof(buf))
		return doc_text(d, buf, (size_t)n,
		                1); /* reasons and notes, the same in many rows */
	if (!(s = doc_alloc(d, (size_t)n + 1, 1)))
		return "";
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

const char *lab_doc_printf(struct lab_doc *d, const char *fmt, ...)
{
	const char *s;

	LAB_DOC_VSET(d, &s, fmt);
	return s;
}

const char *lab__doc_str(struct lab_doc *d, const char *s)
{
	return s ? doc_text(d, s, strlen(s), 0) : NULL; /* labels: most are a row's own */
}

struct lab_doc *lab_doc_new(const char *view, const char *title)
{
	struct lab_doc *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->view = view;
	d->title = lab__doc_str(d, title);
	if (d->failed) {
		lab_doc_free(d);
		return NULL;
	}
	return d;
}

static void doc_free_block(struct lab_doc_block *b)
{
	if (b->type == LAB_DOC_TABLE) {
		free(b->u.table->cell);
		free(b->u.table->rnote);
		free(b->u.table->rwhy);
	} else if (b->type == LAB_DOC_FIGURE) {
		for (size_t i = 0; i < b->u.figure->nc; i++) {
			free(b->u.figure->c[i]->p);
		}
		free(b->u.figure->c);
		free(b->u.figure->label);
	}
}

void lab_doc_free(struct lab_doc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->ns; i++) {
		for (size_t j = 0; j < d->s[i]->nb; j++)
			doc_free_block(&d->s[i]->b[j]);
		free(d->s[i]->b);
	}
	free(d->s);
	if (d->texts)
		lab_an_strset_free(d->texts);
	free(d->texts);
	while (d->mem) {
		struct lab_doc_mem *next = d->mem->next;

		free(d->mem);
		d->mem = next;
	}
	free(d);
}

size_t lab_doc_bytes(const struct lab_doc *d)
{
	size_t n = 0;

	for (const struct lab_doc_mem *m = d ? d->mem : NULL; m; m = m->next)
		n += m->size;
	return n;
}

int lab_doc_failed(const struct lab_doc *d)
{
	return !d || d->failed;
}

void lab_doc_about(struct lab_doc *d, const char *about, const char *note)
{
	if (d) {
		d->about = lab__doc_str(d, about);
		d->note = lab__doc_str(d, note);
	}
}

struct lab_doc_section *lab_doc_section(struct lab_doc *d, const char *experiment, const char *sub)
{
	struct lab_doc_section *s = lab__doc_alloc(d, sizeof(*s));

	if (!s || lab__doc_grow(d, &d->s, &d->cap, d->ns + 1, sizeof(*d->s)))
		return NULL;
	s->doc = d;
	s->experiment = lab__doc_str(d, experiment);
	s->sub = sub && *sub ? lab__doc_str(d, sub) : NULL;
	d->s[d->ns++] = s;
	return s;
}

struct lab_doc_block *lab__doc_block(struct lab_doc_section *s, enum lab_doc_btype type)
{
	struct lab_doc_block *b;

	if (!s || lab__doc_grow(s->doc, &s->b, &s->cap, s->nb + 1, sizeof(*s->b)))
		return NULL;
	b = &s->b[s->nb++];
	memset(b, 0, sizeof(*b));
	b->type = type;
	return b;
}

void lab_doc_lead(struct lab_doc_section *s, const char *fmt, ...)
{
	if (s)
		LAB_DOC_VSET(s->doc, &s->lead, fmt);
}

void lab_doc_finding(struct lab_doc_section *s, enum lab_doc_sev sev, const char *evidence,
                     const char *fmt, ...)
{
	struct lab_doc_finding *f = s ? lab__doc_alloc(s->doc, sizeof(*f)) : NULL;
	struct lab_doc_block *b;

	if (!f || !(b = lab__doc_block(s, LAB_DOC_FINDING)))
		return;
	LAB_DOC_VSET(s->doc, &f->text, fmt);
	f->sev = sev;
	f->evidence = lab__doc_str(s->doc, evidence);
	b->u.finding = f;
}

void lab_doc_note(struct lab_doc_section *s, const char *fmt, ...)
{
	struct lab_doc_block *b = lab__doc_block(s, LAB_DOC_NOTE);

	if (b)
		LAB_DOC_VSET(s->doc, &b->u.note, fmt);
}
