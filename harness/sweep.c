/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep values: lists, dense and stepped ranges, geometric ranges, and "max" for threads. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/membind.h"
#include "harness/param.h"
#include "harness/plan.h"
#include "harness/strmap.h"
#include "harness/topo.h"

struct sweep_list {
	char **v;
	unsigned n, cap;
	bool oom;
};

/* Times a sweep list's array was reallocated, by every call so far (a test's count of work). */
static unsigned long long sw_grows;

/* Appends a copy of s[0..len); growth is geometric (one realloc per item was quadratic in
 * copies where realloc cannot grow in place). On ENOMEM l->oom is set and l keeps its items. */
static void sweep_push(struct sweep_list *l, const char *s, size_t len)
{
	if (!l->oom && l->n == l->cap) {
		unsigned cap = l->cap ? 2 * l->cap : 8;
		char **grown = cap > l->cap ? realloc(l->v, (size_t)cap * sizeof(*l->v)) : NULL;
		sw_grows++;
		if (grown) {
			l->v = grown;
			l->cap = cap;
		} else {
			l->oom = true;
		}
	}
	char *copy = l->oom ? NULL : strndup(s, len);

	if (!copy) {
		l->oom = true;
		return;
	}
	l->v[l->n++] = copy;
}

static bool sweep_is_threads(const struct lab_param *p)
{
	return !strcmp(p->key, "threads");
}

static bool sweep_numeric(const struct lab_param *p)
{
	return p->type == LAB_PT_U64 || p->type == LAB_PT_SIZE || p->type == LAB_PT_DURATION;
}

/*
 * A size relative to a cache: "L2", "L1/2", "L3*4" (level 1..5, then *K or /K with K >= 1),
 * from the sizes hwloc reports (env->cache_bytes). Returns 1 with *out set, 0 when text is not
 * of that form, or -LAB_ECONFIG when it is but the level is unknown here or the result is 0.
 */
static int sweep_cache_size(const char *text, const struct lab_env *env, uint64_t *out,
                            struct lab_err *err)
{
	char have[64] = "";
	unsigned level;
	uint64_t k = 1, base;
	char op = 0;
	int used = 0;

	if ((text[0] != 'L' && text[0] != 'l') || !isdigit((unsigned char)text[1]))
		return 0;
	level = (unsigned)(text[1] - '0');
	if (text[2] == '*' || text[2] == '/') {
		op = text[2];
		if (!isdigit((unsigned char)text[3]) ||
		    sscanf(text + 3, "%" SCNu64 "%n", &k, &used) != 1 || text[3 + used] || k == 0)
			return lab_err_set(err, LAB_ECONFIG,
			                   "'%s': a cache size takes *K or /K with a whole K >= 1 "
			                   "(e.g. L1/2, L3*4)",
			                   text);
	} else if (text[2]) {
		return 0;
	}
	base = level >= 1 && level <= LAB_CACHE_LEVELS && env ? env->cache_bytes[level - 1] : 0;
	if (!base) {
		for (unsigned i = 0; env && i < LAB_CACHE_LEVELS; i++)
			if (env->cache_bytes[i] && strlen(have) + 8 < sizeof(have))
				snprintf(have + strlen(have), sizeof(have) - strlen(have), "%sL%u",
				         *have ? ", " : "", i + 1);
		return lab_err_set(
		    err, LAB_ECONFIG,
		    "'%s': this topology reports no L%u cache (%s%s); give the size "
		    "in bytes (e.g. 32K, 1M), or the cache with --cache L%u=SIZE",
		    text, level, *have ? "it reports " : "it reports no cache at all", have, level);
	}
	if (op == '*' && base > UINT64_MAX / k)
		return lab_err_set(err, LAB_ECONFIG, "'%s' is too large", text);
	*out = op == '*' ? base * k : op == '/' ? base / k : base;
	if (!*out)
		return lab_err_set(err, LAB_ECONFIG, "'%s' is 0 bytes here", text);
	return 1;
}

/* "max" threads: every CPU of the topology, if a team may be that large (a described topology
 * may have more CPUs than a team has threads). */
