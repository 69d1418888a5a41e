/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The build a run.json names (its "lab" object, harness/prov.c): as one line of text, and which
 * parts of two runs' builds differ. C flags, build type, sanitizer and OpenMP change the timed
 * code as much as the compiler does: compare said nothing of a -O0 or an ASan build beside a
 * release one.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/compare.h"

/* The parts of a build compared, in run.json's "lab" object ("auto_march." for its member). */
static const struct {
	const char *key, *label;
} an_build_part[] = {
    {"version", "lab version"},
    {"git_sha", "git sha"},
    {"git_dirty", "git dirty flag"},
    {"compiler", "compiler"},
    {"c_flags", "C flags"},
    {"build_type", "build type"},
    {"sanitize", "sanitizer"},
    {"openmp", "OpenMP"},
    {"auto_march.flag", "-march of the auto kernels"},
    {"auto_march.extra", "-m options of the auto kernels"},
    {"auto_march.arch", "target of the auto kernels"},
};
#define AN_BUILD_PARTS (sizeof(an_build_part) / sizeof(*an_build_part))

static const struct lab_an_json *an_build_get(const struct lab_an_json *run, const char *key)
{
	const struct lab_an_json *lab = lab_an_json_get(run, "lab");

	if (!strncmp(key, "auto_march.", 11))
		return lab_an_json_get(lab_an_json_get(lab, "auto_march"), key + 11);
	return lab_an_json_get(lab, key);
}

/* An empty string: what an older run.json without the member meant (no -m options, no
 * sanitizer). */
static int an_build_empty(const struct lab_an_json *v)
{
	return !v || (v->type == LAB_AN_JSON_STR && !*v->str);
}

/* Two scalars of run.json the same: both absent or empty, the same string, or the same number
 * or bool. */
static int an_build_same(const struct lab_an_json *a, const struct lab_an_json *b)
{
	if (!a || !b)
		return an_build_empty(a) && an_build_empty(b);
	if (a->type != b->type)
		return 0;
	if (a->type == LAB_AN_JSON_STR)
		return !strcmp(a->str, b->str);
	if (a->type == LAB_AN_JSON_NUM || a->type == LAB_AN_JSON_BOOL)
		return a->num == b->num || (isnan(a->num) && isnan(b->num));
	return 1; /* null, or an array or object where a scalar belongs: not told apart */
}

unsigned lab_an_build_diff(const struct lab_an_json *a, const struct lab_an_json *b)
{
	unsigned what = 0;

	if (!a || !b)
		return 0;
	for (unsigned i = 0; i < AN_BUILD_PARTS; i++)
		if (!an_build_same(an_build_get(a, an_build_part[i].key),
		                   an_build_get(b, an_build_part[i].key)))
			what |= 1u << i;
	return what;
}

const char *lab_an_build_part(unsigned i, int label)
{
	if (i >= AN_BUILD_PARTS)
		return NULL;
	return label ? an_build_part[i].label : an_build_part[i].key;
}

void lab_an_build_diff_text(unsigned what, char *buf, size_t len)
{
	size_t at = 0;

	*buf = '\0';
	for (unsigned i = 0; i < AN_BUILD_PARTS && at < len; i++)
		if (what & 1u << i) {
			int n = snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
			                 an_build_part[i].label);
			at += n > 0 ? (size_t)n : 0;
		}
}

/* s, or "?" for a member run.json lacks */
static const char *an_q(const char *s)
{
	return s ? s : "?";
}

void lab_an_build_text(const struct lab_an_json *run, char *buf, size_t len)
{
	const struct lab_an_json *lab = lab_an_json_get(run, "lab"),
	                         *am = lab_an_json_get(lab, "auto_march"),
	                         *dirty = lab_an_json_get(lab, "git_dirty"),
	                         *omp = lab_an_json_get(lab, "openmp");
	const char *bt = lab_an_json_str(lab, "build_type"), *fl = lab_an_json_str(lab, "c_flags"),
	           *san = lab_an_json_str(lab, "sanitize"), *extra = lab_an_json_str(am, "extra");
	*buf = '\0';
	if (!run)
		return;
	/* what an older run.json lacks is left out, not said as "?" */
	/* each part clipped, so a long one (C flags of 1000 bytes) leaves the others in the text */
	snprintf(
	    buf, len,
	    "lab %.40s (%.40s%s), %.120s%s%.40s%s%.300s%s%s%s%.80s%s, auto -march=%.80s%s%.120s "
	    "(%.80s)",
	    an_q(lab_an_json_str(lab, "version")), an_q(lab_an_json_str(lab, "git_sha")),
	    dirty && dirty->type == LAB_AN_JSON_BOOL && dirty->num ? ", dirty" : "",
	    an_q(lab_an_json_str(lab, "compiler")), bt && *bt ? ", " : "", bt ? bt : "",
	    fl ? ", C flags \"" : "", fl ? fl : "", fl && strlen(fl) > 300 ? "..." : "",
	    fl ? "\"" : "", san && *san ? ", sanitize=" : "", san && *san ? san : "",
	    !omp || omp->type != LAB_AN_JSON_BOOL ? ""
	    : omp->num                            ? ", OpenMP"
	                                          : ", no OpenMP",
	    an_q(lab_an_json_str(am, "flag")), extra && *extra ? " " : "", extra ? extra : "",
	    an_q(lab_an_json_str(am, "arch")));
}

const char *lab_an_build_sanitize(const struct lab_an_json *run)
{
	const char *san = lab_an_json_str(lab_an_json_get(run, "lab"), "sanitize");

	return san && *san ? san : NULL;
}
