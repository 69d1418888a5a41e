/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the gnuplot renderer's files share (gnuplot.c, gnuplot_heat.c); not an interface. */
#ifndef LAB_ANALYZE_RENDER_GNUPLOT_INT_H
#define LAB_ANALYZE_RENDER_GNUPLOT_INT_H

#include <stdio.h>

#include "analyze/render/doc.h"

/* Where a figure's bars that reach past what its axis can show end: at its frame. floor: the
 * bottom of a log axis, where a lower end at 0 is drawn (it was drawn from the point up: [0,
 * 45] read as [17.7, 45], plots38); top: the top, where an interval open above is drawn (it
 * had no bar, the least certain point looking exact). NaN: no such bar. */
struct gp_ends {
	double floor, top;
	int cut; /* 1: a finite interval's end lies past the frame (the range follows the values) */
	int below, above; /* 1: an interval reaches 0 below a log axis; one is open above */
};

/* The script lines of g's axes (gnuplot_axes.c): log scales, number formats, tics, fixed
 * ranges and the margins past its values; e: the ends of its bars; onex: the one x of a bar
 * chart (NaN: none); framed: 0 for a heat map or stacked bars (no margins). */
void lab__gp_axes(FILE *f, const struct lab_doc_figure *g, const struct gp_ends *e, double onex,
                  int framed);
/* A curve of more points than this is drawn thinned (a 100 000-point stride sweep made a
 * 21 MB SVG that report.html embeds): a line's x range cut into LAB__GP_POINTS_MAX / 2 steps
 * (of log x on a log axis), each step's lowest and highest point drawn, so a spike stays in
 * the picture; a scatter's first point in each cell of a grid (gnuplot_thin.c). */
#define LAB__GP_POINTS_MAX 2000
/* Marks in keep (c->n bytes) the points of c that g draws: all of them, or past
 * LAB__GP_POINTS_MAX a thinned set. Returns how many; -1: out of memory. */
long lab__gp_thin(const struct lab_doc_figure *g, const struct lab_doc_curve *c,
                  unsigned char *keep);
/* Heat map m's .dat: index 0, x y value per cell with a number; index 1, x y label of the
 * cells labelled. */
void lab__gp_dat_heat(FILE *f, const struct lab_doc_matrix *m);
/* The script lines that draw heat map m from dat.dat (its axes, palette and plot). */
void lab__gp_heat(FILE *f, const struct lab_doc_matrix *m, const char *dat);

#endif
