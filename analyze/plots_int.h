/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by plots.c and plots_stride.c; not part of the analyzer's interface. */
#ifndef LAB_ANALYZE_PLOTS_INT_H
#define LAB_ANALYZE_PLOTS_INT_H

#include <stdio.h>

#include "analyze/plots.h"

/* The plots directory: a handle on a real directory (never a link) and its path for messages. */
struct lab_an_pdir {
	int fd;
	const char *path;
};

/* A number as gnuplot reads it (" NaN" for a missing value). */
void lab_an_dat_num(FILE *f, double v);
/* Creates BASE.EXT in the plots directory for writing; NULL with the cause in err. */
FILE *lab_an_open(const struct lab_an_pdir *pdir, const char *base, const char *ext,
                  struct lab_an_err *err);
int lab_an_close(FILE *f, const char *base, struct lab_an_err *err);
/* Writes untrusted text s as one gnuplot single-quoted string literal that gnuplot cannot
 * expand or execute (see plots.c); every title, label and key from a file goes through it. */
void lab_an_gp_str(FILE *f, const char *s);
/* The SVG terminal preamble of BASE.gp (title, and sub as a second title line when not NULL),
 * and the trailer that renders it again as PNG. */
void lab_an_gp_head(FILE *f, const char *base, const char *title, const char *sub);
/* A file-name-safe copy of in ([A-Za-z0-9._-], never starting with '.' or '-') into out. */
void lab_an_plot_slug(const char *in, char *out, size_t len);
void lab_an_gp_tail(FILE *f, const char *base);
int lab_an_plot_add(struct lab_an_plots *p, const char *name);
/* Writes the cost-vs-stride plots of every experiment whose params hold `stride`. */
int lab_an_stride_plots(const struct lab_an_analysis *a, const struct lab_an_pdir *pdir,
                        struct lab_an_plots *out, struct lab_an_err *err);

/* The c2c heatmaps (cNN-EXP-METHOD-heatmap) and the lock plots (lNN-EXP-CONDITIONS-{throughput,
 * fairness,p99}); plots_kernels.c. */
int lab_an_c2c_plots(const struct lab_an_analysis *a, const struct lab_an_pdir *pdir,
                     struct lab_an_plots *out, struct lab_an_err *err);
int lab_an_lock_plots(const struct lab_an_analysis *a, const struct lab_an_pdir *pdir,
                      struct lab_an_plots *out, struct lab_an_err *err);

#endif
