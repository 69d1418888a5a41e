/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A figure's axes in its gnuplot script (gnuplot_int.h): log scales, number formats, tics,
 * fixed ranges and the margins that keep the first and last values off the frame.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/render/gnuplot_int.h"

/* The span lo .. hi of g's x values above 0 (lo > hi: none). */
static void gp_x_span(const struct lab_doc_figure *g, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < g->nc; i++)
		for (size_t k = 0; k < g->c[i]->n; k++)
			if (g->c[i]->p[k].x > 0) {
				*lo = fmin(*lo, g->c[i]->p[k].x);
				*hi = fmax(*hi, g->c[i]->p[k].x);
			}
}

/* 1 when g has a ceiling (a roofline: its functions span more than its points). */
static int gp_roofs(const struct lab_doc_figure *g)
{
	for (size_t i = 0; i < g->nc; i++)
		if (g->c[i]->style == LAB_DOC_ROOF)
			return 1;
	return 0;
}

/* A log x axis of this many distinct x or fewer has a tic at each (powers alone left 8 MiB
 * and 3, 5, 6 and 7 accumulators unlabelled, plots43). */
#define GP_X_TICS 12

static int gp_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* g's distinct finite x values (on a log axis those above 0), ascending, into x (GP_X_TICS);
 * 0 when more or none. */
static size_t gp_x_values(const struct lab_doc_figure *g, double *x)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nc; i++)
		for (size_t k = 0; k < g->c[i]->n; k++) {
			double v = g->c[i]->p[k].x;
			size_t j = 0;

			while (j < n && x[j] != v)
				j++;
			if ((g->logx && !(v > 0)) || !isfinite(v) || j < n)
				continue;
			if (n == GP_X_TICS)
				return 0;
			x[n++] = v;
		}
	qsort(x, n, sizeof(*x), gp_cmp_double);
	return n;
}

/* A tic at each x of g's axis, in B, KiB, ... where its x are sizes, the number in full
 * (1234567 B, not 1.23457e+06 B: review46); 0: too many x, or on a linear axis two closer than
 * a tenth of its span, where labels would run together (gnuplot's own tics on a linear axis of
 * offsets 0, 8 and 32 bytes fell at 5, 10, 15, ..., none of them an offset run, plots44). */
static int gp_x_tics(FILE *f, const struct lab_doc_figure *g)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double x[GP_X_TICS];
	size_t n = gp_x_values(g, x);

	if (gp_roofs(g) || !n || (g->xbytes && fabs(x[n - 1]) > 0x1p50)) /* a roofline: decades */
		return 0;
	for (size_t i = 1; !g->logx && i < n; i++)
		if (x[i] - x[i - 1] < (x[n - 1] - x[0]) / 10)
			return 0;
	fputs("set xtics (", f);
	for (size_t i = 0; i < n; i++) {
		int u = fabs(x[i]) >= 1 ? (int)floor(log2(fabs(x[i])) / 10) : 0;

		u = u < 4 ? u : 4;
		while (u > 0 && ldexp(x[i], -10 * u) * 100 != floor(ldexp(x[i], -10 * u) * 100))
			u--; /* 2000 B, not 1.95312 KiB */
		if (g->xbytes)
			fprintf(f, "%s'%.15g %s' %.17g", i ? ", " : "", ldexp(x[i], -10 * u),
			        unit[u], x[i]);
		else
			fprintf(f, "%s%.17g", i ? ", " : "", x[i]);
	}
	fputs(")\n", f);
	return 1;
}

/* Tics of a log2 size axis in B, KiB, MiB, GiB at the powers of 2 its points span (gnuplot's
 * own format wrote 16 kiB and 8   B, review39). */
static void gp_bytes_tics(FILE *f, const struct lab_doc_figure *g)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double lo, hi;

	gp_x_span(g, &lo, &hi);
	if (!(lo <= hi) || hi > 0x1p50)
		return;
	int a = (int)floor(log2(lo)), b = (int)ceil(log2(hi)), step = (b - a) / 10 + 1;

	fputs("set xtics (", f);
	for (int k = a; k <= b; k += step) {
		int u = k / 10 < 4 ? k / 10 : 4;
		fprintf(f, "%s'%.0f %s' %.17g", k == a ? "" : ", ", ldexp(1, k - 10 * u), unit[u],
		        ldexp(1, k));
	}
	fputs(")\n", f);
}

/* g's highest (top 1) or lowest (top 0) drawn value, a point or an interval's end (on a log
 * axis of those above 0); NaN: none. */
static double gp_y_end(const struct lab_doc_figure *g, int top)
{
	double v = top ? -INFINITY : INFINITY;

	for (size_t i = 0; i < g->nc; i++)
		for (size_t k = 0; g->c[i]->style != LAB_DOC_ROOF && k < g->c[i]->n; k++) {
			const struct lab_doc_pt *p = &g->c[i]->p[k];
			double ends[3] = {p->y, p->lo, p->hi};

			for (int j = 0; j < 3; j++)
				if (isfinite(ends[j]) && (!g->logy || ends[j] > 0))
					v = top ? fmax(v, ends[j]) : fmin(v, ends[j]);
		}
	return isfinite(v) ? v : NAN;
}

