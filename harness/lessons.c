/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lesson grammar (harness/lessons.h): a recursive-descent parser; lessons_format.c prints. */
#include "harness/lessons.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lp {
	const char *text, *p;
	struct lab_lesson_claim *c;
	struct lab_err *err;
	int failed;
	unsigned depth;
};

static unsigned lp_col(const struct lp *s)
{
	return (unsigned)(s->p - s->text) + 1;
}

/* Records the first error only, at the current column, with what is there. */
__attribute__((format(printf, 2, 3))) static int lp_fail(struct lp *s, const char *fmt, ...)
{
	char what[LAB_ERR_MSG_MAX];
	va_list ap;

	if (s->failed++)
		return -1;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (*s->p)
		lab_err_set(s->err, LAB_ECONFIG, "column %u: %s (at '%.12s')", lp_col(s), what,
		            s->p);
	else
		lab_err_set(s->err, LAB_ECONFIG, "column %u: %s (at the end)", lp_col(s), what);
	return -1;
}

static void lp_blank(struct lp *s)
{
	while (*s->p == ' ' || *s->p == '\t')
		s->p++;
}

static int lp_ident_char(char ch, int first)
{
	return isalpha((unsigned char)ch) || ch == '_' ||
	       (!first && (isdigit((unsigned char)ch) || ch == '.' || ch == '-'));
}

/* An identifier (letters, digits, '_', '.', '-'; not starting with a digit) into fresh memory. */
static char *lp_ident(struct lp *s, const char *what)
{
	const char *start = s->p;
	char *out;

	lp_blank(s);
	start = s->p;
	if (!lp_ident_char(*s->p, 1)) {
		lp_fail(s, "expected %s", what);
		return NULL;
	}
	while (lp_ident_char(*s->p, 0))
		s->p++;
	out = strndup(start, (size_t)(s->p - start));
	if (!out)
		lp_fail(s, "out of memory");
	return out;
}

static int lp_expect(struct lp *s, char ch, const char *what)
{
	lp_blank(s);
	if (*s->p != ch)
		return lp_fail(s, "expected %s", what);
	s->p++;
	return 0;
}

static int lp_node(struct lp *s, struct lab_lesson_node n)
{
	if (s->c->nnode >= LAB_LESSON_NODES_MAX)
		return lp_fail(s, "claim too long (at most %d terms)", LAB_LESSON_NODES_MAX);
	s->c->node[s->c->nnode] = n;
	return (int)s->c->nnode++;
}

/* A VALUE: "quoted" or a run of characters other than blanks , ( ). */
static char *lp_value(struct lp *s)
{
	const char *start;
	char *out;

	lp_blank(s);
	if (*s->p == '"') {
		start = ++s->p;
		while (*s->p && *s->p != '"')
			s->p++;
		if (*s->p != '"') {
			lp_fail(s, "unterminated \"quoted value\"");
			return NULL;
		}
		out = strndup(start, (size_t)(s->p++ - start));
	} else {
		start = s->p;
		while (*s->p && !strchr(" \t,()\"", *s->p))
			s->p++;
		if (s->p == start) {
			lp_fail(s, "expected a value after '='");
			return NULL;
		}
		out = strndup(start, (size_t)(s->p - start));
	}
	if (!out)
		lp_fail(s, "out of memory");
	return out;
}

