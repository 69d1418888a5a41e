/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a fit means beyond its estimates: the USL peak, the model choice, the error model, the
 * lack-of-fit test, and whether a model is a cost or a throughput form. fit.c calls here, never
 * the other way. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/fit.h"
#include "analyze/fit_int.h"
#include "analyze/stats.h"

int lab_an_model_is_throughput(enum lab_an_model model)
{
	return model == LAB_AN_USL_THROUGHPUT || model == LAB_AN_AMDAHL_THROUGHPUT;
}

const char *lab_an_objective_name(enum lab_an_objective obj)
{
	return obj == LAB_AN_OBJ_ABSOLUTE ? "absolute" : "relative";
}

const char *lab_an_lof_f_text(const struct lab_an_lof *lof, char *buf, size_t len)
{
	if (isinf(lof->F))
		snprintf(buf, len, "F unbounded (no spread within the points)");
	else
		snprintf(buf, len, "F = %.3g", lof->F);
	return buf;
}

const char *lab_an_objective_text(enum lab_an_objective obj, const char *domain, char *buf,
                                  size_t len)
{
	if (obj == LAB_AN_OBJ_ABSOLUTE)
		snprintf(buf, len,
		         "unweighted least squares on %s (errors of constant size in %s, as R's "
		         "usl package and codahale/usl fit)",
		         domain, domain);
	else
		snprintf(buf, len,
		         "least squares on relative error in %s (weights 1/mean^2 per thread "
		         "count: errors with a constant coefficient of variation)",
		         domain);
	return buf;
}

void lab_an_fit_c1(const struct lab_an_fit *fit, double *c1, double *lo, double *hi)
{
	*c1 = *lo = *hi = NAN;
	if (!fit->ok)
		return;
	if (!lab_an_model_is_throughput(fit->model)) {
		*c1 = fit->x[0];
		*lo = fit->lo[0];
		*hi = fit->hi[0];
		return;
	}
	/* 1/X is decreasing: the cost interval is the image of the throughput one, reversed. */
	*c1 = 1 / fit->x[0];
	*lo = fit->hi[0] > 0 ? 1 / fit->hi[0] : NAN;
	*hi = fit->lo[0] > 0 ? 1 / fit->lo[0] : INFINITY;
}

/* Per-N sums over samples sorted by N: the pure-error sum and the number of distinct N. */
struct an_lof_key {
	double N, y, w;
};

static int an_lof_cmp(const void *a, const void *b)
{
	double x = ((const struct an_lof_key *)a)->N, y = ((const struct an_lof_key *)b)->N;

	return (x > y) - (x < y);
}

void lab_an_fit_lof(struct lab_an_fit *fit, const double *threads, const double *y, const double *w)
{
	struct an_lof_key *k = malloc((fit->n ? fit->n : 1) * sizeof(*k));
	double ss_pe = 0, ss_lof;
	size_t groups = 0;

	memset(&fit->lof, 0, sizeof(fit->lof));
	fit->lof.F = fit->lof.df1 = fit->lof.df2 = fit->lof.p = fit->lof.ms_lof = NAN;
	if (!k)
		return;
	for (size_t i = 0; i < fit->n; i++)
		k[i] = (struct an_lof_key){threads[i], y[i], w[i]};
	qsort(k, fit->n, sizeof(*k), an_lof_cmp);
	for (size_t i = 0; i < fit->n;) {
		size_t j = i;
		double sum = 0, mean;

		while (j < fit->n && k[j].N == k[i].N)
			sum += k[j++].y;
		mean = sum / (double)(j - i);
		for (size_t q = i; q < j; q++)
			ss_pe += k[q].w * (k[q].y - mean) * (k[q].y - mean);
		groups++;
		i = j;
	}
	free(k);
	if (groups >= fit->n || groups <= fit->p)
		return; /* no replicates, or nothing left over for lack of fit */
	fit->lof.df1 = (double)(groups - fit->p);
	fit->lof.df2 = (double)(fit->n - groups);
	ss_lof = fmax(fit->chi2 - ss_pe, 0);
	ss_pe = ss_pe > fit->chi2_floor ? ss_pe : 0; /* rounding: the replicates agree */
	ss_lof = ss_lof > fit->chi2_floor ? ss_lof : 0;
	fit->lof.ms_lof = ss_lof / fit->lof.df1;
	if (ss_pe > 0) {
		fit->lof.F = (ss_lof / fit->lof.df1) / (ss_pe / fit->lof.df2);
		fit->lof.p = gsl_cdf_fdist_Q(fit->lof.F, fit->lof.df1, fit->lof.df2);
	} else {
		fit->lof.F = ss_lof > 0 ? INFINITY : 0;
		fit->lof.p = ss_lof > 0 ? 0 : 1;
	}
	fit->lof.ok = 1;
}

