/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A document as the text tables of `lab analyze` (render.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/render/render.h"
#include "harness/json.h"

/* Widest column the text pads to; a longer cell is printed whole and pushes the row. */
#define TXT_MAXW 44
/* The rows a table's column widths are taken from (measuring every cell twice costs as much
 * as printing it: 100 000 rows). */
#define TXT_WROWS 200

const char *lab_render_head(const struct lab_doc_table *t, size_t k, char *buf, size_t len)
{
	const struct lab_doc_col *col = &t->col[k];
	const char *u = col->unit ? col->unit : "", *key = t->ctitle[k] ? t->ctitle[k] : col->key;
	/* intervals of the mean, of the median; cells with a median, with a mean alone */
	size_t of[2] = {0, 0}, med = 0, mean = 0;

	for (size_t r = 0; col->kind == LAB_DOC_INTERVAL && r < t->nrow; r++) {
		const struct lab_doc_cell *c = &t->cell[r * t->ncol + k];
		of[c->ci_median != 0] += c->has && !isnan(c->lo);
		med += c->has && isfinite(c->median);
		mean += c->has && !isfinite(c->median) && isfinite(c->mean);
	}
	if (col->kind == LAB_DOC_INTERVAL && of[1])
		snprintf(buf, len, "%s%s%s%s %s", key, *u ? " (" : "", u, *u ? ")" : "",
		         of[0] ? "median | mean [95% CI of the number it follows]"
		               : "median [95% CI] | mean");
	else if (col->kind == LAB_DOC_INTERVAL || col->kind == LAB_DOC_ESTIMATE)
		snprintf(buf, len, "%s%s%s%s %s[95%% CI]", key, *u ? " (" : "", u, *u ? ")" : "",
		         /* a column of means alone (a numa point of runs) says so */
		         col->kind == LAB_DOC_INTERVAL && (med || !mean) ? "median | mean "
		         : col->kind == LAB_DOC_INTERVAL                 ? "mean "
		                                                         : "");
	else
		snprintf(buf, len, "%s%s%s%s", key, *u ? " (" : "", u, *u ? ")" : "");
	return buf;
}

/* Appends the k bytes of s to the cell text of length *n in buf, as one snprintf of the whole
 * text would: what does not fit is cut, *n counts it all. */
static void cell_put(char *buf, size_t len, size_t *n, const char *s, size_t k)
{
	if (*n + 1 < len) {
		size_t c = k < len - 1 - *n ? k : len - 1 - *n;

		memcpy(buf + *n, s, c);
		buf[*n + c] = '\0';
	}
	*n += k;
}

static void cell_str(char *buf, size_t len, size_t *n, const char *s)
{
	cell_put(buf, len, n, s, strlen(s));
}

static void cell_count(char *buf, size_t len, size_t *n, double v);

/* "%.4g" of v (lab_fmt_g: printf's bytes without printf; cells are most of the text and the
 * report); from 10 000 to 10^15 a whole number (a makespan of 1.235e+06 ns beside one of
 * 9.87e+05 read as two exponents to compare, newcomer44). */
static void cell_g(char *buf, size_t len, size_t *n, double v)
{
	char s[64];
	int k;

	if (fabs(v) >= 9999.5 && fabs(v) < 1e15) {
		if (v < 0)
			cell_str(buf, len, n, "-");
		cell_count(buf, len, n, round(fabs(v)));
		return;
	}
	k = lab_fmt_g(s, sizeof(s), 4, v);
	cell_put(buf, len, n, s, k > 0 ? (size_t)k : 0);
}

/* "%.0f" of a count: an integer below 2^53 digit by digit, anything else through printf. */
static void cell_count(char *buf, size_t len, size_t *n, double v)
{
	char s[400];
	size_t k = sizeof(s);

	if (v >= 0 && v < 9007199254740992.0 && v == floor(v) && !signbit(v)) {
		unsigned long long u = (unsigned long long)v;

		do
			s[--k] = (char)('0' + u % 10);
		while (u /= 10);
		cell_put(buf, len, n, s + k, sizeof(s) - k);
		return;
	}
	k = (size_t)snprintf(s, sizeof(s), "%.0f", v);
	cell_put(buf, len, n, s, k < sizeof(s) ? k : sizeof(s) - 1);
}

/* " [lo, hi]" of an interval with a finite lo; an end not known is never "nan": "unbounded)"
 * above (+inf: the ray [lo, inf) is open there), else "-". */
static void cell_bracket(char *buf, size_t len, size_t *n, double lo, double hi)
{
	cell_str(buf, len, n, " [");
	cell_g(buf, len, n, lo);
	cell_str(buf, len, n, ", ");
	if (isfinite(hi))
		cell_g(buf, len, n, hi);
	cell_str(buf, len, n, isfinite(hi) ? "]" : hi > 0 ? "unbounded)" : "-]");
}

/* The number of an ESTIMATE cell: "m [lo, hi]", "m [lo, unbounded)", "m [no CI]". */
static void cell_estimate(char *buf, size_t len, size_t *n, const struct lab_doc_cell *c)
{
	cell_g(buf, len, n, c->mean);
	if (isfinite(c->lo) && (isfinite(c->hi) || isinf(c->hi)))
		cell_bracket(buf, len, n, c->lo, c->hi);
	else
		cell_str(buf, len, n, isinf(c->hi) ? " [unbounded]" : " [no CI]");
}

/* The number of an INTERVAL cell: "median | mean [lo, hi]" and what of it there is ("[lo,
 * unbounded)", "[lo, -]" when hi is not known); "median [lo, hi] | mean" when the interval is
 * the median's. */
static void cell_interval(char *buf, size_t len, size_t *n, const struct lab_doc_cell *c)
{
	if (c->ci_median && isfinite(c->median) && isfinite(c->lo)) {
		cell_g(buf, len, n, c->median);
		cell_bracket(buf, len, n, c->lo, c->hi);
		if (isfinite(c->mean)) {
			cell_str(buf, len, n, " | ");
			cell_g(buf, len, n, c->mean);
		}
	} else if (isfinite(c->lo) || (isfinite(c->median) && isfinite(c->mean))) {
		if (isfinite(c->median)) {
			cell_g(buf, len, n, c->median);
			cell_str(buf, len, n, " | ");
		}
		cell_g(buf, len, n, c->mean);
		if (!isfinite(c->lo)) {
			cell_str(buf, len, n, " [no CI]");
			return;
		}
		cell_bracket(buf, len, n, c->lo, c->hi);
	} else
		cell_g(buf, len, n, isfinite(c->mean) ? c->mean : c->median);
}

/* A size in bytes in the largest binary unit it reaches: "16 KiB", "1.5 MiB", "100 B", with
 * up to 7 digits so that two sizes never read alike (16385 B is 16.00098 KiB, 1048575 B
 * 1023.999 KiB, not 16 and 1024); a number that is no size (negative, NaN) as a count. */
static void cell_bytes(char *buf, size_t len, size_t *n, double v)
{
	static const char *const unit[] = {" B", " KiB", " MiB", " GiB", " TiB", " PiB", " EiB"};
	size_t u = 0;

	if (!(v >= 0) || isinf(v)) {
		cell_count(buf, len, n, v);
		return;
	}
	while (u + 1 < sizeof(unit) / sizeof(unit[0]) && v >= 1024) {
		v /= 1024;
		u++;
	}
	char s[64];
	int k = lab_fmt_g(s, sizeof(s), 7, v);

	cell_put(buf, len, n, s, k > 0 ? (size_t)k : 0);
	cell_str(buf, len, n, unit[u]);
}

const char *lab_render_cell(const struct lab_doc_col *col, const struct lab_doc_cell *c, char *buf,
                            size_t len)
{
	size_t n = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!c->has)
		cell_str(buf, len, &n, c->why ? c->why : "-");
	else if (col->kind == LAB_DOC_KEY || col->kind == LAB_DOC_TEXT)
		cell_str(buf, len, &n, c->text ? c->text : "-");
	else if (col->kind == LAB_DOC_COUNT)
		cell_count(buf, len, &n, c->mean);
	else if (col->kind == LAB_DOC_BYTES)
		cell_bytes(buf, len, &n, c->mean);
	else if (col->kind == LAB_DOC_ESTIMATE)
		cell_estimate(buf, len, &n, c);
	else if (col->kind != LAB_DOC_INTERVAL)
		cell_g(buf, len, &n, c->mean);
	else
		cell_interval(buf, len, &n, c);
	if (c->note && n < len)
		snprintf(buf + n, len - n, " %s", c->note);
	return buf;
}

