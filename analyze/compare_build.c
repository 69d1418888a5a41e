/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The build a run.json names (its "lab" object, harness/prov.c): as one line of text, and which
 * parts of two runs' builds differ. C flags, build type, sanitizer and OpenMP change the timed
 * code as much as the compiler does: compare said nothing of a -O0 or an ASan build beside a
 * release one. A member of another type than prov.c writes (a number for a text) is read as
 * absent, by the text and the diff alike, so no difference is named that the texts do not show.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/compare.h"
#include "analyze/err.h"

/* How a part is read: a text (absent, null and "" the same), a flag (a bool, absent the same as
 * false: git_dirty), a bool whose absence the text shows apart (openmp), an object of texts. */
enum an_build_kind { AN_B_STR, AN_B_FLAG, AN_B_BOOL, AN_B_ENV };

/* The parts of a build compared, in run.json's "lab" object ("auto_march." for its member). */
static const struct {
	const char *key, *label;
	enum an_build_kind kind;
} an_build_part[] = {
    {"version", "lab version", AN_B_STR},
    {"git_sha", "git sha", AN_B_STR},
    {"git_dirty", "git dirty flag", AN_B_FLAG},
    {"compiler", "compiler", AN_B_STR},
    {"c_flags", "C flags", AN_B_STR},
    {"build_type", "build type", AN_B_STR},
    {"sanitize", "sanitizer", AN_B_STR},
    {"openmp", "OpenMP", AN_B_BOOL},
    {"auto_march.flag", "-march of the auto kernels", AN_B_STR},
    {"auto_march.extra", "-m options of the auto kernels", AN_B_STR},
    {"auto_march.arch", "target of the auto kernels", AN_B_STR},
    {"auto_march.tune", "tuning of the auto kernels", AN_B_STR},
    {"auto_march.isa", "widest ISA of the auto kernels", AN_B_STR},
    {"auto_march.vectors", "vector width of the auto kernels", AN_B_STR},
    {"openmp_env", "OpenMP environment", AN_B_ENV},
};
#define AN_BUILD_PARTS (sizeof(an_build_part) / sizeof(*an_build_part))

/* How much of each part the text keeps (a longer one ends in "..."; C flags and the auto
 * kernels' target, a CPU and its extensions, 300 bytes): C flags of 1000 bytes
 * leave the other parts in the text. */
#define AN_CLIP_FLAGS 300
#define AN_CLIP_NAME  40
#define AN_CLIP_TEXT  80
#define AN_CLIP_LONG  120

#define AN_AUTO "auto_march."

/* 1 when key is a member of the auto kernels' "auto_march" object */
static int an_is_auto(const char *key)
{
	return !strncmp(key, AN_AUTO, sizeof(AN_AUTO) - 1);
}

/* Member key of run's "lab" ("auto_march.x" in its object), when it is of the kind's type. */
static const struct lab_an_json *an_build_typed(const struct lab_an_json *run, const char *key,
                                                enum an_build_kind kind)
{
	const struct lab_an_json *v = lab_an_json_get(run, "lab");

	if (an_is_auto(key)) {
		v = lab_an_json_get(v, "auto_march");
		key += sizeof(AN_AUTO) - 1;
	}
	v = lab_an_json_get(v, key);
	if (!v)
		return NULL;
	if (kind == AN_B_STR)
		return v->type == LAB_AN_JSON_STR ? v : NULL;
	if (kind == AN_B_ENV)
		return v->type == LAB_AN_JSON_OBJ ? v : NULL;
	return v->type == LAB_AN_JSON_BOOL ? v : NULL;
}

static const char *an_build_str(const struct lab_an_json *run, const char *key)
{
	const struct lab_an_json *v = an_build_typed(run, key, AN_B_STR);

	return v ? v->str : NULL;
}

/* The text members of env (openmp_env) that b lacks or gives another text: 0 when none. */
static int an_env_missing(const struct lab_an_json *a, const struct lab_an_json *b)
{
	for (size_t i = 0; a && i < a->n; i++) {
		const char *o = lab_an_json_str(b, a->keys[i]);

		if (a->items[i].type == LAB_AN_JSON_STR && (!o || strcmp(o, a->items[i].str)))
			return 1;
	}
	return 0;
}

