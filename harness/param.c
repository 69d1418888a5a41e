/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/param.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
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

/* What an integral type reads: its suffixes, its name in messages and its unit. */
struct param_integral {
	const struct lab_unit_suffix *table; /* an empty name: a bare number is allowed */
	const char *what;                    /* "an integer, e.g. 1000 or 10M" */
	const char *of_unit;                 /* " of bytes": what a whole number counts */
};

static const struct param_integral param_u64 = {lab_count_suffixes, "an integer, e.g. 1000 or 10M",
                                                ""};
static const struct param_integral param_size = {
    lab_size_suffixes, "a size in bytes, e.g. 64, 4K, 1MiB, 2G", " of bytes"};
static const struct param_integral param_duration = {
    lab_duration_suffixes, "a duration with unit ns, us, ms or s, e.g. 50us", " of nanoseconds"};

/*
 * Reads "<number><suffix>" (blanks around and between allowed) exactly: the decimal digits are
 * scaled by the suffix without a double in between, so a value past 2^53 is neither rounded
 * nor refused, and a fraction is an error unless the suffix makes it whole (1.5K is 1500).
 * Returns 0 with *out set, or -LAB_ECONFIG with the message; *why says when the number reads
 * well but is no whole number up to 2^64 (LAB_UNIT_EXACT_OK for a syntax error).
 */
static int param_read_integral(const char *text, const struct param_integral *t, uint64_t *out,
                               enum lab_unit_exact *why, const char *range, struct lab_err *err)
{
	char buf[128], what[384];
	const char *end;
	size_t n;

	/* what is allowed: the form, and the parameter's range when it has one */
	snprintf(what, sizeof(what), "%s%s%s", t->what, range ? "; allowed " : "",
	         range ? range : "");

	*why = LAB_UNIT_EXACT_OK;
	if (!param_trim(text, buf, sizeof(buf)))
		return lab_err_set(err, LAB_ECONFIG,
		                   "too long, at most %zu characters (expected %s)",
		                   sizeof(buf) - 1, what);
	if (!buf[0])
		return lab_err_set(err, LAB_ECONFIG, "empty value (expected %s)", what);
	if (buf[0] == '-')
		return lab_err_set(err, LAB_ECONFIG, "negative value (expected %s)", what);
	n = lab_unit_decimal_len(buf);
	/* hex ("0x10", "0x1p6") is no documented form: not a number with a suffix "x10" */
	if (!n || buf[n] == 'x' || buf[n] == 'X')
		return lab_err_set(err, LAB_ECONFIG, "not a number (expected %s)", what);
	for (end = buf + n; isspace((unsigned char)*end); end++)
		;
	for (const struct lab_unit_suffix *s = t->table; s->name; s++) {
		if (strcmp(end, s->name) != 0)
			continue;
		*why = lab_unit_scale_exact(buf, n, s->mult, out);
		if (*why == LAB_UNIT_EXACT_OK)
			return 0;
		return lab_err_set(
		    err, LAB_ECONFIG, "%s (expected %s)",
		    *why == LAB_UNIT_EXACT_LARGE ? "too large" : "not a whole number", what);
	}
	if (!*end)
		return lab_err_set(err, LAB_ECONFIG, "missing unit (expected %s)", what);
	return lab_err_set(err, LAB_ECONFIG, "unknown suffix '%s' (expected %s)", end, what);
}

int lab_parse_u64(const char *text, uint64_t *out, struct lab_err *err)
{
	enum lab_unit_exact why;

	return param_read_integral(text, &param_u64, out, &why, NULL, err);
}

int lab_parse_size(const char *text, uint64_t *out, struct lab_err *err)
{
	enum lab_unit_exact why;

	return param_read_integral(text, &param_size, out, &why, NULL, err);
}

/* The integral type of p, with durations' bare 0 (zero needs no unit). */
static int param_parse_integral(const struct param_integral *t, const char *text, uint64_t *out,
                                enum lab_unit_exact *why, const char *range, struct lab_err *err)
{
	char buf[128];

	if (t == &param_duration && param_trim(text, buf, sizeof(buf)) && !strcmp(buf, "0")) {
		*why = LAB_UNIT_EXACT_OK;
		*out = 0;
		return 0;
	}
	return param_read_integral(text, t, out, why, range, err);
}

int lab_parse_duration(const char *text, uint64_t *out, struct lab_err *err)
{
	enum lab_unit_exact why;

	return param_parse_integral(&param_duration, text, out, &why, NULL, err);
}

