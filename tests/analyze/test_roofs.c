/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Issue 21, finding 3: roofs that bound. On the fixtures of gen_fixtures_roofs.py (the values
 * and hand computations are there): a bandwidth ceiling is the best of the bandwidth-bound
 * kernels of its level, read-write ones included, never count_if's or gather's; every cache
 * level measured gets its ceiling; a point above its roof carries a note that says why; without
 * a bandwidth ceiling for its level a low-intensity point has no roof, never "compute". Finding
 * 7: FMA+add is said to beat FMA alone only where its interval lies above. A point above a
 * ceiling that passed over a faster one of too few samples says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/jsonr.h"
#include "tests/analyze/clitest.h"
#include "tests/testlib.h"

/* `lab analyze FX --no-plots [--json]` on a copy of fixture fx (made unless the case has one):
 * stdout (malloc'd). */
static char *rf_run(const char *fx, int json)
{
	char cmd[256], *out = NULL, *err = NULL;

	if (!clitest_exists(fx))
		clitest_copy(fx);
	snprintf(cmd, sizeof(cmd), "analyze %s --no-plots%s", fx, json ? " --json" : "");
	CHECK_EQ_I64(clitest_run(NULL, cmd, &out, &err), 0);
	free(err);
	return out ? out : strdup("");
}

static struct lab_an_json *rf_json(const char *fx)
{
	char *out = rf_run(fx, 1);
	struct lab_an_json *j = NULL;
	struct lab_err e = {0};

	if (lab_an_json_parse("stdout", out, strlen(out), &j, &e))
		fprintf(stderr, "%s\n", e.msg);
	free(out);
	return j;
}

/* Row i of the roofline's table (ceilings, points) in analysis.json (one section, spanning
 * experiments), or NULL. */
static const struct lab_an_json *rf_row(const struct lab_an_json *j, const char *table, size_t i)
{
	const struct lab_an_json *s = clitest_at(lab_an_json_get(j, "roofline"), "sections", 0);
	const struct lab_an_json *rows =
	    lab_an_json_get(lab_an_json_get(lab_an_json_get(s, "tables"), table), "rows");

	return rows && i < rows->n ? &rows->items[i] : NULL;
}

/* The roofline's finding i (FMA+add sentences, points above their roofs), or NULL. */
static const char *rf_finding(const struct lab_an_json *j, size_t i)
{
	const struct lab_an_json *s = clitest_at(lab_an_json_get(j, "roofline"), "sections", 0);

	return lab_an_json_str(clitest_at(s, "findings", i), "text");
}

/* The line of the roofline's points table in out that holds what (malloc'd; "" when none). */
static char *rf_line(const char *out, const char *what)
{
	const char *t = strstr(out, "Roofline: points"), *x = t ? strstr(t, what) : NULL, *l = x,
	           *end;

	if (!x)
		return strdup("");
	while (l > out && l[-1] != '\n')
		l--;
	end = strchr(x, '\n');
	return strndup(l, end ? (size_t)(end - l) : strlen(l));
}

/* The last ceiling row of j named name (a team's, where 1 thread's has the name too), NULL
 * (said) when none. */
static const struct lab_an_json *rf_ceil_row(const struct lab_an_json *j, const char *name)
{
	const struct lab_an_json *c = NULL, *x;

	for (size_t i = 0; (x = rf_row(j, "ceilings", i)); i++)
		if (!strcmp(lab_an_json_str(x, "name"), name))
			c = x;
	if (!c)
		fprintf(stderr, "no ceiling named '%s'\n", name);
	return c;
}

/* The ceiling named name: its value and the params of the point that measured it. */
static void rf_ceil(const struct lab_an_json *j, const char *name, double v, const char *by)
{
	const struct lab_an_json *c = rf_ceil_row(j, name);

	REQUIRE(c);
	CHECK_NEAR(lab_an_json_num(c, "value", NAN), v, 1e-9 * v);
	CHECK_EQ_STR(lab_an_json_str(c, "by_params"), by);
}

/* The placed point with params: its binding roof ("" none), kind and fraction. */
static const struct lab_an_json *rf_pt(const struct lab_an_json *j, const char *params,
                                       const char *roof, double frac)
{
	const struct lab_an_json *p = NULL, *x;

	for (size_t i = 0; (x = rf_row(j, "points", i)); i++)
		if (!strcmp(lab_an_json_str(x, "point_params"), params))
			p = x;
	if (!p)
		fprintf(stderr, "no point with params '%s'\n", params);
	CHECK(p != NULL);
	if (!p)
		return NULL;
	if (*roof) {
		CHECK_EQ_STR(lab_an_json_str(p, "roof"), roof);
		CHECK_NEAR(lab_an_json_num(p, "fraction", NAN), frac, 1e-9);
	} else {
		CHECK(lab_an_json_str(p, "roof") == NULL);
		CHECK(isnan(lab_an_json_num(p, "roof_gflops_per_s", NAN)));
		CHECK(strstr(lab_an_json_str(p, "note"), "roof not measured") != NULL);
	}
	return p;
}

/* No point above its roof without the mark, a note and a finding that names it, unless its
 * note says its interval reaches the roof (within noise: no mark). */
static void rf_none_silently_above(const struct lab_an_json *j)
{
	const struct lab_an_json *x;
	const char *f;

	for (size_t i = 0; (x = rf_row(j, "points", i)); i++) {
		double frac = lab_an_json_num(x, "fraction", NAN);
		int found = 0;

		if (!(frac > 1))
			continue;
		if (strstr(lab_an_json_str(x, "note") ?: "",
		           "within noise: its interval reaches")) {
			CHECK(lab_an_json_str(x, "fraction_note") == NULL);
			continue;
		}
		CHECK_EQ_STR(lab_an_json_str(x, "fraction_note"), "above its roof");
		CHECK(lab_an_json_str(x, "note") && strstr(lab_an_json_str(x, "note"), "above"));
		for (size_t k = 0; (f = rf_finding(j, k)); k++)
			found |= strstr(f, lab_an_json_str(x, "point_params")) &&
			         strstr(f, "above its roof");
		CHECK(found);
	}
}

