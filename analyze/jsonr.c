/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/jsonr.h"
#include "analyze/jsonr_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Levels of objects and arrays a document may nest (lab's own files need far fewer). */
#define AN_JSON_DEPTH_MAX 64
#define AN_JSON_STR_(x)   #x
#define AN_JSON_STR(x)    AN_JSON_STR_(x)
#define AN_JSON_DEPTH_STR AN_JSON_STR(AN_JSON_DEPTH_MAX)
/* Keys one object may hold: a key is found by a scan (lab_an_json_get), and 100,000 keys in an
 * experiment's object made each of its points' lookups cost 100,000 compares (7 s for 500
 * points). lab's own objects hold under 100 (a point's params at most 256). */
#define AN_JSON_KEYS_MAX 1024
#define AN_JSON_KEYS_STR AN_JSON_STR(AN_JSON_KEYS_MAX)

/* A parsed document: the root value, then the blocks of its text (jsonr_int.h). */
struct an_jdoc {
	struct lab_an_json root;
	struct lab__jblock *blocks; /* the one being filled first */
};

struct an_jp {
	struct an_jdoc *doc;
	const char *begin, *s, *end, *name;
	struct lab_err *err;
	int depth;
	size_t line;        /* of p->s, kept as it moves so each value knows its line in O(1) */
	size_t values, max; /* values parsed so far, and the most allowed */
	/* The items of the containers being read, innermost last, and the keys of the objects
	 * among them: a container's array is allocated once, at its size, when it closes (grown
	 * item by item, run.json's 100 000 points reallocated most of their objects' arrays
	 * twice). A large array takes the stack's own memory instead (an_jp_handover). */
	struct lab_an_json *stk;
	char **kstk;
	size_t nstk, cap, nk, kcap;
};

static int an_jp_fail(struct an_jp *p, const char *why)
{
	int line = 1;

	for (const char *c = p->begin; c < p->s && c < p->end; c++)
		line += *c == '\n';
	return lab_err_set(p->err, LAB_EDATA, "%s:%d: %s%s", p->name, line, why,
	                   strstr(why, "allowed") ? "" : ", allowed: JSON (RFC 8259)");
}

static void an_jp_ws(struct an_jp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->line += *p->s++ == '\n';
}

/* A string at p->s (its opening quote): its raw bytes up to the closing quote, none of them a
 * control byte, then their escapes decoded into the document's text. */
static int an_jp_string(struct an_jp *p, char **out)
{
	const char *start = ++p->s, *why;
	int rc;

	while (p->s < p->end && *p->s != '"') {
		if ((unsigned char)*p->s < 0x20) /* RFC 8259: escaped, or a reader could split it */
			return an_jp_fail(p,
			                  "a control byte in a string (allowed: escaped, as \\n or "
			                  "\\u00XX)");
		p->s += *p->s == '\\' && p->s + 1 < p->end ? 2 : 1; /* never past the end */
	}
	if (p->s >= p->end)
		return an_jp_fail(p, "unterminated string");
	rc = lab__jtext_decode(&p->doc->blocks, &start, p->end, (size_t)(p->s - start), out, &why);
	p->s = start;
	if (rc == -2)
		return lab_err_set(p->err, LAB_ENOMEM, "%s: out of memory", p->name);
	return rc ? an_jp_fail(p, why) : 0;
}

/* The length of the digits at s (before end). */
static size_t an_jp_digits(const char *s, const char *end)
{
	size_t k = 0;

	while (s + k < end && s[k] >= '0' && s[k] <= '9')
		k++;
	return k;
}

/* The length of the JSON number at s (RFC 8259: -? (0 | [1-9][0-9]*) (.[0-9]+)?
 * ([eE][+-]?[0-9]+)?), 0 when none starts there ("+5", "05", "5.", ".5" are none). */
static size_t an_jp_number_len(const char *s, const char *end)
{
	size_t k = s < end && *s == '-', d;

	if (s + k >= end || !(d = an_jp_digits(s + k, end)) || (s[k] == '0' && d > 1))
		return 0;
	k += d;
	if (s + k < end && s[k] == '.') {
		if (!(d = an_jp_digits(s + k + 1, end)))
			return 0;
		k += 1 + d;
	}
	if (s + k < end && (s[k] == 'e' || s[k] == 'E')) {
		k += s + k + 1 < end && (s[k + 1] == '+' || s[k + 1] == '-') ? 2 : 1;
		if (!(d = an_jp_digits(s + k, end)))
			return 0;
		k += d;
	}
	return k;
}