/* How many powers of b lie in lo .. hi (> 0). */
static double gp_powers(double b, double lo, double hi)
{
	return floor(log(hi) / log(b) + 1e-9) - ceil(log(lo) / log(b) - 1e-9) + 1;
}

/* How many powers of the base of g's log x axis lie between its first and last x. */
static double gp_x_powers(const struct lab_doc_figure *g)
{
	double lo, hi;

	gp_x_span(g, &lo, &hi);
	return lo <= hi && isfinite(hi) ? gp_powers(g->logx, lo, hi) : 0;
}

/* Whether g's linear y axis gets a margin below its lowest value: where that is below 0, or
 * above 0 by more than a tenth of the range (a speedup's 1 sat on the bottom frame, review40),
 * so the margin never makes an axis of values >= 0 reach below 0, and a 0 stays at the
 * frame. */
static int gp_y_below(const struct lab_doc_figure *g)
{
	double lo = gp_y_end(g, 0), hi = gp_y_end(g, 1);

	return lo < 0 || (lo > 0 && lo > (hi - lo) / 10);
}

/* The smallest of 1, 2 and 5 times a power of 10 at or above x > 0. */
static double gp_nice(double x)
{
	double p = pow(10, floor(log10(x)));

	return x <= p ? p : x <= 2 * p ? 2 * p : x <= 5 * p ? 5 * p : 10 * p;
}

/* A ceiling's value at x: min(b x, a), a or b x (gp_curves draws it so). */
static double gp_roof_at(const struct lab_doc_curve *c, double x)
{
	return isfinite(c->a) && isfinite(c->b) ? fmin(x * c->b, c->a)
	       : isfinite(c->a)                 ? c->a
	                                        : x * c->b;
}

/* Tics of g's log y axis where fewer than three powers of its base lie between its lowest
 * and highest drawn values lo .. hi (gnuplot then labels one tic or none: values of 4.5 to 71
 * read "10" alone): 1, 2 and 5 times the powers of 10 over a decade or more, otherwise two
 * to six at an even step, as on a linear axis; one value: a tic at it. Ceilings, which never
 * fall as x grows, span their values at the x range's ends too (a roofline of 1.4 to 30
 * GFLOP/s read "10" alone, newcomer44); without a fixed x range they are left to gnuplot. */
static void gp_log_tics(FILE *f, const struct lab_doc_figure *g, double lo, double hi, int mlo,
                        int mhi)
{
	static const double m[3] = {1, 2, 5};
	double b = g->logy, step;
	int n = 0;

	for (size_t i = 0; i < g->nc; i++)
		if (g->c[i]->style == LAB_DOC_ROOF) {
			if (!(g->xmin < g->xmax))
				return;
			lo = isnan(lo) ? INFINITY : lo; /* no point: the ceilings' span alone */
			hi = isnan(hi) ? -INFINITY : hi;
			lo = fmin(lo, gp_roof_at(g->c[i], g->xmin));
			hi = fmax(hi, gp_roof_at(g->c[i], g->xmax));
		}
	/* one value: no tic else, and a range around it (gnuplot warned "empty y range",
	 * hostile44): a factor of 2 either side */
	if (lo > 0 && hi <= lo * (1 + 1e-9) && isfinite(hi)) {
		if (isfinite(lo * 2)) /* not past a double (review44) */
			fprintf(f, "set yrange [%.9g:%.9g]\n", lo / 2, lo * 2);
		fprintf(f, "set ytics (%.9g)\n", lo);
		return;
	}
	if (!(lo > 0 && hi > lo && isfinite(hi)))
		return;
	/* the ends gnuplot moves by a twentieth of the axis (set offsets; mlo, mhi: that end
	 * has the margin): their tics too (a ceiling at 99 on an axis to 116 had none at 100,
	 * plots44) */
	double span = pow(hi / lo, 0.05);

	lo = mlo && isfinite(span) ? lo / span : lo;
	hi = mhi && isfinite(span) && isfinite(hi * span) ? hi * span : hi;
	if (gp_powers(b, lo, hi) >= 3)
		return;
	fputs("set ytics (", f);
	if (hi >= 10 * lo) {
		for (double d = floor(log10(lo)); d <= ceil(log10(hi)); d++)
			for (int k = 0; k < 3; k++) {
				double v = m[k] * pow(10, d);

				if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
					fprintf(f, "%s%.9g", n++ ? ", " : "", v);
			}
	} else {
		step = gp_nice((hi - lo) / 5);
		for (double k = ceil(lo / step - 1e-9); k * step <= hi * (1 + 1e-9); k++)
			fprintf(f, "%s%.9g", n++ ? ", " : "", k * step);
	}
	fputs(")\n", f);
}

