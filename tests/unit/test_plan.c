/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The planner on a synthetic 2 x 8 x 2 topology (32 CPUs) with two fake kernels: precedence and
 * sources, the Cartesian product and its order, max, CPU validation, --only, unknown kernels and
 * keys, params_text, skipped points, and check() errors at the right line.
 */
#include "harness/param.h"
#include "harness/plan.h"
#include "tests/testlib.h"

#define SYN_2S "synthetic:pack:2 core:8 pu:2"

struct tk_params {
	uint64_t size;
	int mode;
};

static const struct lab_enum_val tk_modes[] = {
    {"a", 0, "a"},
    {"b", 1, "b"},
    {NULL, 0, NULL},
};

static const struct lab_param tk_table[] = {
    LAB_P_SIZE(struct tk_params, size, "size", "8", 1, 1048576, "Bytes."),
    LAB_P_ENUM(struct tk_params, mode, "mode", "a", tk_modes, "A mode."),
    LAB_PARAM_END,
};

/* size 13 cannot run here (skipped); size 12 is a cross-field error naming the key. */
static int tk_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct tk_params *p = params;

	(void)nthreads;
	(void)env;
	if (p->size == 13) {
		lab_err_set(err, LAB_EUNSUP, "size 13 is unlucky on this machine");
		return LAB_SKIP;
	}
	if (p->size == 12)
		return lab_err_set(err, LAB_ECONFIG,
		                   "size = 12: not a power of two (allowed 1, 2, "
		                   "4, ...)");
	if (p->size == 11)
		return lab_err_set(err, LAB_ECONFIG, "mode and size disagree");
	return 0;
}

static void tk_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	(void)ctx;
	(void)t;
}

static const struct lab_kernel tk_fake = {
    .abi = LAB_KERNEL_ABI,
    .name = "fake",
    .summary = "a test kernel",
    .description = "test",
    .params = tk_table,
    .params_size = sizeof(struct tk_params),
    .work_unit = "unit",
    .check = tk_check,
    .run = tk_run,
};

struct tk_other_params {
	uint64_t depth;
};

static const struct lab_param tk_other_table[] = {
    LAB_P_U64(struct tk_other_params, depth, "depth", "1", 1, 100, "levels", "Depth."),
    LAB_PARAM_END,
};

static const struct lab_kernel tk_other = {
    .abi = LAB_KERNEL_ABI,
    .name = "other",
    .summary = "another test kernel",
    .description = "test",
    .params = tk_other_table,
    .params_size = sizeof(struct tk_other_params),
    .work_unit = "unit",
    .run = tk_run,
};

static const struct lab_kernel *const tk_registry[] = {&tk_fake, &tk_other, NULL};

/* A kernel whose gap applies at shapes a and b only (as false_sharing's stride at layout =
 * stride): planned with tp_kernels pointed at tk_gapped_registry. */
struct tk_gapped_params {
	uint64_t gap;
	int shape;
};

static const struct lab_enum_val tk_shapes[] = {
    {"a", 0, "a"},
    {"b", 1, "b"},
    {"c", 2, "c"},
    {NULL, 0, NULL},
};

static const struct lab_param tk_gapped_table[] = {
    LAB_P_SIZE(struct tk_gapped_params, gap, "gap", "8", 1, 4096, "Bytes apart.",
               LAB_APPLIES("shape=a|b")),
    LAB_P_ENUM(struct tk_gapped_params, shape, "shape", "a", tk_shapes, "A shape."),
    LAB_PARAM_END,
};

static const struct lab_kernel tk_gapped = {
    .abi = LAB_KERNEL_ABI,
    .name = "gapped",
    .summary = "a test kernel with a key that applies at some shapes",
    .description = "test",
    .params = tk_gapped_table,
    .params_size = sizeof(struct tk_gapped_params),
    .work_unit = "unit",
    .run = tk_run,
};

static const struct lab_kernel *const tk_gapped_registry[] = {&tk_gapped, NULL};
static const struct lab_kernel *const *tp_kernels = tk_registry;

/* One planning attempt: config text, --set and --only arguments, the outcome. */
struct tp {
	struct lab_cfg cfg;
	struct lab_diag d;
	struct lab_topo *topo;
	struct lab_plan *plan;
	int rc;
};

static void tp_build_on(struct tp *t, const char *topo, const char *text, const char *const *sets,
                        unsigned nsets, const char *const *only, unsigned nonly)
{
	struct lab_err err = {0};

	memset(t, 0, sizeof(*t));
	if (lab_topo_open(&t->topo, topo, &err)) {
		fprintf(stderr, "topology: %s\n", err.msg);
		testlib_fail();
		t->rc = -1;
		return;
	}
	if (lab_cfg_load_text(&t->cfg, "p.ini", text, strlen(text), &t->d, &err))
		fprintf(stderr, "load: %s\n", err.msg);
	for (unsigned i = 0; i < nsets; i++)
		lab_cfg_add_set(&t->cfg, sets[i], &t->d);
	if (lab_diag_count(&t->d)) {
		fprintf(stderr, "syntax: %s\n", t->d.msg[0]);
		testlib_fail();
		t->rc = -1;
		return;
	}
	t->rc = lab_plan_build(&t->plan, &t->cfg, tp_kernels, t->topo, only, nonly, &t->d, &err);
	for (unsigned i = 0; i < t->d.n; i++)
		fprintf(stderr, "  diag: %s\n", t->d.msg[i]);
}

static void tp_build(struct tp *t, const char *text, const char *const *sets, unsigned nsets,
                     const char *const *only, unsigned nonly)
{
	tp_build_on(t, SYN_2S, text, sets, nsets, only, nonly);
}

static void tp_free(struct tp *t)
{
	lab_plan_free(t->plan);
	lab_topo_close(t->topo);
	lab_cfg_free(&t->cfg);
	lab_diag_free(&t->d);
}