/* Whether a number's digits before its exponent hold one other than 0. */
static int an_jp_nonzero_mantissa(const char *text)
{
	for (; *text && *text != 'e' && *text != 'E'; text++)
		if (*text >= '1' && *text <= '9')
			return 1;
	return 0;
}

static int an_jp_number(struct an_jp *p, struct lab_an_json *v)
{
	size_t k = an_jp_number_len(p->s, p->end);
	char tmp[64], *text = k < sizeof(tmp) ? tmp : malloc(k + 1);

	if (!k)
		return an_jp_fail(p, "bad number");
	if (!text)
		return lab_err_set(p->err, LAB_ENOMEM, "out of memory");
	memcpy(text, p->s, k);
	text[k] = '\0';
	v->type = LAB_AN_JSON_NUM;
	v->num = strtod(text, NULL); /* the whole text: the grammar is strtod's too */
	/* 1e-400 read as 0 made an exit code of 0 out of no whole number, 1e400 an infinity */
	int lost = isinf(v->num) || (v->num == 0 && an_jp_nonzero_mantissa(text));
	if (text != tmp)
		free(text);
	if (lost)
		return an_jp_fail(p, "number outside a double's range (allowed: a magnitude up to "
		                     "1.7e308, and from 4.9e-324 unless 0)");
	p->s += k;
	return 0;
}

static int an_jp_value(struct an_jp *p, struct lab_an_json *v);

/* Per thread, so counting needs no atomics and the analyzer stays free of shared state. */
static _Thread_local unsigned long long an_json_compares, an_json_key_compares;

/* The keys of one object and their order in it, sorted by key then order: a repeated key
 * follows its first occurrence. */
struct an_jp_key {
	const char *key;
	size_t i;
};