const char *lab_render_line(const char *s, char *buf, size_t len)
{
	size_t k = 0;

	for (; s && *s && k + 3 < len; s++) {
		if (*s == '\n' || *s == '\r') {
			buf[k++] = '\\';
			buf[k++] = *s == '\n' ? 'n' : 'r';
		} else
			buf[k++] = *s;
	}
	buf[k] = '\0';
	return buf;
}

void lab_render_text_line(FILE *f, const char *s)
{
	while (s && *s) {
		size_t run = strcspn(s, "\n\r");

		fwrite(s, 1, run, f);
		if (!s[run])
			return;
		fputs(s[run] == '\n' ? "\\n" : "\\r", f);
		s += run + 1;
	}
}

/* The cells of a table's first TXT_WROWS rows as the text shows them, on one line: formatted
 * once to measure the columns and printed from here (a table of a few rows, the common case,
 * would otherwise format every cell twice). */
struct txt_cache {
	char *pool; /* the cells' text, each NUL-terminated */
	size_t len, cap;
	size_t *off; /* cell r * ncol + k at pool + off[...] */
};

/* Cell k of row r of t as the text shows it, on one line, into buf. */
static const char *txt_cell(const struct lab_doc_table *t, size_t r, size_t k, char *buf,
                            size_t len)
{
	char raw[512];

	return lab_render_line(
	    lab_render_cell(&t->col[k], &t->cell[r * t->ncol + k], raw, sizeof(raw)), buf, len);
}

