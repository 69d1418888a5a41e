/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Building a document (doc.h). Objects and strings live in chunks owned by the document (freed
 * at once); the arrays that grow (rows, points, blocks) are realloc'd and freed by a walk.
 */
#include "analyze/render/doc.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/err.h"

struct lab_doc_mem {
	struct lab_doc_mem *next;
	size_t used, size;
	max_align_t buf[];
};

static void *doc_alloc(struct lab_doc *d, size_t n)
{
	struct lab_doc_mem *m = d && !d->failed ? d->mem : NULL;
	void *p;

	if (!d || d->failed)
		return NULL;
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!m || m->size - m->used < n) {
		size_t size = n > 16384 ? n : 16384;

		if (!(m = malloc(sizeof(*m) + size))) {
			d->failed = 1;
			return NULL;
		}
		m->next = d->mem;
		m->used = 0;
		m->size = size;
		d->mem = m;
	}
	p = (char *)m->buf + m->used;
	m->used += n;
	return memset(p, 0, n);
}

/* Grows *arr (of elem bytes each) to hold n; 0 or -1 (d marked failed). */
static int doc_grow(struct lab_doc *d, void *arr, size_t *cap, size_t n, size_t elem)
{
	if (lab_an_grow(arr, cap, n, elem) == 0)
		return 0;
	d->failed = 1;
	return -1;
}

__attribute__((format(printf, 2, 0))) static const char *doc_vprintf(struct lab_doc *d,
                                                                     const char *fmt, va_list ap)
{
	va_list cp;
	int n;
	char *s;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || !(s = doc_alloc(d, (size_t)n + 1)))
		return "";
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

const char *lab_doc_printf(struct lab_doc *d, const char *fmt, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, fmt);
	s = doc_vprintf(d, fmt, ap);
	va_end(ap);
	return s;
}

static const char *doc_str(struct lab_doc *d, const char *s)
{
	return s ? lab_doc_printf(d, "%s", s) : NULL;
}

struct lab_doc *lab_doc_new(const char *view, const char *title)
{
	struct lab_doc *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->view = view;
	d->title = doc_str(d, title);
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
			free(b->u.figure->c[i]->x);
			free(b->u.figure->c[i]->y);
			free(b->u.figure->c[i]->lo);
			free(b->u.figure->c[i]->hi);
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
	while (d->mem) {
		struct lab_doc_mem *next = d->mem->next;

		free(d->mem);
		d->mem = next;
	}
	free(d);
}

int lab_doc_failed(const struct lab_doc *d)
{
	return !d || d->failed;
}

void lab_doc_about(struct lab_doc *d, const char *about, const char *note)
{
	if (d) {
		d->about = doc_str(d, about);
		d->note = doc_str(d, note);
	}
}

struct lab_doc_section *lab_doc_section(struct lab_doc *d, const char *experiment, const char *sub)
{
	struct lab_doc_section *s = doc_alloc(d, sizeof(*s));

	if (!s || doc_grow(d, &d->s, &d->cap, d->ns + 1, sizeof(*d->s)))
		return NULL;
	s->doc = d;
	s->experiment = doc_str(d, experiment);
	s->sub = sub && *sub ? doc_str(d, sub) : NULL;
	d->s[d->ns++] = s;
	return s;
}

/* Appends a block of type to s; NULL when out of memory. */
static struct lab_doc_block *doc_block(struct lab_doc_section *s, enum lab_doc_btype type)
{
	struct lab_doc_block *b;

	if (!s || doc_grow(s->doc, &s->b, &s->cap, s->nb + 1, sizeof(*s->b)))
		return NULL;
	b = &s->b[s->nb++];
	memset(b, 0, sizeof(*b));
	b->type = type;
	return b;
}

void lab_doc_lead(struct lab_doc_section *s, const char *fmt, ...)
{
	va_list ap;

	if (!s)
		return;
	va_start(ap, fmt);
	s->lead = doc_vprintf(s->doc, fmt, ap);
	va_end(ap);
}

void lab_doc_finding(struct lab_doc_section *s, enum lab_doc_sev sev, const char *evidence,
                     const char *fmt, ...)
{
	struct lab_doc_finding *f = s ? doc_alloc(s->doc, sizeof(*f)) : NULL;
	struct lab_doc_block *b;
	va_list ap;

	if (!f || !(b = doc_block(s, LAB_DOC_FINDING)))
		return;
	va_start(ap, fmt);
	f->text = doc_vprintf(s->doc, fmt, ap);
	va_end(ap);
	f->sev = sev;
	f->evidence = doc_str(s->doc, evidence);
	b->u.finding = f;
}

void lab_doc_note(struct lab_doc_section *s, const char *fmt, ...)
{
	struct lab_doc_block *b = doc_block(s, LAB_DOC_NOTE);
	va_list ap;

	if (!b)
		return;
	va_start(ap, fmt);
	b->u.note = doc_vprintf(s->doc, fmt, ap);
	va_end(ap);
}

