/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/modes.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/err.h"
#include "analyze/modes_int.h"
#include "analyze/stats.h"

struct lab_an_modes_opts lab_an_modes_defaults(void)
{
	return (struct lab_an_modes_opts){.min_weight = 0.05, .valley_ratio = 0.7, .bw_factor = 1};
}

/* Peaks (strict rises then falls, plateaus count once) and the valley between each pair. */
static size_t md_peaks(const double *dens, size_t *peak, size_t *valley)
{
	size_t np = 0;

	for (size_t g = 0; g < MD_GRID && np < MD_GRID / 2; g++) {
		size_t e = g;

		while (e + 1 < MD_GRID && dens[e + 1] == dens[g])
			e++;
		if ((g == 0 || dens[g - 1] < dens[g]) &&
		    (e + 1 == MD_GRID || dens[e + 1] < dens[g]))
			peak[np++] = (g + e) / 2;
		g = e;
	}
	for (size_t k = 0; k + 1 < np; k++) {
		valley[k] = peak[k];
		for (size_t g = peak[k]; g <= peak[k + 1]; g++)
			if (dens[g] < dens[valley[k]])
				valley[k] = g;
	}
	return np;
}

/* Removes peak k (merging its basin into the neighbour across the higher valley). */
static void md_merge(const double *dens, size_t *peak, size_t *valley, size_t *np, size_t k)
{
	int left = k > 0 && (k + 1 == *np || dens[valley[k - 1]] > dens[valley[k]]);
	size_t drop_valley = left ? k - 1 : k;

	if (left && dens[peak[k]] > dens[peak[k - 1]])
		peak[k - 1] = peak[k];
	else if (!left && k + 1 < *np && dens[peak[k]] > dens[peak[k + 1]])
		peak[k + 1] = peak[k];
	memmove(peak + k, peak + k + 1, (*np - k - 1) * sizeof(*peak));
	if (*np > 1)
		memmove(valley + drop_valley, valley + drop_valley + 1,
		        (*np - drop_valley - 2) * sizeof(*valley));
	(*np)--;
}

static size_t md_count_below(const double *s, size_t n, double v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* One merge pass: the lightest mode under min_weight, else the shallowest valley over the
 * ratio. Returns 1 when it merged something. */
static int md_merge_pass(const double *s, size_t n, const double *dens, double lo, double step,
                         const struct lab_an_modes_opts *o, size_t *peak, size_t *valley,
                         size_t *np)
{
	size_t worst = *np;
	double wmin = o->min_weight, vmax = o->valley_ratio;

	for (size_t k = 0; k < *np; k++) {
		size_t a = k ? md_count_below(s, n, lo + (double)valley[k - 1] * step) : 0;
		size_t b = k + 1 < *np ? md_count_below(s, n, lo + (double)valley[k] * step) : n;
		double w = (double)(b - a) / (double)n;

		if (w < wmin) {
			wmin = w;
			worst = k;
		}
	}
	if (worst == *np)
		for (size_t k = 0; k + 1 < *np; k++) {
			double lower = fmin(dens[peak[k]], dens[peak[k + 1]]);
			double r = dens[valley[k]] / lower;

			if (r > vmax) {
				vmax = r;
				worst = dens[peak[k]] < dens[peak[k + 1]] ? k : k + 1;
			}
		}
	if (worst == *np)
		return 0;
	md_merge(dens, peak, valley, np, worst);
	return 1;
}

static void md_fill(const double *s, size_t n, double lo, double step, int logs, const size_t *peak,
                    const size_t *valley, size_t np, struct lab_an_modes *out)
{
	size_t a = 0;

	out->count = np < LAB_AN_MODES_MAX ? np : LAB_AN_MODES_MAX;
	for (size_t k = 0; k < out->count; k++) {
		struct lab_an_mode *m = &out->mode[k];
		size_t b = k + 1 < np ? md_count_below(s, n, lo + (double)valley[k] * step) : n;

		m->n = b - a;
		m->weight = (double)m->n / (double)n;
		m->center = lab_an_median_sorted(s + a, m->n);
		m->peak = lo + (double)peak[k] * step;
		m->lo = k ? lo + (double)valley[k - 1] * step : s[0];
		m->hi = k + 1 < np ? lo + (double)valley[k] * step : s[n - 1];
		if (logs) {
			m->center = exp(m->center);
			m->peak = exp(m->peak);
			m->lo = exp(m->lo);
			m->hi = exp(m->hi);
		}
		a = b;
	}
}

int lab_an_modes_detect(const double *x, size_t n, const struct lab_an_modes_opts *opts,
                        struct lab_an_modes *out)
{
	struct lab_an_modes_opts o = opts ? *opts : lab_an_modes_defaults();
	double *s, *dens, sd, iqr, spread, h, lo, step;
	size_t peak[MD_GRID / 2], valley[MD_GRID / 2], np;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return 0;
	s = malloc(n * sizeof(*s));
	dens = malloc(MD_GRID * sizeof(*dens));
	if (!s || !dens) {
		rc = -LAB_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || (o.log_scale && !(x[i] > 0))) {
			rc = -LAB_EDATA;
			goto out;
		}
		s[i] = o.log_scale ? log(x[i]) : x[i];
	}
	gsl_sort(s, 1, n);
	sd = n > 1 ? gsl_stats_sd(s, 1, n) : 0;
	iqr = gsl_stats_quantile_from_sorted_data(s, 1, n, 0.75) -
	      gsl_stats_quantile_from_sorted_data(s, 1, n, 0.25);
	spread = iqr > 0 ? fmin(sd, iqr / 1.34) : sd;
	h = o.bw_factor * 0.9 * spread * pow((double)n, -0.2);
	if (!(h > 0) || n < 3) {
		/* No spread (or too few samples to tell): one mode at the median. */
		size_t zero = 0;

		md_fill(s, n, s[0], 1, o.log_scale, &zero, &zero, 1, out);
		goto out;
	}
	out->bandwidth = h;
	lo = s[0] - 3 * h;
	step = (s[n - 1] + 3 * h - lo) / (MD_GRID - 1);
	lab__modes_density(s, n, lo, step, h, dens);
	np = md_peaks(dens, peak, valley);
	while (np > 1 && md_merge_pass(s, n, dens, lo, step, &o, peak, valley, &np))
		;
	while (np > LAB_AN_MODES_MAX)
		md_merge(dens, peak, valley, &np, np - 1);
	md_fill(s, n, lo, step, o.log_scale, peak, valley, np, out);
out:
	free(s);
	free(dens);
	return rc;
}

int lab_an_modes_measured(const double *x, size_t n, struct lab_an_modes *out)
{
	struct lab_an_modes_opts o = lab_an_modes_defaults();

	memset(out, 0, sizeof(*out));
	if (n < LAB_AN_MODES_MIN_N)
		return 0;
	o.log_scale = 1;
	for (size_t i = 0; i < n; i++)
		o.log_scale &= x[i] > 0;
	o.min_weight = fmax(o.min_weight, 2.5 / (double)n); /* >= 3 samples */
	return lab_an_modes_detect(x, n, &o, out);
}

char *lab_an_modes_list(const struct lab_an_modes *m, int weights, double scale, char *buf,
                        size_t len)
{
	size_t k = 0;

	buf[0] = 0;
	for (size_t i = 0; i < m->count && k < len; i++) {
		double v = weights ? m->mode[i].weight : m->mode[i].center * scale;
		int w = snprintf(buf + k, len - k, "%s%.4g", i ? ";" : "", v);

		if (w < 0)
			break;
		k += (size_t)w;
	}
	return buf;
}
