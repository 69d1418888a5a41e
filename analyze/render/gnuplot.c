/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A document's figures as gnuplot data and scripts (render.h). Every text from the document
 * reaches a script only as a gnuplot string literal (lab_an_gp_str) and every file name is a
 * slug the analyzer made; numbers are printed by the renderer. Curves: one .dat block per
 * curve (x y lo hi), drawn with error bars where an interval exists; ceilings (LAB_DOC_ROOF) as
 * functions; a heat map as gnuplot_heat.c writes it; stacked shares (LAB_DOC_STACK): one .dat line
 * per bar (x, then a column per curve), drawn as a rowstacked histogram whose tics are the figure's
 * labels.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plots_int.h"
#include "analyze/render/gnuplot_int.h"
#include "analyze/render/render.h"

static unsigned long long gp_probes;

unsigned long long lab_render_gnuplot_probes(void)
{
	return gp_probes;
}

/* 1 when g's curves are stacked shares (LAB_DOC_STACK): bars, not curves. */
static int gp_stacked(const struct lab_doc_figure *g)
{
	for (size_t i = 0; i < g->nc; i++, gp_probes++)
		if (g->c[i]->style == LAB_DOC_STACK)
			return 1;
	return 0;
}

/* The bars of a stacked figure, made once (O(points log points): the bars are the points of
 * an experiment, thousands of them): its STACK curves' x values in increasing order, each once;
 * per bar the y of each STACK curve there (its first point at that x, NaN: none) and the text
 * of the figure's first label at that x (NULL: none). */
struct gp_bars {
	size_t n, nstack;
	size_t more;   /* bars past GP_BARS_MAX, not drawn */
	double *x, *y; /* y: n x nstack */
	const char **name;
};

/* A stacked figure draws its first GP_BARS_MAX bars, and its key says how many it left out
 * (the tables have them all). */
#define GP_BARS_MAX 100

struct gp_at {
	double x, y; /* a label: y unused */
	size_t j, k; /* the curve among the STACK ones and its point; a label: 0 and its index */
};

static int gp_cmp_at(const void *a, const void *b)
{
	const struct gp_at *p = a, *q = b;

	if (isnan(p->x) || isnan(q->x)) /* a total order: NaN last (points have none; labels) */
		return isnan(p->x) - isnan(q->x);
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	if (p->j != q->j)
		return p->j < q->j ? -1 : 1;
	return (p->k > q->k) - (p->k < q->k);
}

static void gp_bars_free(struct gp_bars *b)
{
	free(b->x);
	free(b->y);
	free(b->name);
	memset(b, 0, sizeof(*b));
}

/* The bar of each label (sorted by x, then index), its first label's text. */
static int gp_bars_names(struct gp_bars *b, const struct lab_doc_figure *g)
{
	struct gp_at *at = malloc((g->nlabel + 1) * sizeof(*at));

	if (!at || !(b->name = calloc(b->n + 1, sizeof(*b->name)))) {
		free(at);
		return -1;
	}
	for (size_t i = 0; i < g->nlabel; i++)
		at[i] = (struct gp_at){g->label[i].x, 0, 0, i};
	qsort(at, g->nlabel, sizeof(*at), gp_cmp_at);
	for (size_t i = 0, bar = 0; i < g->nlabel && bar < b->n; i++) {
		while (bar < b->n && b->x[bar] < at[i].x)
			bar++;
		if (bar < b->n && b->x[bar] == at[i].x && !b->name[bar])
			b->name[bar] = g->label[at[i].k].text;
	}
	free(at);
	return 0;
}

/* b from g's STACK curves and labels; 0, or -1 when memory ran out (b empty). */
static int gp_bars_make(struct gp_bars *b, const struct lab_doc_figure *g)
{
	size_t n = 0, m = 0;
	struct gp_at *at;

	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < g->nc; i++)
		if (g->c[i]->style == LAB_DOC_STACK) {
			n += g->c[i]->n;
			b->nstack++;
		}
	if (!(at = malloc((n + 1) * sizeof(*at))) || !(b->x = malloc((n + 1) * sizeof(*b->x))) ||
	    !(b->y = malloc((n * b->nstack + 1) * sizeof(*b->y)))) {
		free(at);
		gp_bars_free(b);
		return -1;
	}
	for (size_t i = 0, j = 0; i < g->nc; i++) {
		for (size_t k = 0; g->c[i]->style == LAB_DOC_STACK && k < g->c[i]->n; k++)
			at[m++] = (struct gp_at){g->c[i]->p[k].x, g->c[i]->p[k].y, j, k};
		j += g->c[i]->style == LAB_DOC_STACK;
	}
	qsort(at, m, sizeof(*at), gp_cmp_at);
	for (size_t i = 0; i < m; i++) {
		double *y;

		if (!b->n || b->x[b->n - 1] != at[i].x) {
			b->x[b->n++] = at[i].x;
			for (size_t j = 0; j < b->nstack; j++)
				b->y[(b->n - 1) * b->nstack + j] = NAN;
		}
		y = &b->y[(b->n - 1) * b->nstack + at[i].j];
		if (isnan(*y)) /* the curve's first point at x that has a number */
			*y = at[i].y;
	}
	free(at);
	if (b->n > GP_BARS_MAX) { /* 20 000 points made a 60 MB SVG (hostile42) */
		b->more = b->n - GP_BARS_MAX;
		b->n = GP_BARS_MAX;
	}
	if (gp_bars_names(b, g)) {
		gp_bars_free(b);
		return -1;
	}
	return 0;
}

