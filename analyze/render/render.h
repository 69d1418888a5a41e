/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The renderers: a document (doc.h) written as text, HTML, JSON, CSV and gnuplot. Everything in
 * a document is plain text that may come from untrusted result files; each renderer escapes it
 * for its format here and nowhere else: HTML entities (html.c), gnuplot string literals and
 * file-name slugs (gnuplot.c, through plots_int.h), CSV quoting (csv.c), JSON strings (json.c).
 * Terminal control bytes in the text output are escaped by the stream `lab analyze` writes
 * through (lab/text_esc.h), which every text renderer's output goes into.
 */
#ifndef LAB_ANALYZE_RENDER_RENDER_H
#define LAB_ANALYZE_RENDER_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/err.h"
#include "analyze/render/doc.h"

struct lab_json;
struct lab_an_plots;
struct lab_an_pdir;

/* The text tables: per section a heading, its tables, matrices, findings and notes; then the
 * document's note. Figures are not drawn in text. */
void lab_render_text(FILE *f, const struct lab_doc *d);
/* Section i of d alone, as lab_render_text writes it (no document note): for output grouped
 * otherwise (by chapter). gap: a blank line before it (0 for the first thing on the stream). */
void lab_render_text_section(FILE *f, const struct lab_doc *d, size_t i, int gap);
/* The report section: heading, the about paragraph, per section its tables and matrices and
 * the rendered plots of its figures (from plots, inlined from dir/plots). */
void lab_render_html(FILE *f, const struct lab_doc *d, const struct lab_an_plots *plots,
                     const char *dir);
/* Writes "VIEW": {...} with the n sections of d indexed by sec (one experiment's, or those that
 * span experiments) into the open object of w; nothing when n is 0. */
void lab_render_json(struct lab_json *w, const struct lab_doc *d, const size_t *sec, size_t n);
struct lab_an_manifest;
/* One CSV file per table key in dir (VIEW_KEY.csv, or the table's csv stem): experiment,
 * params, then the columns (an interval as KEY, KEY_mean, KEY_lo, KEY_hi, KEY_n) and a note.
 * Each file written is added to wrote (NULL: not recorded). Returns 0 or a negative code with
 * err set. */
int lab_render_csv(const struct lab_doc *d, const char *dir, struct lab_an_manifest *wrote,
                   struct lab_err *err);
/* Writes s as one CSV field (lab_csv_field's quoting), text from a results file shown as the
 * text output shows it: a C0 control or DEL and a byte of no valid UTF-8 as \xNN, a C1 or bidi
 * control or a character that shows as nothing as \uNNNN, so a file read in a terminal cannot
 * be driven by it; a field a spreadsheet would take for a formula (=..., @..., +/- before no
 * number) starts with an apostrophe, so opening the file follows no link and runs nothing. */
void lab_an_csv_field(FILE *f, const char *s);
/* The CSV file names lab_render_csv writes for d, into names (at most max, each malloc'd);
 * returns how many. */
size_t lab_render_csv_names(const struct lab_doc *d, char **names, size_t max);
/* One .dat and .gp per figure with something to draw, added to out (view = d->view, group =
 * the figure's id). Returns 0 or a negative code with err set. */
int lab_render_gnuplot(const struct lab_doc *d, const struct lab_an_pdir *pdir,
                       struct lab_an_plots *out, struct lab_err *err);
/* How many curves the gnuplot renderer has looked at to tell whether a figure is stacked or a
 * curve draws nothing, since the start (a test's count: linear in the curves, not quadratic). */
unsigned long long lab_render_gnuplot_probes(void);

/* A cell as the text and the HTML show it ("1.23 | 1.25 [1.2, 1.3]", "-", the why). */
const char *lab_render_cell(const struct lab_doc_col *col, const struct lab_doc_cell *c, char *buf,
                            size_t len);
/* Column k's header of t ("makespan_ns median | mean [95% CI]", "rate (M/s)"); an interval
 * column whose intervals all bound the median reads "median [95% CI] | mean", one of both
 * kinds says the interval bounds the number it follows. */
const char *lab_render_head(const struct lab_doc_table *t, size_t k, char *buf, size_t len);

/* Writes s on one line, as the text tables show their cells: a newline or carriage return in
 * text from a file would start a line of its own (a forged verdict or row); it shows as \n, \r.
 * Other control bytes are the stream's to escape (lab/text_esc.h). */
void lab_render_text_line(FILE *f, const char *s);
/* s on one line into buf (len bytes; what does not fit is cut), as lab_render_text_line writes
 * it; returns buf. */
const char *lab_render_line(const char *s, char *buf, size_t len);
/* Writes s HTML-escaped: markup characters as entities; a control byte (a C0 byte but tab and
 * newline, DEL) as the text \xNN and a C1 control (UTF-8 0xc2 0x80 .. 0x9f) as \u00NN, as the
 * text output shows them, since HTML allows neither raw nor as a character reference. */
void lab_an_html(FILE *f, const char *s);
struct lab_an_plot;
/* Inlines DIR/plots/BASE.svg of plot p as a data-URI figure; nothing when the file is absent. */
void lab_an_report_img(FILE *f, const char *dir, const struct lab_an_plot *p);
/* Inlines every rendered plot of view and group (its figure's id). */
void lab_an_report_view_imgs(FILE *f, const struct lab_an_plots *plots, const char *dir,
                             const char *view, size_t group);

#endif