/* Expects exactly one error, want. */
static void plan_fails_with(const char *text, const char *const *sets, unsigned nsets,
                            const char *want)
{
	struct tp t;

	tp_build(&t, text, sets, nsets, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	CHECK(t.plan == NULL);
	CHECK_EQ_U64(lab_diag_count(&t.d), 1);
	CHECK_EQ_STR(t.d.n ? t.d.msg[0] : "(none)", want);
	tp_free(&t);
}

static const struct lab_resolved *tp_key(const struct lab_experiment *e, const char *key)
{
	for (unsigned i = 0; i < e->nkeys; i++)
		if (!strcmp(e->keys[i].param->key, key))
			return &e->keys[i];
	fprintf(stderr, "no key %s\n", key);
	return NULL;
}

/* A long value that is wrong keeps the reason at the end of its one-line error: an expression
 * of 1,300 bytes quoted twice ("placement = LIST: value ITEM: reason") lost the reason when the
 * "value ITEM" part was cut at 608 bytes. */
LAB_TEST(long_value_error_keeps_its_reason)
{
	char *text = malloc(4096), *p;
	struct tp t;

	REQUIRE(text);
	p = text + sprintf(text, "[x]\nkernel = fake\nplacement = expr:S0:0,");
	for (int line = 0; line < 7; line++) {
		p += sprintf(p, "\n ");
		for (int i = 0; i < 90; i++)
			p += sprintf(p, "0,");
	}
	sprintf(p, "\n zz\n");
	tp_build(&t, text, NULL, 0, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(t.d.n == 1);
	CHECK(strlen(t.d.msg[0]) <= LAB_DIAG_LINE_MAX);
	CHECK(strncmp(t.d.msg[0], "p.ini:3: [x] placement = expr:S0:0,", 35) == 0);
	if (!strstr(t.d.msg[0], "...") ||
	    !strstr(t.d.msg[0], "0: too long (allowed at most 63 characters)"))
		TL__FAIL("the error lost its reason: %s", t.d.msg[0]);
	tp_free(&t);
	free(text);
}

/* A value too long to read is one error, at the line that passes the limit: not one per
 * continuation line after it, and not again as a list with an empty value at its cut end. */
/* A placement past the topology is one error per placement value, not one per thread count of
 * the sweep (red team: 730 lines for three placements against threads = 1..max). */
LAB_TEST(placement_refused_once_per_value)
{
	static const char text[] = "[x]\nkernel = fake\nthreads = 1..max\n"
	                           "placement = list:0-3, expr:S0:0-1\nsize = 8, 16\n";
	struct tp t = {0};
	struct lab_err err = {0};

	REQUIRE(lab_topo_open(&t.topo, SYN_2S, &err) == 0);
	CHECK_EQ_I64(lab_cfg_load_text(&t.cfg, "p.ini", text, strlen(text), &t.d, &err), 0);
	t.rc = lab_plan_build(&t.plan, &t.cfg, tk_registry, t.topo, NULL, 0, &t.d, &err);
	CHECK_EQ_U64(lab_diag_count(&t.d), 2);
	CHECK(t.d.n == 2 && strstr(t.d.msg[0], "value list:0-3: 5 threads but") != NULL);
	CHECK(t.d.n == 2 && strstr(t.d.msg[1], "value expr:S0:0-1: 3 threads but") != NULL);
	tp_free(&t);
}

LAB_TEST(too_long_value_is_one_error)
{
	static const char *const heads[] = {"[x]\nkernel = fake\nseed = 1,\n",
	                                    "[x]\nkernel = fake\n[lessons]\nl = cost(x) > 1 +\n"};
	char want[200], *text = malloc(20000 * 10 + 100);

	REQUIRE(text);
	for (unsigned h = 0; h < 2; h++) {
		size_t n = (size_t)sprintf(text, "%s", heads[h]);
		for (int i = 0; i < 20000; i++)
			n += (size_t)sprintf(text + n, h ? "  1 +\n" : "  %d,\n", 100000 + i);
		sprintf(text + n, "  1\n");
		/* "1," then 8 bytes a line ("100000," and the blank that joins it) pass 65535 at
		 * the 8192nd continuation line; "cost(x) > 1 +", then 4 a line, at the 16381st */
		snprintf(
		    want, sizeof(want),
		    "p.ini:%d: [%s] %s: value too long (allowed at most 65536 characters with its "
		    "continuation lines; it starts at line %d)",
		    h ? 4 + 16381 : 3 + 8192, h ? "lessons" : "x", h ? "l" : "seed", h ? 4 : 3);
		struct tp t = {0};
		struct lab_err err = {0};
		REQUIRE(lab_topo_open(&t.topo, SYN_2S, &err) == 0);
		CHECK_EQ_I64(lab_cfg_load_text(&t.cfg, "p.ini", text, strlen(text), &t.d, &err), 0);
		t.rc = lab_plan_build(&t.plan, &t.cfg, tk_registry, t.topo, NULL, 0, &t.d, &err);
		CHECK_EQ_U64(lab_diag_count(&t.d), 1);
		CHECK_EQ_STR(t.d.n ? t.d.msg[0] : "(none)", want);
		tp_free(&t);
	}
	free(text);
}

LAB_TEST(precedence_and_sources)
{
	static const char *const sets[] = {"x.seed=99"};
	struct tp t;

	tp_build(&t,
	         "[global]\n"
	         "reps = 3\n"
	         "seed = 5\n"
	         "warmup = 1ms\n"
	         "size = 64\n"
	         "\n"
	         "[x]\n"
	         "kernel = fake\n"
	         "warmup = 2ms\n",
	         sets, 1, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->nexp == 1);
	const struct lab_experiment *e = &t.plan->exp[0];
	CHECK_EQ_STR(e->name, "x");
	CHECK_EQ_STR(e->file, "p.ini");
	CHECK_EQ_I64(e->line, 7);
	CHECK(e->kernel == &tk_fake);

	const struct lab_resolved *r = tp_key(e, "min_time"); /* default */
	REQUIRE(r != NULL);
	CHECK_EQ_STR(lab_src_name(r->src), "default");
	CHECK(r->file == NULL);
	CHECK_EQ_STR(r->text, "20ms");
	CHECK(r->harness);

	r = tp_key(e, "reps"); /* [global] */
	REQUIRE(r != NULL);
	CHECK_EQ_STR(lab_src_name(r->src), "global");
	CHECK_EQ_STR(r->file, "p.ini");
	CHECK_EQ_I64(r->line, 2);
	CHECK_EQ_STR(r->text, "3");

	r = tp_key(e, "size"); /* a kernel key from [global] */
	REQUIRE(r != NULL);
	CHECK_EQ_STR(lab_src_name(r->src), "global");
	CHECK_EQ_I64(r->line, 5);
	CHECK(!r->harness);

	r = tp_key(e, "warmup"); /* section beats [global] */
	REQUIRE(r != NULL);
	CHECK_EQ_STR(lab_src_name(r->src), "section");
	CHECK_EQ_I64(r->line, 9);
	CHECK_EQ_STR(r->text, "2ms");

	r = tp_key(e, "seed"); /* --set beats [global] */
	REQUIRE(r != NULL);
	CHECK_EQ_STR(lab_src_name(r->src), "cli");
	CHECK_EQ_STR(r->file, "--set");
	CHECK_EQ_I64(r->line, 0);
	CHECK_EQ_STR(r->text, "99");

	REQUIRE(t.plan->npts == 1);
	const struct lab_point *pt = &t.plan->pts[0];
	CHECK_EQ_U64(pt->h.reps, 3);
	CHECK_EQ_U64(pt->h.seed, 99);
	CHECK_EQ_U64(pt->h.warmup, 2000000);
	CHECK_EQ_U64(pt->h.min_time, 20000000);
	CHECK_EQ_U64(((const struct tk_params *)pt->kparams)->size, 64);
	tp_free(&t);
}

LAB_TEST(cli_beats_section)
{
	static const char *const sets[] = {"x.size=256", "x.threads = 4"};
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\nsize = 128\nthreads = 2\n", sets, 2, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 1);
	CHECK_EQ_STR(lab_src_name(tp_key(&t.plan->exp[0], "size")->src), "cli");
	CHECK_EQ_U64(((const struct tk_params *)t.plan->pts[0].kparams)->size, 256);
	CHECK_EQ_U64(t.plan->pts[0].nthreads, 4);
	tp_free(&t);
}

LAB_TEST(product_count_and_order)
{
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\nthreads = 1,2\nsize = 8,16,32\nmode = a,b\n", NULL, 0,
	         NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 12);
	CHECK_EQ_U64(t.plan->exp[0].first_point, 0);
	CHECK_EQ_U64(t.plan->exp[0].npoints, 12);
	/* threads fastest, then the other keys in table order: size, then mode (slowest). */
	static const struct {
		unsigned threads;
		uint64_t size;
		int mode;
	} want[] = {
	    {1, 8, 0}, {2, 8, 0}, {1, 16, 0}, {2, 16, 0}, {1, 32, 0}, {2, 32, 0},
	    {1, 8, 1}, {2, 8, 1}, {1, 16, 1}, {2, 16, 1}, {1, 32, 1}, {2, 32, 1},
	};
	for (unsigned i = 0; i < 12; i++) {
		const struct lab_point *pt = &t.plan->pts[i];
		const struct tk_params *k = pt->kparams;
		CHECK_EQ_U64(pt->id, i);
		CHECK_EQ_U64(pt->exp, 0);
		CHECK_EQ_U64(pt->nthreads, want[i].threads);
		CHECK_EQ_U64(pt->h.threads, want[i].threads);
		CHECK_EQ_U64(k->size, want[i].size);
		CHECK_EQ_I64(k->mode, want[i].mode);
		CHECK_EQ_I64(pt->state, LAB_POINT_READY);
	}
	tp_free(&t);
}

LAB_TEST(points_of_several_experiments)
{
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\nthreads = 1..3\n[y]\nkernel = other\ndepth = 1..4:x2\n",
	         NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->nexp == 2);
	CHECK_EQ_U64(t.plan->npts, 6);
	CHECK_EQ_U64(t.plan->exp[1].first_point, 3);
	CHECK_EQ_U64(t.plan->exp[1].npoints, 3);
	CHECK(t.plan->exp[1].kernel == &tk_other);
	CHECK_EQ_U64(t.plan->pts[5].exp, 1);
	CHECK_EQ_U64(t.plan->pts[5].id, 5);
	tp_free(&t);
}

