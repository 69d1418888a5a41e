/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The base shared by harness and analyzer: errors, the JSON writer, whole-file reading. Linked
 * against lab_base alone, so the base needs nothing of the runtime. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/err.h"
#include "harness/fileio.h"
#include "harness/hash.h"
#include "harness/json.h"
#include "tests/testlib.h"

/* Runs fn on a memstream and returns what it wrote (caller frees). */
static char *json_text(void (*fn)(struct lab_json *), int digits)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct lab_json j;

	if (!f)
		return NULL;
	lab_json_begin_digits(&j, f, digits);
	fn(&j);
	lab_json_end(&j);
	fclose(f);
	return buf;
}

static void json_strings(struct lab_json *j)
{
	lab_json_arr_open(j, NULL);
	lab_json_str(j, NULL, "ok \xC3\xA9 \xE2\x82\xAC");       /* é € pass */
	lab_json_str(j, NULL, "bad \xFF \xC0\xAF \xED\xA0\x80"); /* not UTF-8 */
	lab_json_str(j, NULL, "ctl \x01\x7f\r\n\t\"\\");
	lab_json_str(j, NULL, "cut \xE2\x82");
	/* C1 CSI, RLO, LRI, the line separator: escaped, so --json cannot drive a terminal */
	lab_json_str(j, NULL,
	             "c1 \xC2\x9B"
	             "2J \xE2\x80\xAE \xE2\x81\xA6 \xE2\x80\xA8 \xD8\x9C \xE2\x80\x8E \xC2\xA0");
	/* what shows as nothing: zero-width space, BOM, soft hyphen; a tag as its surrogate pair */
	lab_json_str(j, NULL,
	             "zw a\xE2\x80\x8B \xEF\xBB\xBF \xC2\xAD \xF3\xA0\x81\x81 \xF0\x9F\x98\x80");
	lab_json_arr_close(j);
}

LAB_TEST(json_always_valid_utf8)
{
	char *s = json_text(json_strings, 0);

	REQUIRE(s);
	CHECK_EQ_STR(s, "[\n  \"ok \xC3\xA9 \xE2\x82\xAC\",\n"
	                "  \"bad \\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd\",\n"
	                "  \"ctl \\u0001\\u007f\\r\\n\\t\\\"\\\\\",\n"
	                "  \"cut \\ufffd\\ufffd\",\n"
	                "  \"c1 \\u009b2J \\u202e \\u2066 \\u2028 \\u061c \\u200e \\u00a0\",\n"
	                "  \"zw a\\u200b \\ufeff \\u00ad \\udb40\\udc41 \xF0\x9F\x98\x80\"\n]\n");
	free(s);
}

static void json_numbers(struct lab_json *j)
{
	lab_json_obj_open(j, NULL);
	lab_json_num(j, "third", 1.0 / 3.0);
	lab_json_num(j, "nan", NAN);
	lab_json_num(j, "inf", -INFINITY);
	lab_json_pair(j, "ci", 0.5, INFINITY);
	lab_json_obj_open(j, "empty");
	lab_json_obj_close(j);
	lab_json_obj_close(j);
}

LAB_TEST(json_numbers_exact_and_digits)
{
	char *exact = json_text(json_numbers, 0), *ten = json_text(json_numbers, 10);

	REQUIRE(exact && ten);
	CHECK_EQ_STR(exact, "{\n  \"third\": 0.33333333333333331,\n  \"nan\": null,\n"
	                    "  \"inf\": null,\n  \"ci\": [0.5, null],\n  \"empty\": {}\n}\n");
	CHECK_EQ_STR(ten, "{\n  \"third\": 0.3333333333,\n  \"nan\": null,\n"
	                  "  \"inf\": null,\n  \"ci\": [0.5, null],\n  \"empty\": {}\n}\n");
	free(exact);
	free(ten);
}

