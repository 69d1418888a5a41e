/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The untyped config reader: line numbers, line endings, BOM, comments, continuation lines,
 * over-long lines, syntax errors and their lines, duplicates, [global], --set.
 */
#include "harness/config.h"
#include "tests/testlib.h"

/* A loaded config and its diagnostics. */
struct tc {
	struct lab_cfg cfg;
	struct lab_diag d;
};

static void tc_load(struct tc *t, const char *text)
{
	struct lab_err err = {0};

	memset(t, 0, sizeof(*t));
	if (lab_cfg_load_text(&t->cfg, "t.ini", text, strlen(text), &t->d, &err) != 0) {
		fprintf(stderr, "load: %s\n", err.msg);
		testlib_fail();
	}
}

static void tc_free(struct tc *t)
{
	lab_cfg_free(&t->cfg);
	lab_diag_free(&t->d);
}

static const struct lab_cfg_section *tc_sec(const struct tc *t, const char *name)
{
	for (unsigned i = 0; i < t->cfg.nsec; i++)
		if (!strcmp(t->cfg.sec[i].name, name))
			return &t->cfg.sec[i];
	return NULL;
}

static const struct lab_cfg_kv *tc_kv(const struct tc *t, const char *sec, const char *key)
{
	const struct lab_cfg_section *s = tc_sec(t, sec);

	for (unsigned i = 0; s && i < s->nkv; i++)
		if (!strcmp(s->kv[i].key, key))
			return &s->kv[i];
	return NULL;
}

static const char *tc_value(const struct tc *t, const char *sec, const char *key)
{
	const struct lab_cfg_kv *kv = tc_kv(t, sec, key);
	return kv ? kv->value : "(missing)";
}

static int tc_line(const struct tc *t, const char *sec, const char *key)
{
	const struct lab_cfg_kv *kv = tc_kv(t, sec, key);
	return kv ? kv->line : -1;
}

static const char *tc_diag(const struct tc *t, unsigned i)
{
	return i < t->d.n ? t->d.msg[i] : "(no message)";
}

LAB_TEST(line_numbers)
{
	struct tc t;

	tc_load(&t, "; a comment\n"
	            "\n"
	            "[global]\n"
	            "reps = 3\n"
	            "\n"
	            "[a]\n"
	            "kernel = noop\n"
	            "# another comment\n"
	            "threads = 1,2\n");
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	REQUIRE(t.cfg.nsec == 2);
	CHECK_EQ_STR(t.cfg.sec[0].name, "global");
	CHECK_EQ_I64(t.cfg.sec[0].line, 3);
	CHECK_EQ_STR(t.cfg.sec[1].name, "a");
	CHECK_EQ_I64(t.cfg.sec[1].line, 6);
	CHECK_EQ_STR(t.cfg.sec[1].file, "t.ini");
	CHECK_EQ_I64(tc_line(&t, "global", "reps"), 4);
	CHECK_EQ_I64(tc_line(&t, "a", "kernel"), 7);
	CHECK_EQ_I64(tc_line(&t, "a", "threads"), 9);
	CHECK_EQ_STR(tc_value(&t, "a", "threads"), "1,2");
	CHECK_EQ_STR(tc_kv(&t, "a", "kernel")->file, "t.ini");
	CHECK(lab_cfg_global(&t.cfg, "t.ini") == tc_sec(&t, "global"));
	CHECK(lab_cfg_global(&t.cfg, "other.ini") == NULL);
	tc_free(&t);
}

LAB_TEST(crlf_line_endings)
{
	struct tc t;

	tc_load(&t, "[a]\r\nkernel = noop\r\n\r\nthreads = 4\r\nlast = x");
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	CHECK_EQ_STR(tc_value(&t, "a", "kernel"), "noop");
	CHECK_EQ_STR(tc_value(&t, "a", "threads"), "4");
	CHECK_EQ_I64(tc_line(&t, "a", "threads"), 4);
	CHECK_EQ_STR(tc_value(&t, "a", "last"), "x"); /* no newline at the end */
	CHECK_EQ_I64(tc_line(&t, "a", "last"), 5);
	tc_free(&t);
}

LAB_TEST(utf8_bom)
{
	struct tc t;

	tc_load(&t, "\xEF\xBB\xBF[a]\nkernel = noop\n");
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	REQUIRE(t.cfg.nsec == 1);
	CHECK_EQ_STR(t.cfg.sec[0].name, "a");
	CHECK_EQ_I64(tc_line(&t, "a", "kernel"), 2);
	tc_free(&t);
	/* A BOM before a comment line and a key line on line 1 too. */
	tc_load(&t, "\xEF\xBB\xBF; comment\n[a]\nkernel = noop\n");
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	CHECK_EQ_STR(tc_value(&t, "a", "kernel"), "noop");
	tc_free(&t);
}

