/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A document in analysis.json (render.h): "VIEW": {"title", "about", "note", "sections": [...]}
 * per experiment. A section: "params", "title", "lead", "tables": {KEY: {"columns": [{key,
 * unit, kind}], "rows": [...]}}, "matrices": {KEY: {..., "cells": [[...] per row], or, sparse,
 * [[row, column, value] per cell]}}, "figures": [...] (axes and ceilings;
 * the points are the tables'), "findings", "notes". A row is an object: KEY for a label or a
 * number (null when there is none, with KEY_why), an interval as KEY (the median, else the
 * mean), KEY_mean, KEY_ci95 [lo, hi] and KEY_n; KEY_note, and the row's "why" and "note".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/render/render.h"
#include "harness/json.h"

static const char *const json_kind[] = {"key",   "text",  "value",    "interval",
                                        "count", "ratio", "estimate", "bytes"};

/* "KEYsuffix" into buf. */
static const char *json_key(char *buf, size_t len, const char *key, const char *suffix)
{
	snprintf(buf, len, "%s%s", key, suffix);
	return buf;
}

static void json_cell(struct lab_json *w, const struct lab_doc_col *col,
                      const struct lab_doc_cell *c)
{
	char k[160];

	if (!c->has)
		lab_json_null(w, col->key);
	else if (col->kind == LAB_DOC_KEY || col->kind == LAB_DOC_TEXT)
		lab_json_str(w, col->key, c->text);
	else
		lab_json_num(w, col->key,
		             col->kind == LAB_DOC_INTERVAL && isfinite(c->median) ? c->median
		                                                                  : c->mean);
	if (col->kind == LAB_DOC_INTERVAL) {
		lab_json_num(w, json_key(k, sizeof(k), col->key, "_mean"), c->has ? c->mean : NAN);
		if (c->has && isfinite(c->lo) && (isfinite(c->hi) || (isinf(c->hi) && c->hi > 0)))
			/* [lo, null]: unbounded above, as an ESTIMATE's */
			lab_json_pair(w, json_key(k, sizeof(k), col->key, "_ci95"), c->lo,
			              isfinite(c->hi) ? c->hi : NAN);
		else
			lab_json_null(w, json_key(k, sizeof(k), col->key, "_ci95"));
		if (c->has && c->ci_median) /* absent: the interval is the mean's */
			lab_json_str(w, json_key(k, sizeof(k), col->key, "_ci95_of"), "median");
		lab_json_uint(w, json_key(k, sizeof(k), col->key, "_n"), c->has ? c->n : 0);
	}
	if (col->kind == LAB_DOC_ESTIMATE) { /* [lo, null]: unbounded above; null: no interval */
		json_key(k, sizeof(k), col->key, "_ci95");
		if (c->has && isfinite(c->lo) && !isnan(c->hi)) {
			lab_json_arr_open(w, k);
			lab_json_num(w, NULL, c->lo);
			lab_json_num(w, NULL, isfinite(c->hi) ? c->hi : NAN);
			lab_json_arr_close(w);
		} else
			lab_json_null(w, k);
	}
	if (c->why && !c->has)
		lab_json_str(w, json_key(k, sizeof(k), col->key, "_why"), c->why);
	if (c->note)
		lab_json_str(w, json_key(k, sizeof(k), col->key, "_note"), c->note);
}

static void json_table(struct lab_json *w, const struct lab_doc_table *t)
{
	lab_json_obj_open(w, t->key);
	lab_json_str(w, "title", t->title);
	lab_json_arr_open(w, "columns");
	for (size_t k = 0; k < t->ncol; k++) {
		lab_json_obj_open(w, NULL);
		lab_json_str(w, "key", t->col[k].key);
		lab_json_str(w, "unit", t->col[k].unit);
		lab_json_str(w, "kind", json_kind[t->col[k].kind]);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
	lab_json_arr_open(w, "rows");
	for (size_t r = 0; r < t->nrow; r++) {
		lab_json_obj_open_line(w, NULL);
		for (size_t k = 0; k < t->ncol; k++)
			json_cell(w, &t->col[k], &t->cell[r * t->ncol + k]);
		if (t->rwhy[r])
			lab_json_str(w, "why", t->rwhy[r]);
		if (t->rnote[r])
			lab_json_str(w, "note", t->rnote[r]);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
	lab_json_obj_close(w);
}

static void json_labels(struct lab_json *w, const char *key, const char *const *lab, size_t n)
{
	lab_json_arr_open(w, key);
	for (size_t i = 0; i < n; i++)
		lab_json_str(w, NULL, lab[i]);
	lab_json_arr_close(w);
}

static void json_matrix(struct lab_json *w, const struct lab_doc_matrix *m)
{
	lab_json_obj_open(w, m->key);
	lab_json_str(w, "title", m->title);
	lab_json_str(w, "unit", m->unit);
	lab_json_str(w, "legend", m->legend);
	lab_json_str(w, "rows_are", m->rname);
	lab_json_str(w, "columns_are", m->cname);
	json_labels(w, "row_labels", m->rlab, m->nr);
	json_labels(w, "column_labels", m->clab, m->nc);
	lab_json_arr_open(w, "cells");
	for (size_t k = 0; m->pos && k < m->ncell; k++) {
		lab_json_arr_open(w, NULL);
		lab_json_uint(w, NULL, m->pos[k] / m->nc);
		lab_json_uint(w, NULL, m->pos[k] % m->nc);
		lab_json_num(w, NULL, m->cell[k].has ? m->cell[k].mean : NAN);
		lab_json_arr_close(w);
	}
	for (size_t i = 0; !m->pos && i < m->nr; i++) {
		lab_json_arr_open(w, NULL);
		for (size_t j = 0; j < m->nc; j++)
			lab_json_num(w, NULL,
			             m->cell[i * m->nc + j].has ? m->cell[i * m->nc + j].mean
			                                        : NAN);
		lab_json_arr_close(w);
	}
	lab_json_arr_close(w);
	lab_json_obj_close(w);
}

static void json_figure(struct lab_json *w, const struct lab_doc_figure *f)
{
	lab_json_obj_open(w, NULL);
	lab_json_str(w, "key", f->key);
	lab_json_str(w, "title", f->title);
	lab_json_str(w, "x", f->xlabel);
	lab_json_str(w, "y", f->ylabel);
	lab_json_bool(w, "log_x", f->logx);
	lab_json_bool(w, "log_y", f->logy);
	lab_json_arr_open(w, "ceilings");
	for (size_t i = 0; i < f->nc; i++)
		if (f->c[i]->style == LAB_DOC_ROOF) {
			lab_json_obj_open(w, NULL);
			lab_json_str(w, "label", f->c[i]->label);
			lab_json_num(w, "flat", f->c[i]->a);
			lab_json_num(w, "slope", f->c[i]->b);
			lab_json_obj_close(w);
		}
	lab_json_arr_close(w);
	lab_json_obj_close(w);
}

/* 1 when block b is of type and not a table for people alone (the text's shorter view). */
static int json_is(const struct lab_doc_block *b, enum lab_doc_btype type)
{
	return b->type == type && (type != LAB_DOC_TABLE || b->u.table->audience != LAB_DOC_PEOPLE);
}

/* Writes the blocks of type of s as "key": {...} (tables, matrices) or [...] (the rest). */
static void json_blocks(struct lab_json *w, const struct lab_doc_section *s,
                        enum lab_doc_btype type, const char *key)
{
	size_t n = 0;

	for (size_t j = 0; j < s->nb; j++)
		n += json_is(&s->b[j], type);
	if (!n)
		return;
	if (type == LAB_DOC_TABLE || type == LAB_DOC_MATRIX)
		lab_json_obj_open(w, key);
	else
		lab_json_arr_open(w, key);
	for (size_t j = 0; j < s->nb; j++) {
		const struct lab_doc_block *b = &s->b[j];

		if (!json_is(b, type))
			continue;
		if (type == LAB_DOC_TABLE)
			json_table(w, b->u.table);
		else if (type == LAB_DOC_MATRIX)
			json_matrix(w, b->u.matrix);
		else if (type == LAB_DOC_FIGURE)
			json_figure(w, b->u.figure);
		else if (type == LAB_DOC_NOTE)
			lab_json_str(w, NULL, b->u.note);
		else {
			lab_json_obj_open(w, NULL);
			lab_json_str(w, "severity",
			             b->u.finding->sev == LAB_DOC_WARN ? "warning" : "info");
			lab_json_str(w, "text", b->u.finding->text);
			lab_json_str(w, "evidence", b->u.finding->evidence);
			lab_json_obj_close(w);
		}
	}
	if (type == LAB_DOC_TABLE || type == LAB_DOC_MATRIX)
		lab_json_obj_close(w);
	else
		lab_json_arr_close(w);
}

void lab_render_json(struct lab_json *w, const struct lab_doc *d, const size_t *sec, size_t n)
{
	if (!n)
		return;
	lab_json_obj_open(w, d->view);
	lab_json_str(w, "title", d->title);
	lab_json_str(w, "about", d->about);
	lab_json_str(w, "note", d->note);
	lab_json_arr_open(w, "sections");
	for (size_t i = 0; i < n; i++) {
		const struct lab_doc_section *s = d->s[sec[i]];

		lab_json_obj_open(w, NULL);
		lab_json_str(w, "params", s->sub ? s->sub : "");
		lab_json_str(w, "title", s->title);
		lab_json_str(w, "lead", s->lead);
		json_blocks(w, s, LAB_DOC_TABLE, "tables");
		json_blocks(w, s, LAB_DOC_MATRIX, "matrices");
		json_blocks(w, s, LAB_DOC_FIGURE, "figures");
		json_blocks(w, s, LAB_DOC_FINDING, "findings");
		json_blocks(w, s, LAB_DOC_NOTE, "notes");
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
	lab_json_obj_close(w);
}