/* Part i of two run.json the same, as their texts show it. */
static int an_build_same(const struct lab_an_json *ra, const struct lab_an_json *rb, unsigned i)
{
	enum an_build_kind k = an_build_part[i].kind;
	const struct lab_an_json *a = an_build_typed(ra, an_build_part[i].key, k),
	                         *b = an_build_typed(rb, an_build_part[i].key, k);

	/* the auto kernels' parts one side did not record (a run.json of before auto_march): not
	 * known to differ, so not said to */
	if ((!a || !b) && an_is_auto(an_build_part[i].key))
		return 1;
	switch (k) {
	case AN_B_STR:
		return !strcmp(a ? a->str : "", b ? b->str : "");
	case AN_B_FLAG:
		return (a && a->num) == (b && b->num);
	case AN_B_BOOL:
		return (a ? (int)a->num : -1) == (b ? (int)b->num : -1);
	case AN_B_ENV:
		return !an_env_missing(a, b) && !an_env_missing(b, a);
	}
	return 1;
}

unsigned lab_an_build_diff(const struct lab_an_json *a, const struct lab_an_json *b)
{
	unsigned what = 0;

	const struct lab_an_json *la = lab_an_json_get(a, "lab"), *lb = lab_an_json_get(b, "lab");

	/* a side that records no build ("lab" absent or no object) differs in nothing known */
	if (!la || !lb || la->type != LAB_AN_JSON_OBJ || lb->type != LAB_AN_JSON_OBJ)
		return 0;
	for (unsigned i = 0; i < AN_BUILD_PARTS; i++)
		if (!an_build_same(a, b, i))
			what |= 1u << i;
	return what;
}

const char *lab_an_build_part(unsigned i, int label)
{
	if (i >= AN_BUILD_PARTS)
		return NULL;
	return label ? an_build_part[i].label : an_build_part[i].key;
}

const char *lab_an_build_diff_scope(unsigned what)
{
	unsigned autos = 0, env = 0;

	for (unsigned i = 0; i < AN_BUILD_PARTS; i++) {
		autos |= an_is_auto(an_build_part[i].key) ? 1u << i : 0;
		env |= strcmp(an_build_part[i].key, "openmp_env") ? 0 : 1u << i;
	}
	return what && !(what & ~autos) ? "isa=auto" : what && what == env ? "openmp" : "all";
}

const char *lab_an_build_scope_clause(unsigned what, const char **whose)
{
	const char *scope = lab_an_build_diff_scope(what);

	*whose = "build's";
	if (!strcmp(scope, "isa=auto")) /* the other variants' files are compiled alike */
		return "only the isa=auto points ran code built differently (the auto kernels' "
		       "-march; the other variants are compiled alike)";
	if (!strcmp(scope, "openmp")) {
		*whose = "environment's";
		return "only the OpenMP kernels' points ran under another OpenMP environment";
	}
	return NULL;
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

/* A text being built: what does not fit is cut, at a character boundary. */
struct an_buf {
	char *p;
	size_t len, at;
};

static void an_put(struct an_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void an_put(struct an_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->at + 1 >= b->len)
		return;
	char *text = NULL;
	size_t room = b->len - b->at - 1;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > room) { /* cut: end on a whole character, the cut marked */
		n = lab_an_utf8_fit(text, room >= 3 ? room - 3 : room);
		if (room >= 3) {
			memcpy(text + n, "...", 3);
			n += 3;
		}
	}
	memcpy(b->p + b->at, text, (size_t)n);
	b->at += (size_t)n;
	b->p[b->at] = '\0';
	free(text);
}

/* s (or "?" when NULL) cut to max bytes at a character boundary, "..." marking a cut. */
static void an_put_clip(struct an_buf *b, const char *s, size_t max)
{
	int fit;

	s = s ? s : "?";
	fit = lab_an_utf8_fit(s, max);
	an_put(b, "%.*s%s", fit, s, s[fit] ? "..." : "");
}

/* ', C flags "FL"'; when other differs from fl only past what the text keeps of fl, the text
 * starts a little before the first difference, saying how many bytes before it are the same. */
/* Where s is shown from against o: SIZE_MAX (from its start) unless the two differ only past
 * what max bytes of s keep; then at a character back bytes before the first difference. */