static void json_ints(struct lab_json *j)
{
	lab_json_arr_open(j, NULL);
	lab_json_int(j, NULL, 0);
	lab_json_int(j, NULL, -7);
	lab_json_int(j, NULL, INT64_MIN);
	lab_json_int(j, NULL, INT64_MAX);
	lab_json_uint(j, NULL, UINT64_MAX);
	lab_json_arr_close(j);
}

/* Integers as printf's %lld and %llu write them. */
LAB_TEST(json_integers)
{
	char *t = json_text(json_ints, 10);

	REQUIRE(t);
	CHECK_EQ_STR(t, "[\n  0,\n  -7,\n  -9223372036854775808,\n  9223372036854775807,\n"
	                "  18446744073709551615\n]\n");
	free(t);
}

/* A value of the kind fmt_g_matches_printf tries (i picks the kind, r the bits). */
static double fmt_g_value(unsigned long i, uint64_t r)
{
	double u = (double)(r >> 11) / 9007199254740992.0, v;

	switch (i % 6) {
	case 0: /* any bit pattern: subnormals, huge, NaN, infinities */
		memcpy(&v, &r, sizeof(v));
		return v;
	case 1: /* decimals, some of them ties at 4, 9 or 10 digits */
		return (double)(int64_t)(r % 4000000 - 2000000) / pow(10, (double)(r >> 40 & 15));
	case 2: /* binary fractions: exact ties */
		return (double)(r % 1000000) / 16.0 / pow(10, (double)(r >> 40 & 7));
	case 3: /* next to powers of ten (the exponent changes when rounding) */
		return nextafter(pow(10, (double)(r % 60) - 30), (r >> 50 & 1) ? 1e300 : 0);
	case 4:
		return (r >> 60 & 1 ? -1 : 1) * exp((u - 0.5) * 80);
	default: /* a tie off by one unit in the last place */
		v = (double)(r % 100000) + 0.5;
		return nextafter(v, (r >> 50 & 1) ? 1e300 : 0) / pow(10, (double)(r >> 40 & 7));
	}
}

/* lab_fmt_g writes printf's bytes for every value and precision (and cuts as snprintf does). */
LAB_TEST(fmt_g_matches_printf)
{
	static const int prec[] = {1, 2, 4, 6, 9, 10, 12, 15, 17};
	uint64_t r = 0x9E3779B97F4A7C15ULL;
	unsigned long bad = 0;
	char a[64], b[64];

	for (unsigned long i = 0; i < 600000; i++) {
		double v;
		int p, na, nb;

		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		v = fmt_g_value(i, r);
		p = prec[(r >> 32) % (sizeof(prec) / sizeof(*prec))];
		na = fabs(v) >= 1.7975e308 ? snprintf(a, sizeof(a), "%.17g", v)
		                           : snprintf(a, sizeof(a), "%.*g", p, v);
		nb = lab_fmt_g(b, sizeof(b), p, v);
		if ((na != nb || strcmp(a, b)) && bad++ < 10)
			fprintf(stderr, "%%.%dg of %.17g: printf %s, lab_fmt_g %s\n", p, v, a, b);
	}
	CHECK(bad == 0);
	CHECK(lab_fmt_g(a, 4, 4, 1234.5678) == 4 && !strcmp(a, "123"));
	CHECK(lab_fmt_g(a, sizeof(a), 4, -0.0) == 2 && !strcmp(a, "-0"));
	CHECK(lab_fmt_g(a, sizeof(a), 10, 1e-5) == 5 && !strcmp(a, "1e-05"));
}

/* A value near DBL_MAX rounded to 10 digits printed 1.797693135e+308, above DBL_MAX: JSON and
 * CSV readers took it as inf. It gets every digit and reads back as itself. */
LAB_TEST(fmt_g_near_dbl_max_reads_back)
{
	static const double v[] = {DBL_MAX, -DBL_MAX, 1.7976e308, 1.7975e308};
	char a[64];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (int p = 1; p <= 12; p++) {
			lab_fmt_g(a, sizeof(a), p, v[i]);
			CHECK(strtod(a, NULL) == v[i]);
		}
	lab_fmt_g(a, sizeof(a), 10, 1.7e308);
	CHECK_EQ_STR(a, "1.7e+308");
}

