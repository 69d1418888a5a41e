/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Readers and loaders: JSON, CSV, results directories (fixtures) and external CSV. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/compare.h"
#include "analyze/csv.h"
#include "analyze/data.h"
#include "analyze/data_int.h"
#include "analyze/err.h"
#include "analyze/jsonr.h"
#include "tests/testlib.h"

#include <math.h>
#include <stdlib.h>

static char io_path[1024];

static const char *fixture(const char *name)
{
	snprintf(io_path, sizeof(io_path), "%s/tests/fixtures/%s", testlib_srcdir(), name);
	return io_path;
}

static const struct lab_an_series *io_series(const struct lab_an_analysis *a, const char *exp,
                                             const char *params)
{
	for (size_t i = 0; i < a->ns; i++)
		if (!strcmp(a->s[i].experiment, exp) &&
		    (!params || !strcmp(a->s[i].params, params)))
			return &a->s[i];
	return NULL;
}

LAB_TEST(json_reader)
{
	static const char doc[] =
	    "{\"a\": [1, 2.5e3, -0.5], \"s\": \"x\\\"y\\u00e9\\ud83d\\ude00\","
	    " \"o\": {\"t\": true, \"n\": null}}";
	struct lab_an_json *j;
	struct lab_err err = {0};
	const struct lab_an_json *a;

	REQUIRE(lab_an_json_parse("doc", doc, strlen(doc), &j, &err) == 0);
	a = lab_an_json_get(j, "a");
	REQUIRE(a && a->type == LAB_AN_JSON_ARR && a->n == 3);
	CHECK_NEAR(a->items[1].num, 2500, 0);
	CHECK_EQ_STR(lab_an_json_str(j, "s"), "x\"y\xc3\xa9\xf0\x9f\x98\x80");
	CHECK(lab_an_json_get(lab_an_json_get(j, "o"), "t")->num == 1);
	CHECK(lab_an_json_get(lab_an_json_get(j, "o"), "n")->type == LAB_AN_JSON_NULL);
	CHECK(lab_an_json_get(j, "missing") == NULL);
	lab_an_json_free(j);
	CHECK(lab_an_json_parse("bad.json", "{\n\"a\": [1,\n}", 12, &j, &err) < 0);
	CHECK(strstr(err.msg, "bad.json:3:") != NULL);
	CHECK(lab_an_json_parse("t", "[1] x", 5, &j, &err) < 0);
	CHECK(lab_an_json_parse("t", "\"abc", 4, &j, &err) < 0);
	/* "vm\u0000evil" was read as "vm": a NUL is refused where it stands */
	CHECK(lab_an_json_parse("r.json", "{\n\"h\": \"vm\\u0000evil\"}", 22, &j, &err) < 0);
	CHECK_EQ_STR(err.msg, "r.json:2: \\u0000 in a string (allowed: no NUL)");
}

/* Strings as RFC 8259 writes them: a raw newline or ESC, an unknown escape and half a surrogate
 * pair were read (the last as bytes that are no UTF-8), each refused now with its line. */
LAB_TEST(json_strings_rfc8259)
{
	static const struct {
		const char *doc, *why;
	} bad[] = {
	    {"{\n\"h\": \"a\nb\"}", "r.json:2: a control byte in a string"},
	    {"{\n\"h\": \"a\x1b[2Jb\"}", "r.json:2: a control byte in a string"},
	    {"{\n\"h\": \"a\tb\"}", "r.json:2: a control byte in a string"},
	    {"{\n\"h\": \"a\\qb\"}", "r.json:2: a bad escape in a string"},
	    {"{\n\"h\": \"a\\\nb\"}", "r.json:2: a bad escape in a string"},
	    {"{\n\"h\": \"a\\ud800b\"}", "r.json:2: a lone surrogate"},
	    {"{\n\"h\": \"a\\udc00\"}", "r.json:2: a lone surrogate"},
	    {"{\n\"h\": \"a\\ud800\\u0041\"}", "r.json:2: bad \\u escape"},
	};
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = 0;
		CHECK(lab_an_json_parse("r.json", bad[i].doc, strlen(bad[i].doc), &j, &err) ==
		      -LAB_EDATA);
		CHECK(j == NULL);
		if (strncmp(err.msg, bad[i].why, strlen(bad[i].why)))
			TL__FAIL("case %zu: %s, want %s...", i, err.msg, bad[i].why);
	}
	/* the escapes RFC 8259 has, and bytes >= 0x20 as they are */
	static const char good[] = "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\x7f\xc3\xa9\"]";
	REQUIRE(lab_an_json_parse("r.json", good, strlen(good), &j, &err) == 0);
	CHECK_EQ_STR(j->items[0].str, "\"\\/\b\f\n\r\t\x7f\xc3\xa9");
	lab_an_json_free(j);
}

