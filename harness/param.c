/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/param.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/units.h"

/* Copies text without leading and trailing blanks into buf; false when it does not fit. */
static bool param_trim(const char *text, char *buf, size_t len)
{
	while (isspace((unsigned char)*text))
		text++;
	size_t n = strlen(text);
	while (n > 0 && isspace((unsigned char)text[n - 1]))
		n--;
	if (n >= len)
		return false;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return true;
}

/*
 * True when [s, end) is a plain decimal number as the README documents it: digits, a point, an
 * exponent. strtod also reads hex ("0x10", "0x1p6"), which no config form allows.
 */
static bool param_decimal(const char *s, const char *end)
{
	for (; s < end; s++)
		if (!isdigit((unsigned char)*s) && !strchr(".eE+-", *s))
			return false;
	return true;
}

/*
 * Reads "<number><suffix>" where suffix is one of table (an empty name means a bare number is
 * allowed). Integral results only when integral is set. The value must be >= 0.
 */
static int param_parse_scaled(const char *text, const struct lab_unit_suffix *table, bool integral,
                              const char *what, double *out, struct lab_err *err)
{
	char buf[128], *end;

	if (!param_trim(text, buf, sizeof(buf)) || !buf[0])
		return lab_err_set(err, LAB_ECONFIG, "empty value (expected %s)", what);
	if (buf[0] == '-')
		return lab_err_set(err, LAB_ECONFIG, "negative value (expected %s)", what);
	errno = 0;
	double v = strtod(buf, &end);
	if (end != buf && !isalpha((unsigned char)buf[0]) && param_decimal(buf, end) &&
	    errno == ERANGE && v >= 1)
		return lab_err_set(err, LAB_ECONFIG, "too large (expected %s)", what);
	if (end == buf || !isfinite(v) || isalpha((unsigned char)buf[0]) ||
	    !param_decimal(buf, end) || errno == ERANGE)
		return lab_err_set(err, LAB_ECONFIG, "not a number (expected %s)", what);
	while (isspace((unsigned char)*end))
		end++;
	for (const struct lab_unit_suffix *s = table; s->name; s++) {
		if (strcmp(end, s->name) != 0)
			continue;
		v *= s->mult;
		if (integral && v > 18446744073709549568.0)
			return lab_err_set(err, LAB_ECONFIG, "too large (expected %s)", what);
		if (integral && v != floor(v))
			return lab_err_set(err, LAB_ECONFIG, "not a whole number (expected %s)",
			                   what);
		*out = v;
		return 0;
	}
	if (!*end)
		return lab_err_set(err, LAB_ECONFIG, "missing unit (expected %s)", what);
	return lab_err_set(err, LAB_ECONFIG, "unknown suffix '%s' (expected %s)", end, what);
}

/* Integers, with plain digits parsed exactly (doubles lose precision above 2^53). */
static int param_parse_integral(const char *text, const struct lab_unit_suffix *table,
                                const char *what, uint64_t *out, struct lab_err *err)
{
	char buf[128], *end;
	double v = 0;

	if (param_trim(text, buf, sizeof(buf)) && isdigit((unsigned char)buf[0])) {
		errno = 0;
		unsigned long long u = strtoull(buf, &end, 10);
		if (!*end && errno == ERANGE)
			return lab_err_set(err, LAB_ECONFIG, "too large (expected %s)", what);
		if (!*end) {
			for (const struct lab_unit_suffix *s = table; s->name; s++)
				if (!s->name[0]) {
					*out = u;
					return 0;
				}
		}
	}
	int rc = param_parse_scaled(text, table, true, what, &v, err);
	if (rc == 0)
		*out = (uint64_t)v;
	return rc;
}