static int sweep_max_threads(const struct lab_param *p, const struct lab_env *env, uint64_t *out,
                             struct lab_err *err)
{
	*out = env ? env->ncpus : 0;
	if (*out > p->max)
		return lab_err_set(err, LAB_ECONFIG,
		                   "'max' is %" PRIu64 " CPUs here, more than a team's %" PRIu64
		                   " threads: allowed thread counts 1 .. %" PRIu64
		                   " (threads = 1..%" PRIu64 ", say)",
		                   *out, p->max, p->max, p->max);
	return 0;
}

/* A value by name: threads = max, mem_node = far (the node farthest from node 0). 1 with *out
 * set, 0 when text names none, or an error. */
static int sweep_symbol(const struct lab_param *p, const char *text, const struct lab_env *env,
                        uint64_t *out, struct lab_err *err)
{
	if (sweep_is_threads(p) && !strcmp(text, "max")) {
		int rc = sweep_max_threads(p, env, out, err);
		return rc ? rc : 1;
	}
	if (!strcmp(p->key, "mem_node") && !strcmp(text, "far")) {
		*out = env && env->numa_far0 ? env->numa_far0 : 1; /* 0: not read */
		return 1;
	}
	if (sweep_is_threads(p) && *text && !isdigit((unsigned char)*text))
		return lab_err_set(
		    err, LAB_ECONFIG,
		    "'%s': allowed a whole number, or max (every CPU this process may "
		    "use)",
		    text);
	if (!strcmp(p->key, "mem_node") && *text && !isdigit((unsigned char)*text))
		return lab_err_set(err, LAB_ECONFIG,
		                   "'%s': allowed a node number as numactl -H prints it, or far "
		                   "(the node farthest from node 0)",
		                   text);
	return 0;
}

static int sweep_parse_num(const struct lab_param *p, const char *text, const struct lab_env *env,
                           uint64_t *out, struct lab_err *err)
{
	char buf[64];
	size_t n = strlen(text);

	while (n && isspace((unsigned char)text[n - 1]))
		n--;
	while (n && isspace((unsigned char)*text)) {
		text++;
		n--;
	}
	if (n < sizeof(buf)) {
		memcpy(buf, text, n);
		buf[n] = '\0';
		int sym = sweep_symbol(p, buf, env, out, err);
		if (sym)
			return sym < 0 ? sym : 0;
		if (p->type == LAB_PT_SIZE) {
			int rc = sweep_cache_size(buf, env, out, err);
			if (rc)
				return rc < 0 ? rc : 0;
		}
	}
	switch (p->type) {
	case LAB_PT_SIZE:
		return lab_parse_size(text, out, err);
	case LAB_PT_DURATION:
		return lab_parse_duration(text, out, err);
	default:
		return lab_parse_u64(text, out, err);
	}
}

static void sweep_format(const struct lab_param *p, uint64_t v, char *buf, size_t len)
{
	struct lab_param scratch = *p;

	scratch.offset = 0;
	lab_param_format(&scratch, &v, buf, len);
}

/* The values of lo..hi (lo <= hi; geometric: lo >= 1 and step >= 2), without making them. */
static uint64_t sweep_range_count(uint64_t lo, uint64_t hi, uint64_t step, bool geometric)
{
	uint64_t n = 1;

	if (!geometric) /* 0..2^64-1 saturates */
		return (hi - lo) / step < UINT64_MAX ? (hi - lo) / step + 1 : UINT64_MAX;
	while (lo <= hi / step) { /* at most 64 steps */
		lo *= step;
		n++;
	}
	return n;
}

/* A range's bounds and step, as written in "lo..hi", "lo..hi:xK" or "lo..hi:+K". */
struct sweep_bounds {
	uint64_t lo, hi, step;
	bool geometric;
};

/* Reads "lo..hi", "lo..hi:xK" (geometric) or "lo..hi:+K" / "lo..hi:K" (arithmetic) into *b and
 * counts its values into *count, without making them. */
static int sweep_range_bounds(const struct lab_param *p, const char *tok, const struct lab_env *env,
                              struct sweep_bounds *b, uint64_t *count, struct lab_err *err)
{
	const char *dots = strstr(tok, ".."), *colon = strchr(dots + 2, ':');
	char lo_txt[64], hi_txt[64], why[200] = "";
	size_t hi_len = colon ? (size_t)(colon - dots - 2) : strlen(dots + 2);