/* sel := EXPERIMENT [: KEY=VALUE {, KEY=VALUE}]; returns its index. */
static int lp_sel(struct lp *s)
{
	struct lab_lesson_claim *c = s->c;
	struct lab_lesson_sel *grown = realloc(c->sel, (c->nsel + 1) * sizeof(*c->sel));

	if (!grown)
		return lp_fail(s, "out of memory");
	c->sel = grown;
	struct lab_lesson_sel *sel = &c->sel[c->nsel++];
	*sel = (struct lab_lesson_sel){0};
	lp_blank(s);
	sel->col = lp_col(s);
	if (!(sel->experiment = lp_ident(s, "an experiment name (a section of the config)")))
		return -1;
	lp_blank(s);
	if (*s->p != ':')
		return (int)(c->nsel - 1);
	s->p++;
	do {
		if (sel->nparam == LAB_LESSON_PARAMS_MAX)
			return lp_fail(s, "too many KEY=VALUE items (at most %d)",
			               LAB_LESSON_PARAMS_MAX);
		/* after a ',' the next item may be the rest of a value that holds commas */
		lp_blank(s);
		sel->kcol[sel->nparam] = lp_col(s);
		char *key =
		    lp_ident(s, sel->nparam ? "KEY=VALUE after ',' (a value that holds commas "
		                              "goes in double quotes: "
		                              "placement=\"list:1,0\")"
		                            : "KEY=VALUE");
		if (!key)
			return -1;
		sel->key[sel->nparam] = key;
		for (unsigned i = 0; i < sel->nparam; i++)
			if (!strcmp(sel->key[i], key)) { /* at the item, not past its key */
				s->p = s->text + sel->kcol[sel->nparam] - 1;
				return lp_fail(s, "'%s' given twice in one selector", key);
			}
		if (lp_expect(s, '=', "'=' after the key"))
			return -1;
		if (!(sel->value[sel->nparam] = lp_value(s)))
			return -1;
		sel->nparam++;
		lp_blank(s);
	} while (*s->p == ',' && s->p++);
	return (int)(c->nsel - 1);
}

static int lp_expr(struct lp *s);

/* cost(sel), throughput(sel), speedup(sel), metric(NAME, sel). */
static int lp_call(struct lp *s, const char *name, const char *at)
{
	struct lab_lesson_node n = {.a = -1, .b = -1, .col = (unsigned)(at - s->text) + 1};
	int op = -1;

	for (int i = LAB_LESSON_COST; i <= LAB_LESSON_METRIC; i++)
		if (!strcmp(name, lab_lesson_func_name((enum lab_lesson_op)i)))
			op = i;
	if (op < 0 && (s->p = at))
		return lp_fail(
		    s, "unknown function '%s' (allowed cost, throughput, speedup, metric)", name);
	n.op = (enum lab_lesson_op)op;
	if (lp_expect(s, '(', "'(' after the function name"))
		return -1;
	if (n.op == LAB_LESSON_METRIC) {
		if (!(n.metric = lp_ident(s, "a metric name: metric(NAME, EXPERIMENT: KEY=VALUE)")))
			return -1;
		if (lp_expect(s, ',', "',' after the metric name")) {
			free(n.metric);
			return -1;
		}
	}
	n.sel = lp_sel(s);
	if (n.sel < 0 || lp_expect(s, ')', "')' or ', KEY=VALUE' in the selector")) {
		free(n.metric);
		return -1;
	}
	int id = lp_node(s, n);
	if (id < 0)
		free(n.metric);
	return id;
}

static int lp_number(struct lp *s)
{
	char *end;
	unsigned col = lp_col(s);

	errno = 0;
	double v = strtod(s->p, &end);
	bool plain = end != s->p && end[0] != 'x' && end[0] != 'X';
	/* strtod reads hex, inf and nan: a plain decimal only. */
	for (const char *q = s->p; plain && q < end; q++)
		plain = isdigit((unsigned char)*q) || strchr(".eE+-", *q);
	if (!plain)
		return lp_fail(s, "bad number (allowed a plain decimal like 1.5 or 2e3)");
	/* past what a double holds, either way: as lessons_check says of the other numbers */
	if (errno == ERANGE || !isfinite(v))
		return lp_fail(s,
		               "number %.*s out of range (allowed 0 or a magnitude from 1e-30 to "
		               "1e30)",
		               (int)(end - s->p > 40 ? 40 : end - s->p), s->p);
	s->p = end;
	return lp_node(s, (struct lab_lesson_node){
	                      .op = LAB_LESSON_NUM, .num = v, .a = -1, .b = -1, .col = col});
}

static int lp_primary(struct lp *s)
{
	lp_blank(s);
	if (isdigit((unsigned char)*s->p) || *s->p == '.')
		return lp_number(s);
	if (*s->p == '(') {
		s->p++;
		int id = lp_expr(s);
		if (id < 0 || lp_expect(s, ')', "')'"))
			return -1;
		return id;
	}
	if (!lp_ident_char(*s->p, 1))
		return lp_fail(s, "expected a number, '(' or cost(...), throughput(...), "
		                  "speedup(...), metric(...)");
	const char *at = s->p;
	char *name = lp_ident(s, "a function");
	if (!name)
		return -1;
	int id = lp_call(s, name, at);
	free(name);
	return id;
}