static const struct lab_unit_suffix param_u64_suffixes[] = {
    {"", 1}, {"K", 1e3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {NULL, 0},
};

static const struct lab_unit_suffix param_duration_suffixes[] = {
    {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {NULL, 0},
};

int lab_parse_u64(const char *text, uint64_t *out, struct lab_err *err)
{
	return param_parse_integral(text, param_u64_suffixes, "an integer, e.g. 1000 or 10M", out,
	                            err);
}

int lab_parse_size(const char *text, uint64_t *out, struct lab_err *err)
{
	return param_parse_integral(text, lab_size_suffixes,
	                            "a size in bytes, e.g. 64, 4K, 1MiB, 2G", out, err);
}

int lab_parse_duration(const char *text, uint64_t *out, struct lab_err *err)
{
	char buf[128];

	/* Zero needs no unit. */
	if (param_trim(text, buf, sizeof(buf)) && !strcmp(buf, "0")) {
		*out = 0;
		return 0;
	}
	return param_parse_integral(text, param_duration_suffixes,
	                            "a duration with unit ns, us, ms or s, e.g. 50us", out, err);
}

int lab_parse_double(const char *text, double *out, struct lab_err *err)
{
	char buf[128], *end;

	if (!param_trim(text, buf, sizeof(buf)) || !buf[0])
		return lab_err_set(err, LAB_ECONFIG, "empty value (expected a number)");
	errno = 0;
	double v = strtod(buf, &end);
	bool plain = end != buf && !*end && param_decimal(buf, end);
	if (plain && errno == ERANGE && fabs(v) >= 1)
		return lab_err_set(err, LAB_ECONFIG, "too large (expected a number, e.g. 0.5)");
	if (!plain || errno == ERANGE || !isfinite(v))
		return lab_err_set(err, LAB_ECONFIG, "not a number (expected a number, e.g. 0.5)");
	*out = v;
	return 0;
}

int lab_parse_bool(const char *text, bool *out, struct lab_err *err)
{
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0"};
	char buf[16];

	if (param_trim(text, buf, sizeof(buf))) {
		for (size_t i = 0; i < 4; i++) {
			if (!strcasecmp(buf, yes[i])) {
				*out = true;
				return 0;
			}
			if (!strcasecmp(buf, no[i])) {
				*out = false;
				return 0;
			}
		}
	}
	return lab_err_set(err, LAB_ECONFIG,
	                   "not a boolean (allowed true/false, yes/no, on/off, 1/0)");
}

static int param_parse_enum(const struct lab_param *p, const char *text, int *out,
                            struct lab_err *err)
{
	char buf[LAB_STR_MAX], allowed[256];

	if (param_trim(text, buf, sizeof(buf)))
		for (const struct lab_enum_val *c = p->choices; c->name; c++)
			if (!strcmp(buf, c->name)) {
				*out = c->value;
				return 0;
			}
	lab_param_allowed(p, allowed, sizeof(allowed));
	return lab_err_set(err, LAB_ECONFIG, "unknown choice (allowed %s)", allowed);
}

int lab_param_parse(const struct lab_param *p, const char *text, void *base, struct lab_err *err)
{
	char *field = (char *)base + p->offset, allowed[256];
	uint64_t u = 0;
	double d = 0;
	int rc = 0;

	switch (p->type) {
	case LAB_PT_U64:
		rc = lab_parse_u64(text, &u, err);
		break;
	case LAB_PT_SIZE:
		rc = lab_parse_size(text, &u, err);
		break;
	case LAB_PT_DURATION:
		rc = lab_parse_duration(text, &u, err);
		break;
	case LAB_PT_DOUBLE:
		rc = lab_parse_double(text, &d, err);
		if (rc == 0 && (d < p->dmin || d > p->dmax))
			goto range;
		if (rc == 0)
			memcpy(field, &d, sizeof(d));
		return rc;
	case LAB_PT_BOOL:
		return lab_parse_bool(text, (bool *)field, err);
	case LAB_PT_ENUM:
		return param_parse_enum(p, text, (int *)field, err);
	case LAB_PT_STR:
		if (!param_trim(text, field, LAB_STR_MAX))
			return lab_err_set(err, LAB_ECONFIG,
			                   "too long (allowed at most %d characters)",
			                   LAB_STR_MAX - 1);
		return 0;
	}
	if (rc)
		return rc;
	if (u < p->min || u > p->max)
		goto range;
	memcpy(field, &u, sizeof(u));
	return 0;
range:
	lab_param_allowed(p, allowed, sizeof(allowed));
	return lab_err_set(err, LAB_ECONFIG, "out of range (allowed %s)", allowed);
}

int lab_param_defaults(const struct lab_param *table, void *base, struct lab_err *err)
{
	for (const struct lab_param *p = table; p->key; p++) {
		int rc = lab_param_parse(p, p->def, base, err);
		if (rc)
			return lab_err_prefix(err, "default of '%s' = '%s': ", p->key, p->def);
	}
	return 0;
}

const struct lab_param *lab_param_find(const struct lab_param *table, const char *key)
{
	for (const struct lab_param *p = table; p && p->key; p++)
		if (!strcmp(p->key, key))
			return p;
	return NULL;
}

/* Formats a byte count with the largest binary suffix that divides it exactly. */
static void param_format_size(uint64_t v, char *buf, size_t len)
{
	static const char *const suf[] = {"", "K", "M", "G"};
	int i = 0;

	while (i < 3 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%s", v, suf[i]);
}

static void param_format_duration(uint64_t v, char *buf, size_t len)
{
	static const char *const suf[] = {"ns", "us", "ms", "s"};
	int i = 0;

	while (i < 3 && v >= 1000 && v % 1000 == 0) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%s", v, v == 0 ? "" : suf[i]);
}

void lab_param_format(const struct lab_param *p, const void *base, char *buf, size_t len)
{
	const char *field = (const char *)base + p->offset;
	uint64_t u;
	double d;

	switch (p->type) {
	case LAB_PT_U64:
		memcpy(&u, field, sizeof(u));
		snprintf(buf, len, "%" PRIu64, u);
		return;
	case LAB_PT_SIZE:
		memcpy(&u, field, sizeof(u));
		param_format_size(u, buf, len);
		return;
	case LAB_PT_DURATION:
		memcpy(&u, field, sizeof(u));
		param_format_duration(u, buf, len);
		return;
	case LAB_PT_DOUBLE:
		memcpy(&d, field, sizeof(d));
		snprintf(buf, len, "%g", d);
		return;
	case LAB_PT_BOOL:
		snprintf(buf, len, "%s", *(const bool *)field ? "true" : "false");
		return;
	case LAB_PT_ENUM:
		for (const struct lab_enum_val *c = p->choices; c->name; c++)
			if (c->value == *(const int *)field) {
				snprintf(buf, len, "%s", c->name);
				return;
			}
		snprintf(buf, len, "?");
		return;
	case LAB_PT_STR:
		snprintf(buf, len, "%s", field);
		return;
	}
}

void lab_param_allowed(const struct lab_param *p, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t used;

	switch (p->type) {
	case LAB_PT_U64:
		snprintf(buf, len, "%" PRIu64 " .. %" PRIu64 "%s%s", p->min, p->max,
		         p->unit && p->unit[0] ? " " : "", p->unit ? p->unit : "");
		return;
	case LAB_PT_SIZE:
		param_format_size(p->min, lo, sizeof(lo));
		param_format_size(p->max, hi, sizeof(hi));
		snprintf(buf, len, "%s .. %s bytes", lo, hi);
		return;
	case LAB_PT_DURATION:
		param_format_duration(p->min, lo, sizeof(lo));
		param_format_duration(p->max, hi, sizeof(hi));
		snprintf(buf, len, "%s .. %s", lo, hi);
		return;
	case LAB_PT_DOUBLE:
		snprintf(buf, len, "%g .. %g%s%s", p->dmin, p->dmax,
		         p->unit && p->unit[0] ? " " : "", p->unit ? p->unit : "");
		return;
	case LAB_PT_BOOL:
		snprintf(buf, len, "true or false");
		return;
	case LAB_PT_ENUM:
		used = (size_t)snprintf(buf, len, "one of:");
		for (const struct lab_enum_val *c = p->choices; c->name && used < len; c++)
			used += (size_t)snprintf(buf + used, len - used, "%s %s",
			                         c == p->choices ? "" : ",", c->name);
		return;
	case LAB_PT_STR:
		snprintf(buf, len, "text of at most %d characters", LAB_STR_MAX - 1);
		return;
	}
}

const char *lab_param_type_name(enum lab_ptype type)
{
	switch (type) {
	case LAB_PT_U64:
		return "integer";
	case LAB_PT_SIZE:
		return "size";
	case LAB_PT_DURATION:
		return "duration";
	case LAB_PT_DOUBLE:
		return "number";
	case LAB_PT_BOOL:
		return "bool";
	case LAB_PT_ENUM:
		return "choice";
	case LAB_PT_STR:
		return "text";
	}
	return "?";
}

unsigned lab_edit_distance(const char *a, const char *b)
{
	unsigned row[LAB_EDIT_DISTANCE_MAX + 1];
	size_t la = strlen(a), lb = strlen(b);

	if (la > LAB_EDIT_DISTANCE_MAX || lb > LAB_EDIT_DISTANCE_MAX)
		return LAB_EDIT_DISTANCE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}