LAB_TEST(comments)
{
	struct tc t;

	tc_load(&t, "; semicolon\n"
	            "# hash\n"
	            "[a] ; after a header\n"
	            "  ; indented comment\n"
	            "kernel = noop ; inline comment\n"
	            "placement = list:0;1\n"
	            "note = a#b # an inline '#' comment, as docs/configs.md says\n"
	            "reps = 3\t# after a tab\n"
	            "seed = 4 #\n");
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	CHECK_EQ_STR(tc_value(&t, "a", "kernel"), "noop");
	/* An inline ';' or '#' needs a blank before it. */
	CHECK_EQ_STR(tc_value(&t, "a", "placement"), "list:0;1");
	CHECK_EQ_STR(tc_value(&t, "a", "note"), "a#b");
	CHECK_EQ_STR(tc_value(&t, "a", "reps"), "3");
	CHECK_EQ_STR(tc_value(&t, "a", "seed"), "4");
	tc_free(&t);
}

/* A '#' after a blank ends a line before its separator too: the line has no key then. */
LAB_TEST(hash_comment_before_separator)
{
	struct tc t;

	tc_load(&t, "[a]\n"
	            "kernel # = noop\n"
	            "threads = 1,\n"
	            "  2, # a comment ends a continuation line\n"
	            "  # a comment line does not end the value\n"
	            "  4\n");
	CHECK_EQ_U64(lab_diag_count(&t.d), 1);
	CHECK_EQ_STR(tc_diag(&t, 0), "t.ini:2: expected 'key = value', got 'kernel # = noop'");
	CHECK_EQ_STR(tc_value(&t, "a", "threads"), "1, 2, 4");
	tc_free(&t);
}

LAB_TEST(continuation_lines_join)
{
	struct tc t;

	tc_load(&t, "[a]\n"
	            "threads = 1,\n"
	            "   2,\n"
	            "\t4\n"
	            "kernel = noop\n"
	            "stride = 8,\n"
	            "; a comment does not end the value\n"
	            "  16 ; an inline comment ends a continuation line too\n"
	            "placement = list:0,\n"
	            "  1;2\n");
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	CHECK_EQ_STR(tc_value(&t, "a", "threads"), "1, 2, 4");
	CHECK_EQ_I64(tc_line(&t, "a", "threads"), 2);
	CHECK_EQ_I64(tc_line(&t, "a", "kernel"), 5);
	CHECK_EQ_STR(tc_value(&t, "a", "stride"), "8, 16");
	CHECK_EQ_STR(tc_value(&t, "a", "placement"), "list:0, 1;2"); /* ';' without a blank */
	tc_free(&t);
}

