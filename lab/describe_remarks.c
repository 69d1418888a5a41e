/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab describe: the compiler's own account of what it vectorized in a kernel's per-ISA files,
 * kept at build time (GCC -fopt-info-vec into kernels/remarks/, see kernels/CMakeLists.txt).
 * Students are told "the compiler vectorized it" too easily; here is what it said, to be read
 * beside the disassembly test (tests/kernels/test_disasm.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/kernel_api.h"
#include "lab/cli.h"

#ifndef LAB_REMARKS_DIR
#define LAB_REMARKS_DIR ""
#endif
#ifndef LAB_REMARKS_KEPT
#define LAB_REMARKS_KEPT 0
#endif
#ifndef LAB_REMARKS_STAMP
#define LAB_REMARKS_STAMP ""
#endif

#define DR_MAX_UNIQUE 256
#define DR_SHOW       14

struct dr_line {
	char text[240];
	unsigned count;
};

/* Keeps "optimized" lines and the "not vectorized" reasons, without the source path prefix. */
static const char *dr_keep(const char *line)
{
	const char *rel = strstr(line, "kernels/");

	if (!rel || strstr(line, "clobbers memory"))
		return NULL;
	if (strstr(rel, ": optimized: ") || strstr(rel, ": missed: not vectorized: "))
		return rel;
	return NULL;
}

static int dr_cmp(const void *a, const void *b)
{
	const struct dr_line *x = a, *y = b;

	return x->count != y->count ? (x->count < y->count) - (x->count > y->count)
	                            : strcmp(x->text, y->text);
}

/* isa "scalar": the file is a scalar baseline, which nothing may vectorize; "auto": the
 * compiler's own vectorization, which must have vectorized something; the others are
 * intrinsics, written vector by hand. */
static void dr_file(const char *path, const char *name, const char *isa)
{
	bool scalar = !strcmp(isa, "scalar"), autov = !strcmp(isa, "auto"), vectorized = false;
	FILE *f = fopen(path, "r");
	struct dr_line *u;
	unsigned nu = 0, other = 0;
	char line[1024];

	if (!f)
		return;
	u = calloc(DR_MAX_UNIQUE, sizeof(*u));
	while (u && fgets(line, sizeof(line), f)) {
		const char *k = dr_keep(line);
		unsigned i;
		if (!k)
			continue;
		int len = (int)strcspn(k, "\n");
		if (len >= (int)sizeof(u[0].text))
			len = (int)sizeof(u[0].text) - 1;
		for (i = 0; i < nu && (strncmp(u[i].text, k, (size_t)len) || u[i].text[len]); i++)
			;
		if (i == nu && nu < DR_MAX_UNIQUE)
			snprintf(u[nu++].text, sizeof(u[0].text), "%.*s", len, k);
		if (i < nu)
			u[i].count++;
	}
	fclose(f);
	if (!u)
		return;
	qsort(u, nu, sizeof(*u), dr_cmp);
	for (unsigned i = 0; i < nu; i++)
		vectorized = vectorized || strstr(u[i].text, ": optimized: ");
	printf("  %s:%s\n", name,
	       nu || autov ? "" : " nothing vectorized, no loop reported (as intended)");
	for (unsigned i = 0; i < nu; i++) {
		if (i < DR_SHOW)
			printf("    %4ux %s\n", u[i].count, u[i].text);
		else
			other += u[i].count;
	}
	if (other)
		printf("    (%u more lines)\n", other);
	if (scalar && vectorized)
		printf("    NOT SCALAR: the compiler vectorized the baseline (an option in this "
		       "build's C flags?), so every speedup over it reads too small\n");
	if (autov && !vectorized)
		printf(
		    "    NOT VECTORIZED: the compiler vectorized no loop of the auto variant (an "
		    "option in this build's C flags, or link-time optimization?), so auto reads "
		    "as scalar code\n");
	free(u);
}

/* Whether k has per-ISA variant files (an `isa` parameter). */
static bool dr_has_variants(const struct lab_kernel *k)
{
	for (const struct lab_param *p = k->params; p && p->key; p++)
		if (!strcmp(p->key, "isa"))
			return true;
	return false;
}

/* Whether the remarks folder is this binary's build's: its stamp file holds LAB_REMARKS_STAMP. */
static bool dr_ours(void)
{
	char path[1024], line[128] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/stamp", LAB_REMARKS_DIR);
	if (!(f = fopen(path, "r")))
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	line[strcspn(line, "\n")] = 0;
	return LAB_REMARKS_STAMP[0] && !strcmp(line, LAB_REMARKS_STAMP);
}

void lab_describe_remarks(const struct lab_kernel *k)
{
	static const char *const isas[] = {"scalar", "auto", "sse2", "avx2", "avx512"};
	const char *kernel = k->name;
	char path[1024];
	bool any = false;

	if (!dr_has_variants(k))
		return;
	if (LAB_REMARKS_KEPT && !dr_ours()) {
		printf(
		    "\nwhat the compiler said: not shown: %s holds no report of the build this lab "
		    "came from (moved, removed, or rebuilt with other options since); its code is "
		    "read by tests/kernels/test_disasm.c\n",
		    LAB_REMARKS_DIR);
		return;
	}
	for (unsigned i = 0; i < sizeof(isas) / sizeof(isas[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s_%s.c.txt", LAB_REMARKS_DIR, kernel, isas[i]);
		FILE *f = LAB_REMARKS_DIR[0] ? fopen(path, "r") : NULL;
		if (!f)
			continue;
		fclose(f);
		if (!any)
			printf("\nwhat the compiler said (gcc -fopt-info-vec at build time, in %s; "
			       "one "
			       "template line stands for every type and accumulator count; count "
			       "first):\n",
			       LAB_REMARKS_DIR);
		any = true;
		char name[64];
		snprintf(name, sizeof(name), "%s_%s.c", kernel, isas[i]);
		dr_file(path, name, isas[i]);
	}
	if (!any && !LAB_REMARKS_KEPT)
		printf("\nwhat the compiler said: nothing kept (gcc's -fopt-info-vec remarks; this "
		       "build's compiler has none): its code is read by "
		       "tests/kernels/test_disasm.c\n");
}