static int an_jp_key_cmp(const void *a, const void *b)
{
	const struct an_jp_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	an_json_key_compares++;
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The object v just read names each key once: a key twice is read as its first value here and
 * as its last by most other readers (Python's json), so the two would disagree on the data.
 * Sorted, so an object of n keys costs n log n compares, never n^2; of several repeats the one
 * met first in the document is named. */
static int an_jp_dupkeys(struct an_jp *p, const struct lab_an_json *v)
{
	struct an_jp_key small[32], *k = small; /* most objects: no allocation */
	size_t again = (size_t)-1, first = 0;

	if (v->n < 2)
		return 0;
	if (v->n > sizeof(small) / sizeof(small[0]) && !(k = malloc(v->n * sizeof(*k))))
		return lab_err_set(p->err, LAB_ENOMEM, "%s: out of memory", p->name);
	for (size_t i = 0; i < v->n; i++)
		k[i] = (struct an_jp_key){v->keys[i], i};
	qsort(k, v->n, sizeof(*k), an_jp_key_cmp);
	for (size_t i = 1; i < v->n; i++) {
		an_json_key_compares++;
		if (!strcmp(k[i - 1].key, k[i].key) && k[i].i < again) {
			again = k[i].i;
			first = k[i - 1].i;
		}
	}
	if (k != small)
		free(k);
	if (again == (size_t)-1)
		return 0;
	return lab_err_set(p->err, LAB_EDATA,
	                   "%s:%u: key \"%.64s\" again in one object (first at line %u), "
	                   "allowed: each key once",
	                   p->name, v->items[again].line, v->keys[again], v->items[first].line);
}

static void an_json_free_items(struct lab_an_json *j);

/* Pushes one item on p's stack, and its key when it is an object's (obj); on failure frees
 * the item (its key's text is the document's). */
static int an_jp_push(struct an_jp *p, int obj, char *key, struct lab_an_json *item)
{
	if (lab_an_grow(&p->stk, &p->cap, p->nstk + 1, sizeof(*p->stk)) ||
	    (obj && lab_an_grow(&p->kstk, &p->kcap, p->nk + 1, sizeof(*p->kstk)))) {
		an_json_free_items(item);
		return lab_err_set(p->err, LAB_ENOMEM, "out of memory");
	}
	p->stk[p->nstk++] = *item;
	if (obj)
		p->kstk[p->nk++] = key;
	return 0;
}

/* An array of n items above base, the most of the stack: the stack's memory becomes the
 * array's (the items moved down, the block cut to their size) and what lay below base a new,
 * small stack. Copied into an array of its own, a document's one array of 16 million values
 * held them twice at its close (the stack and the copy: 2 GB for a 33 MB file). Returns 0, or
 * -1 when the small stack cannot be had (the caller copies instead). */
static int an_jp_handover(struct an_jp *p, struct lab_an_json *v, size_t base, size_t n)
{
	size_t keep = base ? base : 1;
	struct lab_an_json *rest = malloc(keep * sizeof(*rest)), *items;

	if (!rest)
		return -1;
	memcpy(rest, p->stk, base * sizeof(*rest));
	memmove(p->stk, p->stk + base, n * sizeof(*p->stk));
	items = realloc(p->stk, n * sizeof(*items));
	v->items = items ? items : p->stk;
	v->n = n;
	p->stk = rest;
	p->cap = keep;
	p->nstk = base;
	return 0;
}

/* Moves the items above base off the stack into v (its keys, from kbase on, too when obj), at
 * their size; on failure frees them instead. */
static int an_jp_pop(struct an_jp *p, struct lab_an_json *v, size_t base, size_t kbase, int obj)
{
	size_t n = p->nstk - base;

	if (!n)
		return 0;
	if (!obj && n >= 4096 && base <= n / 4 && !an_jp_handover(p, v, base, n))
		return 0;
	v->items = malloc(n * sizeof(*v->items));
	v->keys = obj ? malloc(n * sizeof(*v->keys)) : NULL;
	if (!v->items || (obj && !v->keys)) {
		free(v->items);
		free(v->keys);
		v->items = NULL;
		v->keys = NULL;
		for (; p->nstk > base; p->nstk--)
			an_json_free_items(&p->stk[p->nstk - 1]);
		p->nk = obj ? kbase : p->nk;
		return lab_err_set(p->err, LAB_ENOMEM, "out of memory");
	}
	memcpy(v->items, p->stk + base, n * sizeof(*v->items));
	if (obj)
		memcpy(v->keys, p->kstk + kbase, n * sizeof(*v->keys));
	v->n = n;
	p->nstk = base;
	if (obj)
		p->nk = kbase;
	return 0;
}

/* One key (of an object) and value of a container onto the stack. Whatever was read is
 * pushed even on failure, so that the tree being freed holds it. */
static int an_jp_item(struct an_jp *p, char close)
{
	struct lab_an_json item;
	char *key = NULL;
	int rc = 0;

	memset(&item, 0, sizeof(item));
	if (close == '}') {
		an_jp_ws(p);
		if (p->s >= p->end || *p->s != '"')
			return an_jp_fail(p, "expected a key string");
		if ((rc = an_jp_string(p, &key)))
			return rc;
		an_jp_ws(p);
		if (p->s >= p->end || *p->s != ':')
			rc = an_jp_fail(p, "expected ':'");
		else
			p->s++;
	}
	if (!rc)
		rc = an_jp_value(p, &item);
	return an_jp_push(p, close == '}', key, &item) ? -LAB_ENOMEM : rc;
}

static int an_jp_container(struct an_jp *p, struct lab_an_json *v, char close)
{
	size_t base = p->nstk, kbase = p->nk;
	int rc;

	v->type = close == '}' ? LAB_AN_JSON_OBJ : LAB_AN_JSON_ARR;
	p->s++;
	if (++p->depth > AN_JSON_DEPTH_MAX)
		return an_jp_fail(
		    p, "objects and arrays nested too deeply (allowed at most " AN_JSON_DEPTH_STR
		       " levels)");
	an_jp_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		p->depth--;
		return 0;
	}
	for (;;) {
		if ((rc = an_jp_item(p, close)))
			break;
		if (close == '}' && p->nstk - base > AN_JSON_KEYS_MAX) {
			rc = an_jp_fail(
			    p, "more than " AN_JSON_KEYS_STR " keys in one object (allowed "
			       "at most " AN_JSON_KEYS_STR "; lab's files hold under 100)");
			break;
		}
		an_jp_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			p->depth--;
			break;
		}
		rc = an_jp_fail(p, "expected ',' or a closing bracket");
		break;
	}
	if (an_jp_pop(p, v, base, kbase, close == '}'))
		return -LAB_ENOMEM;
	return rc ? rc : close == '}' ? an_jp_dupkeys(p, v) : 0;
}

static int an_jp_word(struct an_jp *p, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, w, n))
		return an_jp_fail(p, "unexpected character");
	p->s += n;
	return 0;
}

