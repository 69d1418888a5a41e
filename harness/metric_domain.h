/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The range a metric of the lab can take (its domain), by name: kernels/ *.c declare the
 * metrics and samples.csv names its columns. The planner asks it of a lesson's metric (a claim
 * its range alone decides measures nothing) and the analyzer of every sample and interval
 * (analyze/domain.h: what a sample may hold, the clip of an interval).
 */
#ifndef LAB_HARNESS_METRIC_DOMAIN_H
#define LAB_HARNESS_METRIC_DOMAIN_H

enum lab_domain {
	LAB_DOM_UNKNOWN = 0, /* not a metric the lab writes: clipped by the samples' sign */
	/* any sign: a drift; a difference of two times, true value >= 0 but measured with noise
	 * that may read below 0 (the views say "below resolution" there, curves.h) */
	LAB_DOM_ANY,
	LAB_DOM_NONNEG,   /* >= 0: counts, latencies, rates */
	LAB_DOM_UNIT,     /* in [0, 1]: a share */
	LAB_DOM_ATLEAST1, /* >= 1: a ratio of the largest to the smallest */
	/* in [1, threads]: the largest of the threads' values over their mean (the largest is at
	 * most their sum, threads times the mean) */
	LAB_DOM_MAX_MEAN,
	LAB_DOM_JAIN, /* Jain's fairness index: in [1/threads, 1] */
	/* >= -100: a change in percent of a quantity >= 0 (a delay calibration's drift): it can
	 * fall by 100 % at most, and rise without bound; clipped at 0 when every sample is >= 0 */
	LAB_DOM_PCT_CHANGE,
	/* >= 0 and at most the sample's elapsed_ns: a time measured inside the sample (one
	 * acquisition's latency, one loop instance's makespan); the rows' loader checks the
	 * upper end (lab_an_domain_span_ok) */
	LAB_DOM_SPAN,
	/* any sign, at most the sample's elapsed_ns either way: a difference of times measured
	 * inside the sample (a critical section achieved less one clock read, a makespan less
	 * its ideal); a critical section of 1e300 ns in a 10 ms sample was taken as measured */
	LAB_DOM_SPAN_DIFF,
};

/* The domain of the metric column named name; LAB_DOM_UNKNOWN for a name not listed. */
enum lab_domain lab_domain_of(const char *name);

/* [*lo, *hi]: the range of dom at threads threads (-inf, +inf where unbounded; UNKNOWN and
 * as ANY; threads <= 0: not known, the widest range of any team). */
void lab_domain_range(enum lab_domain dom, long threads, double *lo, double *hi);

#endif