/* ch19: triad and saxpy read and write and beat the read-only load: they set the ceilings. */
LAB_TEST(ch19_read_write_kernels_set_ceilings)
{
	struct lab_an_json *j = rf_json("results-roofs-ch19");

	REQUIRE(j);
	rf_ceil(j, "L1 16K", 160, "op=triad;size=16K");
	rf_ceil(j, "DRAM 1G", 16, "op=saxpy;size=1G;type=f64");
	rf_pt(j, "op=triad;size=16K", "L1 16K", 1);
	rf_pt(j, "op=saxpy;size=1G;type=f64", "DRAM 1G", 1);
	rf_none_silently_above(j);
	lab_an_json_free(j);
}

/* DRAM's ceiling is taken at its largest set, not from the fastest DRAM point (a set twice the
 * L3, partly still held by it); the smaller sets beat it and are marked above their roof. */
LAB_TEST(dram_ceiling_at_the_largest_set)
{
	struct lab_an_json *j = rf_json("results-roofs-dram");
	const struct lab_an_json *p;

	REQUIRE(j);
	rf_ceil(j, "DRAM 256M", 40, "op=load;size=256M");
	p = rf_pt(j, "op=saxpy;size=64M;type=f64", "DRAM 256M", (24 / 0.33) / 40);
	REQUIRE(p);
	CHECK(strstr(lab_an_json_str(p, "note"), "faster level than its size says") != NULL);
	rf_none_silently_above(j);
	lab_an_json_free(j);
}

/* ch19 on a 2-vCPU guest: a team's DRAM ceiling whose sets together are no larger than a set
 * at which one thread ran clearly faster than at its largest says it may be partly cache (the
 * 2-thread roof of 2 x 64 MiB read 85 GB/s, one thread 48 GB/s at 64 MiB, 32 at 512 MiB); one
 * thread's ceiling and the other fixtures' say nothing of it. */
LAB_TEST(team_dram_ceiling_within_cached_sets_said)
{
	struct lab_an_json *j = rf_json("results-roofs-dram-team");
	const struct lab_an_json *r;
	const char *note;

	REQUIRE(j);
	r = rf_row(j, "ceilings", 1);
	REQUIRE(r);
	CHECK_EQ_I64(lab_an_json_num(r, "threads", 0), 2);
	note = lab_an_json_str(r, "note");
	CHECK(note &&
	      strstr(note, "may be partly cache: its 2 sets come to 128 MiB, and one thread "
	                   "ran 1.5x faster at 64 MiB than at 256 MiB"));
	CHECK(!lab_an_json_str(rf_row(j, "ceilings", 0), "note"));
	lab_an_json_free(j);
	/* faster within the team's sets only in the L3: nothing of DRAM (the L3 roof's own point
	 * was cited) */
	static const char *const none[] = {"results-roofs-dram", "results-roofs-dram-team-cached"};
	for (size_t k = 0; k < sizeof(none) / sizeof(none[0]); k++) {
		j = rf_json(none[k]);
		REQUIRE(j);
		for (size_t i = 0; rf_row(j, "ceilings", i); i++)
			CHECK(!lab_an_json_str(rf_row(j, "ceilings", i), "note"));
		lab_an_json_free(j);
	}
}

/* A point above the compute ceiling of its own ISA: the peak was measured low (chains, a busy
 * machine), not by a narrower ISA (the note told a 2-thread avx2 point to measure peak with the
 * point's ISA, which it had). */
LAB_TEST(above_its_own_isa_ceiling_told_so)
{
	struct lab_an_json *j = rf_json("results-roofs-own-isa");
	const struct lab_an_json *p;
	const char *note;

	REQUIRE(j);
	p = rf_pt(j, "isa=avx2;op=poly;size=16K;type=f64", "avx2 f64", (64 / 1.5) / 32);
	REQUIRE(p);
	note = lab_an_json_str(p, "note");
	CHECK(note &&
	      strstr(note, "(fewer independent chains, or a busy machine's samples): "
	                   "measure peak with this ISA again") &&
	      !strstr(note, "a narrower ISA"));
	rf_none_silently_above(j);
	lab_an_json_free(j);
}

/* ch19: an L2 point with no L2 ceiling is not judged against DRAM's; compute binds only where
 * the slower DRAM ceiling already puts the point right of the ridge. */
LAB_TEST(ch19_level_without_ceiling)
{
	struct lab_an_json *j = rf_json("results-roofs-ch19");

	REQUIRE(j);
	rf_pt(j, "op=gather;size=512K;type=f64", "", NAN);
	rf_pt(j, "op=poly;size=512K;type=f64", "avx2 f64", 0.5);
	lab_an_json_free(j);
}

/* ch28: count_if and gather set no ceiling; the sums give every level, L2 included. */
LAB_TEST(ch28_only_bandwidth_bound_kernels)
{
	struct lab_an_json *j = rf_json("results-roofs-ch28");
	const struct lab_an_json *x, *g;

	REQUIRE(j);
	rf_ceil(j, "L1 16K", 80, "op=sum;size=16K;type=f64");
	rf_ceil(j, "L2 256K", 40, "op=sum;size=256K;type=f64");
	rf_ceil(j, "L3 8M", 20, "op=sum;size=8M;type=f64");
	rf_ceil(j, "DRAM 256M", 10, "op=sum;size=256M;type=f64");
	for (size_t i = 0; (x = rf_row(j, "ceilings", i)); i++)
		CHECK(strstr(lab_an_json_str(x, "by_params"), "op=sum") != NULL);
	rf_pt(j, "op=sum;size=256K;type=f64", "L2 256K", 1);
	g = rf_pt(j, "op=gather;size=1M;type=f64", "L2 256K", 3);
	REQUIRE(g);
	CHECK_EQ_STR(lab_an_json_str(g, "fraction_note"), "above its roof");
	CHECK(strstr(lab_an_json_str(g, "note"), "not bandwidth-bound") != NULL);
	rf_none_silently_above(j);
	lab_an_json_free(j);
}

