/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/cli_opts.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lab/text_esc.h"

/* Option values named like numbers (a row's arg) and what they allow. */
static const struct opts_number {
	const char *arg;
	bool whole;
	double lo, hi;
	bool hi_open;        /* hi itself is not allowed */
	bool percent;        /* "1%" is taken as 0.01 */
	const char *allowed; /* for the message */
} opts_numbers[] = {
    {"FRACTION", false, 0, 1, true, true,
     "a decimal fraction in [0, 1) or a percentage below 100%, e.g. 0.01 or 1%"},
};

/* The letter of a control byte's short escape (\n), or 0 when it has none. */
static char opts_escape_letter(unsigned char c)
{
	switch (c) {
	case '\n':
		return 'n';
	case '\r':
		return 'r';
	case '\t':
		return 't';
	case 0x1b:
		return 'e';
	default:
		return 0;
	}
}

/* Plain runs go out whole: classify takes one ASCII byte at a time, and stderr is unbuffered (a
 * write per byte: 3 million system calls for 16,000 warnings). */
void lab_opts_puts_escaped(FILE *f, const char *s)
{
	const unsigned char *u = (const unsigned char *)s, *plain = u;
	size_t n = strlen(s), len;
	unsigned cp;

	while (n) {
		enum lab_esc_kind kind = lab_esc_classify(u, n, true, &len, &cp);
		if (kind == LAB_ESC_PLAIN) {
			u += len;
			n -= len;
			continue;
		}
		fwrite(plain, 1, (size_t)(u - plain), f);
		if (kind == LAB_ESC_CODE)
			lab_esc_put_code(f, cp);
		else if (opts_escape_letter(*u))
			fprintf(f, "\\%c", opts_escape_letter(*u));
		else
			fprintf(f, "\\x%02x", *u);
		u += len;
		n -= len;
		plain = u;
	}
	fwrite(plain, 1, (size_t)(u - plain), f);
}

void lab_opts_error(const char *fmt, ...)
{
	va_list ap;
	char *line = NULL;

	va_start(ap, fmt);
	int n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fputs("lab: out of memory\n", stderr);
		return;
	}
	/* A 5,000-byte argument made a 5 KB line: its middle goes, the start and the end (what is
	 * allowed) stay, and the line says how much was left out. */
	if (n > LAB_OPTS_ERROR_MAX) {
		char cut[64];

		snprintf(cut, sizeof(cut), "[... %d bytes left out ...]",
		         n - LAB_OPTS_ERROR_MAX / 2 - LAB_OPTS_ERROR_MAX / 4);
		memmove(line + LAB_OPTS_ERROR_MAX / 2 + strlen(cut),
		        line + n - LAB_OPTS_ERROR_MAX / 4, LAB_OPTS_ERROR_MAX / 4 + 1);
		memcpy(line + LAB_OPTS_ERROR_MAX / 2, cut, strlen(cut));
	}
	lab_opts_puts_escaped(stderr, line);
	fputc('\n', stderr);
	free(line);
}

/* [-]digits[.digits][e[+-]digits], or [-].digits...: what strtod may see after this. */
static bool opts_decimal_text(const char *s, bool whole)
{
	size_t i = s[0] == '-', d = 0;

	for (; s[i] >= '0' && s[i] <= '9'; i++)
		d++;
	if (!whole && s[i] == '.')
		for (i++; s[i] >= '0' && s[i] <= '9'; i++)
			d++;
	if (!d)
		return false;
	if (!whole && (s[i] == 'e' || s[i] == 'E')) {
		i += s[i + 1] == '+' || s[i + 1] == '-';
		if (!(s[++i] >= '0' && s[i] <= '9'))
			return false;
		while (s[i] >= '0' && s[i] <= '9')
			i++;
	}
	return s[i] == '\0';
}

int lab_opts_number(const char *s, bool whole, double lo, double hi, double *v)
{
	char *end;
	double x;

	if (!s || !opts_decimal_text(s, whole))
		return -1;
	errno = 0;
	x = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(x) || x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}

/* Row n's number in v: a plain decimal, or where n takes one a percentage ("1%" is 0.01). */
static int opts_row_number(const struct opts_number *n, const char *v, double *x)
{
	size_t len = strlen(v);
	double scale = n->percent && len > 1 && v[len - 1] == '%' ? 100 : 1;
	char digits[64];

	if (scale == 1)
		digits[0] = '\0';
	else if (len - 1 < sizeof(digits))
		memcpy(digits, v, len - 1), digits[len - 1] = '\0';
	else
		return -1;
	if (lab_opts_number(scale == 1 ? v : digits, n->whole, n->lo * scale, n->hi * scale, x))
		return -1;
	if (n->hi_open && *x == n->hi * scale)
		return -1;
	*x /= scale; /* a percentage a hair below 100 may round to 1 */
	if (signbit(*x) || (n->hi_open && *x >= n->hi)) /* -0 printed "+--0%" */
		return -1;
	return 0;
}

int lab_opts_fraction(const char *s, double *v)
{
	return s ? opts_row_number(&opts_numbers[0], s, v) : -1;
}