/* 1 when f has something to draw: a cell, a STACK curve's point (a stacked figure draws no
 * other curve), a point or a ceiling. */
static int gp_any(const struct lab_doc_figure *f)
{
	int stacked = gp_stacked(f);

	if (f->heat) {
		for (size_t i = 0; i < f->heat->ncell; i++)
			if (f->heat->cell[i].has)
				return 1;
		return 0;
	}
	for (size_t i = 0; i < f->nc; i++)
		if (stacked ? f->c[i]->style == LAB_DOC_STACK && f->c[i]->n
		            : f->c[i]->n || f->c[i]->style == LAB_DOC_ROOF)
			return 1;
	return 0;
}

/* A line per bar: x, then the y of each STACK curve at x (NaN: that share is missing). */
static void gp_dat_stack(FILE *f, const struct gp_bars *b)
{
	fputs("# x, then one share per stacked curve in the order of the script (a bar per line)\n",
	      f);
	for (size_t i = 0; i < b->n; i++) {
		lab_an_dat_num(f, b->x[i]);
		for (size_t j = 0; j < b->nstack; j++)
			lab_an_dat_num(f, b->y[i * b->nstack + j]);
		fputc('\n', f);
	}
}

/* The bytes of a legend entry (past some 70 characters gnuplot drew no legend at all). */
#define GP_KEY_MAX 64
/* Numbered labels (gp_numbered) named in the legend; the rest are in the tables. */
#define GP_LABELS_KEY 20
/* Names under a bar chart's bars at most (34 overlapped on 720 pixels, hostile42). */
#define GP_BAR_NAMES 24

/* Every how many bars of n one is named under its bar (GP_BAR_NAMES at most). */
static size_t gp_name_step(size_t n)
{
	return n > GP_BAR_NAMES ? (n + GP_BAR_NAMES - 1) / GP_BAR_NAMES : 1;
}

/* The legend entry that counts the n curves or bars (what) a figure does not draw. */
static void gp_more(FILE *f, int first, size_t n, const char *what)
{
	fprintf(f,
	        "%s1/0 with lines lc rgb 'white' title \"(%zu more %s not drawn: the tables have "
	        "them)\"",
	        first ? "" : ", ", n, what);
}

/* Whether p's interval reaches 0 on a log axis (its lower end not drawable, its upper one is). */
static int gp_open_below(const struct lab_doc_figure *g, const struct lab_doc_pt *p)
{
	return g->logy && !(p->lo > 0) && isfinite(p->hi);
}

static int gp_open_above(const struct lab_doc_pt *p)
{
	return isinf(p->hi) && p->hi > 0;
}

/* The ends of g's bars past its values (struct gp_ends), from its points' finite values. */
static struct gp_ends gp_ends_of(const struct lab_doc_figure *g)
{
	double lo = INFINITY, hi = -INFINITY, vlo = INFINITY, vhi = -INFINITY;
	int below = 0, above = 0;
	struct gp_ends e = {NAN, NAN, 0, 0, 0};

	for (size_t i = 0; i < g->nc; i++)
		for (size_t k = 0; g->c[i]->style != LAB_DOC_ROOF && k < g->c[i]->n; k++) {
			const struct lab_doc_pt *p = &g->c[i]->p[k];
			double v[3] = {p->y, p->lo, p->hi};

			below |= gp_open_below(g, p);
			above |= gp_open_above(p);
			for (int j = 0; j < 3; j++)
				if (isfinite(v[j]) && (!g->logy || v[j] > 0)) {
					lo = fmin(lo, v[j]);
					hi = fmax(hi, v[j]);
				}
			if (!g->logy || p->y > 0) {
				vlo = fmin(vlo, p->y);
				vhi = fmax(vhi, p->y);
			}
		}
	if (!(lo <= hi))
		return e;
	e.below = below;
	e.above = above;
	/* a log axis spans a decade past the values at most: one interval of 3.5e-5 .. 2.3e5
	 * around 2.85 made the locks' axis twelve decades, every mean in one and a half (plots40);
	 * the bars past it run to the frame */
	if (g->logy && !(g->ymin < g->ymax) && vlo <= vhi) {
		if (below || lo < vlo / 10)
			e.floor = fmax(lo / 3, vlo / 10);
		if (above || hi > vhi * 10)
			e.top = fmin(hi * 3, vhi * 10);
		e.cut = lo < vlo / 10 || hi > vhi * 10;
		return e;
	}
	if (below)
		e.floor = g->ymin < g->ymax ? g->ymin : lo / 3;
	if (above)
		e.top = g->ymin < g->ymax ? g->ymax
		        : g->logy         ? hi * 3
		        : hi > lo         ? hi + (hi - lo) / 4
		                          : hi + fabs(hi) / 4 + 1;
	/* a linear axis spans the values and as much again at most (means of 0.7 to 6.8 lay
	 * flat under one interval's 172, plots43); the bars past it run to the frame */
	double span = fmax(vhi - fmin(vlo, 0), fmax(vhi, 0) - vlo);
	if (!g->logy && !(g->ymin < g->ymax) && vlo <= vhi && span > 0) {
		if (hi > vhi + span && !(e.top < vhi + span)) {
			e.top = vhi + span;
			e.cut = 1;
		}
		if (lo < fmin(vlo, 0) - span) {
			e.floor = fmin(vlo, 0) - span;
			e.cut = 1;
		}
	}
	return e;
}