LAB_TEST(max_is_the_topology_cpus)
{
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\nthreads = max\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	CHECK_EQ_U64(t.plan->env.ncpus, 32);
	CHECK(!t.plan->env.thissystem);
	REQUIRE(t.plan->npts == 1);
	CHECK_EQ_U64(t.plan->pts[0].nthreads, 32);
	/* Every CPU once. */
	int seen[32] = {0};
	for (unsigned i = 0; i < 32; i++) {
		int c = t.plan->pts[0].cpus[i];
		REQUIRE(c >= 0 && c < 32);
		seen[c]++;
	}
	for (unsigned i = 0; i < 32; i++)
		CHECK_EQ_I64(seen[i], 1);
	tp_free(&t);

	tp_build(&t, "[x]\nkernel = fake\nthreads = 1..max:x2\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 6);
	CHECK_EQ_U64(t.plan->pts[5].nthreads, 32);
	tp_free(&t);
}

LAB_TEST(threads_above_cpus)
{
	plan_fails_with("[x]\nkernel = fake\nthreads = 33\n", NULL, 0,
	                "p.ini:3: [x] threads = 33: 33 threads but this process may use 32 CPUs "
	                "(allowed 1 .. 32, or max)");
	/* A sweep says it once, at the text as written. */
	plan_fails_with("[x]\nkernel = fake\nthreads = 1..256:x2\n", NULL, 0,
	                "p.ini:3: [x] threads = 1..256:x2: values above 32 are more than the CPUs "
	                "this process may use (allowed 1 .. 32, or max)");
	plan_fails_with("[x]\nkernel = fake\nthreads = 2000\n", NULL, 0,
	                "p.ini:3: [x] threads = 2000: out of range (allowed 1 .. 1024 threads)");
}

LAB_TEST(list_placement)
{
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\nthreads = 3\nplacement = list:5,3,17-18\n", NULL, 0, NULL,
	         0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 1);
	CHECK_EQ_I64(t.plan->pts[0].cpus[0], 5);
	CHECK_EQ_I64(t.plan->pts[0].cpus[1], 3);
	CHECK_EQ_I64(t.plan->pts[0].cpus[2], 17);
	CHECK_EQ_STR(t.plan->pts[0].params_text, "size=8;mode=a;placement=list:5,3,17-18");
	tp_free(&t);

	plan_fails_with("[x]\nkernel = fake\nplacement = list:99\n", NULL, 0,
	                "p.ini:3: [x] placement = list:99: cpu 99 does not exist (allowed 0-31)");
	plan_fails_with("[x]\nkernel = fake\nthreads = 2\nplacement = list:4,4\n", NULL, 0,
	                "p.ini:4: [x] placement = list:4,4: cpu 4 is listed twice (each CPU once)");
	plan_fails_with(
	    "[x]\nkernel = fake\nthreads = 3\nplacement = list:0,1\n", NULL, 0,
	    "p.ini:4: [x] placement = list:0,1: 3 threads but the placement list has only "
	    "2 CPUs (allowed: at most 2 threads, or a longer list)");
	plan_fails_with("[x]\nkernel = fake\nthreads = 1,2\nplacement = list:0\n", NULL, 0,
	                "p.ini:4: [x] placement = list:0: 2 threads but the placement list has "
	                "only 1 CPU (allowed: at most 1 thread, or a longer list)");
	plan_fails_with(
	    "[x]\nkernel = fake\nplacement = compact, sideways\n", NULL, 0,
	    "p.ini:3: [x] placement = compact, sideways: value sideways: unknown policy "
	    "(allowed: compact, cores, scatter, pairs, node:N, list:CPUS such as list:0,2,4-7 "
	    "or list:0-14:2, or expr:EXPR with likwid thread domains such as expr:S0:0-3@S1:0-3)");
}

LAB_TEST(only_selects_experiments)
{
	static const char *const only[] = {"y"};
	static const char *const nope[] = {"z"};
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\n[y]\nkernel = other\n", NULL, 0, only, 1);
	REQUIRE(t.rc == 0);
	CHECK_EQ_U64(t.plan->nexp, 2);
	CHECK_EQ_U64(t.plan->exp[0].npoints, 0);
	CHECK_EQ_U64(t.plan->exp[1].npoints, 1);
	CHECK_EQ_U64(t.plan->npts, 1);
	CHECK_EQ_U64(t.plan->pts[0].exp, 1);
	tp_free(&t);

	tp_build(&t, "[x]\nkernel = fake\n[global]\nreps = 1\n", NULL, 0, nope, 1);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(t.d.n == 1);
	CHECK_EQ_STR(t.d.msg[0], "--only z: no experiment [z] in the config (allowed: [x])");
	tp_free(&t);

	/* [global] is no experiment. */
	static const char *const global[] = {"global"};
	tp_build(&t, "[global]\nreps = 1\n[x]\nkernel = fake\n", NULL, 0, global, 1);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(t.d.n == 1);
	CHECK_EQ_STR(t.d.msg[0],
	             "--only global: no experiment [global] in the config (allowed: [x])");
	tp_free(&t);
}

