/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stein's two-stage rule and the run order (harness/precision.h says why this rule). */
#include "harness/precision.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/record_schema.h"
#include "harness/units.h"

/* The length of a plain decimal at s ([-|+]digits[.digits][e[+-]digits], lab_unit_decimal_len
 * with a minus), 0 when there is none: strtod alone would take 0x1p-6, inf and nan too. */
static size_t prec_decimal(const char *s)
{
	size_t sign = *s == '-', n;

	if (sign && s[1] == '+')
		return 0;
	n = lab_unit_decimal_len(s + sign);
	return n ? sign + n : 0;
}

int lab_prec_parse(const char *text, double *frac, struct lab_err *err)
{
	const char *end;
	double v;

	text += strspn(text, " \t");
	if (!strcmp(text, "off")) {
		if (frac)
			*frac = 0;
		return 0;
	}
	size_t n = prec_decimal(text);
	if (!n)
		goto bad;
	errno = 0;
	v = strtod(text, NULL);
	if (errno == ERANGE) /* 1e-400 is no zero, nor 0.01 % */
		goto bad;
	end = text + n;
	end += strspn(end, " \t");
	if (*end == '%') {
		v /= 100;
		end++;
		end += strspn(end, " \t");
	}
	if (*end)
		goto bad;
	if (v == 0) { /* 0, 0.0, -0, 0e5, 0%: no target, as off says */
		if (frac)
			*frac = 0;
		return 0;
	}
	if (!(v >= LAB_PREC_TARGET_MIN && v <= LAB_PREC_TARGET_MAX))
		goto bad;
	if (frac)
		*frac = v;
	return 0;
bad:
	return lab_err_set(err, LAB_ECONFIG,
	                   "not a precision target (allowed: a percentage 0.01%% .. 50%% such as "
	                   "2%%, a fraction such as 0.02, or off; 0 means off)");
}

int lab_prec_key_check(const char *key, const char *val, unsigned nvals, struct lab_err *err)
{
	static const char *const keys[] = {"runs", "precision", "budget", "total_budget",
	                                   "fresh_process"};
	bool ours = false;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ours = ours || !strcmp(key, keys[i]);
	if (!ours)
		return 0;
	if (nvals > 1)
		return lab_err_set(err, LAB_ECONFIG, "does not sweep (allowed: one value)");
	if (!strcmp(key, "precision"))
		return lab_prec_parse(val, NULL, err);
	return 0;
}

double lab_prec_t975(double df)
{
	return gsl_cdf_tdist_Pinv(0.975, df);
}

void lab_prec_mean_sd(const double *x, unsigned n, double *mean, double *sd)
{
	double m = 0, ss = 0;

	/* Welford: run means of one point differ in the fifth digit, a naive sum loses them. */
	for (unsigned i = 0; i < n; i++) {
		double dlt = x[i] - m;
		m += dlt / (i + 1);
		ss += dlt * (x[i] - m);
	}
	*mean = n ? m : NAN;
	*sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
}

unsigned lab_prec_stein_n(unsigned n0, double s0, double d, unsigned nmax)
{
	double t = lab_prec_t975(n0 - 1.0), want;

	if (nmax > LAB_PREC_N_MAX)
		nmax = LAB_PREC_N_MAX;
	if (!(s0 > 0) || !(d > 0))
		return n0 < nmax ? n0 : nmax;
	want = ceil(t * t * s0 * s0 / (d * d));
	if (!(want < nmax))
		return nmax > n0 ? nmax : n0;
	return want > n0 ? (unsigned)want : n0;
}

double lab_prec_stein_halfwidth(unsigned n0, double s0, unsigned n)
{
	if (n0 < 2 || !n)
		return NAN;
	return lab_prec_t975(n0 - 1.0) * s0 / sqrt((double)n);
}

/* splitmix64: small, good enough for an order, identical everywhere. */
static uint64_t prec_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void lab_prec_shuffle(unsigned *idx, unsigned n, uint64_t seed)
{
	uint64_t s = seed;

	for (unsigned i = n; i > 1; i--) {
		unsigned j = (unsigned)(prec_next(&s) % i), tmp = idx[i - 1];
		idx[i - 1] = idx[j];
		idx[j] = tmp;
	}
}

uint64_t lab_prec_order_seed(uint64_t seed, unsigned r)
{
	uint64_t s = seed ^ 0x6c61622d72756e73ull; /* "lab-runs" */

	for (unsigned i = 0; i <= r; i++)
		prec_next(&s);
	return prec_next(&s);
}

void lab_prec_point_estimate(double run_ns, uint64_t runs, bool precision, uint64_t budget_ns,
                             double *base_ns, double *extra_ns)
{
	double pt_ns = run_ns * (double)(runs ? runs : 1);

	*base_ns += pt_ns;
	if (precision && (double)budget_ns > pt_ns)
		*extra_ns += (double)budget_ns - pt_ns;
}

double lab_prec_total_estimate(double base_ns, double extra_ns, uint64_t total_ns)
{
	double left = (double)total_ns - base_ns;

	if (total_ns && extra_ns > left)
		extra_ns = left > 0 ? left : 0;
	return base_ns + extra_ns;
}

bool lab_prec_total_spent(uint64_t total_ns, uint64_t elapsed_ns, double next_ns)
{
	return total_ns && (double)elapsed_ns + next_ns > (double)total_ns;
}
