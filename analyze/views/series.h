/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scaling series view's parts (series.c: the section, its tables; series_fits.c: the fits
 * as notes and findings, and the figures). */
#ifndef LAB_ANALYZE_VIEWS_SERIES_H
#define LAB_ANALYZE_VIEWS_SERIES_H

#include "analyze/analysis.h"
#include "analyze/render/doc.h"

/* Fewest thread counts with a speedup for a series' figures: a line through two points shows no
 * trend, no fit and no Karp-Flatt curve (its table has the numbers). */
#define LAB_AN_SERIES_MIN_COUNTS 3

/* The fits of s (error model, Amdahl, USL, Gustafson, lack of fit, model choice) as notes of
 * sec, its findings as findings. */
void lab_an_series_fits(struct lab_doc_section *sec, const struct lab_an_series *s);
/* The speedup (with the fits and the ideal line), efficiency and Karp-Flatt figures of s, when
 * it has LAB_AN_SERIES_MIN_COUNTS thread counts with a speedup. */
void lab_an_series_figures(struct lab_doc_section *sec, const struct lab_an_series *s);

#endif