LAB_TEST(kernel_errors)
{
	plan_fails_with("[x]\nkernel = fak\n", NULL, 0,
	                "p.ini:2: [x] kernel = fak: unknown kernel (did you mean 'fake'?)");
	plan_fails_with("[x]\nkernel = othre\n", NULL, 0,
	                "p.ini:2: [x] kernel = othre: unknown kernel (did you mean 'other'?)");
	plan_fails_with("[x]\nkernel = quicksort\n", NULL, 0,
	                "p.ini:2: [x] kernel = quicksort: unknown kernel (kernels: fake, other)");
	plan_fails_with("[x]\nthreads = 1\n", NULL, 0,
	                "p.ini:1: [x]: missing 'kernel = ...' (kernels: fake, other)");
	/* A kernel in [global] serves every section. */
	struct tp t;
	tp_build(&t, "[global]\nkernel = other\n[x]\n[y]\ndepth = 3\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	CHECK_EQ_U64(t.plan->nexp, 2);
	CHECK(t.plan->exp[1].kernel == &tk_other);
	tp_free(&t);
}

LAB_TEST(unknown_keys)
{
	static const char *const sets[] = {"x.sise=4"};

	plan_fails_with("[x]\nkernel = fake\nsise = 4\n", NULL, 0,
	                "p.ini:3: [x] unknown key 'sise' for kernel 'fake' (did you mean 'size'?)");
	plan_fails_with("[x]\nkernel = fake\nthraeds = 4\n", NULL, 0,
	                "p.ini:3: [x] unknown key 'thraeds' for kernel 'fake' (did you mean "
	                "'threads'?)");
	plan_fails_with("[x]\nkernel = fake\nzzzzzz = 4\n", NULL, 0,
	                "p.ini:3: [x] unknown key 'zzzzzz' for kernel 'fake' (see `lab describe "
	                "fake`)");
	/* A key of another kernel is unknown here. */
	plan_fails_with("[x]\nkernel = fake\ndepth = 4\n", NULL, 0,
	                "p.ini:3: [x] unknown key 'depth' for kernel 'fake' (see `lab describe "
	                "fake`)");
	plan_fails_with(
	    "[x]\nkernel = fake\n", sets, 1,
	    "--set x.sise=4: unknown key 'sise' for kernel 'fake' (did you mean 'size'?)");
}

LAB_TEST(global_keys)
{
	struct tp t;

	/* A key of some kernel is fine in [global]: it applies where it means something. */
	tp_build(&t, "[global]\ndepth = 7\n[x]\nkernel = fake\n[y]\nkernel = other\n", NULL, 0,
	         NULL, 0);
	REQUIRE(t.rc == 0);
	CHECK_EQ_U64(((const struct tk_other_params *)t.plan->pts[1].kparams)->depth, 7);
	tp_free(&t);

	plan_fails_with("[global]\ndepht = 7\n[x]\nkernel = fake\n", NULL, 0,
	                "p.ini:2: [global] unknown key 'depht' (did you mean 'depth'?)");
	plan_fails_with("[global]\nwibble = 7\n[x]\nkernel = fake\n", NULL, 0,
	                "p.ini:2: [global] unknown key 'wibble' (allowed the harness keys and any "
	                "kernel's keys; see `lab describe KERNEL`)");
}

LAB_TEST(set_names_an_experiment)
{
	static const char *const sets[] = {"nope.reps=3"};

	plan_fails_with("[x]\nkernel = fake\n", sets, 1,
	                "--set nope.reps=3: no experiment [nope] in the config (allowed: [x])");
	/* one letter off: the experiment meant */
	static const char *const typo[] = {"paded.reps=3"};
	plan_fails_with("[padded]\nkernel = fake\n[packed]\nkernel = fake\n", typo, 1,
	                "--set paded.reps=3: no experiment [paded] in the config (did you mean "
	                "[padded]? allowed: [padded] [packed])");
}

/* A section without a kernel says what was likely meant: a key next to 'kernel', or [global]
 * written otherwise; only then the list of kernels. */
LAB_TEST(missing_kernel_says_what_was_meant)
{
	plan_fails_with("[a]\nkernl = fake\n", NULL, 0,
	                "p.ini:1: [a]: missing 'kernel = ...' (line 2 has 'kernl': did you mean "
	                "'kernel'?)");
	/* A BOM at a line's start (as `cat a.ini b.ini` leaves it) or capitals: the line named. */
	plan_fails_with(
	    "[a]\n\xEF\xBB\xBFkernel = fake\n", NULL, 0,
	    "p.ini:1: [a]: missing 'kernel = ...' (line 2 has '\xEF\xBB\xBFkernel': did "
	    "you mean 'kernel'?)");
	static const char *const set[] = {"a.Kernl=fake"};
	plan_fails_with("[a]\nreps = 2\n", set, 1,
	                "p.ini:1: [a]: missing 'kernel = ...' (--set a.Kernl: did you mean "
	                "'kernel'?)");
	plan_fails_with("[a]\nKERNEL = fake\n", NULL, 0,
	                "p.ini:1: [a]: missing 'kernel = ...' (line 2 has 'KERNEL': did you mean "
	                "'kernel'?)");
	plan_fails_with("[Global]\nreps = 2\n[a]\nkernel = fake\n", NULL, 0,
	                "p.ini:1: [Global]: missing 'kernel = ...' (did you mean [global]? section "
	                "names are case-sensitive)");
}

LAB_TEST(value_errors_name_their_source)
{
	static const char *const sets[] = {"x.reps=0"};

	plan_fails_with("[x]\nkernel = fake\nsize = big\n", NULL, 0,
	                "p.ini:3: [x] size = big: not a number (expected a size in bytes, e.g. 64, "
	                "4K, 1MiB, 2G; allowed 1 .. 1M bytes)");
	/* A bad value in [global] is reported once, at its line, for every section using it. */
	plan_fails_with(
	    "[global]\nsize = 2M\n[x]\nkernel = fake\n[y]\nkernel = fake\n", NULL, 0,
	    "p.ini:2: [global] size = 2M: for kernel fake: out of range (allowed 1 .. 1M bytes)");
	plan_fails_with("[x]\nkernel = fake\n", sets, 1,
	                "--set x.reps=0: out of range (allowed 1 .. 100000)");
	/* A sweep: the text as written and the value that failed, once. */
	plan_fails_with("[x]\nkernel = fake\nsize = 1K..4M:x2\n", NULL, 0,
	                "p.ini:3: [x] size = 1K..4M:x2: value 2M: out of range (allowed 1 .. 1M "
	                "bytes)");
	plan_fails_with(
	    "[x]\nkernel = fake\nmode = a, c, d\n", NULL, 0,
	    "p.ini:3: [x] mode = a, c, d: value c: unknown choice (allowed one of: a, b)");
}

LAB_TEST(all_errors_collected)
{
	struct tp t;

	tp_build(&t,
	         "[x]\nkernel = fake\nsise = 1\nreps = 0\n"
	         "[y]\nkernel = nope\n"
	         "[z]\nkernel = other\ndepth = 1000\n",
	         NULL, 0, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(t.d.n == 4);
	CHECK_EQ_STR(t.d.msg[0],
	             "p.ini:3: [x] unknown key 'sise' for kernel 'fake' (did you mean 'size'?)");
	CHECK_EQ_STR(t.d.msg[1], "p.ini:4: [x] reps = 0: out of range (allowed 1 .. 100000)");
	CHECK_EQ_STR(t.d.msg[2],
	             "p.ini:6: [y] kernel = nope: unknown kernel (kernels: fake, other)");
	CHECK_EQ_STR(t.d.msg[3],
	             "p.ini:9: [z] depth = 1000: out of range (allowed 1 .. 100 levels)");
	tp_free(&t);
}

LAB_TEST(params_text)
{
	struct tp t;

	tp_build(&t,
	         "[x]\nkernel = fake\nsize = 4KiB\nmode = b\nplacement = scatter\nthreads = 2\n",
	         NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 1);
	/* Every kernel key in table order, formatted, then the placement; never threads. */
	CHECK_EQ_STR(t.plan->pts[0].params_text, "size=4K;mode=b;placement=scatter");
	tp_free(&t);
}

/* A key that applies only at some values of another is left out of the other points' params
 * (stride=8 labelled false_sharing's struct layouts, where no stride exists), a sweep of it
 * makes those points once, and a section's value of it that changes nothing is refused. */
LAB_TEST(params_text_leaves_out_what_does_not_apply)
{
	struct tp t;

	tp_kernels = tk_gapped_registry;
	tp_build(&t, "[x]\nkernel = gapped\nshape = a, c\ngap = 16\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 2);
	CHECK_EQ_STR(t.plan->pts[0].params_text, "gap=16;shape=a;placement=compact");
	CHECK_EQ_STR(t.plan->pts[1].params_text, "shape=c;placement=compact");
	tp_free(&t);
	/* a sweep of it plans the points it does not apply to once (review red team: a [global]
	 * stride sweep was refused beside a struct layout) */
	tp_build(&t, "[x]\nkernel = gapped\nshape = a, c\ngap = 8, 16\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 3);
	CHECK_EQ_STR(t.plan->pts[0].params_text, "gap=8;shape=a;placement=compact");
	CHECK_EQ_STR(t.plan->pts[1].params_text, "gap=16;shape=a;placement=compact");
	CHECK_EQ_STR(t.plan->pts[2].params_text, "shape=c;placement=compact");
	tp_free(&t);
	tp_build(&t, "[global]\ngap = 8, 16\n[x]\nkernel = gapped\nshape = c\nthreads = 1, 2\n",
	         NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 2);
	CHECK_EQ_STR(t.plan->pts[1].params_text, "shape=c;placement=compact");
	tp_free(&t);
	tp_build(&t, "[x]\nkernel = gapped\nshape = c\ngap = 16\n", NULL, 0, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(t.d.n == 1);
	CHECK_EQ_STR(t.d.msg[0], "p.ini:4: [x] gap = 16: changes nothing here: gap applies only "
	                         "where shape = a or b (this experiment has shape = c; allowed: "
	                         "leave gap out, or set shape = a or b)");
	tp_free(&t);
	/* a [global] value is for the experiments whose points take it */
	tp_build(&t, "[global]\ngap = 16\n[x]\nkernel = gapped\nshape = c\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 1);
	CHECK_EQ_STR(t.plan->pts[0].params_text, "shape=c;placement=compact");
	tp_free(&t);
	/* a --set that narrows shape leaves the config's gap to the points that take it (hostile27:
	 * the config's own line was refused, and nothing on the command line could fix it) */
	static const char *const narrow[] = {"x.shape=c"}, *const both[] = {"x.shape=c",
	                                                                    "x.gap=16"};
	tp_build(&t, "[x]\nkernel = gapped\nshape = a, c\ngap = 8, 16\n", narrow, 1, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 1);
	CHECK_EQ_STR(t.plan->pts[0].params_text, "shape=c;placement=compact");
	tp_free(&t);
	tp_build(&t, "[x]\nkernel = gapped\nshape = a, c\n", both, 2, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG); /* both on the command line: gap=16 changes nothing */
	tp_free(&t);
	/* ...but not the config's own error: gap changes nothing at the config's shape either */
	tp_build(&t, "[x]\nkernel = gapped\nshape = c\ngap = 16\n", narrow, 1, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(t.d.n == 1);
	CHECK(strstr(t.d.msg[0], "p.ini:4: [x] gap = 16: changes nothing here") != NULL);
	tp_free(&t);
	/* and a --set that makes the config's gap apply is what the user asked for */
	static const char *const widen[] = {"x.shape=a"};
	tp_build(&t, "[x]\nkernel = gapped\nshape = c\ngap = 16\n", widen, 1, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 1);
	tp_free(&t);
	tp_kernels = tk_registry;
}

LAB_TEST(skipped_points)
{
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\nsize = 8,13,16\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 3);
	CHECK_EQ_I64(t.plan->pts[0].state, LAB_POINT_READY);
	CHECK_EQ_I64(t.plan->pts[1].state, LAB_POINT_SKIPPED);
	CHECK_EQ_STR(t.plan->pts[1].reason, "size 13 is unlucky on this machine");
	CHECK_EQ_I64(t.plan->pts[2].state, LAB_POINT_READY);
	tp_free(&t);
}

LAB_TEST(check_errors_at_the_key)
{
	plan_fails_with("[x]\nkernel = fake\n\nsize = 12\n", NULL, 0,
	                "p.ini:4: [x] size = 12: not a power of two (allowed 1, 2, 4, ...)");
	plan_fails_with(
	    "[x]\nkernel = fake\nsize = 8,12,16\n", NULL, 0,
	    "p.ini:3: [x] size = 8,12,16: value 12: not a power of two (allowed 1, 2, 4, "
	    "...)");
	/* A message that names no key is reported at the section. */
	plan_fails_with("[x]\nkernel = fake\nsize = 11\n", NULL, 0,
	                "p.ini:1: [x]: mode and size disagree");
	/* An unknown key beside them does not hide them: both errors at once (the kernel's was
	 * found only after the first was fixed) */
	struct tp t;
	tp_build(&t, "[x]\nkernel = fake\nsize = 12\nsizee = 3\n", NULL, 0, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(lab_diag_count(&t.d) == 2);
	CHECK(strstr(t.d.msg[0], "p.ini:4: [x] unknown key 'sizee'") == t.d.msg[0]);
	CHECK_EQ_STR(t.d.msg[1],
	             "p.ini:3: [x] size = 12: not a power of two (allowed 1, 2, 4, ...)");
	tp_free(&t);
}

LAB_TEST(no_experiments)
{
	plan_fails_with("", NULL, 0,
	                "p.ini: no experiments (add a section like [name] with "
	                "kernel = noop)");
	plan_fails_with("[global]\nreps = 2\n", NULL, 0,
	                "p.ini: no experiments (add a section like [name] with kernel = noop)");
}

LAB_TEST(too_many_points)
{
	plan_fails_with(
	    "[x]\nkernel = fake\nsize = 1..1000\nreps = 1..101\n", NULL, 0,
	    "p.ini:1: [x]: the sweeps expand to 101000 points (allowed at most 100000)");
	plan_fails_with("[w]\nkernel = other\ndepth = 1..2\n[x]\nkernel = fake\nsize = 1..1000\n"
	                "reps = 1..100\n",
	                NULL, 0,
	                "p.ini:4: [x]: the sweeps expand to 100000 points, 100002 with the "
	                "experiments before (allowed at most 100000 in all)");
	/* Each refused experiment counts what the ones before asked for, not only the planned
	 * (the third said "100099 with the experiments before" like the second). */
	struct tp t;
	tp_build(&t,
	         "[a]\nkernel = other\ndepth = 1..99\n[x]\nkernel = fake\nsize = 1..1000\n"
	         "reps = 1..100\n[y]\nkernel = fake\nsize = 1..1000\nreps = 1..100\n",
	         NULL, 0, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(lab_diag_count(&t.d) == 2);
	CHECK_EQ_STR(t.d.msg[1], "p.ini:8: [y]: the sweeps expand to 100000 points, 200099 with "
	                         "the experiments before (allowed at most 100000 in all)");
	tp_free(&t);
	/* 4096^5 x 16 = 2^64 points: a 64-bit count would wrap around to none. */
	plan_fails_with("[x]\nkernel = fake\nreps = 1..4096\nseed = 1..4096\n"
	                "warmup = 1ns..4096ns\nmin_time = 1000ns..5095ns\nsize = 1..4096\n"
	                "max_pairs = 1..16\n",
	                NULL, 0,
	                "p.ini:1: [x]: the sweeps expand to more than 2^64 points (allowed at most "
	                "100000)");
}

/* The cap counts the points planned: a key that applies only at some values of another is
 * counted once where it does not (hostile27: 3 layouts x 512 strides x 2 x 40 threads plan
 * 41,120 points, refused as 122,880). Beyond the cap the message gives the planned count, and
 * a walk of too many combinations says so. */
LAB_TEST(too_many_points_counts_what_applies)
{
	struct tp t;

	tp_kernels = tk_gapped_registry;
	/* gap applies at a and b: (4096 x 2 + 1) x 16 threads, not 4096 x 3 x 16 */
	tp_build(&t, "[x]\nkernel = gapped\nshape = a, b, c\ngap = 1..4096\nthreads = 1..16\n",
	         NULL, 0, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(t.d.n == 1);
	CHECK_EQ_STR(t.d.msg[0], "p.ini:1: [x]: the sweeps expand to 131088 points (allowed at "
	                         "most 100000)");
	tp_free(&t);
	/* 4096 x 2 x 16 = 131,072 combinations, 4097 x 16 = 65,552 points: planned */
	tp_build(&t, "[x]\nkernel = gapped\nshape = a, c\ngap = 1..4096\nthreads = 1..16\n", NULL,
	         0, NULL, 0);
	CHECK_EQ_I64(t.rc, 0);
	CHECK_EQ_U64(t.plan->npts, 4097 * 16);
	tp_free(&t);
	/* a [global] sweep of gap beside shapes it never applies to: 1.6 million combinations are
	 * walked at most */
	tp_build(&t,
	         "[global]\ngap = 1..4096\n[x]\nkernel = gapped\nshape = c\nthreads = 1..16\n"
	         "seed = 1..32\n",
	         NULL, 0, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(t.d.n == 1);
	CHECK_EQ_STR(
	    t.d.msg[0],
	    "p.ini:3: [x]: the sweeps name 2097152 combinations of values (allowed at most "
	    "1600000, and at most 100000 points once the values a key does not apply at "
	    "are left out)");
	tp_free(&t);
	tp_kernels = tk_registry;
}

/* Sweeps written in each section are counted before their values are made: 200 sections of 8
 * keys of 4,096 values each held all their 6.5 million values (230 MB, seconds) before the
 * point limit refused them. Likewise an experiment refused for the points before it. */
LAB_TEST(section_sweeps_counted_before_made)
{
	static const char *const keys =
	    "size = 1..4096\nreps = 1..4096\nseed = 1..4096\nwarmup = 1ns..4096ns\n"
	    "min_time = 1000ns..5095ns\nmax_pairs = 0..4095\nquiet_wait = 0ns..4095ns\n"
	    "mode = a, b, a, b\n";
	char *path = NULL;
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err = {0};
	struct lab_topo *topo = NULL;
	struct lab_plan *plan = NULL;

	REQUIRE(asprintf(&path, "%s/sections.ini", testlib_tmpdir()) > 0);
	FILE *f = fopen(path, "w");
	REQUIRE(f);
	for (int i = 0; i < 200; i++)
		fprintf(f, "[e%d]\nkernel = fake\n%s", i, keys);
	REQUIRE(fclose(f) == 0);
	REQUIRE(lab_topo_open(&topo, SYN_2S, &err) == 0);
	REQUIRE(lab_cfg_load_file(&cfg, path, &d, &err) == 0 && d.n == 0);
	unsigned long long made = lab_sweep_values_made();
	CHECK_EQ_I64(lab_plan_build(&plan, &cfg, tk_registry, topo, NULL, 0, &d, &err),
	             -LAB_ECONFIG);
	/* not one key's values (before: 200 x 7 x 4,096 + 200 x 4) */
	CHECK(lab_sweep_values_made() - made < LAB_SWEEP_MAX);
	REQUIRE(d.n == 200);
	char want[512];
	snprintf(want, sizeof(want),
	         "%s:11: [e1]: the sweeps expand to more than 2^64 points (allowed at most "
	         "100000)",
	         path);
	CHECK_EQ_STR(d.msg[1], want);
	lab_diag_free(&d);
	lab_cfg_free(&cfg);
	lab_topo_close(topo);
	free(path);

	struct tp t;
	made = lab_sweep_values_made();
	tp_build(&t,
	         "[a]\nkernel = other\ndepth = 1..99\n[x]\nkernel = fake\nsize = 1..1000\n"
	         "reps = 1..100\n",
	         NULL, 0, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	REQUIRE(t.d.n == 1);
	CHECK_EQ_STR(t.d.msg[0],
	             "p.ini:4: [x]: the sweeps expand to 100000 points, 100099 with the "
	             "experiments before (allowed at most 100000 in all)");
	/* [a]'s 99 depths and its defaults, not [x]'s 1,100 values */
	CHECK(lab_sweep_values_made() - made < 200);
	tp_free(&t);
}

/* On the stand-in of a --topology that did not open, threads = 1..max is 1024 values: too many
 * points only there, not reported, but the section's values are still checked. */
LAB_TEST(standin_still_checks_values_of_many_points)
{
	static const char text[] = "[x]\nkernel = fake\nthreads = 1..max\nsize = 1..100\n"
	                           "mode = a, c\n";
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_err err = {0};
	struct lab_topo *topo = NULL;
	struct lab_plan *plan = NULL;

	REQUIRE(lab_topo_open_standin(&topo, &err) == 0);
	REQUIRE(lab_cfg_load_text(&cfg, "p.ini", text, strlen(text), &d, &err) == 0 && d.n == 0);
	CHECK_EQ_I64(lab_plan_build(&plan, &cfg, tk_registry, topo, NULL, 0, &d, &err),
	             -LAB_ECONFIG);
	REQUIRE(d.n == 1);
	CHECK(strncmp(d.msg[0], "p.ini:5: [x] mode = a, c: value c: ", 35) == 0);
	lab_diag_free(&d);
	lab_cfg_free(&cfg);
	lab_topo_close(topo);
}

/* An unknown kernel in [global] is one error at its own line, not one per section. */
LAB_TEST(global_unknown_kernel_once)
{
	plan_fails_with("[global]\nkernel = nosuch\n[a]\nreps = 2\n[b]\nreps = 3\n", NULL, 0,
	                "p.ini:2: [global] kernel = nosuch: unknown kernel (kernels: fake, other)");
	/* Even when no section inherits it. */
	plan_fails_with("[global]\nkernel = nosuch\n[a]\nkernel = fake\n", NULL, 0,
	                "p.ini:2: [global] kernel = nosuch: unknown kernel (kernels: fake, other)");
}

/* --set SEC.kernel=... chooses the kernel (it was ignored: the config's kernel ran). */
LAB_TEST(set_kernel)
{
	static const char *const bad[] = {"a.kernel=nosuch"};
	static const char *const good[] = {"a.kernel=other"};
	struct tp t;

	plan_fails_with("[a]\nkernel = fake\n", bad, 1,
	                "--set a.kernel=nosuch: unknown kernel (kernels: fake, other)");
	tp_build(&t, "[a]\nkernel = fake\n", good, 1, NULL, 0);
	REQUIRE(t.rc == 0);
	CHECK_EQ_STR(t.plan->exp[0].kernel->name, "other");
	tp_free(&t);
}

/* Section names hold dots: --set exp.a.reps=0 is [exp.a] reps. */
LAB_TEST(set_dotted_section)
{
	static const char *const sets[] = {"exp.a.reps=0"};

	plan_fails_with("[exp.a]\nkernel = fake\n", sets, 1,
	                "--set exp.a.reps=0: out of range (allowed 1 .. 100000)");
}

/* A range of one value is quoted as written, with the value that failed. */
LAB_TEST(range_of_one_quoted)
{
	plan_fails_with("[a]\nkernel = fake\nthreads = 2000..2000\n", NULL, 0,
	                "p.ini:3: [a] threads = 2000..2000: value 2000: out of range (allowed 1 "
	                ".. 1024 threads)");
}

/* One order of CPUs written two ways is one point, recorded in the canonical text (params_text,
 * run.json's "placement"); a different order is another point. Messages still quote the value
 * as written (list_placement, min_cpus_skips_keep_errors_of_any_machine). */
LAB_TEST(placements_written_two_ways_are_one_point)
{
	struct tp t;

	tp_build(&t,
	         "[x]\nkernel = fake\nthreads = 2\nplacement = list:0,1, list:0-1, list:1,0, "
	         "expr:S0:0,1, expr:S00:0-1, expr:E:S0:2, expr:E:S0:2:1:1, node:00\n",
	         NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 5);
	CHECK_EQ_STR(t.plan->pts[0].params_text, "size=8;mode=a;placement=list:0-1");
	CHECK_EQ_STR(t.plan->pts[0].h.placement, "list:0-1");
	CHECK_EQ_STR(t.plan->pts[1].params_text, "size=8;mode=a;placement=list:1,0");
	CHECK_EQ_I64(t.plan->pts[1].cpus[0], 1);
	CHECK_EQ_STR(t.plan->pts[2].params_text, "size=8;mode=a;placement=expr:S0:0-1");
	CHECK_EQ_I64(t.plan->pts[2].cpus[1], 2); /* S0:1 is core 1's first PU */
	/* E: walks core by core: another placement, core 0's two PUs */
	CHECK_EQ_STR(t.plan->pts[3].params_text, "size=8;mode=a;placement=expr:E:S0:2");
	CHECK_EQ_I64(t.plan->pts[3].cpus[1], 1);
	CHECK_EQ_STR(t.plan->pts[4].params_text, "size=8;mode=a;placement=node:0");
	tp_free(&t);
}

/* membind = node:00 is node:0, one point, as placement = node:00 is (it planned two); a lesson
 * that names it by node:00 names that point. */
LAB_TEST(membind_written_two_ways_is_one_point)
{
	struct tp t;

	tp_build(&t,
	         "[x]\nkernel = fake\nmembind = node:00, node:0, local\nsize = 8, 16\n[lessons]\n"
	         "l = cost(x: membind=node:00, size=8) > 1\n",
	         NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 4);
	CHECK_EQ_STR(t.plan->pts[0].h.membind, "node:0");
	CHECK_EQ_STR(t.plan->pts[0].params_text, "size=8;mode=a;placement=compact;membind=node:0");
	CHECK_EQ_STR(t.plan->pts[1].h.membind, "local");
	REQUIRE(t.plan->nlessons == 1);
	CHECK(strstr(t.plan->lessons[0].expr, "membind=node:0,") != NULL);
	tp_free(&t);
	tp_build(&t, "[x]\nkernel = fake\nplacement = node:01, node:1\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	CHECK_EQ_U64(t.plan->npts, 1);
	tp_free(&t);
}

/* total_budget is the whole run's: set in an experiment's section (or by --set NAME.) it was
 * checked by that experiment's points alone while the estimate took the smallest. */
LAB_TEST(total_budget_in_global_only)
{
	static const char *const sets[] = {"x.total_budget=2s"};
	static const char *const gsets[] = {"global.total_budget=2s"};
	struct tp t;

	plan_fails_with("[x]\nkernel = fake\ntotal_budget = 1s\n", NULL, 0,
	                "p.ini:3: [x] total_budget = 1s: is the whole run's wall time (allowed: in "
	                "[global] only, or --set global.total_budget=...)");
	plan_fails_with("[x]\nkernel = fake\n", sets, 1,
	                "--set x.total_budget=2s: is the whole run's wall time (allowed: in "
	                "[global] only, or --set global.total_budget=...)");
	tp_build(&t, "[global]\ntotal_budget = 1s\n[x]\nkernel = fake\n", gsets, 1, NULL, 0);
	CHECK_EQ_I64(t.rc, 0);
	tp_free(&t);
}

/* node:N: a node the machine lacks skips its points with the reason (one config for 1 and 2
 * nodes). (Too many threads for a node: test_topo's node_placement.) */
LAB_TEST(node_placement_missing_node_skips)
{
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\nthreads = 2\nplacement = node:0, node:1\n", NULL, 0, NULL,
	         0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 2);
	CHECK_EQ_I64(t.plan->pts[0].state, LAB_POINT_READY);
	CHECK_EQ_I64(t.plan->pts[0].cpus[0], 0);
	CHECK_EQ_I64(t.plan->pts[1].state, LAB_POINT_SKIPPED);
	CHECK_EQ_STR(t.plan->pts[1].reason,
	             "placement node:1: NUMA node 1 has no CPU this process may use");
	CHECK_EQ_STR(t.plan->pts[1].params_text, "size=8;mode=a;placement=node:1");
	/* nothing runs there: no CPUs are recorded (they were the compact plan's, never used) */
	CHECK_EQ_U64(t.plan->pts[1].ncpus, 0);
	CHECK_EQ_U64(t.plan->pts[1].nthreads, 2);
	tp_free(&t);

	/* More threads than the node has CPUs skips the point too: a node's size depends on the
	 * machine (ch27 was refused whole on a 2-node guest of one vCPU a node) */
	tp_build_on(&t, "synthetic:pack:2 numa:1 core:1 pu:1",
	            "[x]\nkernel = fake\nthreads = 1, 2\nplacement = node:0, node:1\n", NULL, 0,
	            NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 4);
	CHECK_EQ_I64(t.plan->pts[0].state, LAB_POINT_READY);
	CHECK_EQ_I64(t.plan->pts[1].state, LAB_POINT_SKIPPED);
	CHECK_EQ_STR(t.plan->pts[1].reason, "2 threads but NUMA node 0 has only 1 usable CPU "
	                                    "(allowed threads 1 .. 1 with node:0)");
	CHECK_EQ_U64(t.plan->pts[1].ncpus, 0);
	tp_free(&t);

	/* The kernel's own skip reason wins over the missing node's. */
	tp_build(&t, "[x]\nkernel = fake\nsize = 13\nplacement = node:1\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 1);
	CHECK_EQ_STR(t.plan->pts[0].reason, "size 13 is unlucky on this machine");
	tp_free(&t);
}

/* min_cpus above the CPUs this process may use (32 here): every point is skipped with the
 * reason and has no CPUs, threads = max counts as min_cpus, threads above the CPUs are no error;
 * at or below them nothing changes. A swept min_cpus is an error. */
LAB_TEST(min_cpus_skips_on_smaller_machines)
{
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\nthreads = 40, max\nmin_cpus = 64\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 2);
	CHECK_EQ_U64(t.plan->pts[0].nthreads, 40);
	CHECK_EQ_U64(t.plan->pts[1].nthreads, 64);
	for (unsigned i = 0; i < 2; i++) {
		CHECK_EQ_I64(t.plan->pts[i].state, LAB_POINT_SKIPPED);
		CHECK_EQ_U64(t.plan->pts[i].ncpus, 0);
		CHECK_EQ_STR(t.plan->pts[i].reason,
		             "needs at least 64 CPUs (min_cpus = 64); this process may use 32");
	}
	tp_free(&t);

	/* 2..max is one point there, not an empty range; the kernel's own reason wins */
	tp_build(&t, "[x]\nkernel = fake\nthreads = 48..max\nsize = 13\nmin_cpus = 48\n", NULL, 0,
	         NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 1);
	CHECK_EQ_STR(t.plan->pts[0].reason, "size 13 is unlucky on this machine");
	tp_free(&t);

	tp_build(&t, "[x]\nkernel = fake\nthreads = 2..max:x2\nmin_cpus = 32\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 5);
	CHECK_EQ_I64(t.plan->pts[4].state, LAB_POINT_READY);
	CHECK_EQ_U64(t.plan->pts[4].ncpus, 32);
	tp_free(&t);

	/* a cross-field error is one on any machine */
	plan_fails_with("[x]\nkernel = fake\nsize = 12\nmin_cpus = 64\n", NULL, 0,
	                "p.ini:3: [x] size = 12: not a power of two (allowed 1, 2, 4, ...)");
	plan_fails_with(
	    "[x]\nkernel = fake\nmin_cpus = 1, 2\n", NULL, 0,
	    "p.ini:3: [x] min_cpus = 1, 2: value 1: does not sweep (allowed: one value)");
	plan_fails_with("[x]\nkernel = fake\nmin_cpus = 0\n", NULL, 0,
	                "p.ini:3: [x] min_cpus = 0: out of range (allowed 1 .. 1024 cpus)");
}

/* A point min_cpus skips still reports what is an error on any machine, as where it runs: a
 * team kernel on pairs, a list or an expression of fewer CPUs than threads, a CPU an expression
 * selects twice wherever it resolves, a CPU number past any topology's. What depends on the
 * machine (a CPU or a domain this one lacks) is no error: the point is skipped. */
LAB_TEST(min_cpus_skips_keep_errors_of_any_machine)
{
	struct tp t;

	plan_fails_with("[x]\nkernel = fake\nthreads = 2\nplacement = pairs\nmin_cpus = 64\n", NULL,
	                0,
	                "p.ini:4: [x] placement = pairs: kernel 'fake' runs a team, not CPU pairs "
	                "(allowed compact, cores, scatter, list:...)");
	plan_fails_with("[x]\nkernel = fake\nthreads = 4\nplacement = list:0,1\nmin_cpus = 64\n",
	                NULL, 0,
	                "p.ini:4: [x] placement = list:0,1: 4 threads but the placement list has "
	                "only 2 CPUs (allowed: at most 2 threads, or a longer list)");
	plan_fails_with("[x]\nkernel = fake\nthreads = 4\nplacement = expr:E:N:2\nmin_cpus = 64\n",
	                NULL, 0,
	                "p.ini:4: [x] placement = expr:E:N:2: 4 threads but the expression "
	                "yields only 2 CPUs (allowed: threads 1 .. 2, or a longer expression)");
	plan_fails_with(
	    "[x]\nkernel = fake\nthreads = 2\nplacement = expr:N:0@N:0\nmin_cpus = 64\n", NULL, 0,
	    "p.ini:4: [x] placement = expr:N:0@N:0: in 'N:0': N:0 is selected twice "
	    "(each thread needs its own CPU)");
	plan_fails_with("[x]\nkernel = fake\nthreads = 1\nplacement = list:70000\nmin_cpus = 64\n",
	                NULL, 0,
	                "p.ini:4: [x] placement = list:70000: cpu 70000 is past the highest CPU "
	                "number (allowed 0 .. 65535)");

	/* CPU 99 and domain S7 may be there on a machine of 64 CPUs */
	tp_build(
	    &t,
	    "[x]\nkernel = fake\nthreads = 2\nplacement = list:99,100, expr:S7:0-1\nmin_cpus = "
	    "64\n",
	    NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 2);
	for (unsigned i = 0; i < 2; i++) {
		CHECK_EQ_I64(t.plan->pts[i].state, LAB_POINT_SKIPPED);
		CHECK_EQ_U64(t.plan->pts[i].ncpus, 0);
	}
	tp_free(&t);
}

/* A threads sweep with max drops the values it repeats: 1, 32, max on 32 CPUs is two points. */
LAB_TEST(threads_max_repeats_once)
{
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\nthreads = 1, 32, max\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 2);
	CHECK_EQ_U64(t.plan->pts[0].nthreads, 1);
	CHECK_EQ_U64(t.plan->pts[1].nthreads, 32);
	tp_free(&t);
}

/* --set global.KEY sets KEY in every experiment that has it; NAME.KEY still wins. */
LAB_TEST(set_global_applies_to_every_experiment)
{
	static const char *const sets[] = {"global.reps=3", "y.reps=5", "global.size=128"};
	struct tp t;

	tp_build(&t, "[x]\nkernel = fake\n[y]\nkernel = other\n", sets, 3, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->nexp == 2);
	CHECK_EQ_STR(tp_key(&t.plan->exp[0], "reps")->text, "3");
	CHECK_EQ_STR(tp_key(&t.plan->exp[1], "reps")->text, "5");
	CHECK_EQ_STR(tp_key(&t.plan->exp[0], "size")->text, "128");
	tp_free(&t);
}

LAB_TEST(set_global_unknown_key)
{
	static const char *const sets[] = {"global.rpes=3"};
	static const char *const kern[] = {"global.kernel=fake"};

	plan_fails_with("[x]\nkernel = fake\n", sets, 1,
	                "--set global.rpes=3: unknown key (did you mean 'reps'?)");
	plan_fails_with("[x]\nkernel = fake\n", kern, 1,
	                "--set global.kernel=fake: not allowed; set the kernel of one experiment "
	                "(--set NAME.kernel=fake)");
}

/* membind: a sweepable harness key; a node the machine lacks skips, a bad value is an error. */
LAB_TEST(membind_key)
{
	struct tp t;

	tp_build(&t,
	         "[x]\nkernel = fake\nthreads = 1\nmembind = local, node:0, node:1, interleave, "
	         "first_touch\n",
	         NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0);
	REQUIRE(t.plan->npts == 5);
	/* The default adds nothing to params (old results read the same); the rest are series. */
	CHECK_EQ_STR(t.plan->pts[0].params_text, "size=8;mode=a;placement=compact");
	CHECK_EQ_STR(t.plan->pts[1].params_text, "size=8;mode=a;placement=compact;membind=node:0");
	CHECK_EQ_I64(t.plan->pts[1].state, LAB_POINT_READY);
	CHECK_EQ_I64(t.plan->pts[2].state, LAB_POINT_SKIPPED);
	CHECK_EQ_STR(t.plan->pts[2].reason,
	             "membind = node:1: this machine has 1 NUMA node (0 .. 0)");
	CHECK_EQ_I64(t.plan->pts[3].state, LAB_POINT_READY);
	CHECK_EQ_STR(t.plan->pts[4].params_text,
	             "size=8;mode=a;placement=compact;membind=first_touch");
	tp_free(&t);

	tp_build(&t, "[x]\nkernel = fake\nperf_c2c = off, on\n", NULL, 0, NULL, 0);
	REQUIRE(t.rc == 0 && t.plan->npts == 2);
	CHECK_EQ_STR(t.plan->pts[0].params_text, "size=8;mode=a;placement=compact");
	CHECK_EQ_STR(t.plan->pts[1].params_text, "size=8;mode=a;placement=compact;perf_c2c=on");
	tp_free(&t);

	plan_fails_with("[x]\nkernel = fake\nmembind = node:x\n", NULL, 0,
	                "p.ini:3: [x] membind = node:x: unknown memory binding (allowed local, "
	                "node:N, interleave, first_touch; N = 0 .. 63)");
	plan_fails_with("[x]\nkernel = fake\nmembind = local, bind\n", NULL, 0,
	                "p.ini:3: [x] membind = local, bind: value bind: unknown memory binding "
	                "(allowed local, node:N, interleave, first_touch; N = 0 .. 63)");
}

/* Planned points compared with the selectors of n lessons over 512 points (256 sizes x 2). */
static unsigned long long lessons_probes(unsigned n)
{
	size_t len = 256 + (size_t)n * 96;
	char *text = malloc(len);
	size_t used = 0;
	struct tp t;

	if (!text)
		return 0;
	used += (size_t)snprintf(text, len,
	                         "[x]\nkernel = fake\nsize = 1024..1279\nthreads = 1,2\n"
	                         "[lessons]\n");
	for (unsigned i = 0; i < n; i++)
		used += (size_t)snprintf(text + used, len - used,
		                         "l%u = cost(x: size=%u, threads=1) / cost(x: size=%u, "
		                         "threads=2) >= 1\n",
		                         i, 1024 + i % 256, 1024 + (i + 1) % 256);
	unsigned long long before = lab_plan_lesson_probes();
	tp_build(&t, text, NULL, 0, NULL, 0);
	CHECK_EQ_I64(t.rc, 0);
	CHECK_EQ_U64(t.plan ? t.plan->npts : 0, 512);
	CHECK_EQ_U64(t.plan ? t.plan->nlessons : 0, n);
	tp_free(&t);
	free(text);
	return lab_plan_lesson_probes() - before;
}

/* A selector is counted through an index of its experiment: it compares the points of its
 * rarest value (2 here: one size at two thread counts), not every point of the experiment
 * (512 each, as a scan did). */
LAB_TEST(lesson_selectors_use_an_index)
{
	unsigned long long few = lessons_probes(100), many = lessons_probes(400);

	CHECK(few > 0);
	CHECK(few <= 100 * 2 * 2);
	CHECK(many <= 400 * 2 * 2);
	/* The count is right: one size names both thread counts, so it is no single point. */
	plan_fails_with("[x]\nkernel = fake\nsize = 1024..1279\nthreads = 1,2\n[lessons]\n"
	                "l = cost(x: size=1030) / cost(x: size=1031, threads=2) >= 1\n",
	                NULL, 0,
	                "p.ini:6: [lessons] l: column 6: x names 2 points of [x] (add "
	                "threads=VALUE: it sweeps)");
	/* A value the config's own fixed list does not sweep could never be judged: an error. */
	plan_fails_with("[x]\nkernel = fake\nsize = 1024..1279\nthreads = 1,2\n[lessons]\n"
	                "l = cost(x: size=2048, threads=1) / cost(x: size=1031, threads=2) >= 1\n",
	                NULL, 0,
	                "p.ini:6: [lessons] l: column 9: size=2K names no point of [x], which "
	                "sweeps size = 1024..1279 (allowed one of these)");
	/* One a --set narrowed away names nothing, and is no error: the analyzer says "not
	 * run", naming the --set. */
	static const char *const narrow[] = {"x.size=1030..1031"};
	struct tp t;
	tp_build(&t,
	         "[x]\nkernel = fake\nsize = 1024..1279\nthreads = 1,2\n[lessons]\n"
	         "l = cost(x: size=1100, threads=1) / cost(x: size=1031, threads=2) >= 1\n",
	         narrow, 1, NULL, 0);
	CHECK_EQ_I64(t.rc, 0);
	tp_free(&t);
	/* One a --set widened (global.threads over the section's own 2) names several points:
	 * the error says the --set made the key sweep (it read as the config's fault). */
	static const char *const widen[] = {"global.threads=1,2"};
	plan_fails_with("[x]\nkernel = fake\nthreads = 2\nsize = 1024\n[lessons]\n"
	                "l = cost(x: size=1024) >= 1\n",
	                widen, 1,
	                "p.ini:6: [lessons] l: column 6: x names 2 points of [x] (add "
	                "threads=VALUE: it sweeps, as a --set made it)");
}

/* Red team: more experiments than the point cap allows are refused before any is planned (the
 * 100,001st section was refused after all of them were: 3.4 s and 627 MB), so a bad key of the
 * first is not even read. */
LAB_TEST(too_many_experiments_refused_before_planning)
{
	size_t cap = (size_t)(LAB_POINTS_MAX + 1) * 40 + 64, used = 0;
	char *text = malloc(cap);

	REQUIRE(text != NULL);
	used += (size_t)snprintf(text, cap, "[s0]\nkernel = fake\nbogus = 1\n");
	for (int i = 1; i <= LAB_POINTS_MAX; i++)
		used += (size_t)snprintf(text + used, cap - used, "[s%d]\nkernel = fake\n", i);
	plan_fails_with(text, NULL, 0,
	                "p.ini:200002: [s100000]: more than 100000 experiments (allowed at most "
	                "100000 points in all, one at least per experiment)");
	free(text);
}

/* --set global.KEY=bad is one error, as typed, not one per experiment under its name. */
LAB_TEST(set_global_error_is_reported_once_as_typed)
{
	static const char *const sets[] = {"global.reps=0"};

	plan_fails_with("[x]\nkernel = fake\n[y]\nkernel = fake\n", sets, 1,
	                "--set global.reps=0: out of range (allowed 1 .. 100000)");
}

/* Every line is bounded: a 100 000-byte key keeps its start and the end of the message. */
LAB_TEST(long_echoes_are_clipped)
{
	static char set[100100];
	const char *const sets[] = {set};
	const char *end = "' for kernel 'fake' (see `lab describe fake`)";
	struct tp t;

	memcpy(set, "x.", 2);
	memset(set + 2, 'k', 100000);
	memcpy(set + 2 + 100000, "=1", 3);
	tp_build(&t, "[x]\nkernel = fake\n", sets, 1, NULL, 0);
	CHECK_EQ_I64(t.rc, -LAB_ECONFIG);
	CHECK_EQ_U64(t.d.n, 1);
	const char *m = t.d.n ? t.d.msg[0] : "";
	CHECK(strlen(m) <= LAB_DIAG_LINE_MAX);
	CHECK(!strncmp(m, "--set x.kkkk", 12));
	CHECK(strstr(m, "kkk...kkk") != NULL);
	CHECK(strlen(m) > strlen(end) && !strcmp(m + strlen(m) - strlen(end), end));
	tp_free(&t);
}