/* Red team: a sweep of few reps. The sum of 3 samples (160 GB/s, no interval) is no roof over
 * the load of 7 (100 GB/s); above that ceiling it is told why: a faster point ran on too few
 * samples for an interval (it was told its data sat in a faster level than its size said). */
LAB_TEST(few_samples_above_roof_told_why)
{
	struct lab_an_json *j = rf_json("results-roofs-few");
	const struct lab_an_json *p;
	const char *note;

	REQUIRE(j);
	rf_ceil(j, "L1 16K", 100, "op=load;size=16K");
	p = rf_pt(j, "op=sum;size=16K;type=f64", "L1 16K", 1.6);
	REQUIRE(p);
	note = lab_an_json_str(p, "note");
	REQUIRE(note);
	CHECK(strstr(note, "one ran at 160 GB/s on too few samples") != NULL);
	CHECK(strstr(note, "faster level") == NULL);
	rf_none_silently_above(j);
	lab_an_json_free(j);
}

/* lessons37: a triad of 2 threads whose flagged samples left it no interval is above the load's
 * roof by its own rate, passed over as a ceiling; its rate over its bytes times its intensity
 * read an ulp below its rate over its flops, and it was told its data sat in a faster level. */
LAB_TEST(few_samples_above_roof_by_its_own_rate)
{
	struct lab_an_json *j = rf_json("results-roofs-unsure-self");
	const char *note;

	REQUIRE(j);
	REQUIRE((note = rf_finding(j, 0)));
	CHECK(strstr(note, "op=triad") != NULL);
	CHECK(strstr(note, "on too few samples for one") != NULL);
	CHECK(strstr(note, "faster level") == NULL);
	lab_an_json_free(j);
}

/* The text says it too: the finding under the table, with its reason. */
LAB_TEST(ch28_above_roof_in_text)
{
	char *out = rf_run("results-roofs-ch28", 0);

	char *line = rf_line(out, "op=gather;size=1M;type=f64  ");

	/* its row: bound by bandwidth L2 256K, at 3 x (300 %) of it, marked above */
	CHECK(strstr(line, "  bandwidth  ") && strstr(line, "  L2 256K  "));
	CHECK(strstr(line, "  3 above its roof") != NULL);
	free(line);
	CHECK(strstr(out, "finding: gather op=gather;size=1M;type=f64 (1 thr): above its roof") !=
	      NULL);
	free(out);
}

/* quick: the triad alone is its own bandwidth ceiling, never bound by compute. */
LAB_TEST(quick_triad_not_compute_bound)
{
	struct lab_an_json *j = rf_json("results-roofs-quick");

	REQUIRE(j);
	rf_ceil(j, "L1 32K", 80, "op=triad;size=32K");
	rf_pt(j, "op=triad;size=32K", "L1 32K", 1);
	lab_an_json_free(j);
}

/* quick from a lab before "bandwidth_bound": no bandwidth ceiling, so no roof (not compute). */
LAB_TEST(quick_old_results_roof_not_measured)
{
	struct lab_an_json *j = rf_json("results-roofs-quick-old");
	char *out, *line;

	REQUIRE(j);
	rf_pt(j, "op=triad;size=32K", "", NAN);
	lab_an_json_free(j);
	out = rf_run("results-roofs-quick-old", 0);
	CHECK(strstr(out, "roof not measured at 1 thread") != NULL);
	line = rf_line(out, "op=triad;size=32K  "); /* the triad's row names no roof, not compute */
	CHECK(strstr(line, "roof not measured at 1 thread") != NULL);
	CHECK(strstr(line, "compute") == NULL);
	free(line);
	free(out);
}

/* The roofline's finding (in analysis.json) that starts with what, or NULL. */
static const char *rf_pipes(const struct lab_an_json *j, const char *what)
{
	const char *f;

	for (size_t i = 0; (f = rf_finding(j, i)); i++)
		if (!strncmp(f, what, strlen(what)))
			return f;
	return NULL;
}

/* Finding 7: the add pipes are said to help only where FMA+add's interval lies above FMA's
 * (sse2 here); below it (avx2) or overlapping (scalar) they are said not to, in JSON and text. */
LAB_TEST(fma_add_helps_only_above_fma)
{
	struct lab_an_json *j = rf_json("results-roofs-pipes");
	const char *avx2, *sse2, *scalar;
	char *out;

	REQUIRE(j);
	avx2 = rf_pipes(j, "compute isa=avx2;precision=f64, 1 thread: FMA+add 24 ");
	sse2 = rf_pipes(j, "compute isa=sse2;precision=f64, 1 thread: FMA+add 24 ");
	scalar = rf_pipes(j, "compute isa=scalar;precision=f64, 1 thread: FMA+add 3.75 ");
	REQUIRE(avx2 && sse2 && scalar);
	CHECK(strstr(avx2, "below FMA alone: the adds take FMA pipes here") != NULL);
	CHECK(strstr(sse2, "above FMA alone: separate add pipes help here") != NULL);
	/* within noise says nothing of the pipes (it said "the add pipes do not help here") */
	CHECK(strstr(scalar, "within noise of FMA alone: neither told apart here") != NULL);
	lab_an_json_free(j);
	out = rf_run("results-roofs-pipes", 0);
	CHECK(strstr(out, "below FMA alone: the adds take FMA pipes here") != NULL);
	free(out);
}

