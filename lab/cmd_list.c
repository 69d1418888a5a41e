/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab list, lab describe, lab version: all rendered from the kernel descriptors. */
#include <hwloc.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "build_git.h"
#include "build_info.h"
#include "harness/json.h"
#include "harness/param.h"
#include "harness/plan.h"
#include "kernels/registry.h"
#include "lab/cli.h"

static void list_json_params(struct lab_json *j, const struct lab_param *table)
{
	char allowed[256], applies[256];

	lab_json_arr_open(j, "params");
	for (const struct lab_param *p = table; p->key; p++) {
		lab_param_allowed(p, allowed, sizeof(allowed));
		lab_json_obj_open(j, NULL);
		lab_json_str(j, "key", p->key);
		lab_json_str(j, "type", lab_param_type_name(p->type));
		lab_json_str(j, "default", p->def);
		lab_json_str(j, "allowed", allowed);
		lab_json_str(j, "unit", p->unit);
		lab_json_str(j, "help", p->help);
		lab_param_applies_text(p, applies, sizeof(applies));
		if (*applies)
			lab_json_str(j, "applies", applies);
		lab_json_obj_close(j);
	}
	lab_json_arr_close(j);
}

/* What a point of a kernel needs to run, each a line of `lab describe` ("needs: ...") and an
 * element of `lab list --json`'s "needs": the needs its flags and cpu_features imply (the
 * harness skips those points before check()), then the kernel's own (k->needs). A point
 * without one is skipped with the reason, c2c's pair apart (see its line). */
#define KNEEDS_MAX 16

struct kneeds {
	unsigned n;
	char line[KNEEDS_MAX][320];
};

static void kneeds_add(struct kneeds *d, const char *text)
{
	if (d->n < KNEEDS_MAX)
		snprintf(d->line[d->n++], sizeof(d->line[0]), "%s", text);
}

static void kneeds_of(const struct lab_kernel *k, struct kneeds *d)
{
	d->n = 0;
	if (k->flags & LAB_KF_OPENMP)
		kneeds_add(d, "a lab built with OpenMP (cmake -DLAB_OPENMP=ON, the default; "
		              "`lab version` says openmp: yes or no)");
	if (k->flags & LAB_KF_NUMA)
		kneeds_add(d, "2 or more NUMA nodes");
	if (k->flags & LAB_KF_PAIRS)
		kneeds_add(d, "2 CPUs, one pair: with fewer the config is refused, unless min_cpus "
		              "= 2 makes it a skip");
	if (k->cpu_features) {
		char feats[256], line[300];
		lab_cpu_format(k->cpu_features, feats, sizeof(feats));
		snprintf(line, sizeof(line), "a CPU with %s (not hidden by LAB_CPU_MASK)", feats);
		kneeds_add(d, line);
	}
	for (const char *const *n = k->needs; n && *n; n++)
		kneeds_add(d, *n);
}

static unsigned kmetrics_count(const struct lab_kernel *k)
{
	unsigned n = 0;

	for (const struct lab_metric *m = k->metrics; m && m->name; m++)
		n++;
	return n;
}

static void list_json_kernel(struct lab_json *j, const struct lab_kernel *k)
{
	struct kneeds needs;

	kneeds_of(k, &needs);
	lab_json_obj_open(j, NULL);
	lab_json_str(j, "name", k->name);
	lab_json_str(j, "summary", k->summary);
	lab_json_str(j, "work_unit", k->work_unit);
	lab_json_str(j, "verify", k->verifies ? k->verifies : "");
	lab_json_arr_open(j, "needs");
	for (unsigned i = 0; i < needs.n; i++)
		lab_json_str(j, NULL, needs.line[i]);
	lab_json_arr_close(j);
	list_json_params(j, k->params);
	lab_json_obj_close(j);
}

struct list_args {
	bool json;
};

static const struct lab_opt list_opts[] = {
    {"--json", NULL, LAB_OPT_FLAG, NULL, offsetof(struct list_args, json), 0,
     "one JSON document on stdout"},
    LAB_OPTS_END,
};

static const struct lab_cmd_opts list_cmd = {
    .name = "list",
    .synopsis = "[--json]",
    .about = "Lists the kernels with a one-line summary; `lab describe KERNEL` explains one.\n",
    .opts = list_opts,
};