LAB_TEST(too_long_line)
{
	struct tc t;
	char text[1024], longv[300];

	memset(longv, '1', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	snprintf(text, sizeof(text), "[a]\nkernel = noop\nthreads = %s\nreps = 3\nbogus\n", longv);
	tc_load(&t, text);
	REQUIRE(lab_diag_count(&t.d) == 2);
	CHECK_EQ_STR(
	    tc_diag(&t, 0),
	    "t.ini:3: line too long (309 characters before any comment; allowed at most 198)");
	/* The line after it keeps its number (libinih alone would be off by one from here). */
	CHECK_EQ_STR(tc_diag(&t, 1), "t.ini:5: expected 'key = value', got 'bogus'");
	CHECK_EQ_I64(tc_line(&t, "a", "reps"), 4);
	CHECK(tc_kv(&t, "a", "threads") == NULL);
	/* the section knows a line of it was refused: the planner says nothing it lacks then
	 * (the refused line may have been its kernel: "missing 'kernel'" followed) */
	CHECK(t.cfg.nsec == 1 && t.cfg.sec[0].refused);
	tc_free(&t);
}

LAB_TEST(longest_line_allowed)
{
	struct tc t;
	char text[1200], line[LAB_CFG_LINE_MAX + 2];

	/* "reps = " and digits up to exactly LAB_CFG_LINE_MAX characters: accepted whole. */
	memset(line, '7', sizeof(line));
	memcpy(line, "reps = ", 7);
	line[LAB_CFG_LINE_MAX] = '\0';
	snprintf(text, sizeof(text), "[a]\n%s\r\n%s9\n", line, line);
	tc_load(&t, text);
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_U64(strlen(tc_value(&t, "a", "reps")), LAB_CFG_LINE_MAX - 7);
	CHECK_EQ_STR(
	    tc_diag(&t, 0),
	    "t.ini:3: line too long (199 characters before any comment; allowed at most 198)");
	tc_free(&t);
	/* A long comment is no error. */
	char comment[400];
	memset(comment, '#', sizeof(comment) - 1);
	comment[sizeof(comment) - 1] = '\0';
	snprintf(text, sizeof(text), "[a]\n%s\nreps = 1\n", comment);
	tc_load(&t, text);
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	CHECK_EQ_I64(tc_line(&t, "a", "reps"), 3);
	tc_free(&t);
	/* Nor one after a key or a header: `kernel = noop ; 300 characters` lost the kernel (the
	 * line was refused, and "missing 'kernel'" followed). */
	snprintf(text, sizeof(text), "[a] ; %s\nkernel = noop ; %s\nreps = 1\n", comment, comment);
	tc_load(&t, text);
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	CHECK_EQ_STR(tc_value(&t, "a", "kernel"), "noop");
	CHECK_EQ_I64(tc_line(&t, "a", "reps"), 3);
	tc_free(&t);
}

LAB_TEST(indented_key_after_rejected_line)
{
	struct tc t;

	/* The rejected line ends the previous value: the indented key is a key of its own. */
	tc_load(&t, "[a]\nkernel = noop\nno equals sign\n  reps = 3\n");
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_STR(tc_diag(&t, 0), "t.ini:3: expected 'key = value', got 'no equals sign'");
	CHECK_EQ_STR(tc_value(&t, "a", "kernel"), "noop");
	CHECK_EQ_STR(tc_value(&t, "a", "reps"), "3");
	CHECK_EQ_I64(tc_line(&t, "a", "reps"), 4);
	tc_free(&t);
}

LAB_TEST(key_outside_section)
{
	struct tc t;

	tc_load(&t, "threads = 1\n\n[a]\nkernel = noop\n");
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_STR(tc_diag(&t, 0), "t.ini:1: key outside any section (start one with [name])");
	CHECK_EQ_STR(tc_value(&t, "a", "kernel"), "noop");
	tc_free(&t);
}

LAB_TEST(missing_equals_and_key)
{
	struct tc t;

	tc_load(&t, "[a]\nkernel noop\n= 4\n: 5\nreps ; = 5\nok = 1\n");
	REQUIRE(lab_diag_count(&t.d) == 4);
	CHECK_EQ_STR(tc_diag(&t, 0), "t.ini:2: expected 'key = value', got 'kernel noop'");
	CHECK_EQ_STR(tc_diag(&t, 1), "t.ini:3: '= 4': no key before '=' (write key = value)");
	CHECK_EQ_STR(tc_diag(&t, 2), "t.ini:4: ': 5': no key before ':' (write key = value)");
	CHECK_EQ_STR(tc_diag(&t, 3), "t.ini:5: expected 'key = value', got 'reps ; = 5'");
	CHECK_EQ_I64(tc_line(&t, "a", "ok"), 6);
	/* 'kernel noop' may have been the kernel: the planner does not say it is missing too. */
	CHECK(t.cfg.nsec == 1 && t.cfg.sec[0].refused);
	tc_free(&t);
	tc_load(&t, "[a]\n= noop\n");
	CHECK(t.cfg.nsec == 1 && t.cfg.sec[0].refused);
	tc_free(&t);
	/* 'threads 2' was no kernel line: a missing kernel is said in the same round */
	tc_load(&t, "[a]\nthreads 2\n");
	CHECK(t.cfg.nsec == 1 && !t.cfg.sec[0].refused);
	tc_free(&t);
	tc_load(&t, "[a]\nKernl\tnoop\n");
	CHECK(t.cfg.nsec == 1 && t.cfg.sec[0].refused);
	tc_free(&t);
}

/* libinih splits at ':' too, which no doc allows: an error, read still (one error, not also a
 * missing key); a ':' in a value stands after the '='. */
LAB_TEST(colon_separator_is_an_error)
{
	struct tc t;

	tc_load(&t, "[a]\nkernel: noop\nthreads : 2\nplacement = list:0,1\nx:y = 1\n");
	REQUIRE(lab_diag_count(&t.d) == 3);
	CHECK_EQ_STR(
	    tc_diag(&t, 0),
	    "t.ini:2: 'kernel: noop': ':' between a key and its value (write key = value)");
	CHECK_EQ_STR(tc_diag(&t, 1),
	             "t.ini:3: 'threads : 2': ':' between a key and its value (write key = value)");
	CHECK_EQ_STR(tc_diag(&t, 2),
	             "t.ini:5: 'x:y = 1': ':' between a key and its value (write key = value)");
	CHECK_EQ_STR(tc_value(&t, "a", "kernel"), "noop");
	CHECK_EQ_STR(tc_value(&t, "a", "placement"), "list:0,1");
	tc_free(&t);
}

LAB_TEST(nul_byte)
{
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err = {0};
	static const char text[] = "[a]\nre\0ps = 1\nkernel = noop\n";

	REQUIRE(lab_cfg_load_text(&cfg, "t.ini", text, sizeof(text) - 1, &d, &err) == 0);
	REQUIRE(lab_diag_count(&d) == 1);
	CHECK_EQ_STR(d.msg[0], "t.ini:2: line holds a NUL byte (a config is plain text)");
	CHECK_EQ_U64(cfg.sec[0].nkv, 1);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
}

/* Fuzzer: a text that ends in the lead byte of a 2-byte UTF-8 character, with no NUL after it,
 * was read one byte past its end by the check for invisible characters before a header. The
 * text is copied to a buffer of its exact length, so AddressSanitizer sees any read past it. */
LAB_TEST(text_ending_in_a_lead_byte)
{
	static const char text[] = "[a]\nkernel = noop\n\xd9";
	char *exact = malloc(sizeof(text) - 1);
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err = {0};

	REQUIRE(exact);
	memcpy(exact, text, sizeof(text) - 1);
	REQUIRE(lab_cfg_load_text(&cfg, "t.ini", exact, sizeof(text) - 1, &d, &err) == 0);
	CHECK(lab_diag_count(&d) >= 1); /* the stray byte is an error */
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
	free(exact);
}

/* Blanks are spaces and tabs: libinih and the value parsers would take a vertical tab or a form
 * feed for one ("1\v" read as 1), so outside a comment each is one error, like any control byte
 * where it stands in a value; the line is read still. */
LAB_TEST(vertical_tab_and_form_feed)
{
	struct tc t;

	tc_load(&t, "[a]\x0c\nkernel = noop\nthreads = 1\v\n\x0c\n  \v; c\nreps = 2 \f; c\n"
	            "; a comment may hold them: \v\f\nseed = 3 ; \f\n");
	REQUIRE(lab_diag_count(&t.d) == 5);
	for (unsigned i = 0; i < 5; i++) {
		static const int line[] = {1, 3, 4, 5, 6};
		char want[160];
		snprintf(want, sizeof(want),
		         "t.ini:%d: %s outside a comment (allowed blanks: spaces and tabs)",
		         line[i], i == 1 || i == 3 ? "vertical tab (\\x0b)" : "form feed (\\x0c)");
		CHECK_EQ_STR(tc_diag(&t, i), want);
	}
	CHECK_EQ_STR(tc_value(&t, "a", "threads"), "1");
	CHECK_EQ_STR(tc_value(&t, "a", "reps"), "2");
	CHECK_EQ_STR(tc_value(&t, "a", "seed"), "3");
	tc_free(&t);
	/* --set too */
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	lab_cfg_add_set(&cfg, "a.threads=1\v", &d);
	lab_cfg_add_set(&cfg, "a.\freps=1", &d);
	/* red team: a CR or LF was read as a blank ("a\n.reps=3" set a's reps) */
	lab_cfg_add_set(&cfg, "a\n.reps=3", &d);
	lab_cfg_add_set(&cfg, "a.threads=1,\r2", &d);
	REQUIRE(lab_diag_count(&d) == 4);
	CHECK_EQ_STR(d.msg[2], "--set a\n.reps=3: line feed (\\n) in the argument (allowed "
	                       "blanks: spaces and tabs)");
	CHECK_EQ_STR(d.msg[3], "--set a.threads=1,\r2: carriage return (\\r) in the argument "
	                       "(allowed blanks: spaces and tabs)");
	CHECK_EQ_STR(d.msg[0], "--set a.threads=1\v: vertical tab (\\x0b) in the argument (allowed "
	                       "blanks: spaces and tabs)");
	CHECK_EQ_STR(d.msg[1], "--set a.\freps=1: form feed (\\x0c) in the argument (allowed "
	                       "blanks: spaces and tabs)");
	CHECK_EQ_U64(cfg.nset, 0);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
}

/* A --set value holds what a config line may (a 70 000-byte lesson claim ran, and lab analyze
 * refused its run.json); its message names the key, not the value. */
LAB_TEST(set_value_too_long)
{
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	size_t n = 10 + LAB_CFG_VALUE_MAX;
	char *arg = malloc(n + 1);

	REQUIRE(arg);
	memcpy(arg, "lessons.z=", 10);
	memset(arg + 10, 'x', n - 10);
	arg[n] = 0;
	lab_cfg_add_set(&cfg, arg, &d);
	REQUIRE(lab_diag_count(&d) == 1);
	CHECK_EQ_STR(d.msg[0], "--set lessons.z: value too long (65536 characters; allowed at most "
	                       "65535, as on a line of a config file)");
	arg[10 + LAB_CFG_VALUE_MAX - 1] = 0; /* 65535: allowed */
	lab_cfg_add_set(&cfg, arg, &d);
	CHECK_EQ_U64(lab_diag_count(&d), 1);
	CHECK_EQ_U64(cfg.nset, 1);
	free(arg);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
}

LAB_TEST(duplicate_key)
{
	struct tc t;

	tc_load(&t, "[a]\nkernel = noop\nreps = 1\nreps = 2\n");
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_STR(tc_diag(&t, 0), "t.ini:4: [a] reps = 2: duplicate key (first set at line 3)");
	CHECK_EQ_STR(tc_value(&t, "a", "reps"), "1");
	tc_free(&t);
}

LAB_TEST(duplicate_section)
{
	struct tc t;

	tc_load(&t, "[a]\nkernel = noop\n\n[a]\nkernel = noop\n");
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_STR(tc_diag(&t, 0), "t.ini:4: [a]: duplicate section (first at line 1)");
	tc_free(&t);
}

/* [lessons] is per file like [global], but two of them in one file are a duplicate section. */
LAB_TEST(duplicate_lessons_section)
{
	struct tc t;

	tc_load(&t, "[a]\nkernel = noop\n[lessons]\nx = cost(a: threads=1) > 1\n[lessons]\n"
	            "y = cost(a: threads=1) > 1\n");
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_STR(tc_diag(&t, 0), "t.ini:5: [lessons]: duplicate section (first at line 3)");
	tc_free(&t);
	/* one [lessons] in each of two files is no duplicate */
	struct lab_err err = {0};
	const char *b = "[lessons]\ny = cost(a: threads=1) > 1\n";
	tc_load(&t, "[a]\nkernel = noop\n[lessons]\nx = cost(a: threads=1) > 1\n");
	CHECK_EQ_I64(lab_cfg_load_text(&t.cfg, "u.ini", b, strlen(b), &t.d, &err), 0);
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	tc_free(&t);
}

/* A second [global] in one file is a duplicate section, as a second [lessons] or [a] is (it was
 * merged silently); its keys are still checked, against the first one's. */
LAB_TEST(second_global_is_a_duplicate)
{
	struct tc t;

	tc_load(&t, "[global]\nreps = 3\n[a]\nkernel = noop\n[global]\nseed = 7\n");
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_STR(tc_diag(&t, 0), "t.ini:5: [global]: duplicate section (first at line 1)");
	REQUIRE(t.cfg.nsec == 2);
	const struct lab_cfg_section *g = lab_cfg_global(&t.cfg, "t.ini");
	REQUIRE(g != NULL);
	CHECK_EQ_U64(g->nkv, 2);
	CHECK_EQ_I64(tc_line(&t, "global", "seed"), 6);
	tc_free(&t);
	/* A key set in both is a duplicate key as well. */
	tc_load(&t, "[global]\nreps = 3\n[global]\nreps = 4\n");
	REQUIRE(lab_diag_count(&t.d) == 2);
	CHECK_EQ_STR(tc_diag(&t, 0), "t.ini:3: [global]: duplicate section (first at line 1)");
	CHECK_EQ_STR(tc_diag(&t, 1),
	             "t.ini:4: [global] reps = 4: duplicate key (first set at line 2)");
	tc_free(&t);
	/* one [global] in each of two files is no duplicate */
	struct lab_err err = {0};
	const char *b = "[global]\nreps = 4\n";
	tc_load(&t, "[global]\nreps = 3\n");
	CHECK_EQ_I64(lab_cfg_load_text(&t.cfg, "u.ini", b, strlen(b), &t.d, &err), 0);
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	tc_free(&t);
}

LAB_TEST(bad_section_headers)
{
	struct tc t;

	tc_load(&t, "[a b]\nkernel = noop\n[]\n[ok-1.x_y]\nkernel = noop\n");
	REQUIRE(lab_diag_count(&t.d) == 2);
	CHECK_EQ_STR(tc_diag(&t, 0),
	             "t.ini:1: [a b]: bad section name (allowed letters, digits, '_', '.', '-')");
	CHECK_EQ_STR(tc_diag(&t, 1),
	             "t.ini:3: []: bad section name (allowed letters, digits, '_', '.', '-')");
	CHECK(tc_sec(&t, "ok-1.x_y") != NULL);
	tc_free(&t);
	/* An unclosed header is one error; its keys are not reported again. */
	tc_load(&t, "[a\nkernel = noop\nreps = 1\n[b]\nkernel = noop\n");
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_STR(tc_diag(&t, 0), "t.ini:1: section header without ']' (write [name])");
	CHECK_EQ_STR(tc_value(&t, "b", "kernel"), "noop");
	tc_free(&t);
}

LAB_TEST(several_files)
{
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err = {0};
	const char *a = "[global]\nreps = 2\n[x]\nkernel = noop\n";
	const char *b = "[global]\nreps = 5\n[x]\nkernel = noop\n";

	REQUIRE(lab_cfg_load_text(&cfg, "a.ini", a, strlen(a), &d, &err) == 0);
	REQUIRE(lab_cfg_load_text(&cfg, "b.ini", b, strlen(b), &d, &err) == 0);
	REQUIRE(lab_diag_count(&d) == 1);
	CHECK_EQ_STR(d.msg[0], "b.ini:3: [x]: duplicate section (first at a.ini:3)");
	/* Each file has its own [global]. */
	CHECK_EQ_STR(lab_cfg_global(&cfg, "a.ini")->kv[0].value, "2");
	CHECK_EQ_STR(lab_cfg_global(&cfg, "b.ini")->kv[0].value, "5");
	CHECK_EQ_U64(cfg.nfiles, 2);
	CHECK(strstr(cfg.text, "; file: b.ini\n[global]\nreps = 5") != NULL);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
}

LAB_TEST(missing_file)
{
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err = {0};
	char path[1024];

	snprintf(path, sizeof(path), "%s/nope.ini", testlib_tmpdir());
	CHECK_EQ_I64(lab_cfg_load_file(&cfg, path, &d, &err), -LAB_EIO);
	CHECK(strstr(err.msg, "nope.ini: cannot open: No such file or directory") != NULL);
	lab_cfg_free(&cfg);
}

LAB_TEST(file_round_trip)
{
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err = {0};
	char path[1024];

	snprintf(path, sizeof(path), "%s/x.ini", testlib_tmpdir());
	FILE *f = fopen(path, "w");
	REQUIRE(f != NULL);
	fputs("[a]\nkernel = noop\n", f);
	fclose(f);
	REQUIRE(lab_cfg_load_file(&cfg, path, &d, &err) == 0);
	CHECK_EQ_U64(lab_diag_count(&d), 0);
	REQUIRE(cfg.nsec == 1);
	CHECK_EQ_STR(cfg.sec[0].file, path);
	CHECK_EQ_STR(cfg.text, "[a]\nkernel = noop\n");
	lab_cfg_free(&cfg);
}

LAB_TEST(set_arguments)
{
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};

	lab_cfg_add_set(&cfg, "fs.stride=64", &d);
	lab_cfg_add_set(&cfg, "a.b.c=x=y", &d);
	lab_cfg_add_set(&cfg, "s.k=", &d);
	CHECK_EQ_U64(lab_diag_count(&d), 0);
	REQUIRE(cfg.nset == 3);
	CHECK_EQ_STR(cfg.set_section[0], "fs");
	CHECK_EQ_STR(cfg.set[0].key, "stride");
	CHECK_EQ_STR(cfg.set[0].value, "64");
	CHECK_EQ_STR(cfg.set[0].file, "--set");
	CHECK_EQ_I64(cfg.set[0].line, 0);
	/* Section names may hold dots, keys do not: the key starts after the last dot before
	 * the first '=', where the value starts. */
	CHECK_EQ_STR(cfg.set_section[1], "a.b");
	CHECK_EQ_STR(cfg.set[1].key, "c");
	CHECK_EQ_STR(cfg.set[1].value, "x=y");
	CHECK_EQ_STR(cfg.set[2].value, "");
	/* Blanks around the parts go, as on a line of a file. */
	lab_cfg_add_set(&cfg, " fs . threads = 1, 2 ", &d);
	REQUIRE(cfg.nset == 4);
	CHECK_EQ_STR(cfg.set_section[3], "fs");
	CHECK_EQ_STR(cfg.set[3].key, "threads");
	CHECK_EQ_STR(cfg.set[3].value, "1, 2");

	static const char *const bad[] = {"foo", "foo=1", "foo.bar", ".k=1", "s.=1", "s=1.2"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[160];
		lab_diag_free(&d);
		lab_cfg_add_set(&cfg, bad[i], &d);
		snprintf(want, sizeof(want),
		         "--set %s: expected SECTION.KEY=VALUE (e.g. --set padded.stride=64, or "
		         "global.reps=3 for every experiment)",
		         bad[i]);
		REQUIRE(lab_diag_count(&d) == 1);
		CHECK_EQ_STR(d.msg[0], want);
	}
	CHECK_EQ_U64(cfg.nset, 4);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
}

