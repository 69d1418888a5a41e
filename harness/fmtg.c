/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/json.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* 10^0 .. 10^22: every one exact in a double, so a product or quotient by one is correctly
 * rounded. */
static const double fg_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* a x 10^k (a / 10^-k), rounded once; 0 when 10^|k| is not exact. */
static double fg_scale(double a, int k)
{
	if (k > 22 || k < -22)
		return 0;
	return k >= 0 ? a * fg_pow10[k] : a / fg_pow10[-k];
}

/* floor(log10(a)) give or take one, from a's binary exponent (no log10: the caller adjusts). */
static int fg_log10(double a)
{
	uint64_t bits;
	int be;

	memcpy(&bits, &a, sizeof(bits));
	be = (int)(bits >> 52 & 0x7ff) - 1023;
	/* 78913 / 2^18 is log10(2) to 8 digits */
	return be >= 0 ? be * 78913 >> 18 : -((-be * 78913 + (1 << 18) - 1) >> 18);
}

/*
 * The prec significant digits of a > 0 rounded to nearest (*digits, prec of them) and the
 * decimal exponent of the rounded value (*exp10). 0 when double arithmetic cannot be sure:
 * a x 10^k is off by at most half a unit in its last place, so a fractional part that far from
 * one half rounds as the exact value does; closer (a tie or nearly), printf decides.
 */
static int fg_digits(double a, int prec, uint64_t *digits, int *exp10)
{
	double lo = fg_pow10[prec - 1], hi = fg_pow10[prec], s, frac, tol;
	int e = fg_log10(a), tries = 0;

	for (;;) {
		s = fg_scale(a, prec - 1 - e);
		if (!(s > 0) || ++tries > 3)
			return 0;
		if (s < lo)
			e--;
		else if (s >= hi)
			e++;
		else
			break;
	}
	*digits = (uint64_t)s;
	frac = s - (double)*digits; /* exact: s < 2^53 */
	tol = hi * 0x1p-50;         /* 4 units in the last place of s */
	if (fabs(frac - 0.5) <= tol)
		return 0;
	if (frac > 0.5 && ++*digits == (uint64_t)hi) {
		*digits = (uint64_t)lo;
		e++;
	}
	*exp10 = e;
	return 1;
}

/* The prec digits of d as text into out (no NUL); returns how many are left after dropping
 * trailing zeros, keeping at least keep. */
static int fg_text(uint64_t d, int prec, int keep, char *out)
{
	int n = prec;

	for (int i = prec - 1; i >= 0; i--, d /= 10)
		out[i] = (char)('0' + d % 10);
	while (n > keep && out[n - 1] == '0')
		n--;
	return n;
}

/* %g's text of a finite nonzero v with its rounded digits: style f when -4 <= exp10 < prec,
 * else style e; trailing zeros and a bare point dropped. Returns the length (< 40). */
static int fg_compose(char *s, int neg, uint64_t digits, int prec, int e)
{
	char dig[LAB_FMT_G_MAX];
	int k = 0, n;

	if (neg)
		s[k++] = '-';
	if (e >= -4 && e < prec) {
		int ip = e >= 0 ? e + 1 : 0; /* digits before the point */

		n = fg_text(digits, prec, ip, dig);
		if (e < 0) {
			memcpy(s + k, "0.0000", (size_t)(1 - e));
			k += 1 - e;
		} else
			memcpy(s + k, dig, (size_t)ip), k += ip;
		if (n > ip) {
			if (e >= 0)
				s[k++] = '.';
			memcpy(s + k, dig + ip, (size_t)(n - ip));
			k += n - ip;
		}
		return k;
	}
	n = fg_text(digits, prec, 1, dig);
	s[k++] = dig[0];
	if (n > 1) {
		s[k++] = '.';
		memcpy(s + k, dig + 1, (size_t)(n - 1));
		k += n - 1;
	}
	s[k++] = 'e';
	s[k++] = e < 0 ? '-' : '+';
	e = e < 0 ? -e : e; /* at least two digits */
	if (e >= 100)
		s[k++] = (char)('0' + e / 100);
	s[k++] = (char)('0' + e / 10 % 10);
	s[k++] = (char)('0' + e % 10);
	return k;
}

int lab_fmt_g(char *buf, size_t len, int prec, double v)
{
	char s[48];
	uint64_t digits;
	int e, n;

	if (prec < 1 || prec > LAB_FMT_G_MAX || !isfinite(v))
		return snprintf(buf, len, "%.*g", prec, v);
	/* rounded to prec digits a value this near DBL_MAX would print above it (1.797693135e+308)
	 * and read back as inf: all its digits then */
	if (fabs(v) >= 1.7975e308)
		return snprintf(buf, len, "%.17g", v);
	if (v == 0)
		n = signbit(v) ? (memcpy(s, "-0", 2), 2) : (s[0] = '0', 1);
	else if (!fg_digits(fabs(v), prec, &digits, &e))
		return snprintf(buf, len, "%.*g", prec, v);
	else
		n = fg_compose(s, v < 0, digits, prec, e);
	if (len) {
		size_t c = (size_t)n < len ? (size_t)n : len - 1;

		memcpy(buf, s, c);
		buf[c] = '\0';
	}
	return n;
}

void lab_fput_g(FILE *f, int prec, double v)
{
	char s[64];
	int n = lab_fmt_g(s, sizeof(s), prec, v);

	if (n > 0)
		fwrite(s, 1, (size_t)n < sizeof(s) ? (size_t)n : sizeof(s) - 1, f);
}
