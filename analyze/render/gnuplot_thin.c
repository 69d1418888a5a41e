/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Which points of a long curve a figure draws (gnuplot_int.h): the tables keep every point,
 * the picture a bounded number, so report.html, which embeds the SVGs, stays small.
 */
#include <math.h>
#include <stdlib.h>

#include "analyze/render/gnuplot_int.h"

/* A scatter's cells across each axis: at most (LAB__GP_CELLS + 1)^2 points drawn. */
#define LAB__GP_CELLS 64

/* v on an axis (log: its logarithm, NaN where v <= 0: no place there; it stretched the span
 * of 100 000 points so that 4 were kept, hostile45), and the axis' span over c's points. */
static double gp_axis_t(double v, int log_axis)
{
	return !log_axis ? v : v > 0 ? log(v) : NAN;
}

static void gp_span(const struct lab_doc_curve *c, int y, int log_axis, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t k = 0; k < c->n; k++) {
		double t = gp_axis_t(y ? c->p[k].y : c->p[k].x, log_axis);

		if (isfinite(t)) {
			*lo = fmin(*lo, t);
			*hi = fmax(*hi, t);
		}
	}
}

/* The step of v, 0 .. steps, in lo .. hi; -1: not finite (a point gnuplot does not draw). */
static long gp_step(double v, int log_axis, double lo, double hi, long steps)
{
	double t = gp_axis_t(v, log_axis), r = hi > lo ? (t - lo) / (hi - lo) : 0;

	if (!isfinite(t))
		return -1;
	/* a span past a double (-1e308 .. 1e308) reads as one step, never a NaN cast (review44) */
	return isfinite(r) ? (long)(r * (double)steps) : 0;
}

/* A line: each run of consecutive points in one x step keeps its lowest and highest. */
static size_t gp_thin_line(const struct lab_doc_figure *g, const struct lab_doc_curve *c,
                           unsigned char *keep)
{
	double lo, hi;
	size_t n = 0;

	gp_span(c, 0, g->logx, &lo, &hi);
	for (size_t k = 0, end; k < c->n; k = end) {
		long step = gp_step(c->p[k].x, g->logx, lo, hi, LAB__GP_POINTS_MAX / 2);
		size_t min = k, max = k;

		for (end = k + 1; end < c->n && gp_step(c->p[end].x, g->logx, lo, hi,
		                                        LAB__GP_POINTS_MAX / 2) == step;
		     end++) {
			min = c->p[end].y < c->p[min].y ? end : min;
			max = c->p[end].y > c->p[max].y ? end : max;
		}
		keep[min] = keep[max] = 1;
		n += 1 + (min != max);
	}
	return n;
}

struct gp_cell {
	long cell;
	size_t k;
};

static int gp_cmp_cell(const void *a, const void *b)
{
	const struct gp_cell *x = a, *y = b;

	if (x->cell != y->cell)
		return x->cell < y->cell ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

/* Points not joined, in any order (a roofline's, by point: consecutive points shared no x
 * step, so 20 000 of them made an 8 MB SVG, hostile44): the first point of each cell of a
 * LAB__GP_CELLS x LAB__GP_CELLS grid over the axes. -1: out of memory. */
static long gp_thin_scatter(const struct lab_doc_figure *g, const struct lab_doc_curve *c,
                            unsigned char *keep)
{
	struct gp_cell *v = malloc(c->n * sizeof(*v));
	double xlo, xhi, ylo, yhi;
	long n = 0;

	if (!v)
		return -1;
	gp_span(c, 0, g->logx, &xlo, &xhi);
	gp_span(c, 1, g->logy, &ylo, &yhi);
	for (size_t k = 0; k < c->n; k++) {
		long xs = gp_step(c->p[k].x, g->logx, xlo, xhi, LAB__GP_CELLS),
		     ys = gp_step(c->p[k].y, g->logy, ylo, yhi, LAB__GP_CELLS);

		v[k] = (struct gp_cell){xs < 0 || ys < 0 ? -1 : xs * (LAB__GP_CELLS + 1) + ys, k};
	}
	qsort(v, c->n, sizeof(*v), gp_cmp_cell);
	for (size_t i = 0; i < c->n; i++)
		if (v[i].cell >= 0 && (!i || v[i].cell != v[i - 1].cell)) {
			keep[v[i].k] = 1;
			n++;
		}
	free(v);
	return n;
}

long lab__gp_thin(const struct lab_doc_figure *g, const struct lab_doc_curve *c,
                  unsigned char *keep)
{
	for (size_t k = 0; k < c->n; k++)
		keep[k] = c->n <= LAB__GP_POINTS_MAX;
	if (c->n <= LAB__GP_POINTS_MAX)
		return (long)c->n;
	return c->style == LAB_DOC_POINTS ? gp_thin_scatter(g, c, keep)
	                                  : (long)gp_thin_line(g, c, keep);
}
