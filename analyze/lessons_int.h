/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What lessons.c (the claim's point means) hands lessons_judge.c (Q, its interval, the
 * verdict); not an interface. */
#ifndef LAB_ANALYZE_LESSONS_INT_H
#define LAB_ANALYZE_LESSONS_INT_H

#include "analyze/lessons.h"
#include "harness/lessons.h"

#define EV_VARS_MAX 64

/* One point mean the claim uses: a cost (metric < 0) or a metric of one point. */
struct ev_var {
	const struct lab_an_point *pt;
	int metric;
	double mean, v; /* v: variance of the mean */
	size_t n;       /* samples (or runs) behind it: df = n - 1 */
};

struct ev {
	const struct lab_an_data *d;
	const struct lab_lesson_claim *c;
	struct ev_var var[EV_VARS_MAX];
	unsigned nvar;
	int leaf[LAB_LESSON_NODES_MAX], base[LAB_LESSON_NODES_MAX]; /* var of each leaf */
	char why[512];                                              /* why not run */
};

/* Q of e's resolved claim, its 95 % interval and the verdict, with the sentence, into out. */
void lab__lesson_judge(struct ev *e, struct lab_an_lesson *out);

#endif
