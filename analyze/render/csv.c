/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A document's tables as CSV files (render.h), one per table key, every section's rows in it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/manifest.h"
#include "analyze/render/render.h"
#include "analyze/wfile.h"
#include "harness/json.h"
#include "harness/record_schema.h"

/* 1 when the character at u (*n bytes, set) is shown as an escape: a C0 control or DEL, a byte
 * of no valid UTF-8, a character lab_cp_escaped names; *cp its byte or code point. */
static int csv_escaped(const unsigned char *u, size_t *n, unsigned *cp)
{
	*n = lab_utf8_len(u);
	*cp = *u;
	if (*u < 0x20 || *u == 0x7f || !*n)
		return *n = 1;
	return (*cp = lab_utf8_control_cp(u, *n)) != 0;
}

/* 1 when a spreadsheet would take field s for a formula (CWE-1236): it starts with = or @, or
 * with + or - and is no number ("-1.5e3" keeps its sign; "=HYPERLINK(...)" from a results file
 * would be a link, "+cmd|..." a command). */
static int csv_formula(const char *s)
{
	char *end;

	if (*s == '=' || *s == '@')
		return 1;
	if (*s != '+' && *s != '-')
		return 0;
	(void)strtod(s, &end);
	return end == s || *end;
}

void lab_an_csv_field(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	char *out, *o;
	unsigned cp;
	size_t n;

	if (csv_formula(s)) { /* shown as text: an apostrophe before it, as OWASP advises */
		if ((out = malloc(strlen(s) + 2))) {
			out[0] = '\'';
			strcpy(out + 1, s);
			lab_an_csv_field(f, out);
		} else {
			lab_csv_field(f, "");
		}
		free(out);
		return;
	}
	while (*u && !csv_escaped(u, &n, &cp))
		u += n;
	if (!*u || !(out = malloc(6 * strlen(s) + 1))) { /* nothing to show otherwise */
		lab_csv_field(f, *u ? "" : s);
		return;
	}
	o = out + ((const char *)u - s);
	memcpy(out, s, (size_t)(o - out));
	for (; *u; u += n)
		if (!csv_escaped(u, &n, &cp)) {
			memcpy(o, u, n);
			o += n;
		} else {
			o += sprintf(o,
			             cp < 0x80 || n == 1 ? "\\x%02x"
			             : cp > 0xffff       ? "\\U%08x"
			                                 : "\\u%04x",
			             cp);
		}
	*o = '\0';
	lab_csv_field(f, out);
	free(out);
}

/* 1 when block b is a table for the files (not one for people alone). */
static int csv_table(const struct lab_doc_block *b)
{
	return b->type == LAB_DOC_TABLE && b->u.table->audience != LAB_DOC_PEOPLE;
}

/* The first table of key in d (its columns head the file); NULL: none. */
static const struct lab_doc_table *csv_first(const struct lab_doc *d, const char *key)
{
	for (size_t i = 0; i < d->ns; i++)
		for (size_t j = 0; j < d->s[i]->nb; j++)
			if (csv_table(&d->s[i]->b[j]) && !strcmp(d->s[i]->b[j].u.table->key, key))
				return d->s[i]->b[j].u.table;
	return NULL;
}

static char *csv_name(const struct lab_doc *d, const struct lab_doc_table *t)
{
	return t->csv ? lab_an_asprintf("%s.csv", t->csv)
	              : lab_an_asprintf("%s_%s.csv", d->view, t->key);
}

/* Calls fn on each distinct table key of d, in first-seen order (quadratic in the number of
 * distinct keys a view uses: a handful). */
static int csv_each_key(const struct lab_doc *d,
                        int (*fn)(const struct lab_doc *, const struct lab_doc_table *, void *),
                        void *arg)
{
	int rc = 0;

	for (size_t i = 0; i < d->ns && !rc; i++)
		for (size_t j = 0; j < d->s[i]->nb && !rc; j++)
			if (csv_table(&d->s[i]->b[j]) &&
			    csv_first(d, d->s[i]->b[j].u.table->key) == d->s[i]->b[j].u.table)
				rc = fn(d, d->s[i]->b[j].u.table, arg);
	return rc;
}

static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		lab_fput_g(f, 10, v);
}