/* Numbers as RFC 8259 writes them, no other: "+5", "05", "5.", ".5e1" were read as 5 (Python's
 * json refuses them); a valid number longer than 63 characters was refused. */
LAB_TEST(json_numbers_rfc8259)
{
	static const char *const bad[] = {"[+5]", "[05]", "[5.]", "[.5e1]", "[1e]", "[1e+]", "[-]",
	                                  "[--1]", "[0x10]", "[1.e3]", "[-01]", "[Infinity]",
	                                  /* outside a double: read as 0 or an infinity */
	                                  "[1e-400]", "[-0.0001e-330]", "[1e400]", "[-2e308]"};
	static const char *const good[] = {"[0]",        "[-0]",    "[5]",       "[0.5]",
	                                   "[1e3]",      "[1E+3]",  "[-1.5e-3]", "[0e999]",
	                                   "[0.0e-400]", "[5e-324]"};
	static const double val[] = {0, 0, 5, 0.5, 1000, 1000, -1.5e-3, 0, 0, 5e-324};
	char longnum[200];
	struct lab_an_json *j;
	struct lab_err err = {0};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (lab_an_json_parse("n.json", bad[i], strlen(bad[i]), &j, &err) == 0) {
			fprintf(stderr, "%s read\n", bad[i]);
			testlib_fail();
			lab_an_json_free(j);
		}
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		REQUIRE(lab_an_json_parse("n.json", good[i], strlen(good[i]), &j, &err) == 0);
		CHECK_NEAR(j->items[0].num, val[i], 0);
		lab_an_json_free(j);
	}
	/* 1 and 100 zeros: 1e100 */
	snprintf(longnum, sizeof(longnum), "[1%0100d]", 0);
	REQUIRE(lab_an_json_parse("n.json", longnum, strlen(longnum), &j, &err) == 0);
	CHECK_NEAR(j->items[0].num, 1e100, 1e85);
	lab_an_json_free(j);
}

/* A container's arrays are allocated once, at its size, when it closes: grown item by item
 * from 8, run.json's 100 000 point objects of 9 .. 16 keys each took two reallocations and up
 * to twice their room. malloc_usable_size tells the room (glibc and the sanitizers have it). */
LAB_TEST(json_containers_at_their_size)
{
	static const char doc[] = "{\"k1\": 1, \"k2\": 2, \"k3\": 3, \"k4\": 4, \"k5\": 5,\n"
	                          " \"k6\": 6, \"k7\": 7, \"k8\": 8,\n"
	                          " \"a\": [1, 2, 3, 4, 5, 6, 7, 8, [9, {\"x\": \"y\"}]]}";
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};
	const struct lab_an_json *a, *in;

	REQUIRE(lab_an_json_parse("doc", doc, strlen(doc), &j, &err) == 0);
	REQUIRE(j->n == 9 && j->keys);
	CHECK(malloc_usable_size(j->items) < 16 * sizeof(*j->items));
	CHECK(malloc_usable_size(j->keys) < 16 * sizeof(*j->keys));
	a = lab_an_json_get(j, "a");
	REQUIRE(a && a->type == LAB_AN_JSON_ARR && a->n == 9 && !a->keys);
	CHECK(malloc_usable_size(a->items) < 16 * sizeof(*a->items));
	CHECK_EQ_U64(a->line, 3);
	CHECK(a->items[7].num == 8);
	in = &a->items[8];
	REQUIRE(in->type == LAB_AN_JSON_ARR && in->n == 2);
	CHECK(in->items[0].num == 9);
	CHECK_EQ_STR(lab_an_json_str(&in->items[1], "x"), "y");
	CHECK(lab_an_json_num(j, "k8", -1) == 8);
	lab_an_json_free(j);
	/* cut inside nested containers: refused, nothing kept (the sanitizers see any leak) */
	CHECK(lab_an_json_parse("cut.json", doc, strlen(doc) - 6, &j, &err) == -LAB_EDATA);
	CHECK(j == NULL);
	CHECK(lab_an_json_parse("t", "{\"a\": [1, {\"b\": 2} 3]}", 22, &j, &err) == -LAB_EDATA);
	CHECK(lab_an_json_parse("t", "{\"a\": [1], \"b\" 2}", 17, &j, &err) == -LAB_EDATA);
	CHECK_EQ_STR(err.msg, "t:1: expected ':', allowed: JSON (RFC 8259)");
}