LAB_TEST(empty_text)
{
	struct tc t;

	tc_load(&t, "");
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	CHECK_EQ_U64(t.cfg.nsec, 0);
	tc_free(&t);
	tc_load(&t, "\n\n  \n; only comments\n");
	CHECK_EQ_U64(lab_diag_count(&t.d), 0);
	CHECK_EQ_U64(t.cfg.nsec, 0);
	tc_free(&t);
}

LAB_TEST(diag_cap)
{
	struct tc t;
	char *text = malloc(LAB_DIAG_MAX * 8 + 64);
	size_t used = 0;

	REQUIRE(text != NULL);
	used += (size_t)sprintf(text, "[a]\n");
	for (int i = 0; i < LAB_DIAG_MAX + 5; i++)
		used += (size_t)sprintf(text + used, "bad\n");
	tc_load(&t, text);
	CHECK_EQ_U64(t.d.n, LAB_DIAG_MAX);
	CHECK_EQ_U64(t.d.dropped, 5);
	CHECK_EQ_U64(lab_diag_count(&t.d), LAB_DIAG_MAX + 5);
	tc_free(&t);
	free(text);
}

/* Red team: lab_diag_add_once counts a line once past the cap too (one bad stride line of a
 * sweep with more params said 1164 errors for 441, 81248 with a placement list). */