struct lab_doc_table *lab_doc_table(struct lab_doc_section *s, const char *key, const char *title)
{
	struct lab_doc_table *t = s ? doc_alloc(s->doc, sizeof(*t)) : NULL;
	struct lab_doc_block *b;

	if (!t || !(b = doc_block(s, LAB_DOC_TABLE)))
		return NULL;
	t->doc = s->doc;
	t->key = doc_str(s->doc, key);
	t->title = doc_str(s->doc, title);
	b->u.table = t;
	return t;
}

void lab_doc_col(struct lab_doc_table *t, const char *key, const char *unit, enum lab_doc_kind kind)
{
	if (!t || t->nrow || t->ncol == LAB_DOC_MAXCOL)
		return;
	t->col[t->ncol].key = doc_str(t->doc, key);
	t->col[t->ncol].unit = doc_str(t->doc, unit);
	t->col[t->ncol++].kind = kind;
}

static void doc_cell_init(struct lab_doc_cell *c)
{
	memset(c, 0, sizeof(*c));
	c->median = c->mean = c->lo = c->hi = NAN;
}

void lab_doc_row(struct lab_doc_table *t)
{
	size_t r1 = t ? t->rcap : 0, r2 = r1;

	if (!t || t->doc->failed || !t->ncol ||
	    doc_grow(t->doc, &t->cell, &t->ccap, (t->nrow + 1) * t->ncol, sizeof(*t->cell)) ||
	    doc_grow(t->doc, &t->rnote, &r1, t->nrow + 1, sizeof(*t->rnote)) ||
	    doc_grow(t->doc, &t->rwhy, &r2, t->nrow + 1, sizeof(*t->rwhy)))
		return;
	t->rcap = r1;
	for (size_t k = 0; k < t->ncol; k++)
		doc_cell_init(&t->cell[t->nrow * t->ncol + k]);
	t->rnote[t->nrow] = t->rwhy[t->nrow] = NULL;
	t->nrow++;
}

static struct lab_doc_cell doc_scratch;

struct lab_doc_cell *lab_doc_at(struct lab_doc_table *t, size_t k)
{
	if (!t || t->doc->failed || !t->nrow || k >= t->ncol) {
		doc_cell_init(&doc_scratch);
		return &doc_scratch;
	}
	return &t->cell[(t->nrow - 1) * t->ncol + k];
}

void lab_doc_rnote(struct lab_doc_table *t, const char *fmt, ...)
{
	va_list ap;

	if (!t || t->doc->failed || !t->nrow)
		return;
	va_start(ap, fmt);
	t->rnote[t->nrow - 1] = doc_vprintf(t->doc, fmt, ap);
	va_end(ap);
}

void lab_doc_rwhy(struct lab_doc_table *t, const char *fmt, ...)
{
	va_list ap;

	if (!t || t->doc->failed || !t->nrow)
		return;
	va_start(ap, fmt);
	t->rwhy[t->nrow - 1] = doc_vprintf(t->doc, fmt, ap);
	va_end(ap);
}

struct lab_doc_matrix *lab_doc_matrix(struct lab_doc_section *s, const char *key, const char *title,
                                      size_t nr, size_t nc)
{
	struct lab_doc_matrix *m = s ? doc_alloc(s->doc, sizeof(*m)) : NULL;
	struct lab_doc_block *b;

	if (!m || (nr && nc > SIZE_MAX / sizeof(*m->cell) / nr) ||
	    !(m->cell = doc_alloc(s->doc, nr * nc * sizeof(*m->cell))) ||
	    !(m->rlab = doc_alloc(s->doc, nr * sizeof(*m->rlab))) ||
	    !(m->clab = doc_alloc(s->doc, nc * sizeof(*m->clab))) ||
	    !(b = doc_block(s, LAB_DOC_MATRIX)))
		return NULL;
	m->doc = s->doc;
	m->key = doc_str(s->doc, key);
	m->title = doc_str(s->doc, title);
	m->nr = nr;
	m->nc = nc;
	m->ncell = nr * nc;
	for (size_t i = 0; i < nr * nc; i++)
		doc_cell_init(&m->cell[i]);
	b->u.matrix = m;
	return m;
}

struct lab_doc_matrix *lab_doc_matrix_sparse(struct lab_doc_section *s, const char *key,
                                             const char *title, size_t nr, size_t nc, size_t ncell)
{
	struct lab_doc_matrix *m = lab_doc_matrix(s, key, title, 0, 0);

	if (!m || ncell > SIZE_MAX / sizeof(*m->cell) ||
	    !(m->cell = doc_alloc(s->doc, ncell * sizeof(*m->cell))) ||
	    !(m->pos = doc_alloc(s->doc, ncell * sizeof(*m->pos))) ||
	    !(m->rlab = doc_alloc(s->doc, nr * sizeof(*m->rlab))) ||
	    !(m->clab = doc_alloc(s->doc, nc * sizeof(*m->clab))))
		return NULL;
	m->nr = nr;
	m->nc = nc;
	m->scap = ncell;
	return m;
}

