/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A document's tables and matrices and their cells (doc.h). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analyze/render/doc_int.h"

struct lab_doc_table *lab_doc_table(struct lab_doc_section *s, const char *key, const char *title)
{
	struct lab_doc_table *t = s ? lab__doc_alloc(s->doc, sizeof(*t)) : NULL;
	struct lab_doc_block *b;

	if (!t || !(b = lab__doc_block(s, LAB_DOC_TABLE)))
		return NULL;
	t->doc = s->doc;
	t->key = lab__doc_str(s->doc, key);
	t->title = lab__doc_str(s->doc, title);
	b->u.table = t;
	return t;
}

/* The suffixes of the names a column of kind gives a row in the renderers (json.c, csv.c): every
 * kind its key, KEY_why and KEY_note; an interval KEY_mean, KEY_ci95, KEY_ci95_of, KEY_n and
 * the CSV's KEY_lo, KEY_hi; an estimate KEY_ci95, KEY_lo, KEY_hi. */
static size_t doc_col_sfx(enum lab_doc_kind kind, const char **sfx)
{
	static const char *const all[] = {"", "_why", "_note"};
	static const char *const ival[] = {"_mean", "_ci95", "_ci95_of", "_n", "_lo", "_hi"};
	static const char *const est[] = {"_ci95", "_lo", "_hi"};
	size_t n = 0;

	for (size_t i = 0; i < 3; i++)
		sfx[n++] = all[i];
	for (size_t i = 0; kind == LAB_DOC_INTERVAL && i < 6; i++)
		sfx[n++] = ival[i];
	for (size_t i = 0; kind == LAB_DOC_ESTIMATE && i < 3; i++)
		sfx[n++] = est[i];
	return n;
}

/* 1 when a1 a2 (one after the other) is the string b1 b2: without formatting either, as every
 * column of a 10,000-series analysis asks it (scale35: snprintf here was 20 % of its CPU). */
static int doc_cat_eq(const char *a1, const char *a2, const char *b1, const char *b2)
{
	for (;;) {
		if (!*a1 && a2) {
			a1 = a2;
			a2 = NULL;
		} else if (!*b1 && b2) {
			b1 = b2;
			b2 = NULL;
		} else if (*a1 != *b1) {
			return 0;
		} else if (!*a1) {
			return 1;
		} else {
			a1++;
			b1++;
		}
	}
}

/* 1 when a name a column of key and kind gives equals a name of another column of t, or a
 * row's own key. */
static int doc_col_taken(const struct lab_doc_table *t, const char *key, enum lab_doc_kind kind)
{
	static const char *const row[] = {"why", "note", "experiment"};
	const char *sa[9], *sb[9];
	size_t na = doc_col_sfx(kind, sa);

	for (size_t i = 0; i < na; i++) {
		for (size_t r = 0; r < sizeof(row) / sizeof(*row); r++)
			if (doc_cat_eq(key, sa[i], row[r], ""))
				return 1;
		for (size_t k = 0; k < t->ncol; k++)
			for (size_t j = 0, nb = t->col[k].key ? doc_col_sfx(t->col[k].kind, sb) : 0;
			     j < nb; j++)
				if (doc_cat_eq(key, sa[i], t->col[k].key, sb[j]))
					return 1;
	}
	return 0;
}

void lab_doc_col(struct lab_doc_table *t, const char *key, const char *unit, enum lab_doc_kind kind)
{
	char alt[160];

	if (!t || t->nrow || t->ncol == LAB_DOC_MAXCOL)
		return;
	/* a key from the data (a counter column's name) that another column's names hold gets a
	 * number: a JSON row with a key twice, a CSV header with a column twice read as one */
	for (unsigned n = 2; key && doc_col_taken(t, key, kind) && n < 100; n++) {
		snprintf(alt, sizeof(alt), "%.120s_%u", key, n);
		if (!doc_col_taken(t, alt, kind))
			key = alt;
	}
	t->col[t->ncol].key = lab__doc_str(t->doc, key);
	t->col[t->ncol].unit = lab__doc_str(t->doc, unit);
	t->ctitle[t->ncol] = NULL;
	t->col[t->ncol++].kind = kind;
}

void lab_doc_col_title(struct lab_doc_table *t, const char *title)
{
	if (t && t->ncol)
		t->ctitle[t->ncol - 1] = lab__doc_str(t->doc, title);
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
	    lab__doc_grow(t->doc, &t->cell, &t->ccap, (t->nrow + 1) * t->ncol, sizeof(*t->cell)) ||
	    lab__doc_grow(t->doc, &t->rnote, &r1, t->nrow + 1, sizeof(*t->rnote)) ||
	    lab__doc_grow(t->doc, &t->rwhy, &r2, t->nrow + 1, sizeof(*t->rwhy)))
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
	if (t && !t->doc->failed && t->nrow)
		LAB_DOC_VSET(t->doc, &t->rnote[t->nrow - 1], fmt);
}

void lab_doc_rwhy(struct lab_doc_table *t, const char *fmt, ...)
{
	if (t && !t->doc->failed && t->nrow)
		LAB_DOC_VSET(t->doc, &t->rwhy[t->nrow - 1], fmt);
}

struct lab_doc_matrix *lab_doc_matrix(struct lab_doc_section *s, const char *key, const char *title,
                                      size_t nr, size_t nc)
{
	struct lab_doc_matrix *m = s ? lab__doc_alloc(s->doc, sizeof(*m)) : NULL;
	struct lab_doc_block *b;

	if (!m || (nr && nc > SIZE_MAX / sizeof(*m->cell) / nr) ||
	    !(m->cell = lab__doc_alloc(s->doc, nr * nc * sizeof(*m->cell))) ||
	    !(m->rlab = lab__doc_alloc(s->doc, nr * sizeof(*m->rlab))) ||
	    !(m->clab = lab__doc_alloc(s->doc, nc * sizeof(*m->clab))) ||
	    !(b = lab__doc_block(s, LAB_DOC_MATRIX)))
		return NULL;
	m->doc = s->doc;
	m->key = lab__doc_str(s->doc, key);
	m->title = lab__doc_str(s->doc, title);
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
	    !(m->cell = lab__doc_alloc(s->doc, ncell * sizeof(*m->cell))) ||
	    !(m->pos = lab__doc_alloc(s->doc, ncell * sizeof(*m->pos))) ||
	    !(m->rlab = lab__doc_alloc(s->doc, nr * sizeof(*m->rlab))) ||
	    !(m->clab = lab__doc_alloc(s->doc, nc * sizeof(*m->clab))))
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
	c->n = n > UINT_MAX ? UINT_MAX : (unsigned)n;
	c->has = isfinite(mean) || isfinite(median);
	c->ci_median = 0;
}

void lab_doc_ival_median(struct lab_doc_cell *c, double median, double mean, double lo, double hi,
                         size_t n)
{
	lab_doc_ival(c, median, mean, lo, hi, n);
	c->ci_median = isfinite(median);
}

void lab_doc_str(struct lab_doc *d, struct lab_doc_cell *c, const char *s)
{
	if (c != &doc_scratch && s) {
		c->text = lab__doc_str(d, s);
		c->has = 1;
	}
}

void lab_doc_why(struct lab_doc *d, struct lab_doc_cell *c, const char *fmt, ...)
{
	if (c != &doc_scratch)
		LAB_DOC_VSET(d, &c->why, fmt);
}

void lab_doc_cnote(struct lab_doc *d, struct lab_doc_cell *c, const char *fmt, ...)
{
	if (c != &doc_scratch)
		LAB_DOC_VSET(d, &c->note, fmt);
}
