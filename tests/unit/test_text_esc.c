/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one rule of what text reaches the terminal as it is (lab/text_esc.h) and its writers:
 * error lines (lab_opts_puts_escaped) and the analyzer's text stream, whose writes may split a
 * UTF-8 sequence. Raw C1 bytes (0x9b, the 8-bit CSI) and the bidi controls U+202A..U+202E,
 * U+2066..U+2069 were echoed raw; valid printable UTF-8 stays as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/cli_opts.h"
#include "lab/text_esc.h"
#include "tests/testlib.h"

/* lab_opts_puts_escaped(s) as a string (static: valid until the next call). */
static const char *te_err(const char *s)
{
	static char out[512];
	FILE *f = fmemopen(out, sizeof(out), "w");

	lab_opts_puts_escaped(f, s);
	fclose(f);
	return out;
}

/* s written through the text stream in pieces of step bytes. */
static const char *te_stream(const char *s, size_t step)
{
	static char out[512];
	FILE *f = fmemopen(out, sizeof(out), "w"), *t = lab_text_esc_open(f);
	size_t n = strlen(s);

	setvbuf(t, NULL, _IONBF, 0); /* each fwrite reaches the escaper as it is */
	for (size_t i = 0; i < n; i += step)
		fwrite(s + i, 1, n - i < step ? n - i : step, t);
	lab_text_esc_close(t);
	fclose(f);
	return out;
}

static size_t te_writes;

static ssize_t te_count(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	te_writes++;
	return (ssize_t)n;
}

/* An error line goes out in whole runs of plain text, not a write per byte (stderr is
 * unbuffered: 16,000 warnings took 3 million system calls). */
LAB_TEST(errors_written_in_runs)
{
	FILE *f = fopencookie(NULL, "w", (cookie_io_functions_t){.write = te_count});

	REQUIRE(f);
	setvbuf(f, NULL, _IONBF, 0);
	lab_opts_puts_escaped(f, "a warning of some length, all of it plain text");
	CHECK_EQ_U64(te_writes, 1);
	te_writes = 0;
	lab_opts_puts_escaped(f, "before\nafter, and more plain text");
	CHECK(te_writes <= 3);
	fclose(f);
}

LAB_TEST(errors_escape_controls)
{
	CHECK_EQ_STR(te_err("plain text"), "plain text");
	CHECK_EQ_STR(te_err("noop\x1b[31m\a"), "noop\\e[31m\\x07");
	CHECK_EQ_STR(te_err("a\nb\rc\td\x7f"), "a\\nb\\rc\\td\\x7f");
	/* C1: raw (no valid UTF-8) as a byte, in UTF-8 as its code point */
	CHECK_EQ_STR(te_err("a\x9b"
	                    "31m"),
	             "a\\x9b31m");
	CHECK_EQ_STR(te_err("a\x80\x9f"), "a\\x80\\x9f");
	CHECK_EQ_STR(te_err("a\xc2\x9b"
	                    "31m"),
	             "a\\u009b31m");
	/* bidi embeddings, overrides and isolates; their neighbours pass */
	CHECK_EQ_STR(te_err("\xe2\x80\xaa|\xe2\x80\xae|\xe2\x81\xa6|\xe2\x81\xa9"),
	             "\\u202a|\\u202e|\\u2066|\\u2069");
	/* the marks (LRM, RLM, ALM) and the line and paragraph separators too */
	CHECK_EQ_STR(te_err("\xe2\x80\x8e|\xe2\x80\x8f|\xd8\x9c|\xe2\x80\xa8|\xe2\x80\xa9"),
	             "\\u200e|\\u200f|\\u061c|\\u2028|\\u2029");
	/* what shows as nothing: soft hyphen, zero-width space and (non-)joiner, word joiner,
	 * an invisible operator, a BOM inside text, a tag; "compact" + U+200B read as "compact" */
	CHECK_EQ_STR(te_err("compact\xe2\x80\x8b|\xc2\xad|\xe2\x80\x8c|\xe2\x80\x8d|"
	                    "\xe2\x81\xa0|\xe2\x81\xa4|\xef\xbb\xbf|\xf3\xa0\x81\x81"),
	             "compact\\u200b|\\u00ad|\\u200c|\\u200d|\\u2060|\\u2064|\\ufeff|\\U000e0041");
	CHECK_EQ_STR(te_err("\xe3\x85\xa4|\xef\xbf\xb9|\xe1\x85\x9f"), "\\u3164|\\ufff9|\\u115f");
	CHECK_EQ_STR(te_err("\xe2\x80\xa7|\xe2\x80\xb0|\xe2\x81\xaa|\xef\xbb\xbe"),
	             "\xe2\x80\xa7|\xe2\x80\xb0|\\u206a|\xef\xbb\xbe");
	/* valid printable UTF-8 stays */
	CHECK_EQ_STR(te_err("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe3\x80\x80"),
	             "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe3\x80\x80");
	/* a space that is none: no-break (pasted from a web page), thin, narrow no-break */
	CHECK_EQ_STR(te_err("noop\xc2\xa0|\xe2\x80\x89|\xe2\x80\xaf"),
	             "noop\\u00a0|\\u2009|\\u202f");
}

LAB_TEST(errors_escape_broken_utf8)
{
	CHECK_EQ_STR(te_err("\xc0\x80"), "\\xc0\\x80");                   /* overlong */
	CHECK_EQ_STR(te_err("\xed\xa0\x80"), "\\xed\\xa0\\x80");          /* a surrogate */
	CHECK_EQ_STR(te_err("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); /* past U+10FFFF */
	CHECK_EQ_STR(te_err("x\xe2\x80"), "x\\xe2\\x80");                 /* cut at the end */
	CHECK_EQ_STR(te_err("\xe2\x80\x1b"), "\\xe2\\x80\\e");            /* cut by a control */
	CHECK_EQ_STR(te_err("\xff\xfe"), "\\xff\\xfe");
	CHECK_EQ_STR(te_err("\xe2\xe2\x80\xae"), "\\xe2\\u202e"); /* a lead, then one */
}

/* The stream escapes as the error lines do (ESC as \x1b, the newline passes), whatever the
 * sizes of the writes that bring the text. */
LAB_TEST(stream_split_sequences)
{
	const char *in = "caf\xc3\xa9\n\x1b[2K\xc2\x9b|\xe2\x80\xae|\x9b|\xf0\x9f\x98\x80|\xe2\x80";
	const char *want = "caf\xc3\xa9\n\\x1b[2K\\u009b|\\u202e|\\x9b|\xf0\x9f\x98\x80|\\xe2\\x80";

	for (size_t step = 1; step <= 8; step++)
		CHECK_EQ_STR(te_stream(in, step), want);
	CHECK_EQ_STR(te_stream("\xe2\x80x", 1), "\\xe2\\x80x");
	CHECK_EQ_STR(te_stream("\xf0\x9f\x98\x1b", 2), "\\xf0\\x9f\\x98\\x1b");
}
