/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A document as the text tables of `lab analyze` (render.h). */
#include <math.h>
#include <string.h>

#include "analyze/render/render.h"

/* Widest column the text pads to; a longer cell is printed whole and pushes the row. */
#define TXT_MAXW 44

const char *lab_render_head(const struct lab_doc_col *col, char *buf, size_t len)
{
	const char *u = col->unit ? col->unit : "";

	if (col->kind == LAB_DOC_INTERVAL)
		snprintf(buf, len, "%s%s%s%s median | mean [95%% CI]", col->key, *u ? " (" : "", u,
		         *u ? ")" : "");
	else
		snprintf(buf, len, "%s%s%s%s", col->key, *u ? " (" : "", u, *u ? ")" : "");
	return buf;
}

const char *lab_render_cell(const struct lab_doc_col *col, const struct lab_doc_cell *c, char *buf,
                            size_t len)
{
	int n = 0;

	if (!c->has)
		n = snprintf(buf, len, "%s", c->why ? c->why : "-");
	else if (col->kind == LAB_DOC_KEY || col->kind == LAB_DOC_TEXT)
		n = snprintf(buf, len, "%s", c->text ? c->text : "-");
	else if (col->kind == LAB_DOC_COUNT)
		n = snprintf(buf, len, "%.0f", c->mean);
	else if (col->kind != LAB_DOC_INTERVAL)
		n = snprintf(buf, len, "%.4g", c->mean);
	else if (isfinite(c->median) && isfinite(c->lo))
		n = snprintf(buf, len, "%.4g | %.4g [%.4g, %.4g]", c->median, c->mean, c->lo,
		             c->hi);
	else if (isfinite(c->lo))
		n = snprintf(buf, len, "%.4g [%.4g, %.4g]", c->mean, c->lo, c->hi);
	else if (isfinite(c->median) && isfinite(c->mean))
		n = snprintf(buf, len, "%.4g | %.4g [no CI]", c->median, c->mean);
	else
		n = snprintf(buf, len, "%.4g", isfinite(c->mean) ? c->mean : c->median);
	if (c->note && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " %s", c->note);
	return buf;
}

static void txt_table(FILE *f, const struct lab_doc_table *t)
{
	size_t w[LAB_DOC_MAXCOL], nkey = 0;
	char buf[512];

	for (size_t k = 0; k < t->ncol; k++) {
		w[k] = strlen(lab_render_head(&t->col[k], buf, sizeof(buf)));
		nkey += t->col[k].kind == LAB_DOC_KEY && nkey == k;
	}
	for (size_t r = 0; r < t->nrow; r++)
		for (size_t k = 0; k < t->ncol; k++) {
			size_t n = strlen(lab_render_cell(&t->col[k], &t->cell[r * t->ncol + k],
			                                  buf, sizeof(buf)));

			if (n > w[k])
				w[k] = n < TXT_MAXW ? n : TXT_MAXW;
		}
	if (t->title)
		fprintf(f, "%s\n", t->title);
	for (size_t k = 0; k < t->ncol; k++)
		fprintf(f, "%s%-*s", k ? "  " : "", (int)w[k],
		        lab_render_head(&t->col[k], buf, sizeof(buf)));
	fputc('\n', f);
	for (size_t r = 0; r < t->nrow; r++) {
		for (size_t k = 0; k < t->ncol && (!t->rwhy[r] || k < nkey); k++)
			fprintf(f, "%s%-*s", k ? "  " : "", (int)w[k],
			        lab_render_cell(&t->col[k], &t->cell[r * t->ncol + k], buf,
			                        sizeof(buf)));
		if (t->rwhy[r])
			fprintf(f, "  %s", t->rwhy[r]);
		if (t->rnote[r])
			fprintf(f, "  %s", t->rnote[r]);
		fputc('\n', f);
	}
}

static void txt_grid(FILE *f, const struct lab_doc_matrix *m)
{
	static const struct lab_doc_col num = {"", NULL, LAB_DOC_VALUE};
	char buf[512];
	int w = 9;

	/* the widest cell sets the columns' width (up to TXT_MAXW): no value or note is cut */
	for (size_t i = 0; i < m->ncell; i++)
		if (m->cell[i].has) {
			int n = (int)strlen(lab_render_cell(&num, &m->cell[i], buf, sizeof(buf)));

			w = n > w ? (n < TXT_MAXW ? n : TXT_MAXW) : w;
		}
	fprintf(f, "%14.14s", m->rname ? m->rname : "");
	for (size_t j = 0; j < m->nc; j++)
		fprintf(f, " %*.*s", w, w, m->clab[j] ? m->clab[j] : "?");
	fputc('\n', f);
	for (size_t i = 0; i < m->nr; i++) {
		fprintf(f, "%14.14s", m->rlab[i] ? m->rlab[i] : "?");
		for (size_t j = 0; j < m->nc; j++) {
			const struct lab_doc_cell *c = &m->cell[i * m->nc + j];

			fprintf(f, " %*.*s", w, w,
			        c->has ? lab_render_cell(&num, c, buf, sizeof(buf)) : "-");
		}
		fputc('\n', f);
	}
}

static void txt_matrix(FILE *f, const struct lab_doc_matrix *m)
{
	fprintf(f, "%s%s%s%s\n", m->title ? m->title : m->key, m->unit ? " (" : "",
	        m->unit ? m->unit : "", m->unit ? ")" : "");
	if (m->pos) /* sparse: the count instead of a grid of mostly empty cells */
		fprintf(f, "  %zu of %zu x %zu cells have a value (drawn, not printed)\n", m->ncell,
		        m->nr, m->nc);
	else
		txt_grid(f, m);
	if (m->legend)
		fprintf(f, "  (%s)\n", m->legend);
}

void lab_render_text(FILE *f, const struct lab_doc *d)
{
	for (size_t i = 0; i < d->ns; i++)
		lab_render_text_section(f, d, i);
	if (d->ns && d->note)
		fprintf(f, "  (%s)\n", d->note);
}

void lab_render_text_section(FILE *f, const struct lab_doc *d, size_t i)
{
	const struct lab_doc_section *s = d->s[i];

	fprintf(f, "\n== %s: %s  %s\n", s->title ? s->title : d->title,
	        s->experiment ? s->experiment : "all experiments", s->sub ? s->sub : "-");
	if (s->lead)
		fprintf(f, "%s\n", s->lead);
	for (size_t j = 0; j < s->nb; j++) {
		const struct lab_doc_block *b = &s->b[j];

		if (b->type == LAB_DOC_TABLE)
			txt_table(f, b->u.table);
		else if (b->type == LAB_DOC_MATRIX)
			txt_matrix(f, b->u.matrix);
		else if (b->type == LAB_DOC_FINDING)
			fprintf(f, "  %s: %s%s%s%s\n",
			        b->u.finding->sev == LAB_DOC_WARN ? "WARNING" : "finding",
			        b->u.finding->text, b->u.finding->evidence ? " (" : "",
			        b->u.finding->evidence ? b->u.finding->evidence : "",
			        b->u.finding->evidence ? ")" : "");
		else if (b->type == LAB_DOC_NOTE)
			fprintf(f, "  note: %s\n", b->u.note);
	}
}