static void gp_dat_pt(FILE *f, const struct lab_doc_figure *g, const struct gp_ends *e,
                      const struct lab_doc_pt *p)
{
	if (!f)
		return;
	lab_an_dat_num(f, p->x);
	lab_an_dat_num(f, p->y);
	lab_an_dat_num(f, gp_open_below(g, p) && isfinite(e->floor)    ? e->floor
	                  : isfinite(p->lo) && (!g->logy || p->lo > 0) ? p->lo
	                                                               : p->y);
	lab_an_dat_num(f, gp_open_above(p) && isfinite(e->top) ? e->top
	                  : isfinite(p->hi)                    ? p->hi
	                                                       : p->y);
	fputc('\n', f);
}

/* Writes the points of c to f (NULL: counts them) in their order: all of them, or those
 * lab__gp_thin keeps. Returns how many (out of memory: all of them, counted). */
static size_t gp_dat_curve(FILE *f, const struct lab_doc_figure *g, const struct gp_ends *e,
                           const struct lab_doc_curve *c)
{
	unsigned char *keep = c->n > LAB__GP_POINTS_MAX ? malloc(c->n) : NULL;
	long n = keep ? lab__gp_thin(g, c, keep) : -1;

	for (size_t k = 0; f && k < c->n; k++)
		if (n < 0 || keep[k])
			gp_dat_pt(f, g, e, &c->p[k]);
	free(keep);
	return n < 0 ? c->n : (size_t)n;
}

/* A figure of more data curves than this draws its first GP_CURVES_MAX, and its key says how
 * many it left out (the tables keep every one): gnuplot reads the .dat once per curve, so 16 000
 * curves of one hand-made scan took it 28 s, 4x per doubling (hostile33), and a key past a few
 * dozen entries is unreadable anyway. */
#define GP_CURVES_MAX 100

static void gp_dat_curves(FILE *f, const struct lab_doc_figure *g, const struct gp_bars *b,
                          const struct gp_ends *e)
{
	if (gp_stacked(g)) {
		gp_dat_stack(f, b);
		return;
	}
	fputs("# x y lo hi (one block per curve, in the order of the script)\n", f);
	/* a block for each curve with points: one after 20 000 empty ones was past the cap and
	 * never drawn (review43) */
	for (size_t i = 0, blk = 0; i < g->nc && blk < GP_CURVES_MAX; i++) {
		const struct lab_doc_curve *c = g->c[i];

		if (c->style == LAB_DOC_ROOF || !c->n)
			continue;
		fputs(blk++ ? "\n\n" : "", f);
		gp_dat_curve(f, g, e, c);
	}
}

/* Legend text s, cut to what a legend below a 720-pixel plot fits (gnuplot draws no legend at
 * all when one entry is wider: review40); the tables have the rest. */
static void gp_key_str(FILE *f, const char *s)
{
	char buf[GP_KEY_MAX + 4];

	int cut;

	if (strlen(s) <= GP_KEY_MAX) {
		lab_an_gp_str(f, s);
		return;
	}
	/* at a word's end where one is past half the entry ("size=16K ty...", newcomer44) */
	cut = lab_an_utf8_fit(s, GP_KEY_MAX - 3);
	for (int k = cut; k > GP_KEY_MAX / 2; k--)
		if (s[k] == ' ' || s[k] == ';' || s[k] == ',') {
			cut = k;
			break;
		}
	snprintf(buf, sizeof(buf), "%.*s...", cut, s);
	lab_an_gp_str(f, buf);
}

/* The legend entry: the label, where the curve has no number ("[no data at 2: ...]"), and
 * what a thinned curve draws. */
static void gp_title(FILE *f, const struct lab_doc_figure *g, const struct lab_doc_curve *c)
{
	char buf[512], thin[96] = "";
	size_t drawn = c->n > LAB__GP_POINTS_MAX ? gp_dat_curve(NULL, g, NULL, c) : c->n;

	if (drawn < c->n)
		snprintf(thin, sizeof(thin), " [%zu of %zu points: %s]", drawn, c->n,
		         c->style == LAB_DOC_POINTS ? "one a cell of a grid" : "x-step extremes");
	snprintf(buf, sizeof(buf), "%s%s%s%s%s", c->label ? c->label : "",
	         c->missing ? " [no data at " : "", c->missing ? c->missing : "",
	         c->missing ? "]" : "", thin);
	gp_key_str(f, buf);
}

/* A rowstacked histogram: bar b (0-based) at x = b, its tic the text of the figure's label at
 * its x (else the x); the labels are tics here, not text in the plot. */