int lab_parse_double(const char *text, double *out, struct lab_err *err)
{
	char buf[128], *end;

	if (!param_trim(text, buf, sizeof(buf)))
		return lab_err_set(err, LAB_ECONFIG,
		                   "too long, at most %zu characters (expected a number, e.g. 0.5)",
		                   sizeof(buf) - 1);
	if (!buf[0])
		return lab_err_set(err, LAB_ECONFIG, "empty value (expected a number)");
	const char *num = buf + (buf[0] == '-');
	size_t n = lab_unit_decimal_len(num);
	errno = 0;
	double v = strtod(buf, &end);
	/* a plain decimal only: strtod also reads hex, inf and nan */
	bool plain = n && !num[n] && !*end;
	if (plain && errno == ERANGE && fabs(v) >= 1)
		return lab_err_set(err, LAB_ECONFIG, "too large (expected a number, e.g. 0.5)");
	if (plain && errno == ERANGE)
		return lab_err_set(err, LAB_ECONFIG,
		                   "too close to 0 (expected 0 or a number of magnitude 1e-307 or "
		                   "more, e.g. 0.5)");
	if (!plain || !isfinite(v))
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

/*
 * An integral value of p into *u: the number's own syntax errors as they are; a number that is
 * no whole count of p's unit up to 2^64, or one outside p's bounds, with p's range.
 */
static int param_parse_u64_field(const struct lab_param *p, const char *text, uint64_t *u,
                                 struct lab_err *err)
{
	const struct param_integral *t = p->type == LAB_PT_SIZE       ? &param_size
	                                 : p->type == LAB_PT_DURATION ? &param_duration
	                                                              : &param_u64;
	enum lab_unit_exact why;
	char allowed[256];

	lab_param_allowed(p, allowed, sizeof(allowed));
	int rc = param_parse_integral(t, text, u, &why, allowed, err);

	if (rc == 0 && *u >= p->min && *u <= p->max)
		return 0;
	if (rc && why == LAB_UNIT_EXACT_OK)
		return rc;
	if (rc == 0)
		return lab_err_set(err, LAB_ECONFIG, "out of range (allowed %s)", allowed);
	if (why == LAB_UNIT_EXACT_LARGE)
		return lab_err_set(err, LAB_ECONFIG, "too large (allowed %s)", allowed);
	/* where the range starts above 1ns its bound is the reason (min_time = 0.5ns said "under
	 * 1ns" beside "allowed 1us .. 600s", hostile40) */
	if (why == LAB_UNIT_EXACT_UNDER && t == &param_duration)
		return lab_err_set(err, LAB_ECONFIG, "too small: %s (allowed %s)",
		                   p->min > 1 ? "below the range" : "under 1ns, the smallest step",
		                   allowed);
	return lab_err_set(err, LAB_ECONFIG, "not a whole number%s (allowed %s)", t->of_unit,
	                   allowed);
}

int lab_param_parse(const struct lab_param *p, const char *text, void *base, struct lab_err *err)
{
	char *field = (char *)base + p->offset, allowed[256];
	uint64_t u = 0;
	double d = 0;
	int rc = 0;

	switch (p->type) {
	case LAB_PT_U64:
	case LAB_PT_SIZE:
	case LAB_PT_DURATION:
		rc = param_parse_u64_field(p, text, &u, err);
		if (rc == 0)
			memcpy(field, &u, sizeof(u));
		return rc;
	case LAB_PT_DOUBLE:
		rc = lab_parse_double(text, &d, err);
		if (rc == 0 && (d < p->dmin || d > p->dmax))
			break;
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

int lab_param_applies_value(const struct lab_param *p, const char *key, const char *value)
{
	size_t klen = p->applies ? strcspn(p->applies, "=") : 0, n = strlen(value);

	if (!p->applies || strlen(key) != klen || strncmp(key, p->applies, klen))
		return -1;
	for (const char *v = p->applies + klen + 1; *v;
	     v += strcspn(v, "|") + (v[strcspn(v, "|")] != 0))
		if (strcspn(v, "|") == n && !strncmp(v, value, n))
			return 1;
	return 0;
}

bool lab_param_applies(const struct lab_param *table, const struct lab_param *p, const void *base)
{
	char key[64], val[LAB_STR_MAX];
	const struct lab_param *c =
	    lab_param_applies_key(p, key, sizeof(key)) ? lab_param_find(table, key) : NULL;

	if (!c || c->type != LAB_PT_ENUM)
		return true;
	lab_param_format(c, base, val, sizeof(val));
	return lab_param_applies_value(p, c->key, val) == 1;
}

const char *lab_param_applies_key(const struct lab_param *p, char *buf, size_t len)
{
	if (!p->applies || !strchr(p->applies, '='))
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(p->applies, "="), p->applies);
	return buf;
}

void lab_param_applies_text(const struct lab_param *p, char *buf, size_t len)
{
	const char *eq = p->applies ? strchr(p->applies, '=') : NULL;
	size_t used;

	buf[0] = '\0';
	if (!eq || !len)
		return;
	used = (size_t)snprintf(buf, len, "%.*s = ", (int)(eq - p->applies), p->applies);
	for (const char *v = eq + 1; *v && used < len;) {
		size_t w = strcspn(v, "|");
		const char *sep = !v[w] ? "" : strchr(v + w + 1, '|') ? ", " : " or ";
		used += (size_t)snprintf(buf + used, len - used, "%.*s%s", (int)w, v, sep);
		v += w + (v[w] != 0);
	}
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
		snprintf(buf, len, "true or false (or yes/no, on/off, 1/0)");
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

bool lab_kernel_has_applies(const struct lab_kernel *k)
{
	for (const struct lab_param *p = k->params; p->key; p++)
		if (p->applies)
			return true;
	return false;
}
