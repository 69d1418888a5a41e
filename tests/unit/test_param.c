/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The typed parameter layer: every type and suffix, bounds and their messages, malformed input,
 * overflow, booleans, enums, the format -> parse round trip, and the edit distance behind
 * "did you mean".
 */
#include <stdbool.h>
#include <stdint.h>

#include "harness/param.h"
#include "tests/testlib.h"

struct tp_params {
	uint64_t count;
	uint64_t bytes;
	uint64_t wait;
	double ratio;
	bool flag;
	int mode;
	char name[LAB_STR_MAX];
};

static const struct lab_enum_val tp_modes[] = {
    {"fast", 3, "quick"},
    {"slow", 7, "careful"},
    {NULL, 0, NULL},
};

static const struct lab_param tp_table[] = {
    LAB_P_U64(struct tp_params, count, "count", "10", 1, 1000000, "ops", "A count."),
    LAB_P_SIZE(struct tp_params, bytes, "bytes", "4K", 8, 1073741824ull, "A size."),
    LAB_P_DURATION(struct tp_params, wait, "wait", "20ms", 0, 60000000000ull, "A duration.",
                   LAB_APPLIES("mode=slow")),
    LAB_P_DOUBLE(struct tp_params, ratio, "ratio", "0.5", 0, 1, "", "A fraction."),
    LAB_P_BOOL(struct tp_params, flag, "flag", "false", "A switch."),
    LAB_P_ENUM(struct tp_params, mode, "mode", "fast", tp_modes, "A choice."),
    LAB_P_STR(struct tp_params, name, "name", "x", "A text."),
    LAB_PARAM_END,
};

static const struct lab_param *tp(const char *key)
{
	const struct lab_param *p = lab_param_find(tp_table, key);
	if (!p)
		fprintf(stderr, "no param %s\n", key);
	return p;
}

/* Parses text into a fresh struct; returns the rc and leaves the message in err. */
static int tp_parse(const char *key, const char *text, struct tp_params *out, struct lab_err *err)
{
	memset(out, 0, sizeof(*out));
	*err = (struct lab_err){0};
	return lab_param_parse(tp(key), text, out, err);
}

static uint64_t u64_of(int (*fn)(const char *, uint64_t *, struct lab_err *), const char *text)
{
	struct lab_err err = {0};
	uint64_t v = 12345;
	int rc = fn(text, &v, &err);
	if (rc)
		fprintf(stderr, "'%s': %s\n", text, err.msg);
	return rc ? UINT64_MAX : v;
}

static const char *u64_error(int (*fn)(const char *, uint64_t *, struct lab_err *),
                             const char *text)
{
	static struct lab_err err;
	uint64_t v = 0;

	err = (struct lab_err){0};
	if (fn(text, &v, &err) == 0)
		return "(accepted)";
	return err.msg;
}

LAB_TEST(u64_plain_and_suffixes)
{
	CHECK_EQ_U64(u64_of(lab_parse_u64, "0"), 0);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "42"), 42);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "  42\t"), 42);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "3K"), 3000);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "3k"), 3000);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "10M"), 10000000);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "2G"), 2000000000);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "1.5K"), 1500);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "18446744073709551615"), UINT64_MAX);
	/* Above 2^53 plain digits stay exact. */
	CHECK_EQ_U64(u64_of(lab_parse_u64, "9007199254740993"), 9007199254740993ull);
}

LAB_TEST(u64_errors)
{
	CHECK_EQ_STR(u64_error(lab_parse_u64, ""),
	             "empty value (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "   "),
	             "empty value (expected an integer, e.g. 1000 or 10M)");
	/* 128 characters or more: said so, not "empty" (150 nines read "empty value") */
	char many[151];
	memset(many, '9', 150);
	many[150] = 0;
	CHECK_EQ_STR(u64_error(lab_parse_u64, many),
	             "too long, at most 127 characters (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "-1"),
	             "negative value (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "abc"),
	             "not a number (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "inf"),
	             "not a number (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "nan"),
	             "not a number (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "1.5"),
	             "not a whole number (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "4KiB"),
	             "unknown suffix 'KiB' (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "4 x"),
	             "unknown suffix 'x' (expected an integer, e.g. 1000 or 10M)");
}