LAB_TEST(diag_once_counts_once_past_the_cap)
{
	struct lab_diag d = {0};

	for (int rep = 0; rep < 3; rep++)
		for (int i = 0; i < LAB_DIAG_MAX + 1000; i++)
			lab_diag_add_once(&d, "x.ini:3: value %d is out of range", i);
	CHECK_EQ_U64(d.n, LAB_DIAG_MAX);
	CHECK_EQ_U64(lab_diag_count(&d), LAB_DIAG_MAX + 1000);
	lab_diag_free(&d);
	CHECK_EQ_U64(lab_diag_count(&d), 0);
}

/*
 * A line whose first non-blank character is '[' is an error unless it starts at column 1 (it
 * used to be read as a header without a word); it is still read as a header, so the keys below
 * it are checked against their own section.
 */
LAB_TEST(indented_header_is_an_error)
{
	struct tc t;

	tc_load(&t, "[a]\nkernel = noop\nreps = 2\n  [b]\nkernel = lock\n");
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_STR(t.d.msg[0], "t.ini:4: '[b]': a section header must start at column 1 (remove "
	                         "the indentation; an indented line continues the value above)");
	CHECK_EQ_U64(t.cfg.nsec, 2);
	CHECK_EQ_STR(tc_value(&t, "a", "reps"), "2");
	CHECK_EQ_STR(tc_value(&t, "b", "kernel"), "lock");
	CHECK_EQ_I64(tc_line(&t, "b", "kernel"), 5);
	tc_free(&t);
}