/* Fills c with the cells of t's first nr rows and widens w to them; 0, or -1 when out of
 * memory (the cells are then formatted again as they are printed). */
static int txt_measure(const struct lab_doc_table *t, size_t nr, size_t *w, struct txt_cache *c)
{
	char buf[512];

	if (!(c->off = malloc(nr * t->ncol * sizeof(*c->off))))
		return -1;
	for (size_t i = 0; i < nr * t->ncol; i++) {
		size_t n = strlen(txt_cell(t, i / t->ncol, i % t->ncol, buf, sizeof(buf)));

		if (c->len + n + 1 > c->cap) {
			size_t cap = 2 * c->cap + n + 1024;
			char *p = realloc(c->pool, cap);

			if (!p)
				return -1;
			c->pool = p;
			c->cap = cap;
		}
		memcpy(c->pool + c->len, buf, n + 1);
		c->off[i] = c->len;
		c->len += n + 1;
		if (n > w[i % t->ncol]) /* a longer cell later pushes its row */
			w[i % t->ncol] = n < TXT_MAXW ? n : TXT_MAXW;
	}
	return 0;
}

/* A column's header on one line (its unit is a results file's: a newline in it would start a
 * row of its own). */
static const char *txt_head(const struct lab_doc_table *t, size_t k, char *buf, size_t len)
{
	char raw[512];

	return lab_render_line(lab_render_head(t, k, raw, sizeof(raw)), buf, len);
}

/* fprintf(f, "%s%-*s", sep, w, s) without printf (a cell of the text tables). */
static void txt_pad(FILE *f, const char *sep, size_t w, const char *s)
{
	static const char sp[] = "                                            "; /* TXT_MAXW */
	size_t n = strlen(s);

	fputs(sep, f);
	fwrite(s, 1, n, f);
	for (; n < w; n += sizeof(sp) - 1)
		fwrite(sp, 1, w - n < sizeof(sp) - 1 ? w - n : sizeof(sp) - 1, f);
}

static void txt_table(FILE *f, const struct lab_doc_table *t)
{
	size_t w[LAB_DOC_MAXCOL], nkey = 0, nr = t->nrow < TXT_WROWS ? t->nrow : TXT_WROWS;
	struct txt_cache c = {0};
	char buf[512];
	int cached;

	if (t->audience == LAB_DOC_TOOLS)
		return;
	for (size_t k = 0; k < t->ncol; k++) {
		w[k] = strlen(txt_head(t, k, buf, sizeof(buf)));
		nkey += t->col[k].kind == LAB_DOC_KEY && nkey == k;
	}
	cached = nr && !txt_measure(t, nr, w, &c);
	if (t->title)
		fprintf(f, "%s\n", lab_render_line(t->title, buf, sizeof(buf)));
	for (size_t k = 0; k < t->ncol; k++)
		fprintf(f, "%s%-*s", k ? "  " : "", (int)w[k], txt_head(t, k, buf, sizeof(buf)));
	fputc('\n', f);
	for (size_t r = 0; r < t->nrow; r++) {
		for (size_t k = 0; k < t->ncol && (!t->rwhy[r] || k < nkey); k++)
			txt_pad(f, k ? "  " : "", w[k],
			        cached && r < nr ? c.pool + c.off[r * t->ncol + k]
			                         : txt_cell(t, r, k, buf, sizeof(buf)));
		if (t->rwhy[r])
			fprintf(f, "  %s", lab_render_line(t->rwhy[r], buf, sizeof(buf)));
		if (t->rnote[r])
			fprintf(f, "  %s", lab_render_line(t->rnote[r], buf, sizeof(buf)));
		fputc('\n', f);
	}
	free(c.pool);
	free(c.off);
}

