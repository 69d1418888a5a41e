/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The mode detector on synthetic latency distributions (fixed seeds). */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analyze/err.h"
#include "analyze/modes.h"
#include "tests/testlib.h"

#define MD_N 4000

/* n samples: weight w[k] of N(mu[k], sd[k]) for k < nk. */
static void md_mix(double *x, size_t n, const double *w, const double *mu, const double *sd, int nk,
                   unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, seed);
	for (size_t i = 0; i < n; i++) {
		double u = gsl_rng_uniform(r), acc = 0;
		int k = 0;

		for (; k < nk - 1; k++) {
			acc += w[k];
			if (u < acc)
				break;
		}
		x[i] = mu[k] + gsl_ran_gaussian(r, sd[k]);
	}
	gsl_rng_free(r);
}

LAB_TEST(modes_unimodal)
{
	static double x[MD_N];
	double w[] = {1}, mu[] = {50}, sd[] = {3};
	struct lab_an_modes m;

	md_mix(x, MD_N, w, mu, sd, 1, 11);
	REQUIRE(lab_an_modes_detect(x, MD_N, NULL, &m) == 0);
	CHECK_EQ_U64(m.count, 1);
	CHECK_NEAR(m.mode[0].center, 50, 0.5);
	CHECK_NEAR(m.mode[0].weight, 1, 1e-12);
	/* A right-skewed (log-normal) latency tail is still one mode on the log scale. */
	for (size_t i = 0; i < MD_N; i++)
		x[i] = exp(log(80) + 0.35 * (x[i] - 50) / 3);
	{
		struct lab_an_modes_opts o = lab_an_modes_defaults();

		o.log_scale = 1;
		REQUIRE(lab_an_modes_detect(x, MD_N, &o, &m) == 0);
		CHECK_EQ_U64(m.count, 1);
		CHECK_NEAR(m.mode[0].center, 80, 3);
	}
}

LAB_TEST(modes_bimodal_socket_latencies)
{
	static double x[MD_N];
	double w[] = {0.7, 0.3}, mu[] = {40, 120}, sd[] = {4, 8};
	struct lab_an_modes m;

	md_mix(x, MD_N, w, mu, sd, 2, 12);
	REQUIRE(lab_an_modes_detect(x, MD_N, NULL, &m) == 0);
	REQUIRE(m.count == 2);
	CHECK_NEAR(m.mode[0].center, 40, 1);
	CHECK_NEAR(m.mode[1].center, 120, 2);
	CHECK_NEAR(m.mode[0].weight, 0.7, 0.03);
	CHECK_NEAR(m.mode[1].weight, 0.3, 0.03);
	CHECK(m.mode[0].hi > 55 && m.mode[0].hi < 100);
	CHECK_NEAR(m.mode[0].weight + m.mode[1].weight, 1, 1e-12);
}

LAB_TEST(modes_three_levels_and_light_blip)
{
	static double x[MD_N];
	double w3[] = {0.2, 0.5, 0.3}, mu3[] = {20, 60, 150}, sd3[] = {2, 5, 10};
	double wb[] = {0.98, 0.02}, mub[] = {40, 200}, sdb[] = {4, 5};
	struct lab_an_modes m;
	struct lab_an_modes_opts o = lab_an_modes_defaults();

	md_mix(x, MD_N, w3, mu3, sd3, 3, 13);
	REQUIRE(lab_an_modes_detect(x, MD_N, NULL, &m) == 0);
	REQUIRE(m.count == 3);
	CHECK_NEAR(m.mode[1].center, 60, 2);
	CHECK_NEAR(m.mode[2].weight, 0.3, 0.03);
	/* A 2 % blip is below the default minimum weight (5 %): merged away... */
	md_mix(x, MD_N, wb, mub, sdb, 2, 14);
	REQUIRE(lab_an_modes_detect(x, MD_N, NULL, &m) == 0);
	CHECK_EQ_U64(m.count, 1);
	CHECK_NEAR(m.mode[0].weight, 1, 1e-12);
	/* ...and kept when the caller allows 1 % modes. */
	o.min_weight = 0.01;
	REQUIRE(lab_an_modes_detect(x, MD_N, &o, &m) == 0);
	CHECK_EQ_U64(m.count, 2);
	CHECK_NEAR(m.mode[1].weight, 0.02, 0.01);
}

LAB_TEST(modes_degenerate_inputs)
{
	double same[] = {7, 7, 7, 7}, two[] = {1, 2}, bad[] = {1, NAN}, neg[] = {1, -1};
	struct lab_an_modes m;
	struct lab_an_modes_opts o = lab_an_modes_defaults();

	REQUIRE(lab_an_modes_detect(same, 0, NULL, &m) == 0);
	CHECK_EQ_U64(m.count, 0);
	REQUIRE(lab_an_modes_detect(same, 4, NULL, &m) == 0);
	CHECK_EQ_U64(m.count, 1);
	CHECK_NEAR(m.mode[0].center, 7, 0);
	REQUIRE(lab_an_modes_detect(two, 2, NULL, &m) == 0);
	CHECK_EQ_U64(m.count, 1);
	CHECK_NEAR(m.mode[0].center, 1.5, 1e-12);
	CHECK_EQ_I64(lab_an_modes_detect(bad, 2, NULL, &m), -LAB_EDATA);
	o.log_scale = 1;
	CHECK_EQ_I64(lab_an_modes_detect(neg, 2, &o, &m), -LAB_EDATA);
}

/* Two tight clusters 3 % apart are two modes to the detector, but not "multimodal" to a
 * reader (LAB_AN_MODES_MIN_SPREAD); 40 vs 120 ns is. */
LAB_TEST(modes_multi_needs_a_spread)
{
	static double x[MD_N];
	double w[] = {0.5, 0.5}, mu[] = {7.69, 7.92}, sd[] = {0.01, 0.01};
	double mu2[] = {40, 120}, sd2[] = {4, 8};
	struct lab_an_modes m;

	md_mix(x, MD_N, w, mu, sd, 2, 14);
	REQUIRE(lab_an_modes_detect(x, MD_N, NULL, &m) == 0);
	CHECK_EQ_U64(m.count, 2);
	CHECK(!lab_an_modes_multi(&m));
	md_mix(x, MD_N, w, mu2, sd2, 2, 15);
	REQUIRE(lab_an_modes_detect(x, MD_N, NULL, &m) == 0);
	CHECK(lab_an_modes_multi(&m));
}