static int lp_unary(struct lp *s)
{
	lp_blank(s);
	if (*s->p != '-')
		return lp_primary(s);
	if (++s->depth > LAB_LESSON_DEPTH_MAX)
		return lp_fail(s, "nested too deeply (allowed at most " LAB_LESSON_DEPTH_TEXT
		                  " levels of parentheses and signs)");
	unsigned col = lp_col(s);
	s->p++;
	int a = lp_unary(s);
	s->depth--;
	if (a < 0)
		return -1;
	return lp_node(s,
	               (struct lab_lesson_node){.op = LAB_LESSON_NEG, .a = a, .b = -1, .col = col});
}

static int lp_binary(struct lp *s, int mul)
{
	int a = mul ? lp_unary(s) : lp_binary(s, 1);

	while (a >= 0) {
		lp_blank(s);
		char ch = *s->p;
		if (mul ? (ch != '*' && ch != '/') : (ch != '+' && ch != '-'))
			break;
		unsigned col = lp_col(s);
		s->p++;
		int b = mul ? lp_unary(s) : lp_binary(s, 1);
		if (b < 0)
			return -1;
		enum lab_lesson_op op = ch == '*'   ? LAB_LESSON_MUL
		                        : ch == '/' ? LAB_LESSON_DIV
		                        : ch == '+' ? LAB_LESSON_ADD
		                                    : LAB_LESSON_SUB;
		a = lp_node(s, (struct lab_lesson_node){.op = op, .a = a, .b = b, .col = col});
	}
	return a;
}

static int lp_expr(struct lp *s)
{
	if (++s->depth > LAB_LESSON_DEPTH_MAX)
		return lp_fail(s, "nested too deeply (allowed at most " LAB_LESSON_DEPTH_TEXT
		                  " levels of parentheses and signs)");
	int id = lp_binary(s, 0);
	s->depth--;
	return id;
}

int lab_lesson_parse(const char *text, struct lab_lesson_claim *c, struct lab_err *err)
{
	struct lp s = {.text = text, .p = text, .c = c, .err = err};
	static const struct {
		const char *tok;
		enum lab_lesson_cmp cmp;
	} cmps[] = {{">=", LAB_LESSON_GE},
	            {"<=", LAB_LESSON_LE},
	            {">", LAB_LESSON_GT},
	            {"<", LAB_LESSON_LT}};

	memset(c, 0, sizeof(*c));
	c->lhs = lp_expr(&s);
	if (c->lhs < 0)
		goto bad;
	lp_blank(&s);
	unsigned i;
	for (i = 0; i < 4 && strncmp(s.p, cmps[i].tok, strlen(cmps[i].tok)); i++)
		;
	if (i == 4) {
		lp_fail(&s, "expected a comparison: >=, >, <= or < (a claim is A >= B)");
		goto bad;
	}
	c->cmp = cmps[i].cmp;
	s.p += strlen(cmps[i].tok);
	c->rhs = lp_expr(&s);
	if (c->rhs < 0)
		goto bad;
	lp_blank(&s);
	if (*s.p) {
		lp_fail(&s, "unexpected text after the claim (one comparison per lesson)");
		goto bad;
	}
	return 0;
bad:
	lab_lesson_claim_free(c);
	return -LAB_ECONFIG;
}

void lab_lesson_claim_free(struct lab_lesson_claim *c)
{
	for (unsigned i = 0; i < c->nnode; i++)
		free(c->node[i].metric);
	for (unsigned i = 0; i < c->nsel; i++) {
		free(c->sel[i].experiment);
		for (unsigned k = 0; k < c->sel[i].nparam; k++) {
			free(c->sel[i].key[k]);
			free(c->sel[i].value[k]);
			free(c->sel[i].written[k]);
		}
		/* a selector that failed mid-item holds a key without its value */
		if (c->sel[i].nparam < LAB_LESSON_PARAMS_MAX)
			free(c->sel[i].key[c->sel[i].nparam]);
	}
	free(c->sel);
	memset(c, 0, sizeof(*c));
}