/* The columns of one CSV file: every column of its tables, by key and kind, in first-seen
 * order. Tables of one key may differ (simd_speedup's x is size in one section, accumulators in
 * another: their values were written under the first table's header by position, review40). */
struct csv_cols {
	const struct lab_doc_col **c;
	size_t n, cap;
};

/* Column c's index in m, m->n when absent. */
static size_t csv_col_at(const struct csv_cols *m, const struct lab_doc_col *c)
{
	size_t k = 0;

	while (k < m->n && (m->c[k]->kind != c->kind || strcmp(m->c[k]->key, c->key)))
		k++;
	return k;
}

/* The columns of d's tables of key into m. 0 or -1 when out of memory. */
static int csv_cols_of(const struct lab_doc *d, const char *key, struct csv_cols *m)
{
	for (size_t i = 0; i < d->ns; i++)
		for (size_t j = 0; j < d->s[i]->nb; j++) {
			const struct lab_doc_table *t = d->s[i]->b[j].u.table;

			if (!csv_table(&d->s[i]->b[j]) || strcmp(t->key, key))
				continue;
			for (size_t k = 0; k < t->ncol; k++)
				if (csv_col_at(m, &t->col[k]) == m->n) {
					if (lab_an_grow(&m->c, &m->cap, m->n + 1, sizeof(*m->c)))
						return -1;
					m->c[m->n++] = &t->col[k];
				}
		}
	return 0;
}

/* 1 when the file has its own params column: the leading one is left out then (counters had
 * its params column after an always empty leading one: two columns of one name). */
static int csv_own(const struct csv_cols *m)
{
	for (size_t k = 0; k < m->n; k++)
		if (!strcmp(m->c[k]->key, "params"))
			return 1;
	return 0;
}

static void csv_head(FILE *f, const struct csv_cols *m)
{
	fputs(csv_own(m) ? "experiment" : "experiment,params", f);
	for (size_t k = 0; k < m->n; k++) {
		const char *key = m->c[k]->key;

		fputc(',', f);
		lab_an_csv_field(f, key);
		if (m->c[k]->kind == LAB_DOC_INTERVAL)
			fprintf(f, ",%s_mean,%s_lo,%s_hi,%s_n", key, key, key, key);
		else if (m->c[k]->kind == LAB_DOC_ESTIMATE)
			fprintf(f, ",%s_lo,%s_hi", key, key);
	}
	fputs(",note\n", f);
}

/* The note column: the row's why and note, and each cell's why and note after its column's
 * key (two columns' notes read as one row's: "no streams: the chase alone; not clearly
 * above 0"). */
static void csv_note(FILE *f, const struct lab_doc_table *t, size_t r)
{
	char buf[1024];
	size_t n = 0;

	buf[0] = '\0';
#define CSV_ADD(k, s)                                                                              \
	if ((s) && n < sizeof(buf))                                                                \
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s%s%s", n ? "; " : "",         \
		                      k ? k : "", k ? ": " : "", (s));
	CSV_ADD(NULL, t->rwhy[r]);
	CSV_ADD(NULL, t->rnote[r]);
	for (size_t k = 0; k < t->ncol; k++) {
		const struct lab_doc_cell *c = &t->cell[r * t->ncol + k];
		CSV_ADD(t->col[k].key, c->has ? NULL : c->why);
		CSV_ADD(t->col[k].key, c->note);
	}
#undef CSV_ADD
	fputc(',', f);
	lab_an_csv_field(f, buf);
}

/* The fields of cell c of a column of kind (c NULL: the table has no such column: empty). */
static void csv_cell(FILE *f, enum lab_doc_kind kind, const struct lab_doc_cell *c)
{
	int has = c && c->has;

	if (kind == LAB_DOC_KEY || kind == LAB_DOC_TEXT) {
		fputc(',', f);
		lab_an_csv_field(f, has ? c->text : "");
	} else if (kind == LAB_DOC_INTERVAL) {
		csv_num(f, has ? c->median : NAN);
		csv_num(f, has ? c->mean : NAN);
		csv_num(f, has ? c->lo : NAN);
		/* [lo, unbounded): inf, as an ESTIMATE's */
		if (has && isfinite(c->lo) && isinf(c->hi) && c->hi > 0)
			fputs(",inf", f);
		else
			csv_num(f, has ? c->hi : NAN);
		if (c)
			fprintf(f, ",%u", c->n);
		else
			fputc(',', f);
	} else {
		csv_num(f, has ? c->mean : NAN);
		if (kind == LAB_DOC_ESTIMATE) {
			csv_num(f, has ? c->lo : NAN);
			fputs(has && isinf(c->hi) ? ",inf" : "", f);
			if (!(has && isinf(c->hi)))
				csv_num(f, has ? c->hi : NAN);
		}
	}
}