LAB_TEST(err_null_safe_and_new_codes)
{
	struct lab_err e;

	CHECK_EQ_I64(lab_err_set(NULL, LAB_EDATA, "x %d", 1), -LAB_EDATA);
	CHECK_EQ_I64(lab_err_prefix(NULL, "ctx: "), -LAB_EINVAL);
	lab_err_set(&e, LAB_EMATH, "fit: %s", "singular");
	CHECK_EQ_I64(lab_err_prefix(&e, "series %d: ", 2), -LAB_EMATH);
	CHECK_EQ_STR(e.msg, "series 2: fit: singular");
}

/* A message longer than its buffer keeps its end, where it says what is wrong and what is
 * allowed: a 2,000-byte quoted value left "placement 'expr:0,0,0,...0,0" and no reason. */
LAB_TEST(err_long_message_keeps_its_end)
{
	char value[2001];
	struct lab_err e;
	size_t n;

	memset(value, '0', sizeof(value) - 1);
	value[sizeof(value) - 1] = '\0';
	lab_err_set(&e, LAB_ECONFIG, "placement '%s': too long (allowed at most 63 characters)",
	            value);
	n = strlen(e.msg);
	CHECK(n < sizeof(e.msg));
	CHECK(strncmp(e.msg, "placement '000", 14) == 0);
	CHECK(strstr(e.msg, "...") != NULL);
	CHECK(n > 43 && !strcmp(e.msg + n - 43, "': too long (allowed at most 63 characters)"));
	lab_err_set(&e, LAB_ECONFIG, "bad: %s", "x");
	CHECK_EQ_I64(lab_err_prefix(&e, "[s] key '%s': ", value), -LAB_ECONFIG);
	n = strlen(e.msg);
	CHECK(strncmp(e.msg, "[s] key '000", 12) == 0 && strstr(e.msg, "...000") != NULL);
	CHECK(n > 9 && !strcmp(e.msg + n - 9, "': bad: x"));
	/* a cut never splits a UTF-8 character */
	for (size_t i = 0; i + 1 < sizeof(value); i += 2)
		memcpy(value + i, "\xc3\xa9", 2);
	lab_err_set(&e, LAB_ECONFIG, "'%s' end", value);
	n = strlen(e.msg);
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)e.msg[i] & 0xc0) == 0xc0)
			CHECK(i + 1 < n && ((unsigned char)e.msg[i + 1] & 0xc0) == 0x80);
	CHECK(n > 5 && !strcmp(e.msg + n - 5, "' end"));
}

static char *write_file(const char *name, const char *text, size_t n)
{
	char *path = NULL;
	FILE *f;

	if (asprintf(&path, "%s/%s", testlib_tmpdir(), name) < 0)
		return NULL;
	f = fopen(path, "wb");
	if (f) {
		fwrite(text, 1, n, f);
		fclose(f);
	}
	return path;
}

LAB_TEST(file_read_regular)
{
	char *path = write_file("a.txt", "ab\0cd", 5), *buf = NULL;
	size_t len = 0;
	struct lab_err e;

	REQUIRE(path);
	REQUIRE(lab_file_read(path, 5, &buf, &len, &e) == 0);
	CHECK_EQ_U64(len, 5);
	CHECK(buf && !memcmp(buf, "ab\0cd", 6)); /* NUL-terminated */
	free(buf);
	CHECK_EQ_I64(lab_file_read(path, 4, &buf, &len, &e), -LAB_EIO);
	CHECK(buf == NULL);
	CHECK(strstr(e.msg, ": 5 bytes (allowed at most 4 bytes)") != NULL);
	free(path);
	path = write_file("empty.txt", "", 0);
	REQUIRE(lab_file_read(path, 1 << 20, &buf, &len, &e) == 0);
	CHECK_EQ_U64(len, 0);
	CHECK(buf && buf[0] == '\0');
	free(buf);
	free(path);
}

