/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Plots under DIR/plots: the figures of every view's document (the scaling series' speedup,
 * efficiency and Karp-Flatt among them), drawn by analyze/render/gnuplot.c as VIEWNN-... .dat and
 * .gp. Each is described by a struct lab_an_plot; nothing reads meaning from a file name. The .gp
 * scripts are self-contained and write .svg and .png next to themselves. At most LAB_AN_PLOTS_MAX
 * plots are written (a warning counts the rest). gnuplot runs once on a script that loads every
 * plot's script (plots/render-batch.gnuplot is the same for people), when it is on PATH;
 * otherwise one warning says how to install it. It runs in a private directory and its files are
 * renamed into plots/ (plots_render.c), so no name planted in plots/ is ever written through.
 * Every file is recorded in the analysis's record (analyze/manifest.h). The analysis never
 * depends on gnuplot.
 */
#ifndef LAB_ANALYZE_PLOTS_H
#define LAB_ANALYZE_PLOTS_H

#include "analyze/analysis.h"
#include "analyze/err.h"

/* gnuplot's output and the script that renders every plot, in the plots directory. */
#define LAB_AN_GNUPLOT_LOG   "gnuplot.log"
#define LAB_AN_GNUPLOT_BATCH "render-batch.gnuplot"

/* The most plots one analysis writes and renders: gnuplot renders a few dozen a second and the
 * report embeds each one, so past this the rest are left out (counted in omitted, and a warning
 * says how many and why); the tables and analysis.json still hold every series. */
#define LAB_AN_PLOTS_MAX 300

/* One plot: BASE.gp (BASE.dat beside it, BASE.svg and BASE.png once rendered). */
struct lab_an_plot {
	const char *kind; /* "curves" or "heatmap" (analyze/render/gnuplot.c) */
	char *title;      /* what it shows (text from the files: escape it) */
	char *base;       /* the file base name, a slug the analyzer made */
	const char *view; /* the view that drew it (its document's figure: group is the id) */
	size_t group;     /* the figure's id in its view's document */
	int svg, png;     /* this analysis rendered BASE.svg, BASE.png (none left from before) */
};

/* The plots of one analysis, in drawing order. */
struct lab_an_plots {
	struct lab_an_plot *p;
	size_t n, cap;
	int rendered; /* gnuplot drew some: .svg/.png exist */
	size_t drawn; /* the plots with their .svg or .png (gnuplot may exit 0 having drawn none) */
	int written;  /* lab_an_plots_write ran (0: plots were not asked for) */
	int no_gnuplot; /* there were plots to render and gnuplot was not found */
	size_t omitted; /* plots left out past LAB_AN_PLOTS_MAX (not written, not rendered) */
};

struct lab_an_manifest;
/*
 * Writes the .dat/.gp files into dir/plots and renders them when gnuplot is present (render = 0
 * skips rendering). Each file written is added to wrote as plots/NAME (NULL: not recorded).
 * Warnings go to warn. Returns 0 or a negative code with the cause in err.
 */
int lab_an_plots_write(const struct lab_an_analysis *a, const char *dir, int render,
                       struct lab_an_manifest *wrote, struct lab_an_plots *out,
                       struct lab_an_warnings *warn, struct lab_err *err);
void lab_an_plots_free(struct lab_an_plots *p);
/* Ends the gnuplot this process is waiting for, if any (SIGKILL, then reaped), and removes the
 * private directory it was rendering in. Async-signal-safe: for the command's SIGTERM/SIGINT
 * handler. gnuplot also dies with the process on its own. */
void lab_an_plots_abort(void);

/* Ends the gnuplot this process is waiting for, if any (SIGKILL), and nothing more: its waiter
 * reaps it and cleans up. Async-signal-safe (lab_an_dir_interrupt). */
void lab_an_plots_stop(void);
/* 1 when an executable named prog is on PATH. */
int lab_an_have_program(const char *prog);

#endif