/* A large array takes the parser's stack as its own block (the stack and a copy held 16 million
 * values twice at the array's close): its items and their order, the keys of the object around
 * it, an array of arrays, and a document cut inside the large array (refused, nothing leaked;
 * the sanitizers see leaks). */
LAB_TEST(json_large_array_takes_the_stack)
{
	size_t cap = 1 << 20, len = 0;
	char *doc = malloc(cap);
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};
	const struct lab_an_json *big, *aa;

	REQUIRE(doc);
	len += (size_t)snprintf(doc + len, cap - len, "{\"k1\": 1, \"big\": [");
	for (int i = 0; i < 20000; i++)
		len += (size_t)snprintf(doc + len, cap - len,
		                        i % 3 == 0   ? "%s%d"
		                        : i % 3 == 1 ? "%s\"s%d\""
		                                     : "%s{\"x\": %d}",
		                        i ? ", " : "", i);
	len += (size_t)snprintf(doc + len, cap - len, "], \"k2\": \"z\", \"aa\": [[");
	for (int i = 0; i < 9000; i++)
		len += (size_t)snprintf(doc + len, cap - len, "%s%d", i ? ", " : "", i);
	len += (size_t)snprintf(doc + len, cap - len, "], 7]}");
	REQUIRE(len < cap - 1);
	REQUIRE(lab_an_json_parse("doc", doc, len, &j, &err) == 0);
	REQUIRE(j->n == 4 && j->keys);
	CHECK_EQ_STR(j->keys[0], "k1");
	CHECK_EQ_STR(j->keys[2], "k2");
	CHECK_EQ_STR(lab_an_json_str(j, "k2"), "z");
	big = lab_an_json_get(j, "big");
	REQUIRE(big && big->type == LAB_AN_JSON_ARR && big->n == 20000 && !big->keys);
	/* its size, not the stack's doubled capacity (32768 items): a block this large is mapped,
	 * so its size is rounded up to a page */
	CHECK(malloc_usable_size(big->items) < (20000 + 64) * sizeof(*big->items) + 4096);
	for (int i = 0; i < 20000; i++) {
		const struct lab_an_json *x = &big->items[i];
		char want[32];

		snprintf(want, sizeof(want), "s%d", i);
		if (i % 3 == 0   ? x->num != i
		    : i % 3 == 1 ? x->type != LAB_AN_JSON_STR || strcmp(x->str, want)
		                 : lab_an_json_num(x, "x", -1) != i) {
			TL__FAIL("big[%d] is not what was written", i);
			break;
		}
	}
	aa = lab_an_json_get(j, "aa");
	REQUIRE(aa && aa->n == 2 && aa->items[0].n == 9000);
	CHECK(aa->items[0].items[8999].num == 8999 && aa->items[1].num == 7);
	lab_an_json_free(j);
	CHECK(lab_an_json_parse("cut.json", doc, len / 2, &j, &err) == -LAB_EDATA);
	CHECK(j == NULL);
	free(doc);
}

/* Strings and keys share the document's text blocks (64 KiB each): 30,000 of them fill several
 * blocks, one of 100 KiB (longer than a block) sits between them in a block of its own, and
 * escapes decode shorter than they are written; each reads back as written. */
