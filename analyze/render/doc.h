/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The document a view returns (views describe, renderers write): sections, each with a title, a
 * short lead and blocks in order: tables (typed columns; cells carry median, mean, interval, n,
 * or why there is no number), matrices (row and column labels, cells, a legend), figures (axes
 * with units, log scales, curves with bands, ceilings, labels), findings and notes. The
 * renderers under analyze/render/ write it as text, HTML, JSON, CSV and gnuplot; escaping lives
 * only there. Every string in a document is plain text (never markup) and may come from the
 * result files: renderers escape all of it.
 *
 * A document owns its strings (copied into it). Building never fails in the middle: when memory
 * runs out the builders do nothing from then on (a NULL handle is accepted everywhere) and
 * lab_doc_failed says so; the caller turns that into -LAB_ENOMEM.
 */
#ifndef LAB_ANALYZE_RENDER_DOC_H
#define LAB_ANALYZE_RENDER_DOC_H

#include <stddef.h>

enum lab_doc_kind {
	LAB_DOC_KEY,      /* a label that names the row (lock, threads, chunk) */
	LAB_DOC_TEXT,     /* a label that is not part of the row's name */
	LAB_DOC_VALUE,    /* one number */
	LAB_DOC_INTERVAL, /* median, mean and its 95 % interval over n samples */
	LAB_DOC_COUNT,    /* an integer */
	LAB_DOC_RATIO,    /* a dimensionless number (speedup, share) */
	/* a number with its 95 % interval, no median (a speedup, a rate): lo, hi NaN: no
	 * interval; hi infinite: unbounded above */
	LAB_DOC_ESTIMATE,
	/* a size in bytes: the text and the report in binary units (16 KiB, 256 MiB), the JSON
	 * and the CSV the number of bytes */
	LAB_DOC_BYTES,
};

/* 64 bytes: a table holds one per column and row (100 000 points of the counters view made
 * 3.6 million of them) */
struct lab_doc_cell {
	double median, mean, lo, hi; /* NaN where none; VALUE, COUNT, RATIO: mean */
	/* INTERVAL: samples; 0 with a number: not from samples (a point's samples fit: their
	 * file is under 1 GiB, csv.h LAB_AN_FILE_MAX) */
	unsigned n;
	unsigned char has; /* 1: a number (or, KEY/TEXT, a text) */
	/* INTERVAL: 1 when lo, hi bound the median (distribution-free, order statistics), not the
	 * mean (lab_doc_ival_median): renderers put the interval after the number it bounds */
	unsigned char ci_median;
	const char *text; /* KEY, TEXT */
	const char *why;  /* no number: why (NULL: "-") */
	const char *note; /* said after the value ("below resolution") */
};

struct lab_doc_col {
	const char *key;  /* JSON key, CSV column, table header */
	const char *unit; /* NULL: none */
	enum lab_doc_kind kind;
};

#define LAB_DOC_MAXCOL 24

/* Who a table is for: everyone; the files tools read alone (analysis.json and the CSV files:
 * the data in full, where people read a shorter table); the text and the HTML alone (that
 * shorter table: data the files hold in another table). */
enum lab_doc_audience { LAB_DOC_EVERYONE, LAB_DOC_TOOLS, LAB_DOC_PEOPLE };

struct lab_doc_table {
	const char *key, *title; /* key: JSON, CSV file DOCVIEW-KEY.csv (or csv) */
	const char *csv;         /* the CSV file's stem when not VIEW-KEY */
	enum lab_doc_audience audience;
	struct lab_doc_col col[LAB_DOC_MAXCOL];
	const char *ctitle[LAB_DOC_MAXCOL]; /* the text's and the HTML's header where not the key */
	size_t ncol;
	struct lab_doc_cell *cell; /* nrow x ncol */
	const char **rnote;        /* per row: said after it (flags), NULL: nothing */
	const char **rwhy;         /* per row: why it has no numbers (not run), NULL: it has */
	size_t nrow, ccap, rcap;
	struct lab_doc *doc;
};