int lab_cmd_list(int argc, char **argv)
{
	struct list_args a;
	int rc = lab_opts_parse(&list_cmd, argc, argv, &a, sizeof(a));

	if (rc)
		return rc == LAB_OPTS_HELP ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	bool json = a.json;
	if (!json) {
		for (const struct lab_kernel *const *k = lab_kernels; *k; k++)
			printf("%-16s %s\n", (*k)->name, (*k)->summary);
		return LAB_EXIT_OK;
	}
	struct lab_json j;
	lab_json_begin(&j, stdout);
	lab_json_obj_open(&j, NULL);
	lab_json_arr_open(&j, "kernels");
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++)
		list_json_kernel(&j, *k);
	lab_json_arr_close(&j);
	list_json_params(&j, lab_hparam_table);
	lab_json_obj_close(&j);
	lab_json_end(&j);
	return LAB_EXIT_OK;
}

static void describe_params(const char *title, const struct lab_param *table)
{
	char allowed[256], applies[256];

	printf("\n%s\n", title);
	for (const struct lab_param *p = table; p->key; p++) {
		lab_param_allowed(p, allowed, sizeof(allowed));
		lab_param_applies_text(p, applies, sizeof(applies));
		printf("  %-15s %s (default %s; allowed %s%s)\n  %15s %s%s%s%s\n", p->key,
		       lab_param_type_name(p->type), p->def, allowed,
		       p->type == LAB_PT_SIZE ? ", or a cache level: L1/2, L2, L3*4" : "", "",
		       p->help, *applies ? " Applies only where " : "", applies,
		       *applies ? "." : "");
	}
}

/* The facts under the teaching text, one "key: value" line each (scripts/gen_kernels_md.py
 * reads them up to the blank line): unit of work, timing, team, needs, verify, metrics. */
static void describe_facts(const struct lab_kernel *k)
{
	static const char *const whose[] = {
	    "every thread counts its own; cost = wall time per unit of all threads together",
	    "one unit the whole team does once; cost = wall time per unit",
	    "thread 0's units only; cost = wall time per unit of thread 0"};
	struct kneeds needs;
	unsigned nmetrics = kmetrics_count(k);

	printf("\nunit of work: %s (%s)\n", k->work_unit ? k->work_unit : "iteration",
	       whose[k->work_scope <= LAB_WORK_ONE ? k->work_scope : LAB_WORK_TEAM]);
	if (k->flags & LAB_KF_TIMED)
		printf("timing: threads run together until the sample's min_time is up\n");
	if (k->flags & LAB_KF_OPENMP)
		printf("team: an OpenMP team of `threads`, pinned to the same plan\n");
	if (k->flags & LAB_KF_PAIRS)
		printf("team: two threads on a CPU pair; placement = pairs sweeps the matrix\n");
	kneeds_of(k, &needs);
	for (unsigned i = 0; i < needs.n; i++)
		printf("needs: %s\n", needs.line[i]);
	if (!needs.n)
		printf("needs: nothing beyond its CPUs\n");
	printf("verify: %s\n", k->verifies ? k->verifies : "(not said)");
	if (nmetrics)
		printf("metrics: %u column%s beyond the cost per unit of work (below)", nmetrics,
		       nmetrics == 1 ? "" : "s");
	else
		printf("metrics: none beyond the cost per unit of work (elapsed_ns / work in "
		       "samples.csv)");
	printf("%s\n", k->work_per_unit ? "; lab analyze derives rates from the bytes and flops "
	                                  "it declares per unit"
	                                : "");
}

struct describe_args {
	const char *kernel[1];
	unsigned nkernel;
};

static const struct lab_opt describe_opts[] = {
    LAB_OPTS_END,
};

static const struct lab_cmd_opts describe_cmd = {
    .name = "describe",
    .synopsis = "KERNEL",
    .about = "Explains what a kernel measures, what to expect, what it needs (a point that\n"
             "lacks it is skipped with the reason), what its verify checks, its parameters\n"
             "and metrics (`lab list` names the kernels).\n",
    .opts = describe_opts,
    .pos_at = offsetof(struct describe_args, kernel),
    .npos_at = offsetof(struct describe_args, nkernel),
    .pos_max = 1,
    .pos_what = "kernels",
};

