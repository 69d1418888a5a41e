/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "lab/cli_opts.h"

#include <string.h>

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
		fprintf(stderr, "lab %s: too many %s (at most %u)\n", c->name, what, max);
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
		fprintf(stderr, "lab %s: %s needs a value %s (see lab %s --help)\n", c->name,
		        o->name, o->arg, c->name);
		return 2;
	}
	if (o->kind == LAB_OPT_VALUE) {
		*(const char **)((char *)args + o->at) = v;
		return 0;
	}
	char what[64];
	snprintf(what, sizeof(what), "%s options", o->name);
	return opts_push(c, args, o->at, o->count_at, LAB_OPTS_LIST_MAX, v, what);
}

int lab_opts_parse(const struct lab_cmd_opts *c, int argc, char **argv, void *args,
                   size_t args_size)
{
	memset(args, 0, args_size);
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *v = NULL;
		const struct lab_opt *o = c->opts;
		int rc;

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			lab_opts_usage(c, stdout);
			return LAB_OPTS_HELP;
		}
		while (o->name && !opts_match(o, arg, &v))
			o++;
		if (o->name)
			rc = opts_store(c, o, argc, argv, &i, v, args);
		else if (arg[0] == '-' && arg[1]) {
			fprintf(stderr, "lab %s: unknown option '%s' (see lab %s --help)\n",
			        c->name, arg, c->name);
			rc = 2;
		} else if (!c->pos_max) {
			fprintf(stderr, "lab %s: unexpected argument '%s' (see lab %s --help)\n",
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

	fprintf(f, "usage: lab %s %s\n\n%s", c->name, c->synopsis, c->about ? c->about : "");
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
