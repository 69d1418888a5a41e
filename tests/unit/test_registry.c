/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Checks every kernel descriptor, so no central list has to be kept by hand. */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/units.h"
#include "harness/config.h"
#include "harness/param.h"
#include "harness/plan.h"
#include "harness/record_schema.h"
#include "kernels/registry.h"
#include "tests/testlib.h"

LAB_TEST(names_unique_and_wellformed)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++) {
		CHECK_EQ_I64((*k)->abi, LAB_KERNEL_ABI);
		REQUIRE((*k)->name && (*k)->name[0]);
		for (const char *c = (*k)->name; *c; c++)
			CHECK(islower((unsigned char)*c) || isdigit((unsigned char)*c) ||
			      *c == '_');
		for (const struct lab_kernel *const *o = k + 1; *o; o++)
			CHECK(strcmp((*k)->name, (*o)->name) != 0);
		if (k != lab_kernels)
			CHECK(strcmp(k[-1]->name, (*k)->name) < 0); /* kept sorted */
		CHECK((*k)->summary && (*k)->summary[0]);
		CHECK((*k)->description && strlen((*k)->description) > 80);
		CHECK((*k)->work_unit && (*k)->work_unit[0]);
		CHECK((*k)->work_scope <= LAB_WORK_ONE);
		/* The harness's own columns share the header with the kernel's metrics. */
		for (const struct lab_metric *m = (*k)->metrics; m && m->name; m++)
			CHECK(strcmp(m->name, LAB_COL_RUNQ_WAIT) != 0 &&
			      strncmp(m->name, "ctr_", 4) != 0);
		CHECK((*k)->run != NULL);
		CHECK(((*k)->flags & ~(unsigned)LAB_KF_ALL) == 0);
	}
}

/* Every kernel says what its verify checks, in its own field and not in the teaching text
 * (`lab describe` prints it as one "verify:" line), and its needs are single lines. */
LAB_TEST(every_kernel_says_what_it_verifies_and_needs)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++) {
		const char *v = (*k)->verifies;
		if (!v || strlen(v) < 20 || strchr(v, '\n'))
			fprintf(stderr, "kernel %s: no one-line .verifies\n", (*k)->name);
		CHECK(v && strlen(v) >= 20 && !strchr(v, '\n'));
#ifdef LAB_HAVE_OPENMP
		CHECK((*k)->verify != NULL);
#else /* without OpenMP its kernels are skipped, never run: no verify to have (TSan build) */
		CHECK((*k)->verify != NULL || ((*k)->flags & LAB_KF_OPENMP));
#endif
		if (strstr((*k)->description, "verif"))
			fprintf(stderr,
			        "kernel %s: the description speaks of verify: say it in "
			        ".verifies\n",
			        (*k)->name);
		CHECK(strstr((*k)->description, "verif") == NULL);
		for (const char *const *n = (*k)->needs; n && *n; n++) {
			CHECK(strlen(*n) >= 10 && !strchr(*n, '\n'));
			CHECK(strstr(*n, ": ") != NULL); /* "which values: what they need" */
		}
	}
}

static void registry_check_applies(const char *who, const struct lab_param *table,
                                   const struct lab_param *p)
{
	size_t klen = strcspn(p->applies, "=");
	char key[64];
	const struct lab_param *c;

	snprintf(key, sizeof(key), "%.*s", (int)klen, p->applies);
	c = lab_param_find(table, key);
	if (!c || c->type != LAB_PT_ENUM || c == p || !p->applies[klen])
		fprintf(stderr, "%s.%s: applies '%s' names no enum key\n", who, p->key, p->applies);
	REQUIRE(c && c->type == LAB_PT_ENUM && c != p && p->applies[klen]);
	for (const char *v = p->applies + klen + 1;; v++) {
		size_t w = strcspn(v, "|");
		int known = 0;
		for (const struct lab_enum_val *e = c->choices; e->name; e++)
			known |= strlen(e->name) == w && !strncmp(e->name, v, w);
		if (!known)
			fprintf(stderr, "%s.%s: applies '%s': no such %s\n", who, p->key,
			        p->applies, key);
		CHECK(known);
		if (!v[w])
			break;
		v += w;
	}
}

static void registry_check_table(const char *who, const struct lab_param *table, size_t size)
{
	char *buf = calloc(1, size ? size : 1), text[128];
	struct lab_err err = {0};

	for (const struct lab_param *p = table; p->key; p++) {
		if (!p->help || strlen(p->help) < 10)
			fprintf(stderr, "%s.%s: no help\n", who, p->key);
		CHECK(p->help && strlen(p->help) >= 10);
		CHECK(p->unit != NULL);
		CHECK(p->offset < size || size == 0);
		int rc = lab_param_parse(p, p->def, buf, &err);
		if (rc)
			fprintf(stderr, "%s.%s: default '%s': %s\n", who, p->key, p->def, err.msg);
		CHECK_EQ_I64(rc, 0);
		/* The default formats back to text that parses to the same value. */
		lab_param_format(p, buf, text, sizeof(text));
		CHECK_EQ_I64(lab_param_parse(p, text, buf, &err), 0);
		CHECK(lab_param_find(lab_hparam_table, p->key) == NULL ||
		      table == lab_hparam_table);
		if (p->applies) /* "KEY=A|B": an enum key of this table, and choices of it */
			registry_check_applies(who, table, p);
	}
	free(buf);
}

LAB_TEST(params_have_help_and_valid_defaults)
{
	registry_check_table("harness", lab_hparam_table, sizeof(struct lab_hparams));
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++)
		registry_check_table((*k)->name, (*k)->params, (*k)->params_size);
}