/* t's rows under the file's columns m (where t has none of a column: empty fields); at holds
 * m->n. */
static void csv_rows(FILE *f, const struct lab_doc_section *s, const struct lab_doc_table *t,
                     const struct csv_cols *m, size_t *at)
{
	int own = csv_own(m);

	for (size_t j = 0; j < m->n; j++)
		for (at[j] = 0; at[j] < t->ncol; at[j]++)
			if (t->col[at[j]].kind == m->c[j]->kind &&
			    !strcmp(t->col[at[j]].key, m->c[j]->key))
				break;
	for (size_t r = 0; r < t->nrow; r++) {
		lab_an_csv_field(f, s->experiment ? s->experiment : "");
		if (!own) {
			fputc(',', f);
			lab_an_csv_field(f, s->sub ? s->sub : "");
		}
		for (size_t j = 0; j < m->n; j++)
			csv_cell(f, m->c[j]->kind,
			         at[j] < t->ncol ? &t->cell[r * t->ncol + at[j]] : NULL);
		csv_note(f, t, r);
		fputc('\n', f);
	}
}

struct csv_ctx {
	const char *dir;
	struct lab_an_manifest *wrote;
	struct lab_err *err;
};

static int csv_write(const struct lab_doc *d, const struct lab_doc_table *first, void *arg)
{
	struct csv_ctx *x = arg;
	char *name = csv_name(d, first),
	     *path = name ? lab_an_asprintf("%s/%s", x->dir, name) : NULL;
	struct lab_an_wfile w;
	struct csv_cols m = {0};
	size_t *at = NULL;
	FILE *f = NULL;
	int rc;

	if (!path || csv_cols_of(d, first->key, &m) || !(at = calloc(m.n + 1, sizeof(*at)))) {
		free(name);
		free(path);
		free(m.c);
		return lab_err_set(x->err, LAB_ENOMEM, "out of memory");
	}
	if (!(f = lab_an_wfile_open(&w, path, x->err))) {
		free(name);
		free(path);
		free(m.c);
		free(at);
		return -LAB_EIO;
	}
	csv_head(f, &m);
	for (size_t i = 0; i < d->ns; i++)
		for (size_t j = 0; j < d->s[i]->nb; j++)
			if (csv_table(&d->s[i]->b[j]) &&
			    !strcmp(d->s[i]->b[j].u.table->key, first->key))
				csv_rows(f, d->s[i], d->s[i]->b[j].u.table, &m, at);
	free(m.c);
	free(at);
	rc = lab_an_wfile_close(&w, 1, x->err);
	if (!rc && x->wrote && lab_an_manifest_add(x->wrote, NULL, name))
		rc = lab_err_set(x->err, LAB_ENOMEM, "out of memory");
	free(name);
	free(path);
	return rc;
}

int lab_render_csv(const struct lab_doc *d, const char *dir, struct lab_an_manifest *wrote,
                   struct lab_err *err)
{
	struct csv_ctx x = {dir, wrote, err};

	return csv_each_key(d, csv_write, &x);
}

struct csv_names {
	char **names;
	size_t n, max;
};

static int csv_add_name(const struct lab_doc *d, const struct lab_doc_table *t, void *arg)
{
	struct csv_names *x = arg;

	if (x->n < x->max && (x->names[x->n] = csv_name(d, t)))
		x->n++;
	return 0;
}

size_t lab_render_csv_names(const struct lab_doc *d, char **names, size_t max)
{
	struct csv_names x = {names, 0, max};

	csv_each_key(d, csv_add_name, &x);
	return x.n;
}