/* Red team (ch19 probes): auto's FMA+add against its FMA tests no pipes (gcc made fma 2 packed
 * and 16 scalar FMAs, fma_add all scalar: "the adds take FMA pipes", 22 % below where the mix
 * loses 8 % at most); a loss past what shared pipes cost the mix is not blamed on them. */
LAB_TEST(fma_add_verdict_held_to_the_mix)
{
	struct lab_an_json *j = rf_json("results-roofs-pipes-beyond");
	const char *aut, *scalar;

	REQUIRE(j);
	aut = rf_pipes(j, "compute isa=auto;precision=f64, 1 thread: FMA+add ");
	scalar = rf_pipes(j, "compute isa=scalar;precision=f64, 1 thread: FMA+add ");
	REQUIRE(aut && scalar);
	CHECK(strstr(aut, "no add-pipe verdict") != NULL);
	CHECK(strstr(aut, "take FMA pipes") == NULL);
	CHECK(strstr(scalar, "below FMA alone by more than shared pipes cost this mix (at most "
	                     "8 %): not the pipes alone") != NULL);
	lab_an_json_free(j);
}

/* Red team (chapter lessons): with the facts the peak kernel records, SSE2's fma (a multiply and
 * an add) is said to test no add pipes, and a result within noise says what the mix could show
 * (10 FMA + 2 add chains: +10 % at most with separate add pipes, -8 % with shared ones), not
 * that the add pipes do not help. */
LAB_TEST(fma_add_told_what_the_mix_can_show)
{
	struct lab_an_json *j = rf_json("results-roofs-pipes-facts");
	const char *avx2, *sse2, *avx512;

	REQUIRE(j);
	avx2 = rf_pipes(j, "compute isa=avx2;precision=f64, 1 thread: FMA+add ");
	sse2 = rf_pipes(j, "compute isa=sse2;precision=f64, 1 thread: FMA+add ");
	avx512 = rf_pipes(j, "compute isa=avx512;precision=f64, 1 thread: FMA+add ");
	REQUIRE(avx2 && sse2 && avx512);
	CHECK(strstr(avx2,
	             "within noise of FMA alone: this mix (10 FMA and 2 add chains) gains "
	             "at most +10 % with separate add pipes and loses 8 % with shared ones") !=
	      NULL);
	CHECK(strstr(sse2, "no fused instruction") != NULL);
	CHECK(strstr(sse2, "above FMA") == NULL);
	CHECK(strstr(avx512, "above FMA alone: separate add pipes help here (this mix gains at "
	                     "most +50 % from them)") != NULL);
	lab_an_json_free(j);
}

/* avx46: on a Zen 4 guest avx512's f64 ceiling read 86 GFLOP/s beside avx2's 62, as if from
 * the width, where FMAs alone ran alike: a ceiling set by the FMA+add mix is named so and says
 * what FMAs alone reached; one no faster than a narrower ISA's of the same op says so. */
LAB_TEST(compute_ceilings_say_their_mix_and_width)
{
	struct lab_an_json *j = rf_json("results-roofs-pipes-facts");
	const struct lab_an_json *c;

	REQUIRE(j);
	rf_ceil(j, "avx512 f64 fma+add", 88, "isa=avx512;op=fma_add;precision=f64");
	REQUIRE((c = rf_ceil_row(j, "avx512 f64 fma+add")));
	CHECK(strstr(lab_an_json_str(c, "note") ?: "",
	             "the FMA+add mix (peak op=fma_add): FMAs alone reached 64 [58.18, 71.11] "
	             "GFLOP/s, so a loop of FMAs alone (a dot) reaches at most 81 % of this roof"));
	/* a mix within noise of FMAs alone: named, nothing more to say */
	REQUIRE((c = rf_ceil_row(j, "avx2 f64 fma+add")));
	CHECK(strstr(lab_an_json_str(c, "note") ?: "", "FMAs alone") == NULL);
	lab_an_json_free(j);
	REQUIRE((j = rf_json("results-roofs-adds")));
	REQUIRE((c = rf_ceil_row(j, "avx512 f64")));
	CHECK(strstr(lab_an_json_str(c, "note") ?: "",
	             "not clearly faster than the narrower avx2 f64 ceiling, 32 [29.09, 35.56] "
	             "GFLOP/s by the same op (the intervals meet)"));
	REQUIRE((c = rf_ceil_row(j, "avx2 f64")));
	CHECK(strstr(lab_an_json_str(c, "note") ?: "", "narrower") == NULL);
	lab_an_json_free(j);
}

/* The avx512 FMA peak's samples (point 5) take twice as long. */
static void rf_avx512_slow(FILE *out, const char *line, void *ctx)
{
	long long ns;
	int at = 0;

	(void)ctx;
	if (sscanf(line, "compute,5,peak,\"isa=avx512;op=fma;precision=f64\",1,%*d,%n%lld", &at,
	           &ns) == 1)
		fprintf(out, "%.*s%lld%s\n", at, line, 2 * ns, strchr(line + at, ','));
	else
		fprintf(out, "%s\n", line);
}

/* review46: a wider ISA clearly below a narrower one's ceiling is no "gained nothing, the
 * intervals meet": it lost, and says so. */
LAB_TEST(compute_ceiling_clearly_below_a_narrower_says_so)
{
	struct lab_an_json *j;
	const struct lab_an_json *c;

	clitest_copy("results-roofs-adds");
	REQUIRE(clitest_rewrite("results-roofs-adds/samples.csv", rf_avx512_slow, NULL) == 0);
	REQUIRE((j = rf_json("results-roofs-adds")) != NULL);
	REQUIRE((c = rf_ceil_row(j, "avx512 f64")));
	CHECK(
	    strstr(lab_an_json_str(c, "note") ?: "",
	           "below the narrower avx2 f64 ceiling, 32 [29.09, 35.56] GFLOP/s by the same op "
	           "(the intervals apart): the wider vectors lost at this op here") != NULL);
	CHECK(strstr(lab_an_json_str(c, "note") ?: "", "intervals meet") == NULL);
	lab_an_json_free(j);
}