LAB_TEST(json_strings_in_text_blocks)
{
	size_t cap = 2u << 20, len = 0, big = 100u << 10;
	char *doc = malloc(cap), want[64];
	const struct lab_an_json *a, *x;
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};

	REQUIRE(doc != NULL);
	len += (size_t)snprintf(doc, cap, "{\"a\": [");
	for (int i = 0; i < 30000; i++) {
		if (i == 15000) {
			len += (size_t)snprintf(doc + len, cap - len, ", \"");
			memset(doc + len, 'b', big);
			len += big;
			len += (size_t)snprintf(doc + len, cap - len, "\"");
		}
		len += (size_t)snprintf(doc + len, cap - len, "%s{\"k%d\": \"v\\u00e9%d\"}",
		                        i ? ", " : "", i, i);
	}
	len += (size_t)snprintf(doc + len, cap - len, "]}");
	REQUIRE(len < cap - 1);
	REQUIRE(lab_an_json_parse("doc", doc, len, &j, &err) == 0);
	a = lab_an_json_get(j, "a");
	REQUIRE(a && a->n == 30001);
	x = &a->items[15000];
	REQUIRE(x->type == LAB_AN_JSON_STR && strlen(x->str) == big);
	CHECK(x->str[0] == 'b' && x->str[big - 1] == 'b');
	for (size_t i = 0, k = 0; i < a->n; i++) {
		if (i == 15000)
			continue;
		x = &a->items[i];
		snprintf(want, sizeof(want), "k%zu", k);
		if (x->n != 1 || strcmp(x->keys[0], want)) {
			TL__FAIL("a[%zu]'s key is not %s", i, want);
			break;
		}
		snprintf(want, sizeof(want), "v\xc3\xa9%zu", k++);
		if (x->items[0].type != LAB_AN_JSON_STR || strcmp(x->items[0].str, want)) {
			TL__FAIL("a[%zu]'s value is not %s", i, want);
			break;
		}
	}
	lab_an_json_free(j);
	free(doc);
}

/* A document's values are counted as they are parsed: a hand-made run.json of 100 MB of "0,"
 * took 3.3 GB of tree before; past the limit it is refused with the line, whatever the file. */
LAB_TEST(json_value_limit)
{
	static const char doc[] = "{\"a\": [1,\n 2, 3]}"; /* 5 values: object, array, 3 numbers */
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};

	REQUIRE(lab_an_json_parse_max("run.json", doc, strlen(doc), 5, &j, &err) == 0);
	lab_an_json_free(j);
	CHECK(lab_an_json_parse_max("run.json", doc, strlen(doc), 4, &j, &err) == -LAB_EDATA);
	CHECK(j == NULL);
	CHECK_EQ_STR(err.msg, "run.json:2: more than 4 JSON values, allowed: at most that many "
	                      "(32 bytes each once read)");
	CHECK(LAB_AN_JSON_VALUES_MAX * sizeof(struct lab_an_json) <= ((size_t)1 << 30));
}

/* Nesting past the reader's limit is one error that says the limit: "nested too deeply" alone
 * did not say what a file may hold. */
LAB_TEST(json_depth_limit_says_what_is_allowed)
{
	char doc[200];
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};

	memset(doc, '[', 65);
	memset(doc + 65, ']', 65);
	doc[130] = '\0';
	CHECK_EQ_I64(lab_an_json_parse("run.json", doc, strlen(doc), &j, &err), -LAB_EDATA);
	CHECK(j == NULL);
	CHECK_EQ_STR(err.msg,
	             "run.json:1: objects and arrays nested too deeply (allowed at most 64 "
	             "levels)");
	REQUIRE(lab_an_json_parse("run.json", doc + 1, 128, &j, &err) == 0); /* 64 levels */
	lab_an_json_free(j);
}

/* A key twice in one object (at any depth) is an error with the line of the second: this
 * reader kept the first value where Python's json keeps the last. Keys of different objects may
 * repeat. */
LAB_TEST(json_repeated_key_refused)
{
	static const char *const bad[][2] = {
	    {"{\"a\": 1,\n\"b\": 2,\n\"a\": 3}", "run.json:3: key \"a\" again in one object "
	                                         "(first at line 1), allowed: each key once"},
	    {"{\"x\": [{\"k\": 1, \"k\": 1}]}", "run.json:1: key \"k\" again"},
	    {"{\"experiments\": [],\n \"status\": \"complete\",\n \"experiments\": [1]}",
	     "run.json:3: key \"experiments\" again"},
	    {"{\"\": 1, \"\": 2}", "key \"\" again"},
	};
	static const char ok[] = "{\"a\": {\"k\": 1}, \"b\": {\"k\": 2}, \"k\": [{\"k\": 3}]}";
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ_I64(lab_an_json_parse("run.json", bad[i][0], strlen(bad[i][0]), &j, &err),
		             -LAB_EDATA);
		CHECK(j == NULL);
		if (!strstr(err.msg, bad[i][1]))
			TL__FAIL("'%s': message '%s' lacks '%s'", bad[i][0], err.msg, bad[i][1]);
	}
	REQUIRE(lab_an_json_parse("run.json", ok, strlen(ok), &j, &err) == 0);
	lab_an_json_free(j);
}