/* The check of a value whose row names a number; 0 when it passes or is not a number. */
static int opts_check_number(const struct lab_cmd_opts *c, const struct lab_opt *o, const char *v)
{
	for (size_t i = 0; i < sizeof(opts_numbers) / sizeof(opts_numbers[0]); i++) {
		const struct opts_number *n = &opts_numbers[i];
		double x;
		if (!o->arg || strcmp(o->arg, n->arg) != 0)
			continue;
		if (opts_row_number(n, v, &x) == 0)
			return 0;
		lab_opts_error("lab %s: %s '%s': expected %s", c->name, o->name, v, n->allowed);
		return 2;
	}
	return 0;
}

static bool opts_match(const struct lab_opt *o, const char *arg, const char **inline_val)
{
	const char *names[] = {o->name, o->alias};

	*inline_val = NULL;
	for (unsigned i = 0; i < 2; i++) {
		size_t n = names[i] ? strlen(names[i]) : 0;
		if (!n || strncmp(arg, names[i], n) != 0)
			continue;
		if (arg[n] == '\0')
			return true;
		if (arg[n] == '=' && o->kind != LAB_OPT_FLAG) {
			*inline_val = arg + n + 1;
			return true;
		}
	}
	return false;
}

static int opts_push(const struct lab_cmd_opts *c, void *args, size_t at, size_t count_at,
                     unsigned max, const char *v, const char *what)
{
	const char **list = (const char **)((char *)args + at);
	unsigned *n = (unsigned *)((char *)args + count_at);

	if (*n == max) {
		lab_opts_error("lab %s: too many %s (at most %u)", c->name, what, max);
		return 2;
	}
	list[(*n)++] = v;
	return 0;
}

/* Stores the option o found at argv[*i]; takes its value from the next argument if needed. */
static int opts_store(const struct lab_cmd_opts *c, const struct lab_opt *o, int argc, char **argv,
                      int *i, const char *v, void *args)
{
	if (o->kind == LAB_OPT_FLAG) {
		*(bool *)((char *)args + o->at) = true;
		return 0;
	}
	if (!v && *i + 1 < argc)
		v = argv[++*i];
	if (!v) {
		lab_opts_error("lab %s: %s needs a value %s (see lab %s --help)", c->name, o->name,
		               o->arg, c->name);
		return 2;
	}
	if (opts_check_number(c, o, v))
		return 2;
	if (o->kind == LAB_OPT_VALUE) {
		const char **field = (const char **)((char *)args + o->at);
		if (*field) {
			lab_opts_error("lab %s: %s%s%s given twice ('%s', then '%s'; allowed once)",
			               c->name, o->alias ? o->alias : "", o->alias ? "/" : "",
			               o->name, *field, v);
			return 2;
		}
		*field = v;
		return 0;
	}
	char what[64];
	snprintf(what, sizeof(what), "%s options", o->name);
	return opts_push(c, args, o->at, o->count_at, LAB_OPTS_LIST_MAX, v, what);
}

int lab_opts_parse(const struct lab_cmd_opts *c, int argc, char **argv, void *args,
                   size_t args_size)
{
	bool options = true; /* until "--": after it a config may be named "-x.ini" */

	memset(args, 0, args_size);
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v = NULL;
		const struct lab_opt *o = c->opts;
		int rc;

		if (options && !strcmp(arg, "--")) {
			options = false;
			continue;
		}
		if (options && (!strcmp(arg, "-h") || !strcmp(arg, "--help"))) {
			lab_opts_usage(c, stdout);
			return LAB_OPTS_HELP;
		}
		while (options && o->name && !opts_match(o, arg, &v))
			o++;
		if (options && o->name)
			rc = opts_store(c, o, argc, argv, &i, v, args);
		else if (options && arg[0] == '-' && arg[1]) {
			lab_opts_error("lab %s: unknown option '%s' (see lab %s --help)", c->name,
			               arg, c->name);
			rc = 2;
		} else if (!c->pos_max) {
			lab_opts_error("lab %s: unexpected argument '%s' (see lab %s --help)",
			               c->name, arg, c->name);
			rc = 2;
		} else
			rc =
			    opts_push(c, args, c->pos_at, c->npos_at, c->pos_max, arg, c->pos_what);
		if (rc)
			return rc;
	}
	return 0;
}

/* "-o, --output DIR" into buf; returns its length. */
static size_t opts_label(const struct lab_opt *o, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "",
	                 o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	return n < 0 ? 0 : (size_t)n;
}

void lab_opts_usage(const struct lab_cmd_opts *c, FILE *f)
{
	char label[96];
	size_t width = 0;

	fprintf(f, "usage: lab %s%s%s\n\n%s", c->name, *c->synopsis ? " " : "", c->synopsis,
	        c->about ? c->about : "");
	for (const struct lab_opt *o = c->opts; o->name; o++) {
		size_t n = opts_label(o, label, sizeof(label));
		width = n > width ? n : width;
	}
	if (c->opts->name)
		fputc('\n', f);
	for (const struct lab_opt *o = c->opts; o->name; o++) {
		opts_label(o, label, sizeof(label));
		fprintf(f, "  %-*s  ", (int)width, label);
		for (const char *h = o->help; *h; h++) {
			fputc(*h, f);
			if (*h == '\n')
				fprintf(f, "  %-*s  ", (int)width, "");
		}
		fputc('\n', f);
	}
	if (c->after)
		fprintf(f, "\n%s", c->after);
}