struct lab_doc_matrix {
	const char *key, *title, *unit, *legend;
	const char *rname, *cname; /* what rows and columns are ("from core", "to core") */
	const char **rlab, **clab;
	size_t nr, nc;
	struct lab_doc_cell *cell; /* nr x nc: VALUE cells (sparse: ncell of them) */
	/* Sparse (lab_doc_matrix_sparse): cell k sits at row pos[k] / nc, column pos[k] % nc;
	 * NULL: dense, ncell = nr x nc. */
	size_t *pos, ncell, scap;
	struct lab_doc *doc;
};

enum lab_doc_style {
	LAB_DOC_LINES,  /* points joined, with error bars where lo/hi are finite */
	LAB_DOC_POINTS, /* points with error bars, not joined */
	LAB_DOC_ROOF,   /* the function y = min(a, b x); a or b NaN: that part absent */
	/* a share stacked with the figure's other STACK curves in one bar per x (a category, the
	 * figure's label at that x names it; its y is not used); other curves are not drawn */
	LAB_DOC_STACK,
};

struct lab_doc_pt {
	double x, y, lo, hi; /* lo, hi NaN: no interval */
};

struct lab_doc_curve {
	const char *label;
	enum lab_doc_style style;
	int color, dash; /* style indices (0-based; renderers cycle them) */
	double a, b;     /* ROOF */
	struct lab_doc_pt *p;
	size_t n, cap;
	const char *missing; /* where it has no number and why ("2: load-flagged") */
	size_t ngap;
	struct lab_doc *doc;
};

struct lab_doc_label {
	double x, y;
	const char *text;
};

struct lab_doc_figure {
	const char *key, *title, *sub, *xlabel, *ylabel;
	int logx, logy; /* base of the log scale, 0: linear */
	int xbytes;     /* 1: x is a size in bytes (tics in KiB, MiB, GiB) */
	/* 1: its curves are measurements (no model's): a renderer may set their points a little
	 * apart where they share x values */
	int dodge;
	double xmin, xmax; /* the x range when xmin < xmax; else (0, 0) the renderer's autoscale */
	double ymin, ymax; /* the y range likewise */
	struct lab_doc_curve **c;
	size_t nc, cap;
	struct lab_doc_label *label;
	size_t nlabel, lcap;
	const struct lab_doc_matrix *heat; /* a heat map of this matrix instead of curves */
	const char *name; /* its plot files' name after view and experiment; NULL: sub, else key */
	size_t id;        /* its index among the document's figures */
	struct lab_doc *doc;
};

enum lab_doc_sev { LAB_DOC_INFO, LAB_DOC_WARN };

struct lab_doc_finding {
	enum lab_doc_sev sev;
	const char *text, *evidence;
};

enum lab_doc_btype { LAB_DOC_TABLE, LAB_DOC_MATRIX, LAB_DOC_FIGURE, LAB_DOC_FINDING, LAB_DOC_NOTE };

struct lab_doc_block {
	enum lab_doc_btype type;
	union {
		struct lab_doc_table *table;
		struct lab_doc_matrix *matrix;
		struct lab_doc_figure *figure;
		struct lab_doc_finding *finding;
		const char *note;
	} u;
};

struct lab_doc_section {
	const char *experiment; /* NULL: spans experiments (analysis.json's top level) */
	const char *sub;        /* the conditions (params), NULL: none */
	const char *title, *lead;
	struct lab_doc_block *b;
	size_t nb, cap;
	struct lab_doc *doc;
};

struct lab_doc_mem;
struct lab_an_strset;

struct lab_doc {
	const char *view;  /* its key in analysis.json, its plots' and files' prefix (static) */
	const char *title; /* the view's heading */
	const char *about; /* what it shows and how (the report's paragraph) */
	const char *note;  /* the text tables' footnote */
	struct lab_doc_section **s;
	size_t ns, cap, nfig;
	struct lab_doc_mem *mem;
	/* its longer texts, each kept once (a reason repeated in every row of 100 000) */
	struct lab_an_strset *texts;
	int failed;
	/* 1: the analyzer's own files hold this data (the series: analysis.json's "series" and
	 * summary.csv), so lab analyze does not write the document into analysis.json or a CSV
	 * file a second time; text, report and plots come from it as from any document */
	int data_elsewhere;
};