/* One object of n distinct keys: the check for repeated keys makes O(n log n) compares (an
 * object of 50,000 keys must not cost 50,000^2; objects are now refused past 1024 keys, so the
 * growth is measured below that). */
static unsigned long long io_key_compares(size_t n)
{
	size_t cap = 32 * n + 16, used = 0;
	char *doc = malloc(cap);
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};
	unsigned long long before;

	if (!doc)
		return 0;
	used += (size_t)snprintf(doc, cap, "{");
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(doc + used, cap - used, "%s\"k%zu\": %zu", i ? ", " : "",
		                         (i * 7919) % n, i);
	snprintf(doc + used, cap - used, "}");
	before = lab_an_json_key_compares();
	if (lab_an_json_parse("run.json", doc, strlen(doc), &j, &err))
		before =
		    lab_an_json_key_compares(); /* no object read: 0 compares, and CHECK fails */
	before = lab_an_json_key_compares() - before;
	lab_an_json_free(j);
	free(doc);
	return before;
}

LAB_TEST(json_repeated_key_check_n_log_n)
{
	unsigned long long a = io_key_compares(256), b = io_key_compares(1024);

	fprintf(stderr, "key compares: %llu at 256 keys, %llu at 1024\n", a, b);
	CHECK(a > 0);
	CHECK(b < 6 * a); /* n log n: about 4.6x; n^2 would be 16x */
}

/* Past 1024 keys an object is refused: lab_an_json_get finds a key by a scan, and 100,000 keys
 * in one experiment's object made the analysis of its 500 points take 7 s (0.2 s without). */
LAB_TEST(json_object_key_limit)
{
	size_t cap = 16 * 1100 + 16, used = 0;
	char *doc = malloc(cap);
	struct lab_an_json *j = NULL;
	struct lab_err err = {0};

	REQUIRE(doc);
	for (size_t n = 1024; n <= 1025; n++) {
		used = (size_t)snprintf(doc, cap, "{");
		for (size_t i = 0; i < n; i++)
			used += (size_t)snprintf(doc + used, cap - used, "%s\"k%zu\": 0",
			                         i ? ", " : "", i);
		snprintf(doc + used, cap - used, "}");
		int rc = lab_an_json_parse("run.json", doc, strlen(doc), &j, &err);
		if (n == 1024) {
			CHECK_EQ_I64(rc, 0);
			lab_an_json_free(j);
		} else {
			CHECK_EQ_I64(rc, -LAB_EDATA);
			CHECK_EQ_STR(err.msg,
			             "run.json:1: more than 1024 keys in one object (allowed at "
			             "most 1024; lab's files hold under 100)");
		}
	}
	free(doc);
}

LAB_TEST(csv_reader_quotes)
{
	char *path = lab_an_asprintf("%s/q.csv", testlib_tmpdir());
	FILE *f = fopen(path, "w");
	struct lab_an_csv r;
	struct lab_err err = {0};

	REQUIRE(f);
	fputs("a,b,c\r\n\"x,1\",\"say \"\"hi\"\"\",\"k=v;k2=v2\"\n\n3,,\"multi\nline\"\nlast,1", f);
	fclose(f);
	REQUIRE(lab_an_csv_open(&r, path, &err) == 0);
	REQUIRE(lab_an_csv_next(&r, &err) == 1);
	CHECK_EQ_U64(r.nfield, 3);
	CHECK_EQ_STR(r.field[2], "c");
	REQUIRE(lab_an_csv_next(&r, &err) == 1);
	CHECK_EQ_STR(r.field[0], "x,1");
	CHECK_EQ_STR(r.field[1], "say \"hi\"");
	CHECK_EQ_STR(r.field[2], "k=v;k2=v2");
	CHECK_EQ_U64(r.line, 2);
	REQUIRE(lab_an_csv_next(&r, &err) == 1);
	CHECK_EQ_U64(r.line, 4);
	CHECK_EQ_STR(r.field[1], "");
	CHECK_EQ_STR(r.field[2], "multi\nline");
	REQUIRE(lab_an_csv_next(&r, &err) == 1);
	CHECK_EQ_U64(r.line, 6);
	CHECK(!r.complete);
	CHECK(lab_an_csv_next(&r, &err) == 0);
	lab_an_csv_close(&r);
	free(path);
}