/* Whole numbers on g's linear y axis where its values reach a million: gnuplot's %g wrote
 * "500000" beside "1e+06" (plots44). An axis of fewer than five units keeps %g, and from 1e10
 * every tic but 0 is at 1e6 or more, in e-notation alike (whole, they ran to 17 digits:
 * review46). */
static void gp_lin_format(FILE *f, const struct lab_doc_figure *g, double lo, double hi)
{
	double top = fmax(fabs(lo), fabs(hi));

	if (!g->logy && top >= 999999.5 && top < 1e10 && hi - lo >= 5)
		fputs("set format y '%.0f'\n", f);
}

void lab__gp_axes(FILE *f, const struct lab_doc_figure *g, const struct gp_ends *e, double onex,
                  int framed)
{
	int bars = isfinite(onex), yset = g->ymin < g->ymax;

	if (g->logx && !bars)
		fprintf(f, "set logscale x %d\n", g->logx);
	/* a tic at each x where they are few, else at powers: 16 KiB, not 16384 (plots38) */
	if (g->logx && !bars && !gp_x_tics(f, g) && g->xbytes && g->logx == 2)
		gp_bytes_tics(f, g);
	else if (!g->logx && !bars && framed)
		gp_x_tics(f, g);
	/* numbers as %g on log axes: 1e+06, not 1000000.0000000 (plots40) */
	if (g->logx && !(g->xbytes && g->logx == 2) && !bars)
		fputs("set format x '%g'\n", f);
	/* %g on a log axis too, but whole numbers where its tics reach a million from 2 or more
	 * ("1e+07, 1e+06, 100000" on the locks' p99, plots46) */
	double ylo = isfinite(e->floor) ? e->floor : gp_y_end(g, 0),
	       yhi = isfinite(e->top) ? e->top : gp_y_end(g, 1);

	if (g->logy)
		fprintf(f, "set logscale y %d\nset format y '%s'\n", g->logy,
		        ylo >= 2 && yhi >= 999999.5 && yhi < 1e10 && !(g->ymin < g->ymax) ? "%.0f"
		                                                                          : "%g");
	if (g->xmin < g->xmax && !bars)
		fprintf(f, "set xrange [%.17g:%.17g]\n", g->xmin, g->xmax);
	/* an x axis ends at its values and its margins (1 and 2 threads ran 0.5 .. 4; a
	 * linear one went to the next tic: a curve set aside from 0 began at -1) */
	else if (framed && !bars && (!g->logx || gp_x_powers(g) >= 2))
		fputs("set autoscale xfixmin\nset autoscale xfixmax\n", f);
	/* one value on a linear axis: a range around it (gnuplot warned "empty y range" and
	 * labelled 4.95, 4.96, ... 5.05, hostile44); ceilings span their own */
	double v = gp_y_end(g, 0), d = fabs(v) > 0 ? fabs(v) / 10 : 1;

	if (!yset && !g->logy && !bars && framed && !gp_roofs(g) && isfinite(v + d) &&
	    isfinite(v - d) && v == gp_y_end(g, 1)) {
		yset = 1;
		fprintf(f, "set yrange [%.17g:%.17g]\n", v - d, v + d);
	} else if (yset)
		fprintf(f, "set yrange [%.17g:%.17g]\n", g->ymin, g->ymax);
	/* a log axis ends at its values, not at the next power of its base (values of 31 to 1248
	 * on an axis of 10 to 10000, the top decade empty: review41), and the margins below keep
	 * them off the frame */
	gp_lin_format(f, g, yset ? g->ymin : v, yset ? g->ymax : gp_y_end(g, 1));
	if (g->logy && !yset) {
		fputs("set autoscale yfixmin\nset autoscale yfixmax\n", f);
		gp_log_tics(f, g, isfinite(e->floor) ? e->floor : gp_y_end(g, 0),
		            isfinite(e->top) ? e->top : gp_y_end(g, 1), isnan(e->floor),
		            isnan(e->top));
	}
	if (!framed)
		return;
	/* the first and last x inside the frame, not on it, where their bars show (on 2 CPUs
	 * every interval of a threads plot sat in the frame: plots38; an x of 0 too, its bar on
	 * the frame's line: the axis ends at its values, no longer at the tic past them, so the
	 * margin is a twentieth, not the -5 of 0 .. 35 bytes, plots40), and the lowest and highest
	 * y (a speedup's 1 at one thread lay on the bottom frame, review39). gnuplot moves an end
	 * fixed by a range by the margin too where the other end is autoscaled (a bar chart from
	 * 0 began at -4): no margin past a fixed end, a bar to the frame's end or a bar chart's
	 * 0. */
	fprintf(f, "set offsets %s, %s, %s, %s\n", g->xmin < g->xmax || bars ? "0" : "graph 0.05",
	        g->xmin < g->xmax || bars ? "0" : "graph 0.05",
	        yset || !isnan(e->top) ? "0" : "graph 0.05",
	        yset || !isnan(e->floor) || (bars && !g->logy && !(gp_y_end(g, 0) < 0)) ? "0"
	        : g->logy || gp_y_below(g) ? "graph 0.05"
	                                   : "0");
}