/* Indented by a tab, first in the file or after a blank line or a comment: the same error. */
LAB_TEST(indented_header_anywhere)
{
	static const char *const texts[] = {
	    "\t[padded]\nkernel = noop\n", "[a]\nkernel = noop\n\n [padded]\nkernel = noop\n",
	    "[a]\nkernel = noop\n; c\n  [padded] ; c\nkernel = noop\n"};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct tc t;
		tc_load(&t, texts[i]);
		REQUIRE(lab_diag_count(&t.d) == 1);
		CHECK(strstr(t.d.msg[0], "'[padded]") != NULL);
		CHECK(strstr(t.d.msg[0], "a section header must start at column 1") != NULL);
		CHECK_EQ_STR(tc_value(&t, "padded", "kernel"), "noop");
		tc_free(&t);
	}
}

LAB_TEST(text_after_header)
{
	struct tc t;

	tc_load(&t, "[a] junk\nkernel = noop\n[b] ; a comment\nkernel = noop\n");
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_STR(t.d.msg[0],
	             "t.ini:1: [a]: text after the section header (allowed only a ; or # comment)");
	CHECK_EQ_STR(tc_value(&t, "a", "kernel"), "noop");
	tc_free(&t);
}

/* A line refused for a byte it holds (a lone CR, a NUL) is one error, as a line too long is: its
 * section is marked refused, so its missing kernel is not reported after it. */
