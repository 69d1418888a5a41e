/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Modes of a latency distribution: how many clusters a set of samples has, where and how heavy.
 * The core-to-core latency matrix (issue 4) uses it to tell one population (every pair alike)
 * from several (SMT siblings, same socket, cross socket). Method: an adaptive (Abramson)
 * Gaussian kernel density on a binned grid (pilot bandwidth: Silverman's robust rule times a
 * factor), local maxima, then merging of
 * modes that are too light (< min_weight of the samples) or too shallow (the valley between two
 * peaks above valley_ratio of the lower peak). Pure function; no I/O.
 */
#ifndef LAB_ANALYZE_MODES_H
#define LAB_ANALYZE_MODES_H

#include <stddef.h>

#define LAB_AN_MODES_MAX 8

struct lab_an_modes_opts {
	double min_weight;   /* a mode holds at least this fraction of samples (default 0.05) */
	double valley_ratio; /* merge when valley density > ratio x lower peak (default 0.7) */
	double bw_factor;    /* multiplies Silverman's bandwidth (default 1; smaller splits more) */
	int log_scale;       /* work on log(x) (latencies are right-skewed); needs x > 0 */
};

struct lab_an_mode {
	double center; /* median of the samples in the mode's basin */
	double peak;   /* where the density peaks */
	double weight; /* fraction of the samples in the basin */
	double lo, hi; /* basin bounds (the valleys on either side; min/max at the ends) */
	size_t n;
};

struct lab_an_modes {
	size_t count; /* 1 .. LAB_AN_MODES_MAX (0 only for n == 0) */
	struct lab_an_mode mode[LAB_AN_MODES_MAX];
	double bandwidth; /* in the working scale (log when log_scale) */
};

/* The defaults named above. */
struct lab_an_modes_opts lab_an_modes_defaults(void);

/*
 * Finds the modes of x[0..n-1] (x is not modified), ordered by center. opts may be NULL for the
 * defaults. Returns 0, -LAB_ENOMEM, or -LAB_EDATA when log_scale meets x <= 0 or x holds
 * a non-finite value.
 */
int lab_an_modes_detect(const double *x, size_t n, const struct lab_an_modes_opts *opts,
                        struct lab_an_modes *out);

/* Below this many samples the lab reports no modes (a handful of repetitions cannot show two). */
#define LAB_AN_MODES_MIN_N 8

/*
 * The lab's policy for measured costs and latencies: count 0 (unknown) below LAB_AN_MODES_MIN_N
 * samples; the log scale when every value is positive (latencies are right-skewed); a mode must
 * hold at least max(5 %, 3 samples), so one stray repetition is never a mode of its own. Returns
 * as lab_an_modes_detect.
 */
int lab_an_modes_measured(const double *x, size_t n, struct lab_an_modes *out);

/*
 * The modes' centers times scale (weights = 0) or their weights (weights = 1) as "a;b;c" with
 * %.4g, into buf; "" when m holds no modes. Returns buf.
 */
char *lab_an_modes_list(const struct lab_an_modes *m, int weights, double scale, char *buf,
                        size_t len);

/*
 * Modes closer than this ratio (highest center / lowest) are not called multimodal: two tight
 * clusters 3 % apart (a code alignment, a clock step) are real but teach nothing, while the
 * latency modes worth a word (SMT sibling, same socket, other socket; a vCPU pair's modes)
 * differ by tens of per cent or more.
 */
#define LAB_AN_MODES_MIN_SPREAD 1.1

/* 1 when m holds two or more modes whose centers span at least LAB_AN_MODES_MIN_SPREAD. */
static inline int lab_an_modes_multi(const struct lab_an_modes *m)
{
	return m->count > 1 && m->mode[0].center > 0 &&
	       m->mode[m->count - 1].center >= LAB_AN_MODES_MIN_SPREAD * m->mode[0].center;
}

#endif