struct lab_doc_cell *lab_doc_smat(struct lab_doc_matrix *m, size_t r, size_t c)
{
	if (!m || !m->pos || m->ncell == m->scap || r >= m->nr || c >= m->nc) {
		doc_cell_init(&doc_scratch);
		return &doc_scratch;
	}
	m->pos[m->ncell] = r * m->nc + c;
	doc_cell_init(&m->cell[m->ncell]);
	return &m->cell[m->ncell++];
}

struct lab_doc_cell *lab_doc_mat(struct lab_doc_matrix *m, size_t r, size_t c)
{
	if (!m || r >= m->nr || c >= m->nc) {
		doc_cell_init(&doc_scratch);
		return &doc_scratch;
	}
	return &m->cell[r * m->nc + c];
}

void lab_doc_num(struct lab_doc_cell *c, double v)
{
	c->median = c->mean = v;
	c->has = isfinite(v);
}

void lab_doc_ival(struct lab_doc_cell *c, double median, double mean, double lo, double hi,
                  size_t n)
{
	c->median = median;
	c->mean = mean;
	c->lo = lo;
	c->hi = hi;
	c->n = n;
	c->has = isfinite(mean) || isfinite(median);
}

void lab_doc_str(struct lab_doc *d, struct lab_doc_cell *c, const char *s)
{
	if (c != &doc_scratch && s) {
		c->text = doc_str(d, s);
		c->has = 1;
	}
}

void lab_doc_why(struct lab_doc *d, struct lab_doc_cell *c, const char *fmt, ...)
{
	va_list ap;

	if (c == &doc_scratch)
		return;
	va_start(ap, fmt);
	c->why = doc_vprintf(d, fmt, ap);
	va_end(ap);
}

void lab_doc_cnote(struct lab_doc *d, struct lab_doc_cell *c, const char *fmt, ...)
{
	va_list ap;

	if (c == &doc_scratch)
		return;
	va_start(ap, fmt);
	c->note = doc_vprintf(d, fmt, ap);
	va_end(ap);
}

struct lab_doc_figure *lab_doc_figure(struct lab_doc_section *s, const char *key, const char *title,
                                      const char *xlabel, const char *ylabel)
{
	struct lab_doc_figure *f = s ? doc_alloc(s->doc, sizeof(*f)) : NULL;
	struct lab_doc_block *b;

	if (!f || !(b = doc_block(s, LAB_DOC_FIGURE)))
		return NULL;
	f->doc = s->doc;
	f->key = doc_str(s->doc, key);
	f->title = doc_str(s->doc, title);
	f->sub = s->sub;
	f->xlabel = doc_str(s->doc, xlabel);
	f->ylabel = doc_str(s->doc, ylabel);
	f->id = s->doc->nfig++;
	b->u.figure = f;
	return f;
}

struct lab_doc_curve *lab_doc_curve(struct lab_doc_figure *f, const char *label,
                                    enum lab_doc_style style)
{
	struct lab_doc_curve *c = f ? doc_alloc(f->doc, sizeof(*c)) : NULL;

	if (!c || doc_grow(f->doc, &f->c, &f->cap, f->nc + 1, sizeof(*f->c)))
		return NULL;
	c->doc = f->doc;
	c->label = doc_str(f->doc, label);
	c->style = style;
	c->color = c->dash = 0;
	c->a = c->b = NAN;
	f->c[f->nc++] = c;
	return c;
}

void lab_doc_point(struct lab_doc_curve *c, double x, double y, double lo, double hi)
{
	size_t cap;

	if (!c || c->doc->failed || !isfinite(x) || !isfinite(y))
		return;
	cap = c->cap;
	if (doc_grow(c->doc, &c->x, &cap, c->n + 1, sizeof(double)))
		return;
	cap = c->cap;
	if (doc_grow(c->doc, &c->y, &cap, c->n + 1, sizeof(double)))
		return;
	cap = c->cap;
	if (doc_grow(c->doc, &c->lo, &cap, c->n + 1, sizeof(double)))
		return;
	cap = c->cap;
	if (doc_grow(c->doc, &c->hi, &cap, c->n + 1, sizeof(double)))
		return;
	c->cap = cap;
	c->x[c->n] = x;
	c->y[c->n] = y;
	c->lo[c->n] = lo;
	c->hi[c->n++] = hi;
}

void lab_doc_gap(struct lab_doc_curve *c, const char *x, const char *why)
{
	if (!c || c->doc->failed || c->ngap++ > 3)
		return;
	if (c->ngap == 4)
		c->missing = lab_doc_printf(c->doc, "%s; ...", c->missing);
	else
		c->missing = c->missing ? lab_doc_printf(c->doc, "%s; %s: %s", c->missing, x, why)
		                        : lab_doc_printf(c->doc, "%s: %s", x, why);
}

void lab_doc_flabel(struct lab_doc_figure *f, double x, double y, const char *text)
{
	if (!f || f->doc->failed ||
	    doc_grow(f->doc, &f->label, &f->lcap, f->nlabel + 1, sizeof(*f->label)))
		return;
	f->label[f->nlabel].x = x;
	f->label[f->nlabel].y = y;
	f->label[f->nlabel++].text = doc_str(f->doc, text);
}