void lab_an_usl_peak(const struct lab_an_fit *usl, struct lab_an_peak *pk)
{
	double s = usl->x[1], k = usl->x[2], g1, g2, var, m;

	memset(pk, 0, sizeof(*pk));
	pk->n_star = pk->lo = pk->hi = NAN;
	if (!usl->ok)
		return;
	/* N* <= 1 exactly when 1 - sigma <= kappa: a peak "at 0.7 threads" is none (sigma = 0.48,
	 * kappa = 1.0 read so) */
	pk->no_peak = !(s + fmax(k, 0) < 1);
	if (!(k > 0) || pk->no_peak)
		return;
	pk->n_star = sqrt((1 - s) / k);
	pk->retrograde = usl->lo[2] > 0;
	/* log N* = (log(1 - sigma) - log kappa) / 2 */
	g1 = -0.5 / (1 - s);
	g2 = -0.5 / k;
	var = g1 * g1 * usl->cov[1][1] + 2 * g1 * g2 * usl->cov[1][2] + g2 * g2 * usl->cov[2][2];
	m = lab_an_t_quantile(0.95, usl->df_ci) * sqrt(fmax(var, 0));
	pk->lo = pk->n_star * exp(-m);
	pk->hi = pk->n_star * exp(m);
}

/* The smallest N > 1 where 1 + sigma (N - 1) + kappa N (N - 1) reaches 0: kappa N^2 +
 * (sigma - kappa) N + 1 - sigma = 0, kappa < 0 (NAN: none). */
static double an_usl_pole(double s, double k)
{
	double b = s - k, disc = b * b - 4 * k * (1 - s), best = NAN;

	if (!(k < 0) || !(disc >= 0))
		return NAN;
	for (int sign = -1; sign <= 1; sign += 2) {
		double n = (-b + sign * sqrt(disc)) / (2 * k);
		if (n > 1 && !(n >= best))
			best = n;
	}
	return best;
}

const char *lab_an_usl_out_of_range(const struct lab_an_fit *u, char *buf, size_t len)
{
	double pole;

	if (!u->ok)
		return NULL;
	if (u->lo[1] > 1) {
		snprintf(buf, len,
		         "USL sigma = %.4g [%.4g, %.4g] > 1 beyond its noise: each thread added "
		         "slows the whole, more than any serial fraction can; the USL does not "
		         "describe this series",
		         u->x[1], u->lo[1], u->hi[1]);
		return buf;
	}
	if (!(u->hi[2] < 0))
		return NULL;
	pole = an_usl_pole(u->x[1], u->x[2]);
	char near[48] = "";
	if (!isnan(pole))
		snprintf(near, sizeof(near), " near N = %.3g", pole);
	snprintf(buf, len,
	         "USL kappa = %.4g [%.4g, %.4g] < 0 beyond its noise: the fit's throughput grows "
	         "without bound%s (superlinear?); the USL does not describe this series",
	         u->x[2], u->lo[2], u->hi[2], near);
	return buf;
}

void lab_an_fit_choose(const struct lab_an_fit *a, const struct lab_an_fit *u,
                       struct lab_an_choice *ch)
{
	memset(ch, 0, sizeof(*ch));
	ch->chosen = LAB_AN_AMDAHL;
	if (!a->ok || !u->ok) {
		ch->chosen = u->ok ? LAB_AN_USL : LAB_AN_AMDAHL;
		ch->ok = a->ok || u->ok;
		ch->p_value = NAN;
		ch->f_stat = NAN;
		return;
	}
	ch->ok = 1;
	ch->aicc_amdahl = a->aicc;
	ch->aicc_usl = u->aicc;
	if (u->chi2 <= u->chi2_floor) { /* USL fits exactly: Amdahl is rejected if it does not */
		ch->f_stat = a->chi2 > a->chi2_floor ? INFINITY : 0;
		ch->p_value = a->chi2 > a->chi2_floor ? 0 : 1;
	} else if (u->by_means) { /* the points' means are the unit (fit.h) */
		ch->f_stat = fmax(a->chi2 - u->chi2, 0) / u->lof.ms_lof;
		ch->p_value = gsl_cdf_fdist_Q(ch->f_stat, 1, u->df_ci);
	} else {
		ch->f_stat = fmax(a->chi2 - u->chi2, 0) / (u->chi2 / u->dof);
		ch->p_value = gsl_cdf_fdist_Q(ch->f_stat, 1, u->dof);
	}
	if (ch->p_value < 0.05)
		ch->chosen = LAB_AN_USL;
}
