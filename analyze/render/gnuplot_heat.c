/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A document's heat maps as gnuplot data and scripts (gnuplot_int.h): one "x y value" line per
 * cell that has a number, drawn as an image when the matrix is full and as boxes when it is
 * sparse, the first row on top, cell notes as labels on small matrices. Text from the
 * document reaches a script only as a gnuplot string literal (lab_an_gp_str).
 */
#include <math.h>
#include <stdio.h>

#include "analyze/plots_int.h"
#include "analyze/render/gnuplot_int.h"

/* Cells on a heat map up to this many rows carry their value as a label. */
#define GP_LABEL_ALL 16
/* Tics on a heat map axis: about this many, evenly spaced. */
#define GP_TICS 32

/* A matrix drawn as an image: every cell has a number and the grid is 2 x 2 or more (gnuplot
 * draws no image of one row or column: a 1-node NUMA matrix was a blank square, plots38). */
static int gp_full(const struct lab_doc_matrix *m)
{
	if (m->pos || m->nr < 2 || m->nc < 2)
		return 0;
	for (size_t i = 0; i < m->ncell; i++)
		if (!m->cell[i].has)
			return 0;
	return 1;
}

static int gp_labelled(const struct lab_doc_matrix *m, const struct lab_doc_cell *c)
{
	return c->has && (m->nr <= GP_LABEL_ALL || c->note);
}

/* index 0: x y value per cell with a number; index 1: x y label of the cells labelled (a
 * sparse matrix: its cells in their order). */
void lab__gp_dat_heat(FILE *f, const struct lab_doc_matrix *m)
{
	int full = gp_full(m);

	fputs("# x y value (x: column, y: row, positions of the script's tics)\n", f);
	for (size_t k = 0; k < m->ncell; k++) {
		size_t at = m->pos ? m->pos[k] : k;

		if (m->cell[k].has)
			fprintf(f, "%zu %zu %.10g\n", at % m->nc, at / m->nc, m->cell[k].mean);
		if (full && at % m->nc == m->nc - 1)
			fputc('\n', f);
	}
	fputs("\n\n# x y label\n", f);
	for (size_t k = 0; k < m->ncell; k++) {
		const struct lab_doc_cell *c = &m->cell[k];
		size_t at = m->pos ? m->pos[k] : k;

		if (!gp_labelled(m, c))
			continue;
		/* a label: the value that colours the cell, then its note (the note alone,
		 * "M:37.23;209.2", hid the median of 121 that set the colour, plots44); digits and
		 * the note's plain characters only */
		fprintf(f, "%zu %zu \"%.3g", at % m->nc, at / m->nc, c->mean);
		if (c->note) {
			fputs(" (", f);
			for (const char *s = c->note; *s; s++)
				fputc(*s == '"' || *s == '\\' || (unsigned char)*s < 32 ? '_' : *s,
				      f);
			fputc(')', f);
		}
		fputs("\"\n", f);
	}
}

static void gp_tics(FILE *f, const char *axis, const char *const *lab, size_t n)
{
	size_t step = n > GP_TICS ? (n + GP_TICS - 1) / GP_TICS : 1;

	fprintf(f, "set %stics (", axis);
	for (size_t i = 0; i < n; i += step) {
		fputs(i ? ", " : "", f);
		lab_an_gp_str(f, lab[i] ? lab[i] : "?");
		fprintf(f, " %zu", i);
	}
	fputs(")\n", f);
}

/* 1 when m's cells hold one value, above 0 (two CPUs' one pair, a one-node matrix): its
 * colours then start at 0, where gnuplot made a scale of that value's rounding (119.5 ..
 * 122.5, plots40); a matrix of several values keeps its own range (its contrast). */
static int gp_heat_one(const struct lab_doc_matrix *m)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < m->ncell; i++)
		if (m->cell[i].has) {
			lo = fmin(lo, m->cell[i].mean);
			hi = fmax(hi, m->cell[i].mean);
		}
	return lo > 0 && lo == hi;
}

void lab__gp_heat(FILE *f, const struct lab_doc_matrix *m, const char *dat)
{
	/* the first row on top, as in the tables of the text and HTML (it was at the bottom,
	 * plots38) */
	fprintf(f,
	        "unset grid\nunset key\nset xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\n"
	        "set palette defined (0 '#ffffcc', 1 '#feb24c', 2 '#f03b20')\nset cblabel ",
	        m->nc - 1, m->nr - 1);
	lab_an_gp_str(f, m->unit ? m->unit : "");
	/* colours from 0 where no value is below it: one value alone (two CPUs' one pair) made
	 * a scale of its own noise, 119.5 .. 122.5 (plots40) */
	fputs(gp_heat_one(m) ? "\nset cbrange [0:*]\n" : "\n", f);
	gp_tics(f, "x", m->clab, m->nc);
	gp_tics(f, "y", m->rlab, m->nr);
	if (gp_full(m))
		fprintf(f, "plot '%s.dat' index 0 using 1:2:3 with image pixels", dat);
	else
		fprintf(f,
		        "plot '%s.dat' index 0 using 1:2:(0.5):(0.5):3 with boxxyerror "
		        "fillstyle solid noborder linecolor palette",
		        dat);
	for (size_t i = 0; i < m->ncell; i++)
		if (gp_labelled(m, &m->cell[i])) {
			fprintf(f,
			        ", '' index 1 using 1:2:3 with labels font ',%d' textcolor "
			        "rgb 'black'",
			        m->nr > 8 ? 7 : 9);
			break;
		}
	fputc('\n', f);
}