LAB_TEST(refused_byte_line_marks_its_section)
{
	static const char *const text[] = {"[x]\nkernel = noop\rreps=3\n",
	                                   "[x]\nkernel = noop\0\n"};
	static const size_t len[] = {sizeof("[x]\nkernel = noop\rreps=3\n") - 1,
	                             sizeof("[x]\nkernel = noop\0\n") - 1};

	for (size_t i = 0; i < 2; i++) {
		struct lab_cfg cfg = {0};
		struct lab_diag d = {0};
		struct lab_err err = {0};

		REQUIRE(lab_cfg_load_text(&cfg, "t.ini", text[i], len[i], &d, &err) == 0);
		CHECK_EQ_U64(lab_diag_count(&d), 1);
		CHECK(strstr(d.msg[0], "t.ini:2: ") == d.msg[0]);
		REQUIRE(cfg.nsec == 1);
		CHECK(cfg.sec[0].refused);
		lab_cfg_free(&cfg);
		lab_diag_free(&d);
	}
}

/* Old Mac line endings: one long line, which the lab used to read as a lone header. */
LAB_TEST(cr_only_line_endings)
{
	struct tc t;

	tc_load(&t, "[a]\rkernel = noop\rreps = 2\r");
	REQUIRE(lab_diag_count(&t.d) == 1);
	CHECK_EQ_STR(t.d.msg[0], "t.ini:1: carriage return inside a line (allowed line endings: "
	                         "LF or CRLF; save the file with Unix or DOS line endings)");
	tc_free(&t);
}