static int an_jp_value(struct an_jp *p, struct lab_an_json *v)
{
	an_jp_ws(p);
	v->line = p->line;
	if (p->s >= p->end)
		return an_jp_fail(p, "unexpected end of document");
	if (++p->values > p->max)
		return lab_err_set(p->err, LAB_EDATA,
		                   "%s:%zu: more than %zu JSON values, allowed: at most that many "
		                   "(%zu bytes each once read)",
		                   p->name, p->line, p->max, sizeof(struct lab_an_json));
	switch (*p->s) {
	case '{':
		return an_jp_container(p, v, '}');
	case '[':
		return an_jp_container(p, v, ']');
	case '"':
		v->type = LAB_AN_JSON_STR;
		return an_jp_string(p, &v->str);
	case 't':
		v->type = LAB_AN_JSON_BOOL;
		v->num = 1;
		return an_jp_word(p, "true");
	case 'f':
		v->type = LAB_AN_JSON_BOOL;
		return an_jp_word(p, "false");
	case 'n':
		v->type = LAB_AN_JSON_NULL;
		return an_jp_word(p, "null");
	default:
		break;
	}
	return an_jp_number(p, v);
}

/* Frees the arrays below j; the text of its strings and keys is the document's. */
static void an_json_free_items(struct lab_an_json *j)
{
	if (j->type != LAB_AN_JSON_ARR && j->type != LAB_AN_JSON_OBJ)
		return; /* str, where items would be, is in the text blocks */
	for (size_t i = 0; i < j->n; i++)
		an_json_free_items(&j->items[i]);
	free(j->items);
	free(j->keys);
}

void lab_an_json_free(struct lab_an_json *j)
{
	struct an_jdoc *d = (struct an_jdoc *)j; /* the root is a document's first member */

	if (!j)
		return;
	an_json_free_items(j);
	lab__jtext_free(d->blocks);
	free(d);
}

int lab_an_json_parse(const char *name, const char *text, size_t len, struct lab_an_json **out,
                      struct lab_err *err)
{
	return lab_an_json_parse_max(name, text, len, LAB_AN_JSON_VALUES_MAX, out, err);
}

_Static_assert(LAB_AN_JSON_VALUES_MAX < ((size_t)1 << 29), "a container's n has 29 bits");

int lab_an_json_parse_max(const char *name, const char *text, size_t len, size_t max_values,
                          struct lab_an_json **out, struct lab_err *err)
{
	struct an_jdoc *d = calloc(1, sizeof(*d));
	struct an_jp p = {.doc = d,
	                  .begin = text,
	                  .s = text,
	                  .end = text + len,
	                  .name = name,
	                  .err = err,
	                  .line = 1,
	                  /* a container's n has 29 bits */
	                  .max = max_values < LAB_AN_JSON_VALUES_MAX ? max_values
	                                                             : LAB_AN_JSON_VALUES_MAX};
	struct lab_an_json *j = d ? &d->root : NULL;
	int rc;

	/* A UTF-8 byte order mark (editors on Windows add one) is not part of the document. */
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		p.s += 3;
	*out = NULL;
	if (!j)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	rc = an_jp_value(&p, j);
	if (!rc) {
		an_jp_ws(&p);
		if (p.s != p.end)
			rc = an_jp_fail(&p, "trailing characters after the document");
	}
	free(p.stk); /* empty: each container took its items off */
	free(p.kstk);
	if (rc) {
		lab_an_json_free(j);
		return rc;
	}
	*out = j;
	return 0;
}

unsigned long long lab_an_json_compares(void)
{
	return an_json_compares;
}

unsigned long long lab_an_json_key_compares(void)
{
	return an_json_key_compares;
}

const struct lab_an_json *lab_an_json_get(const struct lab_an_json *j, const char *key)
{
	size_t i;

	if (!j || j->type != LAB_AN_JSON_OBJ)
		return NULL;
	for (i = 0; i < j->n && strcmp(j->keys[i], key); i++)
		;
	an_json_compares += i < j->n ? i + 1 : i;
	return i < j->n ? &j->items[i] : NULL;
}

const char *lab_an_json_str(const struct lab_an_json *j, const char *key)
{
	const struct lab_an_json *v = lab_an_json_get(j, key);

	return v && v->type == LAB_AN_JSON_STR ? v->str : NULL;
}

double lab_an_json_num(const struct lab_an_json *j, const char *key, double dflt)
{
	const struct lab_an_json *v = lab_an_json_get(j, key);

	return v && v->type == LAB_AN_JSON_NUM ? v->num : dflt;
}