LAB_TEST(u64_overflow)
{
	CHECK_EQ_STR(u64_error(lab_parse_u64, "18446744073709551616"),
	             "too large (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "99999999999999999999999"),
	             "too large (expected an integer, e.g. 1000 or 10M)");
	/* Through a suffix or an exponent: past 2^64 is too large, not "not a whole number". */
	CHECK_EQ_STR(u64_error(lab_parse_u64, "20000000000G"),
	             "too large (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "1e400"),
	             "too large (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "1e-400"),
	             "not a whole number (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_size, "99999999999999999999K"),
	             "too large (expected a size in bytes, e.g. 64, 4K, 1MiB, 2G)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "1.5"),
	             "not a whole number (expected an integer, e.g. 1000 or 10M)");
}

/* Integers are read on their decimal digits, never through a double: nothing is rounded. */
LAB_TEST(integers_exact)
{
	const char *whole = "not a whole number (expected an integer, e.g. 1000 or 10M)";

	CHECK_EQ_STR(u64_error(lab_parse_u64, "9007199254740993.5"), whole);
	CHECK_EQ_STR(u64_error(lab_parse_u64, "1.0000000000000001"), whole);
	CHECK_EQ_STR(u64_error(lab_parse_u64, "0.5K"), "(accepted)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "0.0005K"), whole);
	/* below 0.1: the digits kept start past the point (fuzz: an index of -3 read them) */
	CHECK_EQ_STR(u64_error(lab_parse_u64, "00.00040075284104137932"), whole);
	CHECK_EQ_STR(u64_error(lab_parse_u64, "0.0004K"), whole);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "0.04K"), 40);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "9007199254740993.0"), 9007199254740993ull);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "12345678901234567.8K"), 12345678901234567800ull);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "18446744073709551.615K"), UINT64_MAX);
	CHECK_EQ_STR(u64_error(lab_parse_u64, "18446744073709551.616K"),
	             "too large (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_U64(u64_of(lab_parse_u64, "9007199254740993e0"), 9007199254740993ull);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "90071992547409930e-1"), 9007199254740993ull);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "1e19"), 10000000000000000000ull);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "0.001K"), 1); /* whole exactly: 0.001 × 1000 */
	CHECK_EQ_U64(u64_of(lab_parse_u64, "000000000000000000000000000042"), 42);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "42.000000000000000000000000000000"), 42);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "0e999999999999"), 0);
	CHECK_EQ_U64(u64_of(lab_parse_u64, ".5K"), 500);
	CHECK_EQ_U64(u64_of(lab_parse_u64, "+7"), 7);
	CHECK_EQ_STR(u64_error(lab_parse_u64, "1e"),
	             "unknown suffix 'e' (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_u64, "."),
	             "not a number (expected an integer, e.g. 1000 or 10M)");
	/* sizes: binary suffixes, exact far past 2^53 */
	CHECK_EQ_U64(u64_of(lab_parse_size, "8589934591.75K"), 8796093021952ull);
	CHECK_EQ_U64(u64_of(lab_parse_size, "17179869183.999999999G"), 18446744073709551615ull);
	CHECK_EQ_STR(u64_error(lab_parse_size, "17179869184G"),
	             "too large (expected a size in bytes, e.g. 64, 4K, 1MiB, 2G)");
	CHECK_EQ_U64(u64_of(lab_parse_size, "0.000000000931322574615478515625G"), 1);
	CHECK_EQ_STR(u64_error(lab_parse_size, "0.1K"),
	             "not a whole number (expected a size in bytes, e.g. 64, 4K, 1MiB, 2G)");
	/* durations: 2^64 - 1 ns, and a fraction of a nanosecond */
	CHECK_EQ_U64(u64_of(lab_parse_duration, "18446744073.709551615s"), UINT64_MAX);
	CHECK_EQ_U64(u64_of(lab_parse_duration, "9007199254740993ns"), 9007199254740993ull);
	CHECK_EQ_STR(u64_error(lab_parse_duration, "18446744073.709551616s"),
	             "too large (expected a duration with unit ns, us, ms or s, e.g. 50us)");
	CHECK_EQ_STR(
	    u64_error(lab_parse_duration, "1.0000000001s"),
	    "not a whole number (expected a duration with unit ns, us, ms or s, e.g. 50us)");
}