/* Red team: with runs = 3 the add-pipe verdict and the roofline's intervals are read on the run
 * means (GFLOP/s run means 96, 100, 104 against 105, 109, 113): on the 30 samples' median
 * intervals (within-run noise 0.2 %) it said "above FMA alone: separate add pipes help here",
 * and the table's interval was the samples'. */
LAB_TEST(fma_add_verdict_on_run_means)
{
	struct lab_an_json *j = rf_json("results-roofs-pipes-runs");
	const struct lab_an_json *row, *ci;
	const char *f;

	REQUIRE(j);
	f = rf_pipes(j, "compute isa=avx2;precision=f64, 1 thread: FMA+add ");
	REQUIRE(f);
	CHECK(strstr(f, "(n=3 runs) against FMA") != NULL);
	CHECK(strstr(f, "within noise of FMA alone") != NULL);
	CHECK(strstr(f, "help here") == NULL);
	/* the ceiling (fma_add, the faster) carries the run means' interval, of the mean */
	REQUIRE((row = rf_row(j, "ceilings", 0)) != NULL);
	ci = lab_an_json_get(row, "value_ci95");
	REQUIRE(ci && ci->n == 2);
	CHECK(ci->items[0].num < 100 && ci->items[1].num > 117);
	CHECK(lab_an_json_get(row, "value_ci95_of") == NULL);
	CHECK_EQ_I64((long long)lab_an_json_num(row, "value_n", -1), 3); /* the runs */
	lab_an_json_free(j);
}

/* Point 0's rows of FX/samples.csv after its first dropped (ctx[0] set; ctx[1] counts them),
 * or its run-1 rows made 1000 times slower. */
static void rf_edit_point0(FILE *out, const char *line, void *ctx)
{
	int *keep_one = ctx, at;
	long long ns;

	if (strncmp(line, "compute,0,", 10)) {
		fprintf(out, "%s\n", line);
	} else if (keep_one[0]) {
		if (!keep_one[1]++)
			fprintf(out, "%s\n", line);
	} else if (!strcmp(strrchr(line, ','), ",1") &&
	           sscanf(line, "compute,0,peak,\"isa=avx2;op=fma;precision=f64\",1,%*d,%n%lld",
	                  &at, &ns) == 1) {
		fprintf(out, "%.*s%lld%s\n", at, line, ns * 1000, strchr(line + at, ','));
	} else {
		fprintf(out, "%s\n", line);
	}
}

/* Red team: the add-pipe finding printed an FMA of one sample as "35.56 [nan, nan]" and an
 * interval open above as "[0.05664, inf]", and blamed "too few samples" on 3 runs of 10. */
LAB_TEST(fma_add_finding_says_no_interval_and_unbounded)
{
	struct lab_an_json *j;
	const char *f;
	int one[2] = {1, 0}, slow[2] = {0, 0};

	clitest_copy("results-roofs-pipes");
	REQUIRE(clitest_rewrite("results-roofs-pipes/samples.csv", rf_edit_point0, one) == 0);
	REQUIRE((j = rf_json("results-roofs-pipes")) != NULL);
	REQUIRE((f = rf_pipes(j, "compute isa=avx2;precision=f64, 1 thread: FMA+add ")) != NULL);
	CHECK(strstr(f, "against FMA 35.56, no interval (n=1) GFLOP/s") != NULL);
	CHECK(strstr(f, "no interval to tell them apart (one sample)") != NULL);
	CHECK(strstr(f, "nan") == NULL);
	lab_an_json_free(j);

	clitest_copy("results-roofs-pipes-runs");
	REQUIRE(clitest_rewrite("results-roofs-pipes-runs/samples.csv", rf_edit_point0, slow) == 0);
	REQUIRE((j = rf_json("results-roofs-pipes-runs")) != NULL);
	REQUIRE((f = rf_pipes(j, "compute isa=avx2;precision=f64, 1 thread: FMA+add ")) != NULL);
	CHECK(strstr(f, ", unbounded) (n=3 runs) GFLOP/s") != NULL);
	CHECK(strstr(f, "inf") == NULL);
	CHECK(strstr(f, "too few samples") == NULL);
	lab_an_json_free(j);
}

/* Red team (ch19 probes): a read-only sum under the L1 roof set by triad's read+write traffic
 * read 0.59 of its roof, "far below: something else binds", at 94 % of what loads reach; its
 * note now says so. A kernel that writes (saxpy) gets no such note. */
/* Note i of the roofline's section in analysis.json, or NULL. */
static const char *rf_note(const struct lab_an_json *j, size_t i)
{
	const struct lab_an_json *n =
	    clitest_at(lab_an_json_get(j, "roofline"), "sections", 0) ?: NULL;

	n = n ? clitest_at(n, "notes", i) : NULL;
	return n && n->type == LAB_AN_JSON_STR ? n->str : NULL;
}

/* With no compute ceiling the points sit under bandwidth alone, and the roofline says so (ch28's
 * scalar L1 sum at its add pipes' limit read "11 % of the L1 roof" with no word); with one, that
 * an FMA ceiling is twice what adds alone reach (ch19's scalar sum at 0.47 of its roof was at
 * 100 % of the add peak). */
/* How many of the roofline's notes of fx say text. */
static int rf_notes_saying(const char *fx, const char *text)
{
	struct lab_an_json *j = rf_json(fx);
	int n = j ? 0 : -1;

	for (size_t i = 0; j && rf_note(j, i); i++)
		n += strstr(rf_note(j, i), text) != NULL;
	lab_an_json_free(j);
	return n;
}