static void txt_grid(FILE *f, const struct lab_doc_matrix *m)
{
	static const struct lab_doc_col num = {"", NULL, LAB_DOC_VALUE};
	char buf[512], raw[512];
	int w = 9;

	/* the widest cell sets the columns' width (up to TXT_MAXW): no value or note is cut */
	for (size_t i = 0; i < m->ncell; i++)
		if (m->cell[i].has) {
			int n = (int)strlen(lab_render_cell(&num, &m->cell[i], buf, sizeof(buf)));

			w = n > w ? (n < TXT_MAXW ? n : TXT_MAXW) : w;
		}
	fprintf(f, "%14.14s", lab_render_line(m->rname, buf, sizeof(buf)));
	for (size_t j = 0; j < m->nc; j++)
		fprintf(f, " %*.*s", w, w,
		        lab_render_line(m->clab[j] ? m->clab[j] : "?", buf, sizeof(buf)));
	fputc('\n', f);
	for (size_t i = 0; i < m->nr; i++) {
		fprintf(f, "%14.14s",
		        lab_render_line(m->rlab[i] ? m->rlab[i] : "?", buf, sizeof(buf)));
		for (size_t j = 0; j < m->nc; j++) {
			const struct lab_doc_cell *c = &m->cell[i * m->nc + j];

			fprintf(f, " %*.*s", w, w,
			        c->has ? lab_render_line(lab_render_cell(&num, c, raw, sizeof(raw)),
			                                 buf, sizeof(buf))
			               : "-");
		}
		fputc('\n', f);
	}
}

static void txt_matrix(FILE *f, const struct lab_doc_matrix *m)
{
	char buf[512];

	fprintf(f, "%s", lab_render_line(m->title ? m->title : m->key, buf, sizeof(buf)));
	fprintf(f, m->unit ? " (%s)\n" : "\n", lab_render_line(m->unit, buf, sizeof(buf)));
	if (m->pos) /* sparse: the count instead of a grid of mostly empty cells */
		fprintf(f, "  %zu of %zu x %zu cells have a value (drawn, not printed)\n", m->ncell,
		        m->nr, m->nc);
	else
		txt_grid(f, m);
	if (m->legend)
		fprintf(f, "  (%s)\n", lab_render_line(m->legend, buf, sizeof(buf)));
}

void lab_render_text(FILE *f, const struct lab_doc *d)
{
	char buf[1024];

	for (size_t i = 0; i < d->ns; i++)
		lab_render_text_section(f, d, i, 1);
	if (d->ns && d->note)
		fprintf(f, "  (%s)\n", lab_render_line(d->note, buf, sizeof(buf)));
}

void lab_render_text_section(FILE *f, const struct lab_doc *d, size_t i, int gap)
{
	const struct lab_doc_section *s = d->s[i];
	char buf[1024];

	fprintf(f, "%s== %s: ", gap ? "\n" : "",
	        lab_render_line(s->title ? s->title : d->title, buf, sizeof(buf)));
	fprintf(
	    f, "%s",
	    lab_render_line(s->experiment ? s->experiment : "all experiments", buf, sizeof(buf)));
	/* a section of a whole experiment (counters) has no params: no "-" after its name */
	if (s->sub)
		fprintf(f, "  %s", lab_render_line(s->sub, buf, sizeof(buf)));
	fputc('\n', f);
	if (s->lead)
		fprintf(f, "%s\n", lab_render_line(s->lead, buf, sizeof(buf)));
	for (size_t j = 0; j < s->nb; j++) {
		const struct lab_doc_block *b = &s->b[j];

		if (b->type == LAB_DOC_TABLE)
			txt_table(f, b->u.table);
		else if (b->type == LAB_DOC_MATRIX)
			txt_matrix(f, b->u.matrix);
		else if (b->type == LAB_DOC_FINDING) {
			fprintf(f, "  %s: %s",
			        b->u.finding->sev == LAB_DOC_WARN ? "WARNING" : "finding",
			        lab_render_line(b->u.finding->text, buf, sizeof(buf)));
			if (b->u.finding->evidence)
				fprintf(f, " (%s)",
				        lab_render_line(b->u.finding->evidence, buf, sizeof(buf)));
			fputc('\n', f);
		} else if (b->type == LAB_DOC_NOTE)
			fprintf(f, "  note: %s\n", lab_render_line(b->u.note, buf, sizeof(buf)));
	}
}
