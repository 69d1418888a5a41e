/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The grammar of a lesson: a claim a config makes about its own data, written in its [lessons]
 * section as NAME = CLAIM, e.g.
 *
 *   rmw_sharing_costs = cost(fs: op=rmw, stride=8, threads=2) / cost(fs: op=rmw, stride=128,
 *                       threads=2) >= 2
 *
 *   claim    := expr CMP expr                 CMP: >=  >  <=  <
 *   expr     := term { (+|-) term }
 *   term     := unary { (*|/) unary }
 *   unary    := - unary | primary
 *   primary  := NUMBER | ( expr ) | cost(sel) | throughput(sel) | speedup(sel)
 *             | metric(NAME, sel)
 *   sel      := EXPERIMENT [ : KEY=VALUE { , KEY=VALUE } ]
 *
 * A VALUE is a run of characters other than blanks, ',', '(' and ')', or a "quoted" string
 * (placement = "list:0,2"). Pure text -> tree and tree -> text; which experiments and keys
 * exist is checked by the planner (harness/plan_claims.c), what the claim says of the data by
 * the analyzer (analyze/lessons.c). Base code shared by both: no I/O, no allocation beyond the
 * claim's own.
 */
#ifndef LAB_HARNESS_LESSONS_H
#define LAB_HARNESS_LESSONS_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/err.h"

#define LAB_LESSON_STR_(x) #x
#define LAB_LESSON_STR(x)  LAB_LESSON_STR_(x)

#define LAB_LESSON_NODES_MAX  256 /* nodes of one claim */
#define LAB_LESSON_DEPTH_MAX  32  /* nesting of parentheses and unary minus */
#define LAB_LESSON_DEPTH_TEXT LAB_LESSON_STR(LAB_LESSON_DEPTH_MAX) /* for messages: "32" */
#define LAB_LESSON_PARAMS_MAX 16 /* KEY=VALUE items of one selector */
/* Point means one claim may use (a speedup uses two: its point and the one at threads = 1);
 * the analyzer holds this many per claim. */
#define LAB_LESSON_POINTS_MAX 64
/* Magnitudes of a number written in a claim, zero aside: generous for ratios, costs in ns and
 * rates, far from where doubles overflow or lose precision. */
#define LAB_LESSON_NUM_MIN 1e-30
#define LAB_LESSON_NUM_MAX 1e30
/* The longest lesson name: it is a key of analysis.json and a line of the analyzer's text. */
#define LAB_LESSON_NAME_MAX 63
/* The longest claim: what a config value may hold (LAB_CFG_VALUE_MAX - 1, harness/config.h) */
#define LAB_LESSON_CLAIM_MAX 65535

enum lab_lesson_op {
	LAB_LESSON_NUM,
	LAB_LESSON_COST,       /* mean cost per unit of work of one point */
	LAB_LESSON_THROUGHPUT, /* units of work per second: 1e9 / cost */
	LAB_LESSON_SPEEDUP,    /* cost of the same point at threads = 1 / cost of the point */
	LAB_LESSON_METRIC,     /* mean of a declared metric at one point */
	LAB_LESSON_ADD,
	LAB_LESSON_SUB,
	LAB_LESSON_MUL,
	LAB_LESSON_DIV,
	LAB_LESSON_NEG,
};

enum lab_lesson_cmp {
	LAB_LESSON_GE,
	LAB_LESSON_GT,
	LAB_LESSON_LE,
	LAB_LESSON_LT,
};

/* EXPERIMENT: KEY=VALUE, ... as written (values are canonicalized by the planner). */
struct lab_lesson_sel {
	char *experiment;
	unsigned nparam;
	char *key[LAB_LESSON_PARAMS_MAX];
	char *value[LAB_LESSON_PARAMS_MAX];
	unsigned col; /* 1-based column of the experiment name in the claim */
	unsigned kcol[LAB_LESSON_PARAMS_MAX]; /* 1-based column of each KEY */
	/* set by the planner: a value as the claim wrote it where that was relative to the
	 * machine (threads=max, mem_node=far, size=L2/2) and value is now this machine's; NULL
	 * else. Which point it names differs between machines: threads=max and threads=2 are
	 * the same point on 2 CPUs only. */
	char *written[LAB_LESSON_PARAMS_MAX];
};

struct lab_lesson_node {
	enum lab_lesson_op op;
	double num;   /* NUM */
	int sel;      /* COST..METRIC: index into claim->sel */
	char *metric; /* METRIC */
	int a, b;     /* operands (node indexes); b unused for NEG */
	unsigned col; /* 1-based column of the number, function name or operator */
};

struct lab_lesson_claim {
	struct lab_lesson_node node[LAB_LESSON_NODES_MAX];
	unsigned nnode;
	struct lab_lesson_sel *sel;
	unsigned nsel;
	int lhs, rhs; /* node indexes of the two sides */
	enum lab_lesson_cmp cmp;
};

/*
 * Parses text into c (zeroed by the call). Returns 0, or -LAB_ECONFIG with "column N: what is
 * wrong (what is allowed)" in err and c emptied. Caller frees with lab_lesson_claim_free.
 */
int lab_lesson_parse(const char *text, struct lab_lesson_claim *c, struct lab_err *err);