/* A new, empty document of view (a static string: the view's name); NULL when out of memory. */
struct lab_doc *lab_doc_new(const char *view, const char *title);
void lab_doc_free(struct lab_doc *d);
/* 1 when memory ran out while building d (or d is NULL). */
int lab_doc_failed(const struct lab_doc *d);
/* The bytes d holds for its strings and blocks (the scale tests read it at n and 4n). */
size_t lab_doc_bytes(const struct lab_doc *d);
/* A copy of the formatted text owned by d ("" when out of memory). */
const char *lab_doc_printf(struct lab_doc *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void lab_doc_about(struct lab_doc *d, const char *about, const char *note);

struct lab_doc_section *lab_doc_section(struct lab_doc *d, const char *experiment, const char *sub);
void lab_doc_lead(struct lab_doc_section *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void lab_doc_finding(struct lab_doc_section *s, enum lab_doc_sev sev, const char *evidence,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void lab_doc_note(struct lab_doc_section *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

struct lab_doc_table *lab_doc_table(struct lab_doc_section *s, const char *key, const char *title);
/* Adds a column (before the first row; at most LAB_DOC_MAXCOL). */
void lab_doc_col(struct lab_doc_table *t, const char *key, const char *unit,
                 enum lab_doc_kind kind);
/* The header people read for the last column added, where its key would mislead (a key
 * "median_ns" over a column of means). */
void lab_doc_col_title(struct lab_doc_table *t, const char *title);
/* Starts a row; the cells of the row are then set through lab_doc_at. */
void lab_doc_row(struct lab_doc_table *t);
/* Column k of the current row (a scratch cell when there is none: writes go nowhere). */
struct lab_doc_cell *lab_doc_at(struct lab_doc_table *t, size_t k);
void lab_doc_rnote(struct lab_doc_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void lab_doc_rwhy(struct lab_doc_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

struct lab_doc_matrix *lab_doc_matrix(struct lab_doc_section *s, const char *key, const char *title,
                                      size_t nr, size_t nc);
struct lab_doc_cell *lab_doc_mat(struct lab_doc_matrix *m, size_t r, size_t c);
/* A sparse nr x nc matrix with room for ncell cells (a few CPU pairs among thousands of CPUs):
 * memory and output grow with its cells, not nr x nc; JSON lists them as [row, column, value],
 * text and HTML say how many there are instead of printing a grid, a heat map draws them. */
struct lab_doc_matrix *lab_doc_matrix_sparse(struct lab_doc_section *s, const char *key,
                                             const char *title, size_t nr, size_t nc, size_t ncell);
/* A new cell of sparse m at row r, column c (a scratch cell when m is full or not sparse). */
struct lab_doc_cell *lab_doc_smat(struct lab_doc_matrix *m, size_t r, size_t c);

/* Cell setters (c from lab_doc_at or lab_doc_mat; d its document for the strings). */
void lab_doc_num(struct lab_doc_cell *c, double v);
void lab_doc_ival(struct lab_doc_cell *c, double median, double mean, double lo, double hi,
                  size_t n);
/* The same with lo, hi the 95 % interval of the median (not of the mean). */
void lab_doc_ival_median(struct lab_doc_cell *c, double median, double mean, double lo, double hi,
                         size_t n);
void lab_doc_str(struct lab_doc *d, struct lab_doc_cell *c, const char *s);
void lab_doc_why(struct lab_doc *d, struct lab_doc_cell *c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void lab_doc_cnote(struct lab_doc *d, struct lab_doc_cell *c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

struct lab_doc_figure *lab_doc_figure(struct lab_doc_section *s, const char *key, const char *title,
                                      const char *xlabel, const char *ylabel);
struct lab_doc_curve *lab_doc_curve(struct lab_doc_figure *f, const char *label,
                                    enum lab_doc_style style);
/* A point of c: y with its interval (lo, hi NaN: none); non-finite x or y are left out. */
void lab_doc_point(struct lab_doc_curve *c, double x, double y, double lo, double hi);
/* Says in c's legend that it has no number at x and why (the first three; then "..."). */
void lab_doc_gap(struct lab_doc_curve *c, const char *x, const char *why);
void lab_doc_flabel(struct lab_doc_figure *f, double x, double y, const char *text);
/* Says under f's title, before its conditions, that kept of its points hold load-flagged
 * samples (--include-flagged: a PNG copied into slides looked like clean data); nothing when
 * kept is 0. */
void lab_doc_flagged(struct lab_doc_figure *f, size_t kept);

#endif