int lab_cmd_describe(int argc, char **argv)
{
	struct describe_args a;
	int rc = lab_opts_parse(&describe_cmd, argc, argv, &a, sizeof(a));

	if (rc)
		return rc == LAB_OPTS_HELP ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	if (!a.nkernel) {
		lab_opts_error("lab describe: give a KERNEL (allowed: a name `lab list` prints)");
		return LAB_EXIT_USAGE;
	}
	const struct lab_kernel *k = lab_plan_kernel_find(lab_kernels, a.kernel[0]);
	if (!k) {
		char hint[600];
		lab_opts_error("lab describe: unknown kernel '%s' (%s)", a.kernel[0],
		               lab_plan_kernel_hint(lab_kernels, a.kernel[0], hint, sizeof(hint)));
		return LAB_EXIT_USAGE;
	}
	printf("%s: %s\n\n%s\n", k->name, k->summary, k->description ? k->description : "");
	describe_facts(k);
	if (k->params[0].key)
		describe_params("kernel parameters:", k->params);
	describe_params("harness parameters (every experiment):", lab_hparam_table);
	if (k->metrics && k->metrics[0].name) {
		printf("\nmetrics:\n");
		for (const struct lab_metric *m = k->metrics; m->name; m++)
			printf("  %-15s [%s] %s\n", m->name, m->unit, m->help);
	}
	lab_describe_remarks(k);
	return LAB_EXIT_OK;
}

struct version_args {
	bool unused;
};

static const struct lab_opt version_opts[] = {
    LAB_OPTS_END,
};

static const struct lab_cmd_opts version_cmd = {
    .name = "version",
    .synopsis = "",
    .about = "Prints the version, the compiler and its flags, hwloc's version and the kernel "
             "ABI.\n",
    .opts = version_opts,
};

int lab_cmd_version(int argc, char **argv)
{
	struct version_args a;
	int rc = lab_opts_parse(&version_cmd, argc, argv, &a, sizeof(a));

	if (rc)
		return rc == LAB_OPTS_HELP ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	printf("lab %s (git %s%s)\n", LAB_VERSION, LAB_GIT_SHA, LAB_GIT_DIRTY ? ", dirty" : "");
	printf("compiler: %s\nflags: %s\nbuild type: %s%s%s\n", LAB_COMPILER, LAB_C_FLAGS,
	       LAB_BUILD_TYPE, LAB_SANITIZE[0] ? "\nsanitize: " : "", LAB_SANITIZE);
#ifdef LAB_HAVE_OPENMP
	printf("openmp: yes\n");
#else
	printf("openmp: no (OPENMP kernels are skipped)\n");
#endif
	/* what a Debug build's flags do not say: the timed code is optimized whatever they are
	 * (kernels/CMakeLists.txt, harness/CMakeLists.txt; the variant files: lab_simd_opts) */
	printf("timed code: the kernels and the harness's clock, sample loop and team at -O2 "
	       "after those flags, whatever the build type; the stream, peak and simd variant "
	       "files (one per isa) at -O3, with -ffp-contract=off and no LTO\n");
	printf("auto kernel variants: -march=%s%s%s%s (the compiler took it for %s, tuned for %s",
	       LAB_AUTO_MARCH, LAB_AUTO_EXTRA[0] ? " with " : "", LAB_AUTO_EXTRA,
	       LAB_AUTO_EXTRA[0] ? " from the C flags" : "", LAB_AUTO_ARCH, LAB_AUTO_TUNE);
	/* a target may allow AVX-512 and prefer 256-bit vectors: its roof is the avx2 variant's */
	const char *vec = LAB_AUTO_VECTORS, *isa = LAB_AUTO_ISA; /* (not constants to clang) */
	if (*vec && *isa && strcmp(isa, "avx"))
		printf("; its loops use %s vectors, as wide as the %s variant's", vec, isa);
	else if (*vec) /* AVX without AVX2 and FMA: no variant of the lab's */
		printf("; its loops use %s vectors", vec);
	printf(")\n");
	/* HWLOC_VERSION is the release of the headers built against; HWLOC_API_VERSION is the API
	 * level (hwloc 2.9 has API 2.8), and the library loaded says only its API level */
#ifdef HWLOC_VERSION
	printf("hwloc: %s (headers built against)", HWLOC_VERSION);
#else
	printf("hwloc: release unknown (headers built against)");
#endif
	printf(", API 0x%x; the library loaded has API 0x%x\n", (unsigned)HWLOC_API_VERSION,
	       hwloc_get_api_version());
	printf("kernel ABI: %d\n", LAB_KERNEL_ABI);
	return LAB_EXIT_OK;
}