/*
 * Checks that a parsed claim says something about measured data, as the planner requires of a
 * config's lessons (the analyzer does not ask it of an older run.json): at least one of cost,
 * throughput, speedup or metric; at most LAB_LESSON_POINTS_MAX point means (a speedup counts
 * two); every number 0 or of magnitude LAB_LESSON_NUM_MIN .. LAB_LESSON_NUM_MAX; no division
 * by a constant part that is 0; no constant part, and no product or quotient of numbers and
 * quantities (each taken up to 1e20 or down to 1e-20), beyond 1e300 or below 1e-300, where
 * doubles overflow or underflow. Returns 0, or -LAB_ECONFIG with "column N: what is wrong (what
 * is allowed)" in err.
 */
int lab_lesson_check(const struct lab_lesson_claim *c, struct lab_err *err);

/* The range r[0..1] a leaf node i of c can take (a cost, throughput, speedup or metric); ctx is
 * the caller's. */
typedef void lab_lesson_leaf_range(void *ctx, const struct lab_lesson_claim *c, unsigned i,
                                   double r[2]);

/*
 * Whether the verdict of claim c could not depend on what is measured: at LAB_LESSON_DRAWS sets
 * of random positive values of its quantities, the gradient of its sides' difference is 0
 * (cost(a) / cost(a) >= 1, cost(a) - cost(a) > 0: the same mean cancels), or that of their
 * ratio where the ranges of both sides (leaf) keep one sign (cost(a) * 2 > cost(a): the
 * verdict is the sides' signs; 0 < cost(a) - cost(b) keeps the ratio 0 and depends on the data
 * all the same). Gradients, not values: a
 * number far from the means (cost(a) > 1e20) does not hide how the sides move with them.
 * var[i] is the variable of quantity node i (COST and THROUGHPUT of one point share one, the
 * throughput its inverse; METRIC its own per point and metric) and base[i] a SPEEDUP's
 * baseline cost variable (the same point at threads = 1), every one < nvar <=
 * LAB_LESSON_VARS_MAX; other nodes' entries are not read. Returns 1 (the difference into
 * *diff, NaN when there is none), 2 (the ratio is fixed; *diff NaN) or 0.
 */
#define LAB_LESSON_DRAWS    4
#define LAB_LESSON_VARS_MAX (2 * LAB_LESSON_NODES_MAX)
int lab_lesson_constant(const struct lab_lesson_claim *c, const int *var, const int *base,
                        unsigned nvar, lab_lesson_leaf_range *leaf, void *ctx, double *diff);
/* What the planner and the analyzer say of such a claim, from lab_lesson_constant's return
 * (kind) and diff, into buf. */
const char *lab_lesson_constant_why(int kind, double diff, char *buf, size_t len);

/*
 * The range a side of a claim can take whatever is measured: interval arithmetic from its
 * leaves' ranges (leaf, above lab_lesson_constant); lab_lesson_range writes node id's into r
 * (-inf .. inf where nothing bounds it: a divisor of either sign, inf - inf).
 */
void lab_lesson_range(const struct lab_lesson_claim *c, int id, lab_lesson_leaf_range *leaf,
                      void *ctx, double r[2]);
/* The range of a op b (ADD, SUB, MUL or DIV) for ranges a and b; 0 x inf is 0 (an end of a
 * closed range). */
void lab_lesson_range_op(enum lab_lesson_op op, const double a[2], const double b[2], double r[2]);

/* The threads=N sel names; 0 when it names none, or max (written: a team the machine
 * decides). */
long lab_lesson_sel_threads(const struct lab_lesson_sel *sel);

/* The range a cost can take as the verdicts count it: above 0 (the analyzer refuses a cost past
 * 1e100, and no sample is shorter than a nanosecond of 2^64 units) */
#define LAB_LESSON_COST_LO 1e-100
#define LAB_LESSON_COST_HI 1e100
/* The range of a COST, THROUGHPUT or SPEEDUP leaf op from LAB_LESSON_COST_LO .. _HI (each
 * above 0); -inf .. inf for other ops. */
void lab_lesson_leaf_positive(enum lab_lesson_op op, double r[2]);

/* Whether the ranges of c's leaves alone decide its verdict: 1 it holds at every value they
 * can take, -1 at none, 0 it depends on the data (metric(jain_fairness, ...) >= 0.5 at 2
 * threads, cost(...) > 0, -cost(...) > 0 measure nothing). The range of its left side less its
 * right into d[0..1]. */
int lab_lesson_fixed(const struct lab_lesson_claim *c, lab_lesson_leaf_range *leaf, void *ctx,
                     double d[2]);
/* What the planner and the analyzer say of such a claim, into buf. */
const char *lab_lesson_fixed_why(int fixed, const double d[2], char *buf, size_t len);

/* 1 when name is a lesson name a config may give: what a section name may be (letters, digits,
 * '_', '.', '-'; not empty) and at most LAB_LESSON_NAME_MAX bytes; 0 otherwise. The planner
 * refuses other names, the analyzer a run.json that holds one. */
int lab_lesson_name_ok(const char *name);

/* Frees what c holds; c can be parsed into again. */
void lab_lesson_claim_free(struct lab_lesson_claim *c);

/*
 * Writes the claim (or the side `node`: pass c->lhs, c->rhs, or -1 for the whole claim) as
 * canonical text: one blank around binary operators, "sel: k=v, k=v". Returns the length it
 * needed (like snprintf); buf holds a truncated text when len is too small.
 */
size_t lab_lesson_format(const struct lab_lesson_claim *c, int node, char *buf, size_t len);

/* ">=", ">", "<=" or "<". */
const char *lab_lesson_cmp_name(enum lab_lesson_cmp cmp);

/* The function name of a leaf op ("cost", ...), or NULL for other ops. */
const char *lab_lesson_func_name(enum lab_lesson_op op);

#endif