LAB_TEST(compute_roofs_said_what_they_are)
{
	static const char none[] = "no compute ceiling in this run",
	                  fma[] = "a loop of adds alone (a sum) reaches about half";

	CHECK_EQ_I64(rf_notes_saying("results-roofs-reads", none), 1);
	CHECK_EQ_I64(rf_notes_saying("results-roofs-reads", fma), 0);
	CHECK_EQ_I64(rf_notes_saying("results-roofs-isa", none), 0);
	CHECK_EQ_I64(rf_notes_saying("results-roofs-isa", fma), 1);
	/* the fma+add sentence only where such a ceiling is (review46) */
	CHECK_EQ_I64(rf_notes_saying("results-roofs-isa", "a ceiling named fma+add"), 0);
}

/* The avx2 FMA peak measured as the FMA+add mix. */
static void rf_fma_to_mix(FILE *out, const char *line, void *ctx)
{
	const char *a = strstr(line, "op=fma\""), *b = strstr(line, "\"op\": \"fma\"");

	(void)ctx;
	if (a || b)
		fprintf(out, "%.*s%s%s\n", (int)((a ? a + 6 : b + 10) - line), line, "_add",
		        a ? a + 6 : b + 10);
	else
		fprintf(out, "%s\n", line);
}

LAB_TEST(compute_roofs_say_what_fma_add_is)
{
	clitest_copy("results-roofs-isa");
	REQUIRE(clitest_rewrite("results-roofs-isa/samples.csv", rf_fma_to_mix, NULL) == 0);
	REQUIRE(clitest_rewrite("results-roofs-isa/run.json", rf_fma_to_mix, NULL) == 0);
	CHECK_EQ_I64(rf_notes_saying("results-roofs-isa",
	                             "a ceiling named fma+add is the mix of FMA and add chains"),
	             1);
}

LAB_TEST(read_only_point_told_its_read_bandwidth)
{
	struct lab_an_json *j = rf_json("results-roofs-reads");
	const struct lab_an_json *p;

	REQUIRE(j);
	REQUIRE((p = rf_pt(j, "op=sum;size=16K;type=f64", "L1 16K", 1 / 0.085 / 20)));
	CHECK_EQ_STR(lab_an_json_str(p, "note"),
	             "reads only, under the roof of read+write traffic (160 GB/s, bandwidth "
	             "op=triad;size=16K); read-only loads here reach 100 GB/s (bandwidth "
	             "op=load;size=16K): it is at 94 % of that");
	REQUIRE((p = rf_pt(j, "op=saxpy;size=16K;type=f64", "L1 16K", 0.5)));
	CHECK(lab_an_json_str(p, "note") == NULL);
	lab_an_json_free(j);
}

/* Review: a point that names its ISA but no precision fell past its ISA's ceiling to the
 * fastest (avx2's 32 GFLOP/s) and sat under L1 at 16 %; its ISA alone picks the scalar peak. */
LAB_TEST(isa_without_precision_takes_its_isa_ceiling)
{
	struct lab_an_json *j = rf_json("results-roofs-isa");

	REQUIRE(j);
	rf_pt(j, "isa=scalar;op=dot;size=16K", "scalar", 0.5);
	/* with a precision no ceiling has: its ISA alone before its precision (avx2's 32) */
	rf_pt(j, "isa=scalar;op=dot;size=8K;type=f64", "scalar", 0.5);
	lab_an_json_free(j);
}

/* March red team: an x86-64 build's auto loop (SSE2 code) fell to AVX-512's ceiling without an
 * auto peak; it takes the widest variant its build may use (run.json lab.auto_march.isa). */
LAB_TEST(auto_point_under_its_builds_widest_isa)
{
	struct lab_an_json *j = rf_json("results-roofs-auto");
	const struct lab_an_json *p;

	REQUIRE(j);
	REQUIRE((p = rf_pt(j, "isa=auto;op=poly;size=16K;type=f64", "sse2 f64", 0.5)));
	/* (an auto peak of f32 is not one of its precision) */
	CHECK(strstr(lab_an_json_str(p, "note") ?: "",
	             "isa=auto: no auto peak of its precision was measured; its roof is sse2's") !=
	      NULL);
	lab_an_json_free(j);
}

/* The analysis of results-roofs-auto whose run.json's lab.auto_march names another ISA: isa
 * in place of "\"isa\": \"sse2\"" (more members may follow it). */
static struct lab_an_json *rf_auto_built_for(const char *isa)
{
	static const char old[] = "\"isa\": \"sse2\"";
	char *run, path[2048], *at;
	FILE *f;
	int ok;

	clitest_copy("results-roofs-auto");
	if (!(run = clitest_read("results-roofs-auto/run.json")))
		return NULL;
	if (!(at = strstr(run, old))) { /* lab.auto_march's, the first */
		free(run);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/results-roofs-auto/run.json", testlib_tmpdir());
	ok = (f = fopen(path, "w")) &&
	     fprintf(f, "%.*s%s%s", (int)(at - run), run, isa, at + sizeof(old) - 1) > 0;
	ok = f && fclose(f) == 0 && ok;
	free(run);
	return ok ? rf_json("results-roofs-auto") : NULL;
}

/* March red team: a build that allows AVX-512 and prefers 256-bit vectors (gcc's
 * skylake-avx512, clang's x86-64-v4) runs AVX-512 on ymm; its auto points went under the
 * 512-bit ceiling (26 % of a roof twice their width). The build records isa avx2 and its
 * vectors' width, and the note says why its roof is avx2's. */
LAB_TEST(auto_point_of_256_bit_vectors)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;