/* A key's value that is no whole count of its unit, or past 2^64, names the key's range. */
LAB_TEST(integers_exact_field_messages)
{
	struct tp_params v;
	struct lab_err err;

	CHECK_EQ_I64(tp_parse("count", "2.5", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "not a whole number (allowed 1 .. 1000000 ops)");
	CHECK_EQ_I64(tp_parse("count", "99999999999999999999K", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "too large (allowed 1 .. 1000000 ops)");
	CHECK_EQ_I64(tp_parse("bytes", "8.5", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "not a whole number of bytes (allowed 8 .. 1G bytes)");
	CHECK_EQ_I64(tp_parse("wait", "1e-400s", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "too small: under 1ns, the smallest step (allowed 0 .. 60s)");
	CHECK_EQ_I64(tp_parse("wait", "2.5ns", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "not a whole number of nanoseconds (allowed 0 .. 60s)");
	CHECK_EQ_I64(tp_parse("wait", "wait", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg,
	             "not a number (expected a duration with unit ns, us, ms or s, e.g. 50us; "
	             "allowed 0 .. 60s)");
	CHECK_EQ_I64(tp_parse("ratio", "1e-400", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "too close to 0 (expected 0 or a number of magnitude 1e-307 or more, "
	                      "e.g. 0.5)");
}

/* Hexadecimal is no documented form: strtod would read "0x10" as 16 and "0x1p6" as 64. */
LAB_TEST(hex_refused)
{
	CHECK_EQ_STR(u64_error(lab_parse_u64, "0x10"),
	             "not a number (expected an integer, e.g. 1000 or 10M)");
	CHECK_EQ_STR(u64_error(lab_parse_size, "0x1p6"),
	             "not a number (expected a size in bytes, e.g. 64, 4K, 1MiB, 2G)");
	CHECK_EQ_STR(u64_error(lab_parse_duration, "0x10ms"),
	             "not a number (expected a duration with unit ns, us, ms or s, e.g. 50us)");
	double v = 0;
	struct lab_err err = {0};
	CHECK(lab_parse_double("0x1p-2", &v, &err) != 0);
	CHECK(lab_parse_double("1e-2", &v, &err) == 0 && v == 0.01);
}

LAB_TEST(size_suffixes)
{
	CHECK_EQ_U64(u64_of(lab_parse_size, "64"), 64);
	CHECK_EQ_U64(u64_of(lab_parse_size, "64B"), 64);
	CHECK_EQ_U64(u64_of(lab_parse_size, "4K"), 4096);
	CHECK_EQ_U64(u64_of(lab_parse_size, "4k"), 4096);
	CHECK_EQ_U64(u64_of(lab_parse_size, "4KiB"), 4096);
	CHECK_EQ_U64(u64_of(lab_parse_size, "3M"), 3145728);
	CHECK_EQ_U64(u64_of(lab_parse_size, "3MiB"), 3145728);
	CHECK_EQ_U64(u64_of(lab_parse_size, "2G"), 2147483648ull);
	CHECK_EQ_U64(u64_of(lab_parse_size, "2GiB"), 2147483648ull);
	CHECK_EQ_U64(u64_of(lab_parse_size, "1.5K"), 1536);
	CHECK_EQ_U64(u64_of(lab_parse_size, "4 K"), 4096);
}

LAB_TEST(size_errors)
{
	const char *allowed = "(expected a size in bytes, e.g. 64, 4K, 1MiB, 2G)";
	char want[160];

	snprintf(want, sizeof(want), "unknown suffix 'KB' %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_size, "4KB"), want);
	snprintf(want, sizeof(want), "unknown suffix 'TiB' %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_size, "1TiB"), want);
	snprintf(want, sizeof(want), "unknown suffix 'm' %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_size, "4m"), want);
	snprintf(want, sizeof(want), "not a number %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_size, "K"), want);
	snprintf(want, sizeof(want), "not a whole number %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_size, "0.3"), want);
	snprintf(want, sizeof(want), "negative value %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_size, "-4K"), want);
}

LAB_TEST(duration_suffixes)
{
	CHECK_EQ_U64(u64_of(lab_parse_duration, "0"), 0);
	CHECK_EQ_U64(u64_of(lab_parse_duration, "7ns"), 7);
	CHECK_EQ_U64(u64_of(lab_parse_duration, "50us"), 50000);
	CHECK_EQ_U64(u64_of(lab_parse_duration, "20ms"), 20000000);
	CHECK_EQ_U64(u64_of(lab_parse_duration, "2s"), 2000000000);
	CHECK_EQ_U64(u64_of(lab_parse_duration, "1.5ms"), 1500000);
	CHECK_EQ_U64(u64_of(lab_parse_duration, " 3 s "), 3000000000ull);
}

LAB_TEST(duration_errors)
{
	const char *allowed = "(expected a duration with unit ns, us, ms or s, e.g. 50us)";
	char want[160];

	snprintf(want, sizeof(want), "missing unit %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_duration, "5"), want);
	snprintf(want, sizeof(want), "unknown suffix 'h' %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_duration, "1h"), want);
	snprintf(want, sizeof(want), "unknown suffix 'sec' %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_duration, "1sec"), want);
	snprintf(want, sizeof(want), "unknown suffix 'MS' %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_duration, "1MS"), want);
	snprintf(want, sizeof(want), "not a whole number %s", allowed);
	CHECK_EQ_STR(u64_error(lab_parse_duration, "0.5ns"), want);
}

LAB_TEST(double_values)
{
	struct lab_err err = {0};
	double d = -1;

	CHECK_EQ_I64(lab_parse_double("0.25", &d, &err), 0);
	CHECK_NEAR(d, 0.25, 0);
	CHECK_EQ_I64(lab_parse_double(" -3e2 ", &d, &err), 0);
	CHECK_NEAR(d, -300, 0);
	CHECK_EQ_I64(lab_parse_double("1x", &d, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "not a number (expected a number, e.g. 0.5)");
	CHECK_EQ_I64(lab_parse_double("inf", &d, &err), -LAB_ECONFIG);
	CHECK_EQ_I64(lab_parse_double("nan", &d, &err), -LAB_ECONFIG);
	CHECK_EQ_I64(lab_parse_double("1e999", &d, &err), -LAB_ECONFIG);
	CHECK_EQ_I64(lab_parse_double("", &d, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "empty value (expected a number)");
	char many[151];
	memset(many, '0', 150);
	many[150] = 0;
	CHECK_EQ_I64(lab_parse_double(many, &d, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "too long, at most 127 characters (expected a number, e.g. 0.5)");
}

LAB_TEST(bools)
{
	static const char *const yes[] = {"true", "TRUE", "yes", "on", "1", " On "};
	static const char *const no[] = {"false", "False", "no", "off", "0", "\tOFF"};
	struct lab_err err = {0};
	bool b;

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		CHECK_EQ_I64(lab_parse_bool(yes[i], &b, &err), 0);
		CHECK(b);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		CHECK_EQ_I64(lab_parse_bool(no[i], &b, &err), 0);
		CHECK(!b);
	}
	static const char *const bad[] = {"",      "2",       "y",
	                                  "truee", "enabled", "a very long text here"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ_I64(lab_parse_bool(bad[i], &b, &err), -LAB_ECONFIG);
		CHECK_EQ_STR(err.msg, "not a boolean (allowed true/false, yes/no, on/off, 1/0)");
	}
}

LAB_TEST(typed_fields_and_bounds)
{
	struct tp_params v;
	struct lab_err err;

	CHECK_EQ_I64(tp_parse("count", "1", &v, &err), 0);
	CHECK_EQ_U64(v.count, 1);
	CHECK_EQ_I64(tp_parse("count", "1M", &v, &err), 0);
	CHECK_EQ_U64(v.count, 1000000);
	CHECK_EQ_I64(tp_parse("count", "0", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "out of range (allowed 1 .. 1000000 ops)");
	CHECK_EQ_I64(tp_parse("count", "1000001", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "out of range (allowed 1 .. 1000000 ops)");
	CHECK_EQ_U64(v.count, 0); /* nothing stored on error */

	CHECK_EQ_I64(tp_parse("bytes", "1G", &v, &err), 0);
	CHECK_EQ_U64(v.bytes, 1073741824ull);
	CHECK_EQ_I64(tp_parse("bytes", "4", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "out of range (allowed 8 .. 1G bytes)");
	CHECK_EQ_I64(tp_parse("bytes", "2G", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "out of range (allowed 8 .. 1G bytes)");

	CHECK_EQ_I64(tp_parse("wait", "60s", &v, &err), 0);
	CHECK_EQ_U64(v.wait, 60000000000ull);
	CHECK_EQ_I64(tp_parse("wait", "61s", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "out of range (allowed 0 .. 60s)");

	CHECK_EQ_I64(tp_parse("ratio", "1", &v, &err), 0);
	CHECK_NEAR(v.ratio, 1, 0);
	CHECK_EQ_I64(tp_parse("ratio", "1.01", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "out of range (allowed 0 .. 1)");
	CHECK_EQ_I64(tp_parse("ratio", "-0.1", &v, &err), -LAB_ECONFIG);

	CHECK_EQ_I64(tp_parse("flag", "yes", &v, &err), 0);
	CHECK(v.flag);
	CHECK_EQ_I64(tp_parse("flag", "maybe", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "not a boolean (allowed true/false, yes/no, on/off, 1/0)");

	CHECK_EQ_I64(tp_parse("name", "  hello world ", &v, &err), 0);
	CHECK_EQ_STR(v.name, "hello world");
	char longer[LAB_STR_MAX + 8];
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	CHECK_EQ_I64(tp_parse("name", longer, &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "too long (allowed at most 63 characters)");
}

/* A key that has effect only at some values of an enum key of its table (LAB_APPLIES). */
LAB_TEST(applies)
{
	struct tp_params v;
	struct lab_err err;
	const struct lab_param three = {.key = "k", .applies = "mode=a|b|c"};
	char buf[64], tiny[6];

	REQUIRE(lab_param_defaults(tp_table, &v, &err) == 0);
	CHECK(lab_param_applies(tp_table, tp("count"), &v)); /* no condition */
	CHECK(!lab_param_applies(tp_table, tp("wait"), &v)); /* mode = fast */
	v.mode = 7;
	CHECK(lab_param_applies(tp_table, tp("wait"), &v));
	CHECK_EQ_I64(lab_param_applies_value(tp("wait"), "mode", "slow"), 1);
	CHECK_EQ_I64(lab_param_applies_value(tp("wait"), "mode", "fast"), 0);
	CHECK_EQ_I64(lab_param_applies_value(tp("wait"), "mode", "slo"), 0);
	CHECK_EQ_I64(lab_param_applies_value(tp("wait"), "mod", "slow"), -1);
	CHECK_EQ_I64(lab_param_applies_value(tp("wait"), "modes", "slow"), -1);
	CHECK_EQ_I64(lab_param_applies_value(tp("count"), "mode", "slow"), -1);
	CHECK_EQ_I64(lab_param_applies_value(&three, "mode", "c"), 1);
	CHECK_EQ_I64(lab_param_applies_value(&three, "mode", "a|b"), 0);
	lab_param_applies_text(tp("wait"), buf, sizeof(buf));
	CHECK_EQ_STR(buf, "mode = slow");
	lab_param_applies_text(tp("count"), buf, sizeof(buf));
	CHECK_EQ_STR(buf, "");
	lab_param_applies_text(&three, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "mode = a, b or c");
	lab_param_applies_text(&three, tiny, sizeof(tiny));
	CHECK_EQ_STR(tiny, "mode ");
}

LAB_TEST(enums)
{
	struct tp_params v;
	struct lab_err err;

	CHECK_EQ_I64(tp_parse("mode", "slow", &v, &err), 0);
	CHECK_EQ_I64(v.mode, 7);
	CHECK_EQ_I64(tp_parse("mode", " fast ", &v, &err), 0);
	CHECK_EQ_I64(v.mode, 3);
	CHECK_EQ_I64(tp_parse("mode", "Fast", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "unknown choice (allowed one of: fast, slow)");
	CHECK_EQ_I64(tp_parse("mode", "", &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "unknown choice (allowed one of: fast, slow)");
}

LAB_TEST(defaults_fill_every_field)
{
	struct tp_params v;
	struct lab_err err = {0};

	memset(&v, 0xff, sizeof(v));
	REQUIRE(lab_param_defaults(tp_table, &v, &err) == 0);
	CHECK_EQ_U64(v.count, 10);
	CHECK_EQ_U64(v.bytes, 4096);
	CHECK_EQ_U64(v.wait, 20000000);
	CHECK_NEAR(v.ratio, 0.5, 0);
	CHECK(!v.flag);
	CHECK_EQ_I64(v.mode, 3);
	CHECK_EQ_STR(v.name, "x");

	static const struct lab_param bad[] = {
	    LAB_P_U64(struct tp_params, count, "count", "0", 1, 10, "", "Bad default."),
	    LAB_PARAM_END,
	};
	CHECK_EQ_I64(lab_param_defaults(bad, &v, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "default of 'count' = '0': out of range (allowed 1 .. 10)");
}

LAB_TEST(allowed_and_type_names)
{
	char buf[128];

	lab_param_allowed(tp("count"), buf, sizeof(buf));
	CHECK_EQ_STR(buf, "1 .. 1000000 ops");
	lab_param_allowed(tp("bytes"), buf, sizeof(buf));
	CHECK_EQ_STR(buf, "8 .. 1G bytes");
	lab_param_allowed(tp("wait"), buf, sizeof(buf));
	CHECK_EQ_STR(buf, "0 .. 60s");
	lab_param_allowed(tp("flag"), buf, sizeof(buf));
	CHECK_EQ_STR(buf, "true or false (or yes/no, on/off, 1/0)");
	lab_param_allowed(tp("mode"), buf, sizeof(buf));
	CHECK_EQ_STR(buf, "one of: fast, slow");
	/* A short buffer truncates, never overflows. */
	char tiny[6];
	lab_param_allowed(tp("mode"), tiny, sizeof(tiny));
	CHECK_EQ_STR(tiny, "one o");

	CHECK_EQ_STR(lab_param_type_name(LAB_PT_U64), "integer");
	CHECK_EQ_STR(lab_param_type_name(LAB_PT_SIZE), "size");
	CHECK_EQ_STR(lab_param_type_name(LAB_PT_DURATION), "duration");
	CHECK_EQ_STR(lab_param_type_name(LAB_PT_DOUBLE), "number");
	CHECK_EQ_STR(lab_param_type_name(LAB_PT_BOOL), "bool");
	CHECK_EQ_STR(lab_param_type_name(LAB_PT_ENUM), "choice");
	CHECK_EQ_STR(lab_param_type_name(LAB_PT_STR), "text");
	CHECK(lab_param_find(tp_table, "nope") == NULL);
	CHECK(lab_param_find(NULL, "count") == NULL);
}

/* format(parse(text)) parses back to the same value, and formats to the expected text. */
static void round_trip(const char *key, const char *text, const char *formatted)
{
	struct tp_params a, b;
	struct lab_err err;
	char buf[128];

	if (tp_parse(key, text, &a, &err) != 0) {
		fprintf(stderr, "%s = %s: %s\n", key, text, err.msg);
		testlib_fail();
		return;
	}
	lab_param_format(tp(key), &a, buf, sizeof(buf));
	CHECK_EQ_STR(buf, formatted);
	if (tp_parse(key, buf, &b, &err) != 0) {
		fprintf(stderr, "%s = %s (formatted): %s\n", key, buf, err.msg);
		testlib_fail();
		return;
	}
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
}

LAB_TEST(format_round_trip)
{
	round_trip("count", "1K", "1000");
	round_trip("count", "999999", "999999");
	round_trip("bytes", "8", "8");
	round_trip("bytes", "4KiB", "4K");
	round_trip("bytes", "1536", "1536");
	round_trip("bytes", "3MiB", "3M");
	round_trip("bytes", "1G", "1G");
	round_trip("bytes", "1025K", "1025K");
	round_trip("wait", "0", "0");
	round_trip("wait", "0ms", "0");
	round_trip("wait", "1500us", "1500us");
	round_trip("wait", "2000ms", "2s");
	round_trip("wait", "7ns", "7ns");
	round_trip("wait", "60s", "60s");
	round_trip("ratio", "0.25", "0.25");
	round_trip("ratio", "1", "1");
	round_trip("flag", "on", "true");
	round_trip("flag", "0", "false");
	round_trip("mode", "slow", "slow");
	round_trip("name", " abc ", "abc");
}

LAB_TEST(edit_distance)
{
	CHECK_EQ_U64(lab_edit_distance("", ""), 0);
	CHECK_EQ_U64(lab_edit_distance("stride", "stride"), 0);
	CHECK_EQ_U64(lab_edit_distance("strid", "stride"), 1);
	CHECK_EQ_U64(lab_edit_distance("stirde", "stride"), 2);
	CHECK_EQ_U64(lab_edit_distance("thread", "threads"), 1);
	CHECK_EQ_U64(lab_edit_distance("kitten", "sitting"), 3);
	CHECK_EQ_U64(lab_edit_distance("", "abc"), 3);
	CHECK_EQ_U64(lab_edit_distance("abc", ""), 3);
	CHECK_EQ_U64(lab_edit_distance("abc", "xyz"), 3);
	CHECK_EQ_U64(lab_edit_distance("nop", "noop"), 1);
	CHECK_EQ_U64(lab_edit_distance("noop", "nop"), 1);
	/* Symmetric. */
	CHECK_EQ_U64(lab_edit_distance("placement", "placment"),
	             lab_edit_distance("placment", "placement"));
	/* Capped at 100 for long words (no quadratic work on hostile input). */
	char longer[160];
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	CHECK_EQ_U64(lab_edit_distance(longer, "a"), 100);
	CHECK_EQ_U64(lab_edit_distance("a", longer), 100);
}
