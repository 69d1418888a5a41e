/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lesson grammar's names and its printer (harness/lessons.h): a claim written back with
 * canonical values and only the parentheses it needs. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness/lessons.h"

static const char *const lp_funcs[] = {
    [LAB_LESSON_COST] = "cost",
    [LAB_LESSON_THROUGHPUT] = "throughput",
    [LAB_LESSON_SPEEDUP] = "speedup",
    [LAB_LESSON_METRIC] = "metric",
};

const char *lab_lesson_func_name(enum lab_lesson_op op)
{
	return op >= LAB_LESSON_COST && op <= LAB_LESSON_METRIC ? lp_funcs[op] : NULL;
}

const char *lab_lesson_cmp_name(enum lab_lesson_cmp cmp)
{
	static const char *const names[] = {">=", ">", "<=", "<"};

	return names[cmp];
}

struct lf {
	char *buf;
	size_t len, used;
};

__attribute__((format(printf, 2, 3))) static void lf_put(struct lf *f, const char *fmt, ...)
{
	va_list ap;
	size_t room = f->used < f->len ? f->len - f->used : 0;

	va_start(ap, fmt);
	int n = vsnprintf(room ? f->buf + f->used : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		f->used += (size_t)n;
}

static int lf_prec(enum lab_lesson_op op)
{
	return op == LAB_LESSON_ADD || op == LAB_LESSON_SUB   ? 1
	       : op == LAB_LESSON_MUL || op == LAB_LESSON_DIV ? 2
	       : op == LAB_LESSON_NEG                         ? 3
	                                                      : 4;
}

static void lf_sel(struct lf *f, const struct lab_lesson_sel *sel)
{
	lf_put(f, "%s", sel->experiment);
	for (unsigned i = 0; i < sel->nparam; i++) {
		const char *v = sel->value[i];
		int quote = !*v || strpbrk(v, " \t,()") != NULL;
		lf_put(f, "%s%s=%s%s%s", i ? ", " : ": ", sel->key[i], quote ? "\"" : "", v,
		       quote ? "\"" : "");
	}
}

/* Writes node id; parenthesized when its precedence is below min (right operands of - and /
 * need strictly more). */
static void lf_node(struct lf *f, const struct lab_lesson_claim *c, int id, int min)
{
	const struct lab_lesson_node *n = &c->node[id];
	int prec = lf_prec(n->op), paren = prec < min;

	if (paren)
		lf_put(f, "(");
	switch (n->op) {
	case LAB_LESSON_NUM:
		lf_put(f, "%.15g", n->num);
		break;
	case LAB_LESSON_COST:
	case LAB_LESSON_THROUGHPUT:
	case LAB_LESSON_SPEEDUP:
	case LAB_LESSON_METRIC:
		lf_put(f, "%s(", lp_funcs[n->op]);
		if (n->op == LAB_LESSON_METRIC)
			lf_put(f, "%s, ", n->metric);
		lf_sel(f, &c->sel[n->sel]);
		lf_put(f, ")");
		break;
	case LAB_LESSON_NEG:
		lf_put(f, "-");
		lf_node(f, c, n->a, 3);
		break;
	default: {
		static const char ops[] = {[LAB_LESSON_ADD] = '+',
		                           [LAB_LESSON_SUB] = '-',
		                           [LAB_LESSON_MUL] = '*',
		                           [LAB_LESSON_DIV] = '/'};
		lf_node(f, c, n->a, prec);
		lf_put(f, " %c ", ops[n->op]);
		lf_node(f, c, n->b, prec + (n->op == LAB_LESSON_SUB || n->op == LAB_LESSON_DIV));
	}
	}
	if (paren)
		lf_put(f, ")");
}

size_t lab_lesson_format(const struct lab_lesson_claim *c, int node, char *buf, size_t len)
{
	struct lf f = {.buf = buf, .len = len};

	if (len)
		buf[0] = 0;
	if (node >= 0) {
		lf_node(&f, c, node, 0);
		return f.used;
	}
	lf_node(&f, c, c->lhs, 0);
	lf_put(&f, " %s ", lab_lesson_cmp_name(c->cmp));
	lf_node(&f, c, c->rhs, 0);
	return f.used;
}