	REQUIRE((j = rf_auto_built_for("\"isa\": \"avx2\", \"vectors\": \"256-bit\"")));
	REQUIRE((p = rf_pt(j, "isa=auto;op=poly;size=16K;type=f64", "avx512 f64", 0.125)));
	/* avx2's ceiling is its roof; with none measured, the wider one is another ISA's, said */
	CHECK(strstr(lab_an_json_str(p, "note") ?: "", "no avx2 FMA peak was measured") != NULL);
	lab_an_json_free(j);
	REQUIRE((j = rf_auto_built_for("\"isa\": \"sse2\", \"vectors\": \"128-bit\"")));
	REQUIRE((p = rf_pt(j, "isa=auto;op=poly;size=16K;type=f64", "sse2 f64", 0.5)));
	CHECK_EQ_STR(
	    lab_an_json_str(p, "note") ?: "",
	    "isa=auto: no auto peak of its precision was measured; its roof is sse2's, the "
	    "widest variant its build's 128-bit vectors reach (run.json lab.auto_march)");
	lab_an_json_free(j);
}

/* March red team: a point whose own ISA or precision has no peak falls back to another's
 * ceiling (an avx512 sum under avx2's add peak read 147 % of it, "measure the peak again"; an
 * auto point under a narrower ISA's ceiling got no word): the note names the other ceiling and
 * the peak to run. Here auto's build is avx2, and no avx2 peak was measured. */
LAB_TEST(point_under_another_isas_ceiling_told)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;
	const char *note;

	REQUIRE((j = rf_auto_built_for("\"isa\": \"avx2\"")));
	/* the fastest f64 ceiling, avx512's: wider than its own */
	REQUIRE((p = rf_pt(j, "isa=auto;op=poly;size=16K;type=f64", "avx512 f64", 0.125)));
	note = lab_an_json_str(p, "note");
	CHECK_EQ_STR(note ?: "",
	             "under the avx512 f64 ceiling, another ISA's, whose lanes are not "
	             "its own: no avx2 FMA peak was measured at 1 thread (run peak op=fma "
	             "isa=avx2)");
	lab_an_json_free(j);
}

/* March red team: a sandybridge build's auto code is AVX (256-bit) without AVX2 and FMA, twice
 * sse2's width, and it sat under sse2's ceiling as "the widest its build may use": an ISA no
 * variant measured gives no compute roof, with the reason, and the bandwidth's alone. */
LAB_TEST(auto_point_of_an_unmeasured_isa_has_no_compute_roof)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;

	REQUIRE((j = rf_auto_built_for("\"isa\": \"avx\" ")));
	REQUIRE((p = rf_pt(j, "isa=auto;op=poly;size=16K;type=f64", "L1 16K", 0.01)));
	CHECK(strstr(lab_an_json_str(p, "note") ?: "",
	             "isa=auto: built for avx, wider than sse2 and no variant of the lab's, and no "
	             "auto peak of its precision was measured: no compute roof") != NULL);
	lab_an_json_free(j);
}

/* Lessons red team (ch19): a sum's flops are adds alone, which reach half an FMA ceiling (a
 * scalar sum read 47 % of its roof at 100 % of the add pipes, and an add peak measured beside
 * it changed nothing: the fastest op of the ISA set the one ceiling). An add peak is a group of
 * its own; a sum sits under its ISA's, else under the FMA ceiling with a note; a loop with
 * multiplies under an add peak alone says FMAs reach twice it; a point whose interval reaches
 * its roof is within noise, not above it. */
LAB_TEST(adds_alone_under_the_add_peak)
{
	struct lab_an_json *j = rf_json("results-roofs-adds");
	const struct lab_an_json *p;

	REQUIRE(j);
	rf_ceil(j, "scalar f64 adds", 2, "isa=scalar;op=add;precision=f64");
	rf_ceil(j, "scalar f64", 4, "isa=scalar;op=fma;precision=f64");
	REQUIRE(
	    (p = rf_pt(j, "isa=scalar;op=sum;size=16K;type=f64", "scalar f64 adds", 1 / 0.55 / 2)));
	CHECK(lab_an_json_str(p, "note") == NULL);
	/* lessons red team: a sum above its add peak is no reason to measure FMAs (it has none) */
	REQUIRE((p = rf_pt(j, "isa=scalar;op=sum;size=8K;type=f64", "scalar f64 adds", 2.5)));
	CHECK(strstr(lab_an_json_str(p, "note") ?: "",
	             ": that add peak was measured below what the add pipes do (fewer independent "
	             "chains, a busy machine): measure peak op=add with the point's ISA again"));
	REQUIRE((p = rf_pt(j, "isa=avx2;op=sum;size=16K;type=f64", "avx2 f64", 0.5)));
	CHECK_EQ_STR(
	    lab_an_json_str(p, "note"),
	    "adds alone under an FMA ceiling (avx2 f64): the add pipes reach about half of "
	    "it; no add peak of its ISA and precision at 1 thread (peak op=add)");
	REQUIRE((p = rf_pt(j, "isa=sse2;op=dot;size=16K;type=f64", "sse2 f64 adds", 0.5)));
	CHECK_EQ_STR(
	    lab_an_json_str(p, "note"),
	    "under an add peak (sse2 f64 adds), about half of what FMAs reach: no FMA peak "
	    "of its ISA and precision at 1 thread (peak op=fma)");
	/* review: an add peak faster than an FMA run of too few chains is no roof for it */
	REQUIRE((p = rf_pt(j, "isa=avx512;op=poly;size=16K;type=f64", "avx512 f64", 0.5)));
	CHECK(lab_an_json_str(p, "note") == NULL);
	REQUIRE((p = rf_pt(j, "isa=avx2;op=poly;size=16K;type=f64", "avx2 f64", 64 / 1.92 / 32)));
	CHECK(strstr(lab_an_json_str(p, "note") ?: "", "at 104 % of its roof (avx2 f64), within "
	                                               "noise: its interval reaches down to "));
	rf_none_silently_above(j);
	lab_an_json_free(j);
}

