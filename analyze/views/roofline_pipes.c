/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * FMA+add against FMA alone, said from the data (issue 21 finding 7): the add pipes help only
 * where the FMA+add interval lies above FMA's; below it or overlapping, they do not here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rates.h"
#include "analyze/views/roofline.h"

/* The interval compared: flops_per_cycle's mean and t-interval when the point recorded it,
 * else the median GFLOP/s and its interval. Returns the unit's name. */
static const char *an_pipes_val(const struct lab_an_data *d, const struct lab_an_point *p, int inc,
                                double *v, double *lo, double *hi)
{
	for (size_t m = 0; p->msum && m < d->nmetric; m++)
		if (!strcmp(d->metric_name[m], "flops_per_cycle") && p->msum[m].n >= 2) {
			*v = p->msum[m].mean;
			*lo = p->msum[m].ci95_lo;
			*hi = p->msum[m].ci95_hi;
			return "flops/cycle";
		}
	size_t hint[2] = {0, 0};
	struct lab_an_rates r;

	lab_an_rates_compute(d, p, &r, hint);
	*v = *lo = *hi = NAN;
	if (r.has && r.flops > 0)
		lab_an_rl_rate(p, r.flops, inc, v, lo, hi);
	return "GFLOP/s";
}

/* The op=fma_add point of p's experiment at p's threads whose other params are rest; NULL. */
static const struct lab_an_point *an_pipes_pair(const struct lab_an_data *d,
                                                const struct lab_an_point *p, const char *rest)
{
	char op[16];

	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *q = &d->pt[i];
		char *qr;
		int same;

		if (q->threads != p->threads || strcmp(q->experiment, p->experiment) || !q->st.n ||
		    strcmp(q->status, "ok") ||
		    !lab_an_params_get(q->params, "op", op, sizeof(op)) || strcmp(op, "fma_add"))
			continue;
		if (!(qr = lab_an_params_without(q->params, "op")))
			return NULL;
		same = !strcmp(qr, rest);
		free(qr);
		if (same)
			return q;
	}
	return NULL;
}

static char *an_pipes_note(const struct lab_an_data *d, int inc, const struct lab_an_point *p,
                           const struct lab_an_point *q, const char *rest)
{
	double v, lo, hi, w, wlo, whi;
	const char *unit = an_pipes_val(d, p, inc, &v, &lo, &hi), *verdict;

	if (strcmp(an_pipes_val(d, q, inc, &w, &wlo, &whi), unit))
		return lab_an_strdup(""); /* one recorded flops_per_cycle, one did not */
	if (!(isfinite(lo) && isfinite(hi) && isfinite(wlo) && isfinite(whi)))
		verdict = "no interval to tell them apart (too few samples)";
	else if (wlo > hi)
		verdict = "above FMA alone: separate add pipes help here";
	else if (whi < lo)
		verdict = "below FMA alone: no separate add pipes help here (FMA+add costs the "
		          "FMA pipes their adds)";
	else
		verdict = "within noise of FMA alone: the add pipes do not help here";
	return lab_an_asprintf("%s %s, %d thread%s: FMA+add %.4g [%.4g, %.4g] against FMA %.4g "
	                       "[%.4g, %.4g] %s: %s",
	                       p->experiment, rest, p->threads, p->threads == 1 ? "" : "s", w, wlo,
	                       whi, v, lo, hi, unit, verdict);
}

int lab_an_rl_pipes(const struct lab_an_data *d, int inc, struct lab_an_rl *s)
{
	char op[16];

	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i], *q;
		char *rest, *note = NULL, **grown;

		if (!p->st.n || strcmp(p->status, "ok") ||
		    !lab_an_params_get(p->params, "op", op, sizeof(op)) || strcmp(op, "fma"))
			continue;
		if (!(rest = lab_an_params_without(p->params, "op")))
			return -LAB_ENOMEM;
		if ((q = an_pipes_pair(d, p, rest)))
			note = an_pipes_note(d, inc, p, q, rest);
		free(rest);
		if (!q || (note && !*note)) {
			free(note);
			continue;
		}
		if (!note || !(grown = realloc(s->pipes, (s->npipes + 1) * sizeof(*grown)))) {
			free(note);
			return -LAB_ENOMEM;
		}
		s->pipes = grown;
		s->pipes[s->npipes++] = note;
	}
	return 0;
}
