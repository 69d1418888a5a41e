/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The speedup column of the curves (curves.h): baseline cost / this cost, Fieller interval. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/views/curves.h"

static int an_usable(const struct lab_an_point *q)
{
	return !strcmp(q->status, "ok") && q->st.n > 0 && q->st.mean > 0;
}

/* The baseline of p: the base curve's point at p's other params with the fewest threads, else
 * p's own params with the fewest threads; NULL when neither ran. With base_same_threads: the
 * base curve's point at p's other params and p's thread count, else NULL. */
static const struct lab_an_point *an_base(const struct lab_an_cv_spec *s,
                                          const struct lab_an_data *d, const struct lab_an_point *p,
                                          int *nomem)
{
	const struct lab_an_point *best = NULL, *own = NULL;
	char *rest = lab_an_params_without(p->params, s->curve[0]), val[128];

	if (!rest) {
		*nomem = 1;
		return NULL;
	}
	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *q = &d->pt[i];
		char *qr;

		if (strcmp(q->experiment, p->experiment) || !an_usable(q) ||
		    (s->base_same_threads && q->threads != p->threads))
			continue;
		if (!strcmp(q->params, p->params) && (!own || q->threads < own->threads))
			own = q;
		if (!s->base || !lab_an_params_get(q->params, s->curve[0], val, sizeof(val)) ||
		    strcmp(val, s->base))
			continue;
		if (!(qr = lab_an_params_without(q->params, s->curve[0]))) {
			*nomem = 1;
			break;
		}
		if (!strcmp(qr, rest) && (!best || q->threads < best->threads))
			best = q;
		free(qr);
	}
	free(rest);
	return best || s->base_same_threads ? best : own;
}

int lab_an_cv_speedup(const struct lab_an_cv_spec *s, const struct lab_an_data *d,
                      const struct lab_an_point *p, int inc, struct lab_an_cv_val *v)
{
	int nomem = 0;
	const struct lab_an_point *q = an_usable(p) ? an_base(s, d, p, &nomem) : NULL;
	struct lab_an_ratio r;

	(void)inc; /* the points' statistics were summarized with the same choice */
	v->n = 0;
	v->median = v->mean = v->lo = v->hi = NAN;
	v->nobase = !q && an_usable(p);
	if (!q)
		return nomem ? -1 : 0;
	lab_an_ratio_fieller(q->st.mean, q->st.se * q->st.se, q->st.n, p->st.mean,
	                     p->st.se * p->st.se, p->st.n, 0.95, &r);
	v->n = p->st.n;
	v->median = p->st.median > 0 ? q->st.median / p->st.median : NAN;
	v->mean = r.est;
	if (r.has_ci && !r.unbounded) {
		v->lo = r.lo < 0 ? 0 : r.lo;
		v->hi = r.hi;
	}
	return 0;
}
