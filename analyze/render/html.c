/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A document as a report section (render.h), and the HTML escaping every section uses. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/csv.h"
#include "analyze/plots.h"
#include "analyze/render/esc.h"
#include "analyze/render/render.h"
#include "harness/record_schema.h"

/* The bytes from s on that pass into HTML as they are: up to markup, a control byte (tab and
 * newline are whitespace and stay: the config's <pre> keeps its lines), a byte of no valid
 * UTF-8, a C1 or bidi control (render/esc.h), or the end. */
static size_t an_html_run(const unsigned char *s)
{
	size_t n = 0, len;
	unsigned cp;

	for (;;) {
		unsigned char c = s[n];

		if (!c || c == '<' || c == '>' || c == '&' || c == '"' || c == '\'' ||
		    (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
			return n;
		if (c < 0x80) {
			n++;
			continue;
		}
		if (lab_esc_classify(s + n, strnlen((const char *)s + n, 4), true, &len, &cp) !=
		    LAB_ESC_PLAIN)
			return n;
		n += len;
	}
}

void lab_an_html(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;
	unsigned cp;

	/* one fwrite per run of bytes that pass as they are, not a call per byte */
	while (s && *s) {
		size_t run = an_html_run(s);

		fwrite(s, 1, run, f);
		s += run;
		switch (*s) {
		case 0: /* the end */
			return;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default: /* as the text output shows it: \xHH a byte, \uXXXX a C1 or bidi control */
			if (lab_esc_classify(s, strnlen((const char *)s, 4), true, &len, &cp) ==
			    LAB_ESC_CODE) {
				lab_esc_put_code(f, cp);
				s += len - 1;
			} else {
				fprintf(f, "\\x%02x", *s);
			}
			break;
		}
		s++;
	}
}

static void an_base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char tab[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16;

		v |= i + 1 < n ? (unsigned)p[i + 1] << 8 : 0;
		v |= i + 2 < n ? p[i + 2] : 0;
		fputc(tab[(v >> 18) & 63], f);
		fputc(tab[(v >> 12) & 63], f);
		fputc(i + 1 < n ? tab[(v >> 6) & 63] : '=', f);
		fputc(i + 2 < n ? tab[v & 63] : '=', f);
	}
}

void lab_an_report_view_imgs(FILE *f, const struct lab_an_plots *plots, const char *dir,
                             const char *view, size_t group)
{
	for (size_t k = 0; plots && plots->rendered && k < plots->n; k++) {
		const struct lab_an_plot *p = &plots->p[k];

		if (p->group == group && p->view && !strcmp(p->view, view))
			lab_an_report_img(f, dir, p);
	}
}

void lab_an_report_img(FILE *f, const char *dir, const struct lab_an_plot *p)
{
	char *path = lab_an_asprintf("%s/%s/%s.svg", dir, LAB_DIR_PLOTS, p->base), *buf = NULL;
	size_t len;
	struct stat st;

	/* Only the regular file gnuplot wrote for this analysis (never one an earlier analysis
	 * left under the name, never what a link put there). */
	if (!p->svg || !path || lstat(path, &st) || !S_ISREG(st.st_mode) ||
	    lab_an_file_read(path, &buf, &len, NULL)) {
		free(path);
		return;
	}
	fputs("<figure><img alt=\"", f);
	lab_an_html(f, p->title);
	fputs("\" src=\"data:image/svg+xml;base64,", f);
	an_base64(f, (const unsigned char *)buf, len);
	/* what it shows, then where its files are (the name alone read as a caption, plots38) */
	fputs("\"><figcaption>", f);
	lab_an_html(f, p->title);
	fputs(" <small>(<code>" LAB_DIR_PLOTS "/", f);
	lab_an_html(f, p->base);
	fputs(".{svg,png,dat,gp}</code>)</small></figcaption></figure>\n", f);
	free(buf);
	free(path);
}

/* The rows of a table the report shows before it shows only the rows with a warning or a gap
 * (a 100 000-point sweep made a report.html of 70 MB). */
#define HTML_ROWS_MAX 1000

static void html_table(FILE *f, const struct lab_doc_table *t)
{
	char buf[512];
	size_t nkey = 0;

	if (t->audience == LAB_DOC_TOOLS)
		return;
	for (size_t k = 0; k < t->ncol && t->col[k].kind == LAB_DOC_KEY; k++)
		nkey++;
	if (t->title) {
		fputs("<p>", f);
		lab_an_html(f, t->title);
		fputs("</p>\n", f);
	}
	fputs("<table><tr>", f);
	for (size_t k = 0; k < t->ncol; k++) {
		fputs("<th>", f);
		lab_an_html(f, lab_render_head(t, k, buf, sizeof(buf)));
		fputs("</th>", f);
	}
	fputs("<th></th></tr>\n", f);
	for (size_t r = 0, shown = 0; r < t->nrow; r++) {
		/* past HTML_ROWS_MAX only the rows with a warning or a gap, as many again */
		if (r >= HTML_ROWS_MAX &&
		    (shown >= 2 * HTML_ROWS_MAX || !(t->rnote[r] || t->rwhy[r])))
			continue;
		shown++;
		fputs(t->rwhy[r] ? "<tr class=\"missing\">" : "<tr>", f);
		for (size_t k = 0; k < t->ncol && (!t->rwhy[r] || k < nkey); k++) {
			fputs("<td>", f);
			lab_an_html(f, lab_render_cell(&t->col[k], &t->cell[r * t->ncol + k], buf,
			                               sizeof(buf)));
			fputs("</td>", f);
		}
		if (t->rwhy[r]) {
			fprintf(f, "<td colspan=\"%zu\">", t->ncol - nkey);
			lab_an_html(f, t->rwhy[r]);
			fputs("</td>", f);
		}
		fputs(t->rnote[r] ? "<td class=\"warn\">" : "<td>", f);
		lab_an_html(f, t->rnote[r]);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (t->nrow > HTML_ROWS_MAX)
		fprintf(
		    f,
		    "<p><small>%zu rows, the first %d shown (and later ones with a warning or a "
		    "gap): the text output, the CSV files and analysis.json hold every "
		    "row.</small></p>\n",
		    t->nrow, HTML_ROWS_MAX);
}

static void html_legend(FILE *f, const struct lab_doc_matrix *m)
{
	if (m->legend) {
		fputs("<p><small>", f);
		lab_an_html(f, m->legend);
		fputs("</small></p>\n", f);
	}
}

/* A matrix with each cell shaded from white (its smallest value) to orange (its largest). */
static void html_matrix(FILE *f, const struct lab_doc_matrix *m)
{
	static const struct lab_doc_col num = {"", NULL, LAB_DOC_VALUE};
	double lo = INFINITY, hi = -INFINITY;
	char buf[512];

	for (size_t i = 0; i < m->ncell; i++)
		if (m->cell[i].has) {
			lo = fmin(lo, m->cell[i].mean);
			hi = fmax(hi, m->cell[i].mean);
		}
	fputs("<p>", f);
	lab_an_html(f, m->title ? m->title : m->key);
	if (m->unit) {
		fputs(" (", f);
		lab_an_html(f, m->unit);
		fputs(")", f);
	}
	if (m->pos) { /* sparse: the count instead of a grid of mostly empty cells */
		fprintf(f, ": %zu of %zu x %zu cells have a value (drawn, not printed)</p>\n",
		        m->ncell, m->nr, m->nc);
		html_legend(f, m);
		return;
	}
	fputs("</p>\n<table><tr><th>", f);
	lab_an_html(f, m->rname);
	fputs("</th>", f);
	for (size_t j = 0; j < m->nc; j++) {
		fputs("<th>", f);
		lab_an_html(f, m->clab[j]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t i = 0; i < m->nr; i++) {
		fputs("<tr><th>", f);
		lab_an_html(f, m->rlab[i]);
		fputs("</th>", f);
		for (size_t j = 0; j < m->nc; j++) {
			const struct lab_doc_cell *c = &m->cell[i * m->nc + j];
			double x = c->has && hi > lo ? (c->mean - lo) / (hi - lo) : 0;

			fprintf(f, "<td style=\"background:hsl(30,90%%,%.0f%%)\">", 100 - 40 * x);
			lab_an_html(f, lab_render_cell(&num, c, buf, sizeof(buf)));
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	html_legend(f, m);
}

static void html_block(FILE *f, const struct lab_doc *d, const struct lab_doc_block *b,
                       const struct lab_an_plots *plots, const char *dir)
{
	switch (b->type) {
	case LAB_DOC_TABLE:
		html_table(f, b->u.table);
		break;
	case LAB_DOC_MATRIX:
		html_matrix(f, b->u.matrix);
		break;
	case LAB_DOC_FIGURE:
		lab_an_report_view_imgs(f, plots, dir, d->view, b->u.figure->id);
		break;
	case LAB_DOC_FINDING:
		fputs(b->u.finding->sev == LAB_DOC_WARN ? "<p class=\"warn\">" : "<p>", f);
		lab_an_html(f, b->u.finding->text);
		if (b->u.finding->evidence) {
			fputs(" <small>(", f);
			lab_an_html(f, b->u.finding->evidence);
			fputs(")</small>", f);
		}
		fputs("</p>\n", f);
		break;
	case LAB_DOC_NOTE:
		fputs("<p><small>", f);
		lab_an_html(f, b->u.note);
		fputs("</small></p>\n", f);
		break;
	}
}

/* The notes of a section the report shows (a precision line per point: 129,600 of them made a
 * 23 MB report, scale35); the rest are counted. */
#define HTML_NOTES_MAX 100

/* The blocks of section s, its notes past HTML_NOTES_MAX counted instead. */
static void html_blocks(FILE *f, const struct lab_doc *d, const struct lab_doc_section *s,
                        const struct lab_an_plots *plots, const char *dir)
{
	size_t notes = 0;

	for (size_t j = 0; j < s->nb; j++)
		if (s->b[j].type != LAB_DOC_NOTE || notes++ < HTML_NOTES_MAX)
			html_block(f, d, &s->b[j], plots, dir);
	if (notes > HTML_NOTES_MAX)
		fprintf(f,
		        "<p><small>%zu more notes: the text output and analysis.json hold "
		        "them all.</small></p>\n",
		        notes - HTML_NOTES_MAX);
}

/* The sections of a view the report shows before it shows only those with a warning (100 000
 * one-point series made 100 000 headings). */
#define HTML_SECTIONS_MAX 200

/* 1 when section s has a warning among its findings. */
static int html_warns(const struct lab_doc_section *s)
{
	for (size_t j = 0; j < s->nb; j++)
		if (s->b[j].type == LAB_DOC_FINDING && s->b[j].u.finding->sev == LAB_DOC_WARN)
			return 1;
	return 0;
}

void lab_render_html(FILE *f, const struct lab_doc *d, const struct lab_an_plots *plots,
                     const char *dir)
{
	if (!d->ns)
		return;
	fputs("<h2>", f);
	lab_an_html(f, d->title);
	fputs("</h2>\n", f);
	if (d->about) {
		fputs("<p>", f);
		lab_an_html(f, d->about);
		fputs("</p>\n", f);
	}
	for (size_t i = 0, shown = 0; i < d->ns; i++) {
		const struct lab_doc_section *s = d->s[i];

		/* past HTML_SECTIONS_MAX only the sections with a warning, as many again */
		if (i >= HTML_SECTIONS_MAX && (shown >= 2 * HTML_SECTIONS_MAX || !html_warns(s)))
			continue;
		shown++;
		fputs("<h3>", f);
		lab_an_html(f, s->title ? s->title : s->experiment ? s->experiment : d->title);
		if (s->title && s->experiment) {
			fputs(": ", f);
			lab_an_html(f, s->experiment);
		}
		fputs(" <small>", f);
		lab_an_html(f, s->sub ? s->sub : "-");
		fputs("</small></h3>\n", f);
		if (s->lead) {
			fputs("<p>", f);
			lab_an_html(f, s->lead);
			fputs("</p>\n", f);
		}
		html_blocks(f, d, s, plots, dir);
	}
	if (d->ns > HTML_SECTIONS_MAX)
		fprintf(f,
		        "<p><small>%zu sections, the first %d shown (and later ones with a "
		        "warning): the text output, the CSV files and analysis.json hold them "
		        "all.</small></p>\n",
		        d->ns, HTML_SECTIONS_MAX);
	if (d->note) {
		fputs("<p><small>", f);
		lab_an_html(f, d->note);
		fputs("</small></p>\n", f);
	}
}