	*b = (struct sweep_bounds){.step = 1};
	if ((size_t)(dots - tok) >= sizeof(lo_txt) || hi_len >= sizeof(hi_txt))
		return lab_err_set(err, LAB_ECONFIG, "range bound too long");
	memcpy(lo_txt, tok, (size_t)(dots - tok));
	lo_txt[dots - tok] = '\0';
	memcpy(hi_txt, dots + 2, hi_len);
	hi_txt[hi_len] = '\0';
	if (sweep_parse_num(p, lo_txt, env, &b->lo, err) ||
	    sweep_parse_num(p, hi_txt, env, &b->hi, err))
		return lab_err_prefix(err, "in range '%s': ", tok);
	if (colon) {
		const char *s = colon + 1;
		int rc;
		if (*s == 'x' || *s == '*') {
			b->geometric = true;
			rc = lab_parse_u64(s + 1, &b->step, err);
		} else {
			rc = sweep_parse_num(p, *s == '+' ? s + 1 : s, env, &b->step, err);
			/* and what the key's values must be: "allowed :+K with K >= 1" alone of
			 * cs_ns's '+1' hid that a duration needs its unit (hostile46) */
			if (rc)
				snprintf(why, sizeof(why), ": %.196s", err->msg);
		}
		if (rc || b->step == 0 || (b->geometric && b->step < 2))
			return lab_err_set(
			    err, LAB_ECONFIG,
			    "bad step '%s' in range '%s' (allowed :xK or :*K with K >= 2, "
			    ":+K or :K with K >= 1)%s",
			    s, tok, why);
	}
	if (b->lo > b->hi)
		return lab_err_set(err, LAB_ECONFIG, "empty range '%s' (the start is past the end)",
		                   tok);
	if (b->geometric && b->lo == 0)
		return lab_err_set(err, LAB_ECONFIG, "geometric range '%s' cannot start at 0", tok);
	*count = sweep_range_count(b->lo, b->hi, b->step, b->geometric);
	return 0;
}

/* Adds the values of the range tok to l. */
static int sweep_range(const struct lab_param *p, const char *tok, const struct lab_env *env,
                       struct sweep_list *l, struct lab_err *err)
{
	struct sweep_bounds b;
	uint64_t count;
	char buf[64];

	int rc = sweep_range_bounds(p, tok, env, &b, &count, err);

	if (rc)
		return rc;
	/* Counted before any value is made: 1..10000000 is refused without 10M strings. */
	if (count > LAB_SWEEP_MAX - l->n)
		return lab_err_set(err, LAB_ECONFIG,
		                   "range '%s' has more than %d values (allowed at most %d "
		                   "values per key)",
		                   tok, LAB_SWEEP_MAX, LAB_SWEEP_MAX);
	for (uint64_t i = 0, v = b.lo; i < count; i++, v = b.geometric ? v * b.step : v + b.step) {
		sweep_format(p, v, buf, sizeof(buf));
		sweep_push(l, buf, strlen(buf));
	}
	return 0;
}

/* True for a token that continues a "list:" CPU list: digits, '-', ':' and blanks only. */
static bool sweep_cpu_fragment(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]) && !strchr("-: \t", s[i]))
			return false;
	return true;
}

/*
 * True for a token that continues an "expr:" thread-domain expression: it starts with a digit
 * (an index, "2" of S0:0,2, or "2@S1:0" of S0:0,2@S1:0), where a new placement starts with a
 * letter. Blanks may stand around its separators ("1 @ S1:0"), as in the first token.
 */
static bool sweep_expr_fragment(const char *s, size_t n)
{
	return n && isdigit((unsigned char)s[0]) && strspn(s, "0123456789-:@ENSDCM \t") >= n;
}

/* Splits at commas; a placement "list:0,2,4-7" or "expr:S0:0,2" keeps its commas in one value. */
/* Length and allocated size of the list's last token while fragments extend it. */
struct sweep_last {
	size_t len, cap;
};

/* Appends ",frag" to the list's last token (a CPU list's "2" of list:0,2), growing it
 * geometrically: a copy of the token per fragment was quadratic (60,000 fragments: 14 s). */