/* A file is read as far as its size when opened: what is appended while it is read is not
 * (yes >> samples.csv kept the analyzer reading, its memory growing with the file). */
LAB_TEST(csv_reader_stops_at_size_when_opened)
{
	char *path = lab_an_asprintf("%s/g.csv", testlib_tmpdir());
	FILE *f = fopen(path, "w");
	struct lab_an_csv r;
	struct lab_err err = {0};
	size_t rows = 0;

	REQUIRE(f);
	fputs("a,b\n1,2\n3,4\n", f);
	fclose(f);
	REQUIRE(lab_an_csv_open(&r, path, &err) == 0);
	f = fopen(path, "a");
	REQUIRE(f);
	for (int i = 0; i < 100000; i++) /* past the first chunk the reader takes */
		fputs("5,6\n", f);
	fclose(f);
	while (lab_an_csv_next(&r, &err) == 1)
		rows++;
	CHECK_EQ_U64(rows, 3); /* the header and two rows */
	lab_an_csv_close(&r);
	free(path);
}

LAB_TEST(results_dir_usl)
{
	struct lab_an_data d;
	struct lab_an_analysis a;
	struct lab_err err = {0};
	const struct lab_an_series *s;

	REQUIRE(lab_an_data_load_dir(&d, fixture("results-usl"), &err) == 0);
	REQUIRE(lab_an_data_summarize(&d, 0, &err) == 0);
	REQUIRE(lab_an_analysis_run(&d, 0, &a, &err) == 0);
	CHECK_EQ_U64(a.ns, 5);
	CHECK_EQ_U64(d.nmetric, 1);
	CHECK_EQ_STR(d.unit, "ns/op");
	s = io_series(&a, "contend", "placement=compact");
	REQUIRE(s);
	CHECK_EQ_U64(s->nrow, 10);
	CHECK_EQ_STR(s->row[9].pt->status, "skipped");
	CHECK(s->row[9].pt->reason && strstr(s->row[9].pt->reason, "64 CPUs"));
	CHECK_EQ_U64(s->n_excluded, 1);
	CHECK_EQ_U64(s->n_fit, 45);
	CHECK_EQ_STR(s->model, "usl");
	CHECK(s->peak.retrograde);
	/* Truth: sigma 0.05, kappa 0.002, N* 21.8 (tests/analyze/gen_fixtures.py). */
	CHECK(s->usl.lo[1] < 0.05 && s->usl.hi[1] > 0.05);
	CHECK(s->usl.lo[2] < 0.002 && s->usl.hi[2] > 0.002);
	CHECK(s->row[1].has_speedup && s->row[1].speedup.lo < s->row[1].speedup.est);
	s = io_series(&a, "triad_weak", NULL);
	REQUIRE(s);
	CHECK(s->weak);
	CHECK_EQ_STR(s->model, "gustafson");
	CHECK(s->gustafson.lo[1] < 0.1 && s->gustafson.hi[1] > 0.1);
	/* Karp-Flatt's serial fraction assumes a fixed total work: none for a scaled speedup */
	for (size_t i = 0; i < s->nrow; i++)
		CHECK(isnan(s->row[i].kf) && isnan(s->row[i].kf_lo) && isnan(s->row[i].kf_hi));
	CHECK(s->row[s->nrow - 1].has_speedup);
	s = io_series(&a, "false_sharing", "placement=compact;stride=8");
	REQUIRE(s);
	CHECK(!s->usl.ok);
	CHECK(strstr(s->usl.reason, "at least 5 distinct") != NULL);
	lab_an_analysis_free(&a);
	/* --include-flagged keeps the load-flagged sample. */
	REQUIRE(lab_an_data_summarize(&d, 1, &err) == 0);
	REQUIRE(lab_an_analysis_run(&d, 1, &a, &err) == 0);
	s = io_series(&a, "contend", "placement=compact");
	CHECK_EQ_U64(s->n_excluded, 0);
	CHECK_EQ_U64(s->n_fit, 46);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

LAB_TEST(results_dir_interrupted)
{
	struct lab_an_data d;
	struct lab_an_analysis a;
	struct lab_err err = {0};

	REQUIRE(lab_an_data_load_dir(&d, fixture("results-interrupted"), &err) == 0);
	CHECK_EQ_STR(d.run_status, "interrupted");
	CHECK_EQ_U64(d.nsamples, 14); /* the cut 15th line is dropped */
	CHECK(d.warn.n >= 2);
	REQUIRE(lab_an_data_summarize(&d, 0, &err) == 0);
	REQUIRE(lab_an_analysis_run(&d, 0, &a, &err) == 0);
	REQUIRE(a.ns == 1);
	CHECK_EQ_U64(a.s[0].nrow, 4);
	CHECK_EQ_STR(a.s[0].row[3].pt->status, "missing");
	CHECK_EQ_STR(a.s[0].model, "none");
	CHECK(a.s[0].row[2].has_speedup);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

LAB_TEST(results_dir_edge_cases)
{
	struct lab_an_data d;
	struct lab_an_analysis a;
	struct lab_err err = {0};
	const struct lab_an_series *s;

	REQUIRE(lab_an_data_load_dir(&d, fixture("results-edge"), &err) == 0);
	REQUIRE(lab_an_data_summarize(&d, 0, &err) == 0);
	REQUIRE(lab_an_analysis_run(&d, 0, &a, &err) == 0);
	/* One repetition: point estimates, no intervals, fits still run (n - p > 0). */
	s = io_series(&a, "one_rep", NULL);
	REQUIRE(s);
	CHECK(s->row[1].has_speedup && !s->row[1].speedup.has_ci);
	CHECK_NEAR(s->row[1].speedup.est, 3.1 / 1.6, 1e-6);
	CHECK(s->amdahl.ok);
	/* Zero variance: collapsed intervals; two thread counts: fits refused. */
	s = io_series(&a, "zero_var", NULL);
	REQUIRE(s);
	CHECK_NEAR(s->row[1].speedup.lo, 2, 1e-9);
	CHECK_NEAR(s->row[1].speedup.hi, 2, 1e-9);
	CHECK_EQ_STR(s->model, "none");
	/* One thread count only. */
	s = io_series(&a, "one_count", NULL);
	REQUIRE(s);
	CHECK(!s->has_baseline);
	CHECK(strstr(s->note, "has 1") != NULL);
	/* No baseline: no speedup, but the fits still estimate c1 and f. */
	s = io_series(&a, "no_base", NULL);
	REQUIRE(s);
	CHECK(!s->has_baseline);
	CHECK(!s->row[0].has_speedup);
	CHECK(strstr(s->note, "no threads=1 point") != NULL);
	CHECK(s->amdahl.ok);
	CHECK(s->amdahl.lo[1] < 0.1 && s->amdahl.hi[1] > 0.1);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
}

LAB_TEST(external_csv)
{
	struct lab_an_data d;
	struct lab_an_analysis a;
	struct lab_err err = {0};

	REQUIRE(lab_an_data_load_csv(&d, fixture("csv/amdahl.csv"), &err) == 0);
	REQUIRE(lab_an_data_summarize(&d, 0, &err) == 0);
	REQUIRE(lab_an_analysis_run(&d, 0, &a, &err) == 0);
	REQUIRE(a.ns == 1);
	CHECK_EQ_STR(a.s[0].experiment, "app");
	CHECK_EQ_U64(a.s[0].nrow, 6);
	CHECK(a.s[0].amdahl.ok && a.s[0].amdahl.lo[1] < 0.05 && a.s[0].amdahl.hi[1] > 0.05);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
	CHECK(lab_an_data_load_csv(&d, fixture("csv/nan.csv"), &err) == -LAB_EDATA);
	CHECK(strstr(err.msg, "nan.csv:4: seconds = 'nan'") != NULL);
	lab_an_data_free(&d);
	CHECK(lab_an_data_load_csv(&d, fixture("csv/negative.csv"), &err) == -LAB_EDATA);
	CHECK(strstr(err.msg, "negative.csv:5: seconds = '-0.4'") != NULL);
	lab_an_data_free(&d);
	CHECK(lab_an_data_load_csv(&d, fixture("csv/badthreads.csv"), &err) == -LAB_EDATA);
	CHECK(strstr(err.msg, "badthreads.csv:3: threads = 'four'") != NULL);
	lab_an_data_free(&d);
	CHECK(lab_an_data_load_csv(&d, fixture("csv/noheader.csv"), &err) == -LAB_EDATA);
	CHECK(strstr(err.msg, "noheader.csv:1:") != NULL);
	lab_an_data_free(&d);
}

LAB_TEST(compare_fixtures)
{
	struct lab_an_data o, n;
	struct lab_an_compare c;
	struct lab_err err = {0};

	REQUIRE(lab_an_data_load_dir(&o, fixture("results-compare-a"), &err) == 0);
	REQUIRE(lab_an_data_load_dir(&n, fixture("results-compare-b"), &err) == 0);
	REQUIRE(lab_an_data_summarize(&o, 0, &err) == 0 && lab_an_data_summarize(&n, 0, &err) == 0);
	REQUIRE(lab_an_compare_run(&o, &n, 0.01, &c, &err) == 0);
	REQUIRE(c.n == 4);
	for (size_t i = 0; i < c.n; i++) {
		int t = c.row[i].old->threads;

		fprintf(stderr, "threads %d change %.4f [%.4f, %.4f] p %.3g %s\n", t,
		        c.row[i].change, c.row[i].lo, c.row[i].hi, c.row[i].p, c.row[i].verdict);
		if (t == 2)
			CHECK_EQ_STR(c.row[i].verdict, "improved");
		if (t == 4)
			CHECK_EQ_STR(c.row[i].verdict, "within noise");
		if (t == 8)
			CHECK_EQ_STR(c.row[i].verdict, "regressed");
	}
	lab_an_compare_free(&c);
	lab_an_data_free(&o);
	lab_an_data_free(&n);
}

/* A point keeps the metric columns its samples have, not every column of the run: a column
 * that appears in a later sample widens its rows (the earlier ones read NaN there); past 64
 * samples a new column makes the rows every column's. Every value reads back as written. */
LAB_TEST(point_metric_columns)
{
	enum { NM = 200, NS = 80 };
	struct lab_an_point p;
	double row[NM];

	memset(&p, 0, sizeof(p));
	for (size_t i = 0; i < NS; i++) {
		for (size_t m = 0; m < NM; m++)
			row[m] = NAN;
		row[7] = (double)i;
		if (i >= 3)
			row[150] = 1000.0 + (double)i;
		if (i == 70) /* a new column after 64 samples */
			row[2] = -1;
		REQUIRE(lab_an_point_add(&p, NM, 1.0, 0, row) == 0);
		if (i == 10) {
			CHECK_EQ_U64(p.nmc, 2);
			CHECK(p.mcol != NULL);
		}
	}
	CHECK_EQ_U64(p.nmc, NM);
	CHECK(p.mcol == NULL);
	for (size_t i = 0; i < NS; i++) {
		CHECK(lab_an_metric(&p, i, 7) == (double)i);
		CHECK(i >= 3 ? lab_an_metric(&p, i, 150) == 1000.0 + (double)i
		             : isnan(lab_an_metric(&p, i, 150)));
		CHECK(i == 70 ? lab_an_metric(&p, i, 2) == -1 : isnan(lab_an_metric(&p, i, 2)));
		CHECK(isnan(lab_an_metric(&p, i, 0)));
	}
	CHECK(lab_an_msum_of(&p, 7) == NULL); /* not summarized */
	free(p.cost);
	free(p.flagged);
	free(p.metric);
	free(p.mcol);
}

/* A file's text cut to a width ends on a character: "%.80s" of 79 ASCII bytes and an "é" left
 * its first byte alone (shown as \xc3 in text and HTML, U+FFFD in JSON). */
LAB_TEST(utf8_fit_cuts_at_a_character)
{
	CHECK_EQ_I64(lab_an_utf8_fit("abc", 80), 3);
	CHECK_EQ_I64(lab_an_utf8_fit("abcd", 4), 4);
	CHECK_EQ_I64(lab_an_utf8_fit("abcd", 2), 2);
	CHECK_EQ_I64(lab_an_utf8_fit("a\xc3\xa9"
	                             "b",
	                             2),
	             1); /* inside é */
	CHECK_EQ_I64(lab_an_utf8_fit("a\xc3\xa9"
	                             "b",
	                             3),
	             3);                                             /* after é */
	CHECK_EQ_I64(lab_an_utf8_fit("a\xf0\x9f\x98\x80", 4), 1);    /* inside a 4-byte one */
	CHECK_EQ_I64(lab_an_utf8_fit("\x80\x80\x80\x80\x80", 2), 2); /* no character: bytes */
	CHECK_EQ_I64(lab_an_utf8_fit("", 0), 0);
}