static void gp_stack(FILE *f, const struct lab_doc_figure *g, const char *dat,
                     const struct gp_bars *b)
{
	size_t col = 2;
	char num[32];

	fputs("unset label\nset style data histograms\nset style histogram rowstacked\n"
	      "set style fill solid 0.85 border -1\nset boxwidth 0.75 relative\n"
	      "set xtics noenhanced rotate by -30 (",
	      f);
	for (size_t bar = 0, step = gp_name_step(b->n); bar < b->n; bar += step) {
		snprintf(num, sizeof(num), "%g", b->x[bar]);
		fputs(bar ? ", " : "", f);
		lab_an_gp_str(f, b->name[bar] ? b->name[bar] : num);
		fprintf(f, " %zu", bar);
	}
	fputs(")\nset key below nobox\nplot ", f);
	/* the first GP_CURVES_MAX series (300 drew 300 legend rows over most of the canvas,
	 * review43) */
	for (size_t i = 0; i < g->nc && col < GP_CURVES_MAX + 2; i++)
		if (g->c[i]->style == LAB_DOC_STACK) {
			fprintf(f, "%s'%s.dat' using %zu lc %d title ", col > 2 ? ", " : "", dat,
			        col, g->c[i]->color % 8 + 1);
			col++;
			gp_title(f, g, g->c[i]);
		}
	if (b->nstack > GP_CURVES_MAX)
		gp_more(f, 0, b->nstack - GP_CURVES_MAX, "series");
	if (b->more)
		gp_more(f, 0, b->more, "bars");
	fputc('\n', f);
}

static size_t gp_max(size_t a, size_t b)
{
	return a > b ? a : b;
}