LAB_TEST(file_read_refuses_non_files)
{
	char *fifo = NULL, *buf = (char *)"x";
	size_t len;
	struct lab_err e;

	CHECK_EQ_I64(lab_file_read("/nonexistent/x", 100, &buf, &len, &e), -LAB_EIO);
	CHECK_EQ_STR(e.msg, "/nonexistent/x: cannot open: No such file or directory");
	CHECK(buf == NULL);
	CHECK_EQ_I64(lab_file_read("/dev/null", 100, &buf, &len, &e), -LAB_EIO);
	CHECK_EQ_STR(e.msg, "/dev/null: not a regular file (a character device; allowed: a regular "
	                    "file)");
	CHECK_EQ_I64(lab_file_read(testlib_tmpdir(), 100, &buf, &len, &e), -LAB_EIO);
	CHECK(strstr(e.msg, ": not a regular file (a directory; allowed: a regular file)") != NULL);
	/* A FIFO without a writer: refused at once, never blocks. */
	REQUIRE(asprintf(&fifo, "%s/fifo", testlib_tmpdir()) > 0);
	REQUIRE(mkfifo(fifo, 0600) == 0);
	CHECK_EQ_I64(lab_file_read(fifo, 100, &buf, &len, &e), -LAB_EIO);
	CHECK(strstr(e.msg, ": not a regular file (a FIFO; allowed: a regular file)") != NULL);
	free(fifo);
}

LAB_TEST(file_read_mib_cap_message)
{
	char *path = write_file("big.txt", "", 0), *buf;
	size_t len;
	struct lab_err e;
	FILE *f;

	REQUIRE(path);
	f = fopen(path, "wb");
	REQUIRE(f);
	REQUIRE(fseek(f, (1 << 20), SEEK_SET) == 0 && fputc('x', f) == 'x');
	fclose(f);
	CHECK_EQ_I64(lab_file_read(path, 1 << 20, &buf, &len, &e), -LAB_EIO);
	CHECK(strstr(e.msg, ": 1048577 bytes (allowed at most 1 MiB)") != NULL);
	free(path);
}

/* The keyed hash: the same bytes after the same h give the same value in one process; another
 * h, other bytes or another length give another; another process draws another key, so no
 * name can be made ahead to share a slot (hostile-inputs red team). */
LAB_TEST(hash_keyed_per_process)
{
	uint64_t a, theirs = 0;
	int fd[2];
	pid_t pid;

	/* the child hashes first, before this process has drawn its key: each draws its own */
	REQUIRE(pipe(fd) == 0);
	REQUIRE((pid = fork()) >= 0);
	if (pid == 0) {
		uint64_t h = lab_hash_bytes(0, "abc", 3);
		_exit(write(fd[1], &h, sizeof(h)) == (ssize_t)sizeof(h) ? 0 : 1);
	}
	close(fd[1]);
	REQUIRE(read(fd[0], &theirs, sizeof(theirs)) == (ssize_t)sizeof(theirs));
	close(fd[0]);
	waitpid(pid, NULL, 0);
	a = lab_hash_bytes(0, "abc", 3);
	CHECK(theirs != a);
	CHECK(a == lab_hash_bytes(0, "abc", 3));
	CHECK(a != lab_hash_bytes(1, "abc", 3));
	CHECK(a != lab_hash_bytes(0, "abd", 3));
	CHECK(a != lab_hash_bytes(0, "abc", 4)); /* with its NUL */
	CHECK(lab_hash_bytes(0, "", 0) != lab_hash_bytes(0, "", 1));
	/* 8-byte words and the tail: every byte counts */
	CHECK(lab_hash_bytes(0, "0123456789abcdef", 16) !=
	      lab_hash_bytes(0, "0123456789abcdeF", 16));
	CHECK(lab_hash_bytes(0, "0123456789abcdef", 16) !=
	      lab_hash_bytes(0, "1123456789abcdef", 16));
}