LAB_TEST(value_too_long)
{
	char *text = malloc(400 * 200);
	size_t n = (size_t)sprintf(text, "[a]\nkernel = noop\nx = 1\n");

	REQUIRE(text);
	for (int i = 0; i < 380; i++)
		n += (size_t)sprintf(text + n, "  %0180d\n", i);
	n += (size_t)sprintf(text + n, "reps = 3\n  4\n");
	struct tc t;
	tc_load(&t, text);
	/* once, at the line that passes the limit: not once per continuation line after it */
	CHECK_EQ_U64(lab_diag_count(&t.d), 1);
	CHECK(strstr(t.d.msg[0], "[a] x: value too long (allowed at most 65536 characters") !=
	      NULL);
	CHECK(strlen(tc_value(&t, "a", "x")) < LAB_CFG_VALUE_MAX);
	/* the next key and its continuation line are read as ever */
	CHECK_EQ_STR(tc_value(&t, "a", "reps"), "3 4");
	tc_free(&t);
	free(text);
}

/*
 * 60 000 keys in one section and 20 000 sections: the reader indexes them (it was quadratic).
 * Correctness only, at that size; bench/config_bench.c measures the time.
 */
LAB_TEST(many_keys_and_sections)
{
	size_t cap = 60000 * 24 + 20000 * 40 + 64, n = 0;
	char *text = malloc(cap);

	REQUIRE(text);
	n += (size_t)sprintf(text + n, "[big]\nkernel = noop\n");
	for (int i = 0; i < 60000; i++)
		n += (size_t)sprintf(text + n, "k%d = %d\n", i, i);
	n += (size_t)sprintf(text + n, "k59999 = again\n");
	for (int i = 0; i < 20000; i++)
		n += (size_t)sprintf(text + n, "[s%d]\nkernel = noop\n", i);
	n += (size_t)sprintf(text + n, "[s19999]\n");
	struct tc t;
	tc_load(&t, text);
	REQUIRE(lab_diag_count(&t.d) == 2);
	CHECK_EQ_STR(t.d.msg[0], "t.ini:60003: [big] k59999 = again: duplicate key (first set "
	                         "at line 60002)");
	CHECK_EQ_STR(t.d.msg[1], "t.ini:100004: [s19999]: duplicate section (first at line "
	                         "100002)");
	CHECK_EQ_U64(t.cfg.nsec, 20002);
	CHECK_EQ_U64(t.cfg.sec[0].nkv, 60001);
	CHECK_EQ_STR(tc_value(&t, "s12345", "kernel"), "noop");
	tc_free(&t);
	free(text);
}