static size_t gp_min(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* Whether g's labels are drawn as numbers with their texts in the legend: three or more, or
 * two where one is longer than 16 bytes (the roofline's point names ran over each other and
 * over the ceilings, plots38). A lone label (USL's N*) stays text. */
static int gp_numbered(const struct lab_doc_figure *g)
{
	if (g->heat || gp_stacked(g) || g->nlabel < 2)
		return 0;
	for (size_t i = 0; i < g->nlabel && g->nlabel < 3; i++)
		if (strlen(g->label[i].text) > 16)
			return 1;
	return g->nlabel >= 3;
}

/* The legend's entries for numbered labels ("3: isa_by_size op=sum ..."), at most
 * GP_LABELS_KEY of them, then how many more the table has. */
static void gp_label_keys(FILE *f, const struct lab_doc_figure *g, int first)
{
	char buf[320];

	for (size_t i = 0; gp_numbered(g) && i < g->nlabel && i < GP_LABELS_KEY; i++) {
		snprintf(buf, sizeof(buf), "%zu: %.*s", i + 1,
		         lab_an_utf8_fit(g->label[i].text, 280), g->label[i].text);
		fprintf(f, "%s1/0 with lines lc rgb 'white' title ", first && !i ? "" : ", ");
		gp_key_str(f, buf);
	}
	if (gp_numbered(g) && g->nlabel > GP_LABELS_KEY)
		fprintf(f,
		        ", 1/0 with lines lc rgb 'white' title \"(%zu more: the tables name "
		        "them)\"",
		        g->nlabel - GP_LABELS_KEY);
}

/* Whether curve c draws nothing: no point (an ISA skipped at every size took a legend row,
 * a quarter of the picture for a curve not there: plots40). */
static int gp_empty(const struct lab_doc_curve *c)
{
	gp_probes++;
	return c->style != LAB_DOC_ROOF && c->style != LAB_DOC_STACK && !c->n;
}

/* The one x every point of g's curves shares (every lock at 2 threads: lines of one point
 * each, on an axis of one value, plots40; one point alone sat on a log axis of 0.5 .. 2
 * threads, plots43); NaN when they have two x or more, none, or g has ceilings, bars or a
 * heat map. */
static double gp_onex(const struct lab_doc_figure *g)
{
	double x = NAN;
	size_t drawn = 0;

	if (g->heat || gp_stacked(g))
		return NAN;
	for (size_t i = 0; i < g->nc; i++) {
		if (g->c[i]->style == LAB_DOC_ROOF)
			return NAN;
		for (size_t k = 0; k < g->c[i]->n; k++) {
			if (!isnan(x) && g->c[i]->p[k].x != x)
				return NAN;
			x = g->c[i]->p[k].x;
		}
		drawn += g->c[i]->n > 0;
	}
	return drawn >= 1 && !isnan(x) ? x : NAN;
}

/* The canvas height: 480, and a legend row more (17 pixels) for each row past three of the
 * legend below the plot, as many entries a row as the longest leaves room for, up to 1080
 * (12 ceilings and the named points left a strip of plot, plots38); more: the legend's
 * "(N more bars not drawn ...)" entry, 1 where it has one (review43). */
static int gp_height(const struct lab_doc_figure *g, int more)
{
	size_t n = (size_t)more, len = more ? 56 : 1, cols, rows;
	int bars = isfinite(gp_onex(g)); /* a bar chart's legend: curves with gaps only */
	int stacked = gp_stacked(g);     /* once: a call a curve was quadratic (hostile42) */

	for (size_t i = 0; !g->heat && i < g->nc; i++) {
		if ((stacked && g->c[i]->style != LAB_DOC_STACK) || gp_empty(g->c[i]) ||
		    (bars && !g->c[i]->missing))
			continue;         /* not drawn, or not in the legend */
		if (n == GP_CURVES_MAX) { /* the "(N more curves not drawn ...)" entry */
			len = gp_max(len, 56);
			n++;
			break;
		}
		len =
		    gp_max(len, gp_min(GP_KEY_MAX,
		                       strlen(g->c[i]->label ? g->c[i]->label : "") +
		                           (g->c[i]->missing ? strlen(g->c[i]->missing) + 16 : 0)));
		n++;
	}
	for (size_t i = 0;
	     !bars && !stacked && gp_numbered(g) && i < g->nlabel && i < GP_LABELS_KEY + 1;
	     i++, n++)
		len = gp_max(len, strlen(g->label[i].text) + 4);
	cols = 660 / (7 * len + 70);
	rows = (n + (cols ? cols : 1) - 1) / (cols ? cols : 1);
	return rows > 3 ? (int)(LAB_AN_GP_HEIGHT + (rows - 3 > 35 ? 35 : rows - 3) * 17)
	                : LAB_AN_GP_HEIGHT;
}

/* The line under the x label that names the curves of g that draw nothing, NULL: none (at most
 * GP_KEY_MAX bytes; the tables say why). */
static const char *gp_empty_line(const struct lab_doc_figure *g, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < g->nc && i < GP_CURVES_MAX && k < len; i++) {
		const char *l = g->c[i]->label ? g->c[i]->label : "?", *m = g->c[i]->missing;
		/* the first gap's reason: "16K: skipped; 256K: ..." reads "skipped" */
		const char *why = m && strstr(m, ": ") ? strstr(m, ": ") + 2 : NULL;

		if (gp_empty(g->c[i]))
			k += (size_t)snprintf(buf + k, len - k, "%s%.*s%s%.*s%s",
			                      k ? ", " : "no points: ", lab_an_utf8_fit(l, 40), l,
			                      why ? " (" : "", why ? (int)strcspn(why, ";") : 0,
			                      why ? why : "", why ? ")" : "");
	}
	if (k >= len && len > 4)
		snprintf(buf + lab_an_utf8_fit(buf, len - 4), 4, "...");
	return *buf ? buf : NULL;
}

struct gp_spread {
	size_t n;      /* the drawn curves, counted to 17 */
	double lo, hi; /* their x span */
};

/* The drawn curves and x span gp_dodge spreads them over, once a figure (once a curve it
 * walked every curve each time, hostile42). */
static struct gp_spread gp_spread_of(const struct lab_doc_figure *g)
{
	struct gp_spread sp = {0, INFINITY, -INFINITY};

	for (size_t i = 0; g->dodge && i < g->nc && sp.n <= 16; i++)
		if (g->c[i]->style != LAB_DOC_ROOF && !gp_empty(g->c[i]))
			sp.n++;
	for (size_t i = 0; sp.n >= 2 && sp.n <= 16 && i < g->nc; i++)
		for (size_t j = 0; g->c[i]->style != LAB_DOC_ROOF && j < g->c[i]->n; j++) {
			sp.lo = fmin(sp.lo, g->c[i]->p[j].x);
			sp.hi = fmax(sp.hi, g->c[i]->p[j].x);
		}
	return sp;
}

/* The x of the points of the at-th drawn curve in the script: measured curves (g->dodge) at
 * the same x values laid their bars on one line, whose was whose unreadable (plots40), so
 * each curve of two to 16 is moved a little aside, about 4 pixels a curve on a 720-pixel plot
 * (a factor on a log axis, a share of the span on a linear one); the .dat keeps the true x;
 * a figure without dodge (a model's fit) is not moved. */
static void gp_dodge(FILE *f, const struct lab_doc_figure *g, const struct gp_spread *sp, size_t at)
{
	size_t n = sp->n;
	double lo = sp->lo, hi = sp->hi, k, d = NAN;

	/* at: the curve's place among the drawn ones, so they spread around the true x */
	k = (double)at - (double)(n - 1) / 2;
	if (n >= 2 && n <= 16 && lo < hi && (!g->logx || lo > 0))
		d = g->logx ? pow(hi / lo, k / 150) : (hi - lo) * k / 150;
	if (!isfinite(d) || (g->logx && !(d > 0))) /* a span past a double's range: in place */
		fputs("1", f);
	else
		fprintf(f, g->logx ? "($1*%.9g)" : "($1+%.9g)", d);
}

/* g, whose curves share one x (gp_onex), as one bar a curve with its interval, the curve's
 * label under its bar; a legend entry only where a curve has no number at another x. */
static void gp_onex_bars(FILE *f, const struct lab_doc_figure *g, const char *dat)
{
	size_t n = 0, left = 0, step;
	char lab[64];
	int neg = 0;

	/* the .dat's first GP_CURVES_MAX blocks, one a curve with points (gp_dat_curves): bars
	 * past them are counted (at 101 curves the chart became 100 points on one vertical
	 * line, hostile42) */
	for (size_t i = 0; i < g->nc; i++) {
		int drawn = g->c[i]->n && n < GP_CURVES_MAX;

		left += g->c[i]->n && !drawn;
		n += drawn;
		for (size_t j = 0; drawn && j < g->c[i]->n; j++)
			neg |= g->c[i]->p[j].y < 0 || g->c[i]->p[j].lo < 0;
	}
	step = gp_name_step(n);
	fputs("set style fill solid 0.4 border -1\nset boxwidth 0.6\nset key below nobox\n"
	      "set xtics rotate by -30 (",
	      f);
	for (size_t i = 0, k = 0; i < g->nc && k < n; i++)
		if (g->c[i]->n > 0 && k++ % step == 0) {
			const char *l = g->c[i]->label ? g->c[i]->label : "?";

			if (strlen(l) > 32)
				snprintf(lab, sizeof(lab), "%.*s...", lab_an_utf8_fit(l, 29), l);
			else
				snprintf(lab, sizeof(lab), "%s", l);
			fputs(k > 1 ? ", " : "", f);
			lab_an_gp_str(f, lab);
			fprintf(f, " %zu", k - 1);
		}
	/* a bar's length is its value only from 0: on an axis from 0.8, 1.58 read 2.5 times 1.12
	 * (review42); a log axis has no 0, so points there ("[0:]" keeps a top set before) */
	fprintf(f, ")\nset xrange [-0.6:%zu.6]\n%splot ", n ? n - 1 : 0,
	        g->logy || neg ? "" : "set yrange [0:]\n");
	for (size_t i = 0, k = 0; i < g->nc && k < n; i++) {
		if (!g->c[i]->n)
			continue;
		fprintf(f, "%s'%s.dat' index %zu using (%zu):2:3:4%s lc %d ", k ? ", " : "", dat, k,
		        k, g->logy ? " with yerrorbars pt 7" : ":(0.6) with boxerrorbars",
		        g->c[i]->color % 8 + 1);
		k++;
		if (g->c[i]->missing) {
			fputs("title ", f);
			gp_title(f, g, g->c[i]);
		} else {
			fputs("notitle", f);
		}
	}
	if (left)
		gp_more(f, 0, left, "bars");
	fputc('\n', f);
}

/* Whether curve c has two points or more and no interval at any (points on a line, no
 * bars). */
static int gp_no_bars(const struct lab_doc_curve *c)
{
	for (size_t k = 0; k < c->n; k++)
		if (isfinite(c->p[k].lo) || isfinite(c->p[k].hi))
			return 0;
	return c->n >= 2;
}

/* The ceilings' colours, each for five dash patterns. */
static const char *const gp_roof_colour[4] = {"gray40", "#1f5fa8", "#b8540b", "#5a8f29"};

static void gp_curves(FILE *f, const struct lab_doc_figure *g, const char *dat,
                      const struct gp_bars *b)
{
	size_t blk = 0, left = 0, drawn = 0;
	int first = 1;
	struct gp_spread sp = gp_spread_of(g);

	if (gp_stacked(g)) {
		gp_stack(f, g, dat, b);
		return;
	}
	fputs("set key below nobox\nplot ", f);
	for (size_t i = 0; i < g->nc; i++) {
		const struct lab_doc_curve *c = g->c[i];

		if (gp_empty(c)) /* no block; the x label names it (gp_script) */
			continue;
		if (c->style != LAB_DOC_ROOF && blk == GP_CURVES_MAX) {
			left++;
			continue;
		}
		fputs(first ? "" : ", ", f);
		first = 0;
		if (c->style == LAB_DOC_ROOF) {
			if (isfinite(c->a) && isfinite(c->b))
				fprintf(f, "(x * %.17g < %.17g ? x * %.17g : %.17g)", c->b, c->a,
				        c->b, c->a);
			else
				fprintf(f, "%.17g%s", isfinite(c->a) ? c->a : c->b,
				        isfinite(c->a) ? "" : " * x");
			/* a colour per five dashes: ten ceilings drew five pairs alike (plots40) */
			fprintf(f, " with lines lw 2 dt %d lc rgb '%s' title ", c->dash % 5 + 1,
			        gp_roof_colour[(c->dash / 5) % 4]);
		} else {
			fprintf(f, "'%s.dat' index %zu using ", dat, blk);
			gp_dodge(f, g, &sp, drawn++);
			blk++;
			/* a curve of no interval has no bars (a flat line drew zero-height caps at
			 * both ends, review42) */
			fprintf(f, ":2:3:4 with %s lc %d pt %d dt %d title ",
			        c->style == LAB_DOC_POINTS ? "yerrorbars"
			        : gp_no_bars(c)            ? "linespoints"
			                                   : "yerrorlines",
			        c->color % 8 + 1, c->color % 14 + 1, c->dash % 5 + 1);
		}
		gp_title(f, g, c);
	}
	if (left)
		gp_more(f, first, left, "curves");
	gp_label_keys(f, g, first && !left);
	fputc('\n', f);
}

/* The line under g's x label that says why bars run to its frame, into why (n bytes): each
 * reason its ends have (a log axis cut at the top said nothing of the bars to 0 below it,
 * plots44). */
static const char *gp_ends_why(const struct lab_doc_figure *g, const struct gp_ends *e, char *why,
                               size_t n)
{
	const char *r[3] = {!e->cut   ? NULL
	                    : g->logy ? "reaches past the axis, a decade beyond the values"
	                              : "reaches past the axis, twice the values",
	                    e->above && !e->cut ? "reaches past it, unbounded" : NULL,
	                    e->below && g->logy ? "reaches 0, below a log axis" : NULL};
	const char *to = e->cut || (r[1] && r[2]) ? "frame" : r[1] ? "top" : "bottom";
	size_t len = (size_t)snprintf(why, n, "(a bar to the %s: its interval", to);

	for (int k = 0, first = 1; k < 3; k++)
		if (r[k] && len < n) {
			len += (size_t)snprintf(why + len, n - len, "%s %s", first ? "" : "; or",
			                        r[k]);
			first = 0;
		}
	if (len < n)
		snprintf(why + len, n - len, ")");
	return why;
}

/* The y range that puts the bars past g's values at its frame; returns the line under the x
 * label that says so (it covered the first point as a label in the plot, review39), or NULL. */
static const char *gp_ends_script(FILE *f, const struct lab_doc_figure *g,
                                  const struct gp_ends *ends, char *why, size_t n)
{
	const struct gp_ends e = *ends;

	if (g->heat || gp_stacked(g) || (isnan(e.floor) && isnan(e.top)))
		return NULL;
	if (!(g->ymin < g->ymax)) {
		char lo[32] = "*", hi[32] = "*";

		if (!isnan(e.floor))
			snprintf(lo, sizeof(lo), "%.9g", e.floor);
		if (!isnan(e.top))
			snprintf(hi, sizeof(hi), "%.9g", e.top);
		fprintf(f, "set yrange [%s:%s]\n", lo, hi);
	}
	return gp_ends_why(g, &e, why, n);
}

static void gp_script(FILE *f, const struct lab_doc *d, const struct lab_doc_figure *g,
                      const struct gp_ends *e, const char *base, const struct gp_bars *b)
{
	const char *ends, *ylabel;
	char none[GP_KEY_MAX + 1], why[160];
	double onex = gp_onex(g);
	int stacked = gp_stacked(g), numbered = gp_numbered(g), more = stacked && b->more;
	size_t bars = 0;

	for (size_t i = 0; isfinite(onex) && i < g->nc; i++)
		bars += g->c[i]->n > 0;
	more |= bars > GP_CURVES_MAX; /* gp_onex_bars' "(N more bars ...)" */
	lab_an_gp_head(f, base, g->title ? g->title : d->title, g->sub, gp_height(g, more));
	ends = gp_ends_script(f, g, e, why, sizeof(why));
	fputs("set xlabel ", f);
	lab_an_gp_str(f, g->heat && g->heat->cname ? g->heat->cname : g->xlabel ? g->xlabel : "");
	if (isfinite(onex))
		fprintf(f, ".' = %.9g (one bar a curve)'", onex);
	/* on lines of 90 bytes: two reasons ran to 115 and lost both ends (plots46) */
	if (ends) {
		fputs(".\"\\n\".", f);
		lab_an_gp_lines(f, ends, 90, 2, ";", 0);
	}
	if (!g->heat && !stacked && gp_empty_line(g, none, sizeof(none))) {
		fputs(".\"\\n\".", f);
		lab_an_gp_str(f, none);
	}
	/* on lines of 40 bytes: a rotated label longer than the plot is high ran into the
	 * subtitle ("hand-off ratio, acquisitions by another thread (95% CI)", plots43) */
	fputs("\nset ylabel ", f);
	ylabel = g->heat && g->heat->rname ? g->heat->rname : g->ylabel ? g->ylabel : "";
	if (*ylabel)
		lab_an_gp_lines(f, ylabel, 40, 3, ",;", 0);
	else
		lab_an_gp_str(f, "");
	fputc('\n', f);
	lab__gp_axes(f, g, e, onex, !g->heat && !stacked);
	/* a stacked figure's labels name its bars (gp_stack), not points */
	for (size_t i = 0; i < g->nlabel && !isfinite(onex) && !stacked; i++) {
		fputs("set label ", f);
		if (numbered)
			fprintf(f, "'%zu'", i + 1);
		else
			lab_an_gp_str(f, g->label[i].text);
		fprintf(f, " at %.17g, %.17g %sfront noenhanced\n", g->label[i].x, g->label[i].y,
		        numbered ? "offset char 0.5, 0.5 " : "");
	}
	if (g->heat)
		lab__gp_heat(f, g->heat, base);
	else if (isfinite(onex))
		gp_onex_bars(f, g, base);
	else
		gp_curves(f, g, base, b);
	lab_an_gp_tail(f, base, gp_height(g, more));
}

/* Whether g's y axis, linear in its document, is drawn on a log scale: its values span two
 * decades or more (on a linear axis the smaller ones lay flat at the bottom, plots38), every
 * value is > 0, the range is the renderer's own and it has no ceilings. */
static int gp_logy(const struct lab_doc_figure *g)
{
	double lo = INFINITY, hi = -INFINITY;

	if (g->logy || g->heat || gp_stacked(g) || g->ymin < g->ymax)
		return 0;
	for (size_t i = 0; i < g->nc; i++) {
		if (g->c[i]->style == LAB_DOC_ROOF)
			return 0;
		for (size_t k = 0; k < g->c[i]->n; k++) {
			const struct lab_doc_pt *p = &g->c[i]->p[k];

			/* the values decide: an interval that reaches 0 (common on a busy host)
			 * runs to the bottom frame (gp_ends), where it flattened a latency ladder's
			 * L1 and L2 onto a linear axis (plots40) */
			if (!(p->y > 0))
				return 0;
			lo = fmin(lo, p->y);
			hi = fmax(hi, p->y);
		}
	}
	for (size_t i = 0; i < g->nlabel; i++)
		if (!(g->label[i].y > 0))
			return 0;
	return lo > 0 && hi >= 100 * lo;
}

static int gp_figure(const struct lab_doc *d, const struct lab_doc_section *s, int many,
                     const struct lab_doc_figure *g, const struct lab_an_pdir *pdir,
                     struct lab_an_plots *out, struct lab_err *err)
{
	char raw[256], base[256], title[480];
	const char *ex = s->experiment ? s->experiment : "", *sub = g->sub ? g->sub : "",
	           *t = g->title ? g->title : d->title;
	struct lab_an_wfile w;
	struct gp_bars b = {0};
	FILE *f;
	int rc;

	struct lab_doc_figure logy;

	if (!gp_any(g))
		return 0;
	if (gp_logy(g)) {
		logy = *g;
		logy.logy = 10;
		g = &logy;
	}
	if (out->n >= LAB_AN_PLOTS_MAX) { /* past the cap: counted, no file made (scale35) */
		out->omitted++;
		return 0;
	}
	if (gp_stacked(g) && gp_bars_make(&b, g))
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	struct gp_ends e = gp_ends_of(g); /* the .dat's bars and the script's range agree */
	/* in a section of several figures, a figure's key before the section's conditions: the
	 * files of a cost and a speedup figure differed in their number alone (plots40) */
	int keyed = many && !g->name && s->sub && g->key && strcmp(g->key, "curves");
	snprintf(raw, sizeof(raw), "%.16s%02zu-%.60s-%.24s%s%.80s", d->view, g->id,
	         s->experiment ? s->experiment : "all", keyed ? g->key : "", keyed ? "-" : "",
	         g->name  ? g->name
	         : s->sub ? s->sub
	         : g->key ? g->key
	                  : "");
	lab_an_plot_slug(raw, base, sizeof(base));
	if (!(f = lab_an_open(&w, pdir, base, "dat", err))) {
		gp_bars_free(&b);
		return -LAB_EIO;
	}
	if (g->heat)
		lab__gp_dat_heat(f, g->heat);
	else
		gp_dat_curves(f, g, &b, &e);
	rc = lab_an_close(&w, pdir, err);
	if (!rc && !(f = lab_an_open(&w, pdir, base, "gp", err)))
		rc = -LAB_EIO;
	if (!rc) {
		gp_script(f, d, g, &e, base, &b);
		rc = lab_an_close(&w, pdir, err);
	}
	gp_bars_free(&b);
	if (rc)
		return rc;
	/* "EXPERIMENT: TITLE (CONDITIONS)", the experiment once (a figure's title often starts
	 * with it: the report's caption read "sched ...: sched: Loop schedules") */
	int named = *ex && !strncmp(t, ex, strlen(ex)) && !strncmp(t + strlen(ex), ": ", 2);
	/* each part cut where it runs long says so ("...": hostile41); the conditions to 220
	 * bytes, past a load-flag note before them (at 100, four captions of a section were
	 * alike, plots44) */
	snprintf(title, sizeof(title), "%.*s%s%s%.*s%s%s%.*s%s%s",
	         named ? 0 : lab_an_utf8_fit(ex, 100), ex, !named && strlen(ex) > 100 ? "..." : "",
	         named || !*ex ? "" : ": ", lab_an_utf8_fit(t, 120), t,
	         strlen(t) > 120 ? "..." : "", *sub ? " (" : "", lab_an_utf8_fit(sub, 220), sub,
	         strlen(sub) > 220 ? "..." : "", *sub ? ")" : "");
	return lab_an_plot_add(out, g->heat ? "heatmap" : "curves", title, base, d->view, g->id);
}

int lab_render_gnuplot(const struct lab_doc *d, const struct lab_an_pdir *pdir,
                       struct lab_an_plots *out, struct lab_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < d->ns && !rc; i++) {
		size_t n = 0;

		for (size_t j = 0; j < d->s[i]->nb; j++)
			n += d->s[i]->b[j].type == LAB_DOC_FIGURE;
		for (size_t j = 0; j < d->s[i]->nb && !rc; j++)
			if (d->s[i]->b[j].type == LAB_DOC_FIGURE)
				rc = gp_figure(d, d->s[i], n > 1, d->s[i]->b[j].u.figure, pdir, out,
				               err);
	}
	return rc;
}
