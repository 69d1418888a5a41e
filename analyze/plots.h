/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Plots under DIR/plots: for each series NN-SLUG-{speedup,efficiency,karpflatt}.{dat,gp} and,
 * when the params hold `stride`, NN-SLUG-stride.{dat,gp} (cost vs stride, one line per thread
 * count). The .gp scripts are self-contained and write .svg and .png next to themselves.
 * gnuplot runs once for all scripts when it is on PATH; otherwise one warning says how to
 * install it. The analysis never depends on gnuplot.
 */
#ifndef LAB_ANALYZE_PLOTS_H
#define LAB_ANALYZE_PLOTS_H

#include "analyze/analysis.h"
#include "analyze/err.h"

/* The list of written plot files (base names, no extension) of one analysis. */
struct lab_an_plots {
	char **name;
	size_t n, cap;
	int rendered; /* gnuplot ran and succeeded: .svg/.png exist */
};

/*
 * Writes the .dat/.gp files into dir/plots and renders them when gnuplot is present (render = 0
 * skips rendering). Warnings go to warn. Returns 0 or a negative code with the cause in err.
 */
int lab_an_plots_write(const struct lab_an_analysis *a, const char *dir, int render,
                       struct lab_an_plots *out, struct lab_an_warnings *warn,
                       struct lab_an_err *err);
void lab_an_plots_free(struct lab_an_plots *p);
/* 1 when an executable named prog is on PATH. */
int lab_an_have_program(const char *prog);

#endif