static void sweep_join(struct sweep_list *toks, struct sweep_last *last, const char *frag, size_t n)
{
	if (toks->oom || !toks->n)
		return;
	char *tok = toks->v[toks->n - 1];
	if (last->len + n + 2 > last->cap) {
		size_t cap = 2 * (last->len + n + 2);
		sw_grows++;
		if (!(tok = realloc(tok, cap))) {
			toks->oom = true;
			return;
		}
		toks->v[toks->n - 1] = tok;
		last->cap = cap;
	}
	tok[last->len] = ',';
	memcpy(tok + last->len + 1, frag, n);
	last->len += n + 1;
	tok[last->len] = '\0';
}

static int sweep_split(const struct lab_param *p, const char *text, struct sweep_list *toks,
                       struct lab_err *err)
{
	const char *s = text;
	bool in_list = false, in_expr = false;
	struct sweep_last last = {0, 0};

	for (;;) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		const char *b = s, *e = s + n;
		while (b < e && isspace((unsigned char)*b))
			b++;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		if (b == e)
			return lab_err_set(err, LAB_ECONFIG,
			                   "empty value in the list (write values separated by "
			                   "commas, e.g. 1,2,4)");
		if ((in_list && sweep_cpu_fragment(b, (size_t)(e - b))) ||
		    (in_expr && sweep_expr_fragment(b, (size_t)(e - b)))) {
			sweep_join(toks, &last, b, (size_t)(e - b));
		} else {
			in_list = p->type == LAB_PT_STR && e - b > 5 && !strncmp(b, "list:", 5);
			in_expr = p->type == LAB_PT_STR && e - b > 5 && !strncmp(b, "expr:", 5);
			sweep_push(toks, b, (size_t)(e - b));
			last = (struct sweep_last){(size_t)(e - b), (size_t)(e - b) + 1};
		}
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

/* The value text of l's values as p formats them once read (threads = 01 is 1, size = 16384
 * is 16K), so that two ways of writing one value are one value; a value that does not read is
 * left for the planner to report. A double keeps its digits (the shortest text that reads back
 * the same). A placement stays as written: the planner's messages quote its grammar (in
 * 'E:S1:17': COUNT 17 runs past domain S1), its point records the canonical text, and
 * sweep_dedup compares that. A membind is its canonical text (node:00 is node:0). */
static void sweep_canon(const struct lab_param *p, struct sweep_list *l)
{
	char scratch[4096] __attribute__((aligned(16))), buf[256];
	struct lab_err err;

	if (p->offset + sizeof(uint64_t) + LAB_STR_MAX > sizeof(scratch))
		return;
	for (unsigned i = 0; i < l->n; i++) {
		char *copy;

		if (lab_param_parse(p, l->v[i], scratch, &err))
			continue;
		if (p->type == LAB_PT_DOUBLE) {
			double d;

			memcpy(&d, scratch + p->offset, sizeof(d));
			for (int prec = 15; prec <= 17; prec++)
				if (snprintf(buf, sizeof(buf), "%.*g", prec, d) > 0 &&
				    strtod(buf, NULL) == d)
					break;
		} else if (!strcmp(p->key, "placement")) {
			continue;
		} else if (!strcmp(p->key, "membind")) {
			lab_membind_canon(l->v[i], buf, sizeof(buf));
		} else {
			lab_param_format(p, scratch, buf, sizeof(buf));
		}
		if (strcmp(buf, l->v[i]) && (copy = strdup(buf))) {
			free(l->v[i]);
			l->v[i] = copy;
		}
	}
}

/* Drops the values l already had (first one kept): threads = 1, max on a 1-CPU machine, or
 * size = L1/2, 16384 where L1/2 is 16384, is one point, not the same point twice (a lesson
 * naming it would name two). Placements compare by their canonical text (list:0,1 is
 * list:0-1, expr:E:S0:4 is expr:S0:0-3: one order of CPUs, one point). */
static int sweep_dedup(const struct lab_param *p, struct sweep_list *l)
{
	bool placement = !strcmp(p->key, "placement");
	struct lab_strmap seen = {0};
	char **keys = calloc(l->n ? l->n : 1, sizeof(*keys));
	unsigned n = 0, at;
	int rc = keys ? 0 : -1;

	for (unsigned i = 0; i < l->n; i++) {
		char canon[256];
		const char *key = l->v[i];
		if (rc == 0 && placement) {
			lab_placement_canon(l->v[i], canon, sizeof(canon));
			if (!(key = keys[i] = strdup(canon)))
				rc = -1;
		}
		if (rc == 0 && lab_strmap_get(&seen, 0, key, &at)) {
			free(l->v[i]);
			continue;
		}
		if (rc == 0 && lab_strmap_put(&seen, 0, key, n))
			rc = -1; /* out of memory: the rest kept as given, the caller fails */
		l->v[n++] = l->v[i];
	}
	lab_strmap_free(&seen);
	if (keys)
		lab_sweep_free(keys, l->n);
	l->n = n;
	return rc;
}

/* Values lab_sweep_expand has made, by every call so far (a test's count of work). */
static unsigned long long sw_made;

unsigned long long lab_sweep_values_made(void)
{
	return sw_made;
}

unsigned long long lab_sweep_list_grows(void)
{
	return sw_grows;
}

int lab_sweep_count(const struct lab_param *p, const char *text, const struct lab_env *env,
                    uint64_t *count, struct lab_err *err)
{
	struct sweep_list toks = {0};
	struct sweep_bounds b;
	uint64_t n = 0;
	int rc = sweep_split(p, text, &toks, err);

	for (unsigned i = 0; rc == 0 && i < toks.n; i++) {
		uint64_t c = 1;
		if (sweep_numeric(p) && strstr(toks.v[i], ".."))
			rc = sweep_range_bounds(p, toks.v[i], env, &b, &c, err);
		n = c > UINT64_MAX - n ? UINT64_MAX : n + c;
	}
	if (rc == 0 && toks.oom)
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
	lab_sweep_free(toks.v, toks.n);
	if (rc == 0 && n > LAB_SWEEP_MAX)
		rc = lab_err_set(err, LAB_ECONFIG,
		                 "more than %d values (allowed at most %d values per key)",
		                 LAB_SWEEP_MAX, LAB_SWEEP_MAX);
	*count = rc ? 0 : n;
	return rc;
}

int lab_sweep_expand(const struct lab_param *p, const char *text, const struct lab_env *env,
                     char ***vals, struct lab_err *err)
{
	struct sweep_list toks = {0}, out = {0};
	char buf[64];
	uint64_t v;
	int rc = sweep_split(p, text, &toks, err);

	for (unsigned i = 0; rc == 0 && i < toks.n; i++) {
		const char *t = toks.v[i];
		int c = 0;
		if (sweep_numeric(p) && strstr(t, "..")) {
			rc = sweep_range(p, t, env, &out, err);
		} else if ((c = sweep_symbol(p, t, env, &v, err)) != 0) {
			rc = c < 0 ? c : 0;
			if (c > 0) {
				snprintf(buf, sizeof(buf), "%" PRIu64, v);
				sweep_push(&out, buf, strlen(buf));
			}
		} else if (p->type == LAB_PT_SIZE && (c = sweep_cache_size(t, env, &v, err)) != 0) {
			/* The value run.json and samples.csv carry is the size it came to here. */
			if (c < 0)
				rc = c;
			else {
				sweep_format(p, v, buf, sizeof(buf));
				sweep_push(&out, buf, strlen(buf));
			}
		} else {
			sweep_push(&out, t, strlen(t));
		}
		if (rc == 0 && out.n > LAB_SWEEP_MAX)
			rc = lab_err_set(err, LAB_ECONFIG,
			                 "more than %d values (allowed at most %d "
			                 "values per key)",
			                 LAB_SWEEP_MAX, LAB_SWEEP_MAX);
	}
	sw_made += out.n;
	if (rc == 0 && (toks.oom || out.oom))
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
	lab_sweep_free(toks.v, toks.n);
	if (rc) {
		lab_sweep_free(out.v, out.n);
		return rc;
	}
	sweep_canon(p, &out);
	if (sweep_dedup(p, &out)) {
		lab_sweep_free(out.v, out.n);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	*vals = out.v;
	return (int)out.n;
}

void lab_sweep_free(char **vals, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		free(vals[i]);
	free(vals);
}