static size_t an_shown_from(const char *s, const char *o, size_t max, size_t back)
{
	size_t k = 0, from, fit = s ? (size_t)lab_an_utf8_fit(s, max) : 0;

	while (s && o && s[k] && s[k] == o[k])
		k++;
	/* shown whole, or cut past the first difference: from its start ("x86-64" against
	 * "x86-64-v4" read "(the first 0 bytes the same) ...x86-64") */
	if (!s || !o || !strcmp(s, o) || !s[fit] || k < fit)
		return SIZE_MAX;
	for (from = k > back ? k - back : 0; from > 0 && ((unsigned char)s[from] & 0xc0) == 0x80;)
		from--;
	return from;
}

static void an_put_flags(struct an_buf *b, const char *fl, const char *other)
{
	size_t from = an_shown_from(fl, other, AN_CLIP_FLAGS, 40);

	if (from == SIZE_MAX) {
		an_put(b, ", C flags \"");
		an_put_clip(b, fl, AN_CLIP_FLAGS);
		an_put(b, "\"");
		return;
	}
	an_put(b, ", C flags (the first %zu bytes the same) \"...", from);
	an_put_clip(b, fl + from, AN_CLIP_FLAGS);
	an_put(b, "\"");
}

/* s as an_put_clip puts it; when o differs from it only past what the clip keeps, from a
 * little before the first difference ("(the first N bytes the same) ..."), so two texts of
 * builds that differ never read the same. */
static void an_put_str_vs(struct an_buf *b, const char *s, const char *o, size_t max)
{
	size_t from = an_shown_from(s, o, max, 20);

	if (from == SIZE_MAX) {
		an_put_clip(b, s, max);
		return;
	}
	an_put(b, "(the first %zu bytes the same) ...", from);
	an_put_clip(b, s + from, max);
}

/* Part key of run as an_put_str_vs puts it against other's. */
static void an_put_vs(struct an_buf *b, const struct lab_an_json *run,
                      const struct lab_an_json *other, const char *key, size_t max)
{
	an_put_str_vs(b, an_build_str(run, key), other ? an_build_str(other, key) : NULL, max);
}

/* ", OpenMP env K=V K=V" of the text members of lab.openmp_env, when it has any; a value
 * against the other env's value of its key (OMP_PLACES lists that differ past 40 bytes read
 * the same). */
static void an_put_env(struct an_buf *b, const struct lab_an_json *env,
                       const struct lab_an_json *other)
{
	const char *sep = ", OpenMP env ";

	for (size_t i = 0; env && i < env->n; i++)
		if (env->items[i].type == LAB_AN_JSON_STR) {
			an_put(b, "%s", sep);
			an_put_clip(b, env->keys[i], AN_CLIP_NAME);
			an_put(b, "=");
			an_put_str_vs(b, env->items[i].str, lab_an_json_str(other, env->keys[i]),
			              AN_CLIP_NAME);
			sep = " ";
		}
}

/* ", PREFIX" and part key of run (an_put_vs), when it is a non-empty text */
static void an_put_opt_vs(struct an_buf *b, const char *prefix, const struct lab_an_json *run,
                          const struct lab_an_json *other, const char *key, size_t max)
{
	const char *s = an_build_str(run, key);

	if (s && *s) {
		an_put(b, "%s", prefix);
		an_put_vs(b, run, other, key, max);
	}
}

