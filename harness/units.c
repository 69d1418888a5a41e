/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/units.h"

#include <stdbool.h>
#include <string.h>

#include "harness/err.h"

const struct lab_unit_suffix lab_size_suffixes[] = {
    {"", 1},
    {"B", 1},
    {"K", 1024.0},
    {"k", 1024.0},
    {"KiB", 1024.0},
    {"M", 1048576.0},
    {"MiB", 1048576.0},
    {"G", 1073741824.0},
    {"GiB", 1073741824.0},
    {NULL, 0},
};

const struct lab_unit_suffix lab_count_suffixes[] = {
    {"", 1}, {"K", 1e3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {NULL, 0},
};

const struct lab_unit_suffix lab_duration_suffixes[] = {
    {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {NULL, 0},
};

size_t lab_unit_decimal_len(const char *s)
{
	size_t n = *s == '+', digits = strspn(s + n, "0123456789");

	n += digits;
	if (s[n] == '.') {
		size_t frac = strspn(s + n + 1, "0123456789");
		digits += frac;
		n += 1 + frac;
	}
	if (!digits)
		return 0;
	if (s[n] == 'e' || s[n] == 'E') {
		size_t sign = s[n + 1] == '-' || s[n + 1] == '+';
		size_t exp = strspn(s + n + 1 + sign, "0123456789");
		if (exp)
			n += 1 + sign + exp;
	}
	return n;
}

/* Significant digits kept: more than any whole value up to 2^64 has (20 before the point, and a
 * fraction a multiplier up to 2^32 can make whole has at most 32 digits). */
#define UNIT_DIGITS_MAX 128

/* A decimal as d × 10^exp10, d without leading or trailing zeros. */
struct unit_dec {
	unsigned char d[UNIT_DIGITS_MAX + 12]; /* digit values, most significant first */
	size_t n;                              /* digits kept */
	size_t nsig;                           /* significant digits, kept or not */
	long long exp10;
};

static void unit_dec_digit(struct unit_dec *x, unsigned char v)
{
	if (x->n < UNIT_DIGITS_MAX)
		x->d[x->n++] = v;
	x->nsig++;
}

/* Reads the exponent at s (after the 'e'), clamped far beyond any value that matters. */
static long long unit_dec_exponent(const char *s, const char *end)
{
	bool neg = *s == '-';
	long long e = 0;

	for (s += *s == '-' || *s == '+'; s < end; s++)
		if (e < 1000000)
			e = e * 10 + (*s - '0');
	return neg ? -e : e;
}

static void unit_dec_read(const char *s, size_t len, struct unit_dec *x)
{
	size_t i = s[0] == '+', zeros = 0; /* zeros after the last non-zero digit */
	bool point = false;

	memset(x, 0, sizeof(*x));
	for (; i < len && s[i] != 'e' && s[i] != 'E'; i++) {
		if (s[i] == '.') {
			point = true;
			continue;
		}
		x->exp10 -= point;
		if (s[i] == '0') {
			zeros += x->nsig > 0; /* a leading zero is nothing */
			continue;
		}
		for (; zeros; zeros--)
			unit_dec_digit(x, 0);
		unit_dec_digit(x, (unsigned char)(s[i] - '0'));
	}
	x->exp10 += (long long)zeros;
	if (i < len)
		x->exp10 += unit_dec_exponent(s + i + 1, s + len);
}

/* d × mult in place (mult <= 2^32, so a digit times it plus the carry fits in 64 bits). */
static void unit_dec_mul(struct unit_dec *x, uint64_t mult)
{
	unsigned char head[12];
	size_t nh = 0;
	uint64_t carry = 0;

	for (size_t i = x->n; i-- > 0;) {
		uint64_t t = x->d[i] * mult + carry;
		x->d[i] = (unsigned char)(t % 10);
		carry = t / 10;
	}
	for (; carry; carry /= 10)
		head[nh++] = (unsigned char)(carry % 10);
	memmove(x->d + nh, x->d, x->n);
	for (size_t i = 0; i < nh; i++)
		x->d[i] = head[nh - 1 - i];
	x->n += nh;
}

enum lab_unit_exact lab_unit_scale_exact(const char *s, size_t len, double mult, uint64_t *out)
{
	struct unit_dec x;
	long long mag;
	uint64_t v = 0;
	bool frac = false;

	LAB_BUG_ON(!(mult >= 1 && mult <= LAB_UNIT_MULT_MAX && mult == (double)(uint64_t)mult));
	unit_dec_read(s, len, &x);
	if (!x.nsig) {
		*out = 0;
		return LAB_UNIT_EXACT_OK;
	}
	mag = (long long)x.nsig + x.exp10; /* the value is below 10^mag and at least 10^(mag-1) */
	if (mag > 21)
		return LAB_UNIT_EXACT_LARGE;
	if (mag < -12) /* below 10^-12: below 1 even times 2^32 */
		return LAB_UNIT_EXACT_UNDER;
	frac = x.nsig > x.n; /* digits were dropped: more than any whole value has */
	unit_dec_mul(&x, (uint64_t)mult);
	for (long long i = 0; i < (long long)x.n + x.exp10; i++) {
		unsigned d = i < (long long)x.n ? x.d[i] : 0;
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v))
			return LAB_UNIT_EXACT_LARGE;
	}
	/* the digits after the point (signed: n + exp10 < 0 is a value below 0.1) */
	long long whole = (long long)x.n + x.exp10;
	for (long long i = whole > 0 ? whole : 0; i < (long long)x.n; i++)
		frac |= x.d[i] != 0;
	if (frac)
		return v ? LAB_UNIT_EXACT_FRACTION : LAB_UNIT_EXACT_UNDER;
	*out = v;
	return LAB_UNIT_EXACT_OK;
}
