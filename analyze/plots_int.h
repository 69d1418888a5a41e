/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by plots.c and the views' plots (analyze/views/); not part of the analyzer's
 * interface. */
#ifndef LAB_ANALYZE_PLOTS_INT_H
#define LAB_ANALYZE_PLOTS_INT_H

#include <stdio.h>

#include "analyze/plots.h"
#include "analyze/wfile.h"

/* The plots directory: a handle on a real directory (never a link), its path for messages, and
 * the record every file written into it is added to (plots/NAME; NULL: none). */
struct lab_an_pdir {
	int fd;
	const char *path;
	struct lab_an_manifest *wrote;
};

/* A number as gnuplot reads it (" NaN" for a missing value). */
void lab_an_dat_num(FILE *f, double v);
/* Starts writing BASE.EXT in the plots directory as a fresh file (analyze/wfile.h: a temporary
 * renamed over the name, never written through a link); NULL with the cause in err. */
FILE *lab_an_open(struct lab_an_wfile *w, const struct lab_an_pdir *pdir, const char *base,
                  const char *ext, struct lab_err *err);
/* The plot files lab_an_open has started so far (a test's measure: none past the cap). */
unsigned long long lab_an_plot_files_opened(void);
/* Finishes it (renamed into place) and records it in pdir->wrote. 0 or a negative code. */
int lab_an_close(struct lab_an_wfile *w, const struct lab_an_pdir *pdir, struct lab_err *err);
/* Writes untrusted text s as one gnuplot single-quoted string literal that gnuplot cannot
 * expand or execute (see plots.c); every title, label and key from a file goes through it. */
void lab_an_gp_str(FILE *f, const char *s);
/* The canvas height of a plot, in pixels (720 wide), unless its legend needs more. */
#define LAB_AN_GP_HEIGHT 480
/* s as gnuplot strings joined by newlines, lines of at most width bytes broken after
 * one of brk's bytes or a space (gp_line_cut), at most lines of them, the last ending in "..."
 * where s goes on; lead: a newline before the first too (after a title). */
void lab_an_gp_lines(FILE *f, const char *s, size_t width, int lines, const char *brk, int lead);

/* The SVG terminal preamble of BASE.gp (title, and sub as a second title line when not NULL),
 * and the trailer that renders it again as PNG, both height pixels high. */
void lab_an_gp_head(FILE *f, const char *base, const char *title, const char *sub, int height);
/* A file-name-safe copy of in ([A-Za-z0-9._-], never starting with '.' or '-') into out. */
void lab_an_plot_slug(const char *in, char *out, size_t len);
void lab_an_gp_tail(FILE *f, const char *base, int height);
/*
 * A legend entry that says where its curve has no number and why: begin with the label, add
 * each point without one (its x and the point), end: "sharded [no data at 2: load-flagged]",
 * "barrier team=lab [no data at 2, 4: not run]". The text goes through lab_an_gp_str.
 */
struct lab_an_key {
	char *buf;
	size_t len, n, flagged;
	int used;
};
struct lab_an_point;
void lab_an_key_begin(struct lab_an_key *k, char *buf, size_t len, const char *label);
void lab_an_key_missing(struct lab_an_key *k, double x, const struct lab_an_point *p);
const char *lab_an_key_end(struct lab_an_key *k);
/* Appends a plot (copies title and base). Returns 0 or -LAB_ENOMEM. */
int lab_an_plot_add(struct lab_an_plots *p, const char *kind, const char *title, const char *base,
                    const char *view, size_t group);
/*
 * Renders out's plots: writes plots/render-batch.gnuplot (for people: `gnuplot
 * render-batch.gnuplot` in plots/ renders every plot) and, when gnuplot is on PATH (else
 * out->no_gnuplot), runs it in a fresh private directory and renames each .svg/.png it finished
 * into plots/ (plots_render.c), marking the plot's svg/png and recording them, then
 * plots/gnuplot.log. A plot gnuplot fails on is counted in a warning. Returns 0 or -LAB_EIO /
 * -LAB_ENOMEM with the cause in err (the batch could not be written).
 */
int lab_an_plots_render(const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                        struct lab_an_warnings *warn, struct lab_err *err);
#endif