LAB_TEST(metrics_have_units)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++) {
		unsigned n = 0;
		for (const struct lab_metric *m = (*k)->metrics; m && m->name; m++, n++) {
			CHECK(m->unit != NULL);
			CHECK(m->help && m->help[0]);
			CHECK(m->agg <= LAB_AGG_KERNEL);
			if (m->agg == LAB_AGG_KERNEL)
				CHECK((*k)->summarize != NULL);
		}
		CHECK(n <= LAB_METRICS_MAX);
	}
}

/* Every duration param of a kernel is one the analyzer holds to durations (analyze/units.h):
 * a kernel's new one is not read as plain text ("cs_ns=banana" split a series). */
LAB_TEST(duration_params_known_to_the_analyzer)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++)
		for (const struct lab_param *p = (*k)->params; p && p->key; p++) {
			const char *const *a = lab_an_duration_keys;

			if (p->type != LAB_PT_DURATION)
				continue;
			while (*a && strcmp(*a, p->key))
				a++;
			if (!*a)
				fprintf(stderr,
				        "kernel %s: duration param '%s' not in "
				        "lab_an_duration_keys (analyze/units.c)\n",
				        (*k)->name, p->key);
			CHECK(*a != NULL);
		}
}

/* Every kernel appears in configs/quick.ini. */
LAB_TEST(every_kernel_in_quick_ini)
{
	char path[1024];
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err;

	snprintf(path, sizeof(path), "%s/configs/quick.ini", testlib_srcdir());
	REQUIRE(lab_cfg_load_file(&cfg, path, &d, &err) == 0);
	CHECK_EQ_U64(lab_diag_count(&d), 0);
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++) {
		bool found = false;
		for (unsigned s = 0; s < cfg.nsec; s++)
			for (unsigned i = 0; i < cfg.sec[s].nkv; i++)
				found |= !strcmp(cfg.sec[s].kv[i].key, "kernel") &&
				         !strcmp(cfg.sec[s].kv[i].value, (*k)->name);
		if (!found)
			fprintf(stderr, "kernel %s is not in configs/quick.ini\n", (*k)->name);
		CHECK(found);
	}
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
}

/*
 * Every C file in kernels/ that defines a descriptor is in the table (kernels/kernels.def):
 * test-only descriptors (a lock without locking) live in tests/, never in the production library.
 */
LAB_TEST(every_kernel_file_registered)
{
	char path[1024], line[512];

	snprintf(path, sizeof(path), "%s/kernels", testlib_srcdir());
	DIR *dir = opendir(path);
	REQUIRE(dir);
	struct dirent *de;
	while ((de = readdir(dir))) {
		size_t len = strlen(de->d_name);
		if (len < 3 || strcmp(de->d_name + len - 2, ".c") ||
		    !strcmp(de->d_name, "registry.c"))
			continue;
		snprintf(path, sizeof(path), "%s/kernels/%s", testlib_srcdir(), de->d_name);
		FILE *f = fopen(path, "r");
		REQUIRE(f);
		while (fgets(line, sizeof(line), f)) {
			char name[128];
			if (sscanf(line, "const struct lab_kernel lab_kernel_%127[a-z0-9_]",
			           name) != 1)
				continue;
			bool found = false;
			for (const struct lab_kernel *const *k = lab_kernels; *k; k++)
				found |= !strcmp((*k)->name, name);
			if (!found)
				fprintf(
				    stderr,
				    "%s defines lab_kernel_%s but kernels/kernels.def lacks it\n",
				    de->d_name, name);
			CHECK(found);
		}
		fclose(f);
	}
	closedir(dir);
}

/* The views the analyzer knows: its own list, analyze/views/views.def. */
static const char *const registry_views[] = {
#define LAB_AN_VIEW(name) #name,
#include "analyze/views/views.def"
#undef LAB_AN_VIEW
    NULL,
};

/* Views no kernel declares: they follow any run (counters: a run with counters; perf_c2c: a run
 * under perf c2c; series: every point no other view hides). */
static const char *const registry_views_any_run[] = {"counters", "perf_c2c", "series", NULL};

static bool registry_view_in(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/*
 * Every kernel declares its views (an empty list when it has none beyond the scaling series), so
 * no view has to recognise a kernel's results by their properties; every name it declares is a
 * view of views.def, once, and not one that follows any run.
 */
LAB_TEST(every_kernel_declares_known_views)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++) {
		if (!(*k)->views)
			fprintf(stderr, "kernel %s declares no .views (an empty list: none)\n",
			        (*k)->name);
		CHECK((*k)->views != NULL);
		for (const char *const *v = (*k)->views; v && *v; v++) {
			bool known = registry_view_in(registry_views, *v);
			bool any = registry_view_in(registry_views_any_run, *v);

			if (!known || any)
				fprintf(stderr, "kernel %s declares view '%s': %s\n", (*k)->name,
				        *v,
				        known ? "it follows any run, declare it nowhere"
				              : "not in analyze/views/views.def");
			CHECK(known && !any);
			for (const char *const *w = v + 1; *w; w++)
				CHECK(strcmp(*v, *w) != 0);
		}
	}
}

/* Every view of views.def is declared by a kernel, or follows any run. */
LAB_TEST(every_view_declared_by_a_kernel)
{
	for (const char *const *v = registry_views; *v; v++) {
		bool found = registry_view_in(registry_views_any_run, *v);

		for (const struct lab_kernel *const *k = lab_kernels; *k && !found; k++)
			found = (*k)->views && registry_view_in((*k)->views, *v);
		if (!found)
			fprintf(stderr, "view %s is declared by no kernel\n", *v);
		CHECK(found);
	}
	for (const char *const *v = registry_views_any_run; *v; v++)
		CHECK(registry_view_in(registry_views, *v));
}
