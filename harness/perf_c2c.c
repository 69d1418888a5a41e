/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The parser reads perf's own layout (tools/perf/builtin-c2c.c, the stdio report): in the
 * Pareto table each cache line opens with a row between two dashed rules, "Num RmtHitm LclHitm
 * <store columns> Address", and its offsets follow as rows that start with percentages (the
 * first two are the remote and local HITM shares), then Offset, Node, PA cnt, Code address,
 * cycles, records, cpu cnt, "[.] Symbol", Object, Source:Line, Node. Columns are found by their
 * kind, not by position, so the optional peer and node columns of newer perf do not shift them.
 */
#include "harness/perf_c2c.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define C2C_TOKENS 40

/* Splits line (modified) on blanks into at most C2C_TOKENS tokens. */
static unsigned c2c_split(char *line, char **tok)
{
	unsigned n = 0;

	for (char *s = strtok(line, " \t\r"); s && n < C2C_TOKENS; s = strtok(NULL, " \t\r"))
		tok[n++] = s;
	return n;
}

static bool c2c_uint(const char *s, int base, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	*v = strtoull(s, &end, base);
	return !*end;
}

static bool c2c_hex(const char *s, uint64_t *v)
{
	return !strncmp(s, "0x", 2) && s[2] && c2c_uint(s + 2, 16, v);
}

static bool c2c_pct(const char *s, double *v)
{
	char *end;
	size_t n = strlen(s);

	if (n < 2 || s[n - 1] != '%')
		return false;
	*v = strtod(s, &end);
	return end == s + n - 1;
}

static bool c2c_rule(const char *line)
{
	line += strspn(line, " \t");
	return line[0] == '-' && strspn(line, "-") >= 10 && !line[strspn(line, "-\r\n")];
}

/* "Num RmtHitm LclHitm ... 0xADDR": a line's header row. */
static bool c2c_line_row(char **t, unsigned n, struct lab_c2c_line *l)
{
	uint64_t num;

	if (n < 4 || !c2c_uint(t[0], 10, &num) || !c2c_uint(t[1], 10, &l->rmt_hitm) ||
	    !c2c_uint(t[2], 10, &l->lcl_hitm) || !c2c_hex(t[n - 1], &l->addr))
		return false;
	l->num = (unsigned)num;
	return true;
}

/* An offset row: percentages, then 0xOFFSET, node, PA cnt, 0xCODE, ..., [x] Symbol Object. */
static bool c2c_off_row(char **t, unsigned n, struct lab_c2c_off *o)
{
	unsigned i = 0, p = 0;
	double pct[2] = {0, 0}, skip;

	for (; i < n && c2c_pct(t[i], &skip); i++)
		if (p < 2)
			pct[p++] = skip;
	if (p < 2 || i >= n || !c2c_hex(t[i], &o->offset))
		return false;
	o->rmt_pct = pct[0];
	o->lcl_pct = pct[1];
	for (i++; i < n && !c2c_hex(t[i], &o->code_addr); i++)
		;
	for (; i < n && !(t[i][0] == '[' && strlen(t[i]) == 3 && t[i][2] == ']'); i++)
		;
	if (i + 2 >= n)
		return false;
	snprintf(o->symbol, sizeof(o->symbol), "%s %s", t[i], t[i + 1]);
	snprintf(o->object, sizeof(o->object), "%s", t[i + 2]);
	return true;
}

/* One row of the Pareto table; after is true right after a dashed rule. */
static int c2c_row(struct lab_c2c_report *r, char *line, bool after_rule, unsigned lineno,
                   struct lab_err *err)
{
	char *t[C2C_TOKENS];
	unsigned n = c2c_split(line, t);
	struct lab_c2c_line l = {0};
	struct lab_c2c_off o = {0};

	if (n == 0 || t[0][0] == '#')
		return 0;
	if (after_rule && c2c_line_row(t, n, &l)) {
		if (r->nlines == LAB_C2C_LINES_MAX) {
			r->dropped++;
			return 1; /* its offsets go too */
		}
		r->lines[r->nlines++] = l;
		return 0;
	}
	if (!c2c_off_row(t, n, &o))
		return lab_err_set(err, LAB_EDATA,
		                   "perf c2c report line %u: not a cache line or offset row",
		                   lineno);
	if (r->nlines == 0)
		return lab_err_set(err, LAB_EDATA,
		                   "perf c2c report line %u: an offset row before any cache line",
		                   lineno);
	if (r->noffs == LAB_C2C_OFFS_MAX) {
		r->dropped++;
		return 0;
	}
	o.line = r->nlines - 1;
	r->offs[r->noffs++] = o;
	return 0;
}

int lab_c2c_parse(const char *text, size_t len, struct lab_c2c_report *r, struct lab_err *err)
{
	char line[1024];
	bool in_pareto = false, after_rule = false, skipping = false;
	unsigned lineno = 0;
	size_t pos = 0;

	memset(r, 0, sizeof(*r));
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1),
		         text + pos);
		pos += n + (nl != NULL);
		lineno++;
		if (strstr(line, "Shared Cache Line Distribution Pareto")) {
			in_pareto = true;
			continue;
		}
		if (!in_pareto || line[strspn(line, " \t")] == '=')
			continue;
		if (c2c_rule(line)) {
			after_rule =
			    !after_rule; /* rules come in pairs around a line's header row */
			continue;
		}
		int rc = skipping && !after_rule ? 0 : c2c_row(r, line, after_rule, lineno, err);
		if (rc < 0)
			return rc;
		if (after_rule)
			skipping = rc == 1;
	}
	if (!in_pareto)
		return lab_err_set(
		    err, LAB_EDATA,
		    "perf c2c report: no \"Shared Cache Line Distribution Pareto\" table");
	return 0;
}