void lab_an_build_text_vs(const struct lab_an_json *run, const struct lab_an_json *other, char *buf,
                          size_t len)
{
	struct an_buf b = {buf, len, 0};
	const struct lab_an_json *dirty = an_build_typed(run, "git_dirty", AN_B_FLAG),
	                         *omp = an_build_typed(run, "openmp", AN_B_BOOL);
	const char *fl = an_build_str(run, "c_flags");

	*buf = '\0';
	if (!run || !len)
		return;
	/* what an older run.json lacks is left out, not said as "?" */
	an_put(&b, "lab ");
	an_put_vs(&b, run, other, "version", AN_CLIP_NAME);
	an_put(&b, " (");
	an_put_vs(&b, run, other, "git_sha", AN_CLIP_NAME);
	an_put(&b, "%s), ", dirty && dirty->num ? ", dirty" : "");
	an_put_vs(&b, run, other, "compiler", AN_CLIP_LONG);
	an_put_opt_vs(&b, ", ", run, other, "build_type", AN_CLIP_NAME);
	if (fl)
		an_put_flags(&b, fl, an_build_str(other, "c_flags"));
	an_put_opt_vs(&b, ", sanitize=", run, other, "sanitize", AN_CLIP_TEXT);
	if (omp)
		an_put(&b, "%s", omp->num ? ", OpenMP" : ", no OpenMP");
	an_put_env(&b, an_build_typed(run, "openmp_env", AN_B_ENV),
	           other ? an_build_typed(other, "openmp_env", AN_B_ENV) : NULL);
	if (!an_build_str(run, "auto_march.flag") && !an_build_str(run, "auto_march.arch"))
		return; /* a run.json of before auto_march: "auto -march=? (?)" said nothing */
	an_put(&b, ", auto -march=");
	an_put_vs(&b, run, other, "auto_march.flag", AN_CLIP_TEXT);
	an_put_opt_vs(&b, " ", run, other, "auto_march.extra", AN_CLIP_LONG);
	an_put(&b, " (");
	an_put_vs(&b, run, other, "auto_march.arch", AN_CLIP_FLAGS);
	an_put_opt_vs(&b, ", tune ", run, other, "auto_march.tune", AN_CLIP_TEXT);
	an_put_opt_vs(&b, ", ", run, other, "auto_march.vectors", AN_CLIP_NAME);
	if (an_build_str(run, "auto_march.vectors") && *an_build_str(run, "auto_march.vectors"))
		an_put(&b, " vectors");
	an_put_opt_vs(&b, ", widest ", run, other, "auto_march.isa", AN_CLIP_NAME);
	an_put(&b, ")");
}

void lab_an_build_text(const struct lab_an_json *run, char *buf, size_t len)
{
	lab_an_build_text_vs(run, NULL, buf, len);
}

const char *lab_an_build_sanitize(const struct lab_an_json *run)
{
	const char *san = an_build_str(run, "sanitize");

	return san && *san ? san : NULL;
}

int lab_an_build_sanitize_note(const struct lab_an_json *run, char *buf, size_t len)
{
	struct an_buf b = {buf, len, 0};
	const char *san = lab_an_build_sanitize(run);

	if (len)
		*buf = '\0';
	if (!san || !len)
		return 0;
	an_put(&b, "sanitized (sanitize=");
	an_put_clip(&b, san, AN_CLIP_TEXT);
	an_put(&b, "): the times are the sanitizer's instrumented code's, not the lab's; measure "
	           "with a build without sanitizers");
	return 1;
}

size_t lab_an_build_auto_points(const struct lab_an_data *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->npt; i++)
		n += lab_an_params_is(d->pt[i].params, "isa", "auto") > 0;
	return n;
}

int lab_an_build_auto_note(const struct lab_an_data *d, char *buf, size_t len)
{
	char build[LAB_AN_BUILD_TEXT_MAX];

	if (len)
		*buf = '\0';
	if (!d->run || !len || !lab_an_build_auto_points(d))
		return 0;
	lab_an_build_text(d->run, build, sizeof(build));
	snprintf(buf, len, "isa=auto is the compiler's code for %.*s",
	         lab_an_utf8_fit(build, len > 40 ? len - 40 : 0), build);
	return *build != '\0';
}

int lab_an_build_sanitize_pair(const struct lab_an_json *old, const struct lab_an_json *new_,
                               char *buf, size_t len)
{
	struct an_buf b = {buf, len, 0};
	const char *so = lab_an_build_sanitize(old), *sn = lab_an_build_sanitize(new_);

	if (len)
		*buf = '\0';
	if ((!so && !sn) || !len)
		return 0;
	if (so && sn && !strcmp(so, sn)) {
		an_put(&b, "both runs were built with sanitizers (sanitize=");
		an_put_clip(&b, so, AN_CLIP_TEXT);
	} else if (so && sn) {
		an_put(&b, "both runs were built with sanitizers (old: sanitize=");
		an_put_clip(&b, so, AN_CLIP_TEXT);
		an_put(&b, "; new: sanitize=");
		an_put_clip(&b, sn, AN_CLIP_TEXT);
	} else {
		an_put(&b, "the %s run was built with sanitizers (sanitize=", so ? "old" : "new");
		an_put_clip(&b, so ? so : sn, AN_CLIP_TEXT);
	}
	an_put(&b, "): the verdicts are of the sanitizer's instrumented code, not the lab's; "
	           "compare builds without sanitizers");
	return 1;
}