/* Hostile red team: ceilings are grouped by ISA, precision and add peak, not by the name they
 * show (an FMA peak of precision "f64 adds" took the add peak's group and hid it). */
LAB_TEST(add_peak_group_not_taken_by_a_name)
{
	struct lab_an_json *j = rf_json("results-roofs-adds-names");

	REQUIRE(j);
	rf_ceil(j, "scalar f64 adds", 2, "isa=scalar;op=add;precision=f64");
	rf_pt(j, "isa=scalar;op=sum;size=16K;type=f64", "scalar f64 adds", 1 / 0.55 / 2);
	lab_an_json_free(j);
}

/* The avx2 sum of results-roofs-adds at f32 (its run.json point 9 too, 4 bytes a flop): no
 * f32 peak was measured, so it falls to an f64 ceiling. */
static void rf_sum_to_f32(FILE *out, const char *line, void *ctx)
{
	int *in9 = ctx;

	if (strstr(line, "\"point\": 9,"))
		*in9 = 1;
	else if (strstr(line, "\"point\": 10,"))
		*in9 = 0;
	if (*in9 && strstr(line, "\"type\": \"f64\""))
		fprintf(out, "%.*s\"type\": \"f32\"\n", (int)(strstr(line, "\"type\"") - line),
		        line);
	else if (*in9 && strstr(line, "\"bytes_read\": 8"))
		fprintf(out, "%.*s\"bytes_read\": 4,\n", (int)(strstr(line, "\"bytes") - line),
		        line);
	else if (strstr(line, "isa=avx2;op=sum;size=16K;type=f64"))
		fprintf(out, "%.*stype=f32%s\n", (int)(strstr(line, "type=f64") - line), line,
		        strstr(line, "type=f64") + 8);
	else
		fprintf(out, "%s\n", line);
}

/* March red team (left by the stop before): an adds-only point under another precision's
 * ceiling is told to run the add peak of its own kind (op=add), not an FMA one. */
LAB_TEST(sum_under_another_precisions_ceiling_told_add_peak)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;
	int in9 = 0;

	clitest_copy("results-roofs-adds");
	REQUIRE(clitest_rewrite("results-roofs-adds/run.json", rf_sum_to_f32, &in9) == 0);
	REQUIRE(clitest_rewrite("results-roofs-adds/samples.csv", rf_sum_to_f32, &in9) == 0);
	REQUIRE((j = rf_json("results-roofs-adds")));
	REQUIRE((p = rf_pt(j, "isa=avx2;op=sum;size=16K;type=f32", "avx2 f64", 0.5)));
	CHECK_EQ_STR(
	    lab_an_json_str(p, "note") ?: "",
	    "under the avx2 f64 ceiling, another precision's, whose lanes are not its own: "
	    "no f32 add peak was measured at 1 thread (run peak op=add type=f32)");
	lab_an_json_free(j);
}

/* results-roofline's triad at 1G and ten times slower: under the DRAM ceiling of a load, which
 * moves what it declares, while a triad's stores read their lines first. */
static void rf_triad_to_dram(FILE *out, const char *line, void *ctx)
{
	int *after_triad = ctx;
	const char *at = strstr(line, "op=triad;size=16K\"");

	if (*after_triad && strstr(line, "\"size\": \"16K\""))
		fprintf(out, "%.*s\"size\": \"1G\"\n", (int)(strstr(line, "\"size\"") - line),
		        line);
	else if (at) {
		/* experiment,point,kernel,"params",threads,rep,elapsed_ns,...: elapsed x 10 */
		const char *p = at + strlen("op=triad;size=16K\"");
		int n;
		long long threads, rep, ns;

		REQUIRE(sscanf(p, ",%lld,%lld,%lld%n", &threads, &rep, &ns, &n) == 3);
		fprintf(out, "%.*sop=triad;size=1G\",%lld,%lld,%lld%s\n", (int)(at - line), line,
		        threads, rep, 10 * ns, p + n);
	} else
		fprintf(out, "%s\n", line);
	*after_triad = strstr(line, "\"op\": \"triad\"") != NULL;
}

/* Lessons red team (ch19): a DRAM triad under a saxpy's ceiling read 73 % of its roof with no
 * word, where counted with its write-allocate bytes it was at DRAM bandwidth (97 %). */
LAB_TEST(write_allocate_under_a_ceiling_without_it_told)
{
	struct lab_an_json *j;
	const struct lab_an_json *p;
	int after = 0;

	/* in L1 the stores' lines are there already: no word; above 100 % the note says whether
	 * that is beyond noise (it read "at 107 % of this roof" alone, lessons34) */
	clitest_copy("results-roofline");
	REQUIRE((j = rf_json("results-roofline")));
	REQUIRE((p = rf_pt(j, "isa=avx2;op=triad;size=16K", "L1 16K", 0.8)));
	CHECK(lab_an_json_str(p, "note") == NULL);
	lab_an_json_free(j);
	REQUIRE(clitest_rewrite("results-roofline/run.json", rf_triad_to_dram, &after) == 0);
	REQUIRE(clitest_rewrite("results-roofline/samples.csv", rf_triad_to_dram, &after) == 0);
	REQUIRE((j = rf_json("results-roofline")));
	REQUIRE((p = rf_pt(j, "isa=avx2;op=triad;size=1G", "DRAM 1G", 0.8)));
	CHECK_EQ_STR(lab_an_json_str(p, "note") ?: "",
	             "its stores read each line first (write-allocate), which the kernel of "
	             "ceiling DRAM 1G does not: counted with those bytes (intensity_wa 0.0625 "
	             "flop/B) it is at 107 % of this roof, within noise: its interval reaches "
	             "down to 97 %");
	lab_an_json_free(j);
}
