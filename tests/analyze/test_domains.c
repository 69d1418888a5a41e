/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Metric domains (analyze/domain.h): an interval never leaves the range its quantity can take
 * (no Jain index above 1, no negative latency or count), a value outside a bounded domain is a
 * data error naming FILE:LINE, "-0" reads as 0, and an interval end not known prints as "-" or
 * "unbounded", never "nan" (hostile-input sweep 2, findings 1 to 3).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/data.h"
#include "analyze/domain.h"
#include "analyze/render/doc.h"
#include "analyze/render/render.h"
#include "tests/testlib.h"

#define DM_HEADER                                                                                  \
	"experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"        \
	"flagged,jain_fairness,imbalance,acq_lat_p99_ns,delay_drift_pct,own_metric\n"

/* Writes samples.csv with header DM_HEADER and rows into a fresh directory; loads it into d.
 * Returns the loader's code; err holds its message. */
static int dm_load_h(const char *name, const char *header, const char *rows, struct lab_an_data *d,
                     struct lab_err *err)
{
	char dir[2048], path[2100];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/%s", testlib_tmpdir(), name);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fputs(header, f);
	fputs(rows, f);
	fclose(f);
	memset(err, 0, sizeof(*err));
	return lab_an_data_load_dir(d, dir, err);
}

static int dm_load(const char *name, const char *rows, struct lab_an_data *d, struct lab_err *err)
{
	return dm_load_h(name, DM_HEADER, rows, d, err);
}

LAB_TEST(domain_ranges_and_clip)
{
	double lo = -0.5, hi = 1.3;

	CHECK(lab_domain_of("jain_fairness") == LAB_DOM_JAIN);
	CHECK(lab_domain_of("ctr_context_switches") == LAB_DOM_NONNEG);
	CHECK(lab_domain_of("not_a_lab_metric") == LAB_DOM_UNKNOWN);
	CHECK(lab_an_domain_allows(LAB_DOM_JAIN, 4, 0.25));
	CHECK(lab_an_domain_allows(LAB_DOM_JAIN, 4, 1 + 1e-12)); /* rounding */
	CHECK(!lab_an_domain_allows(LAB_DOM_JAIN, 4, 0.2));
	CHECK(!lab_an_domain_allows(LAB_DOM_JAIN, 2, 3));
	CHECK(!lab_an_domain_allows(LAB_DOM_ATLEAST1, 2, 0.5));
	/* the busiest of 2 threads over their mean: at most 2 (an interval read [1, 4.3]) */
	CHECK(lab_domain_of("imbalance") == LAB_DOM_MAX_MEAN);
	CHECK(lab_an_domain_allows(LAB_DOM_MAX_MEAN, 2, 2));
	CHECK(!lab_an_domain_allows(LAB_DOM_MAX_MEAN, 2, 2.5));
	{
		double a = 0.9, b = 4.3;

		lab_an_domain_clip(LAB_DOM_MAX_MEAN, 2, 1.1, &a, &b);
		CHECK(a == 1 && b == 2);
	}
	CHECK(!lab_an_domain_allows(LAB_DOM_NONNEG, 2, -1e308));
	CHECK(lab_an_domain_allows(LAB_DOM_ANY, 2, -1e308));
	/* runq_wait is a share of the sample (1.7e308 printed "inf %"); a drift in % of a delay
	 * falls by 100 % at most (-1.7e308 printed 309 digits) */
	CHECK(lab_domain_of("runq_wait") == LAB_DOM_UNIT);
	CHECK(!lab_an_domain_allows(LAB_DOM_UNIT, 1, 1.7e308));
	/* a counter's multiplexing ratio is running / enabled: 1e300 was taken as a count */
	CHECK(lab_domain_of("ctr_mux_ratio") == LAB_DOM_UNIT);
	CHECK(lab_domain_of("delay_drift_pct") == LAB_DOM_PCT_CHANGE);
	CHECK(lab_an_domain_allows(LAB_DOM_PCT_CHANGE, 1, -100));
	CHECK(lab_an_domain_allows(LAB_DOM_PCT_CHANGE, 1, 1e300));
	CHECK(!lab_an_domain_allows(LAB_DOM_PCT_CHANGE, 1, -100.5));
	CHECK(!lab_an_domain_allows(LAB_DOM_PCT_CHANGE, 1, -1.7e308));
	lab_an_domain_clip(LAB_DOM_JAIN, 4, 0.3, &lo, &hi);
	CHECK_NEAR(lo, 0.25, 0);
	CHECK_NEAR(hi, 1, 0);
	lo = -3, hi = 5;
	lab_an_domain_clip(LAB_DOM_UNKNOWN, 1, 0, &lo, &hi); /* samples all >= 0 */
	CHECK_NEAR(lo, 0, 0);
	lo = -3;
	lab_an_domain_clip(LAB_DOM_UNKNOWN, 1, -1, &lo, &hi); /* a sample below 0 */
	CHECK_NEAR(lo, -3, 0);
	lab_an_domain_clip(LAB_DOM_ANY, 1, 0, &lo, &hi);
	CHECK_NEAR(lo, -3, 0);
	/* a drift from the fastest calibration is >= 0: [-3, 5] from samples >= 0 read "drifted
	 * -3 %"; a file from before that definition may hold drifts below 0, and keeps them */
	lab_an_domain_clip(LAB_DOM_PCT_CHANGE, 1, 0, &lo, &hi);
	CHECK_NEAR(lo, 0, 0);
	lo = -3;
	lab_an_domain_clip(LAB_DOM_PCT_CHANGE, 1, -0.5, &lo, &hi);
	CHECK_NEAR(lo, -3, 0);
}

/* Two samples far apart: the t-interval (df 1) reaches far below the smaller one. */
LAB_TEST(summary_intervals_stay_in_domain)
{
	struct lab_an_data d;
	struct lab_err err;
	const struct lab_an_msum *m;

	CHECK_EQ_I64(dm_load("sum",
	                     "e,0,k,,2,0,100,1,op,,0,0.55,1.01,20,-5,1\n"
	                     "e,0,k,,2,1,100,1,op,,0,1,1.9,900,30,40\n",
	                     &d, &err),
	             0);
	CHECK_EQ_I64(lab_an_data_summarize(&d, 0, &err), 0);
	m = d.pt[0].msum;
	CHECK(m[0].ci95_hi <= 1 && m[0].ci95_lo >= 0.5);  /* jain at 2 threads */
	CHECK(m[1].ci95_lo >= 1);                         /* imbalance */
	CHECK(m[2].ci95_lo >= 0);                         /* a latency */
	CHECK(m[3].ci95_lo < -5 && m[3].ci95_lo >= -100); /* a drift: down to -100 % */
	CHECK(m[4].ci95_lo >= 0);                         /* unknown, samples >= 0 */
	CHECK(m[0].se > 0);                               /* kept apart from the clip */
	lab_an_data_free(&d);
}

LAB_TEST(out_of_domain_values_refused)
{
	static const struct {
		const char *row, *want;
	} bad[] = {
	    {"e,0,k,,2,0,100,1,op,,0,3,,,,\n", "samples.csv:2: jain_fairness = '3'"},
	    {"e,0,k,,2,0,100,1,op,,0,-0,,,,\n", "samples.csv:2: jain_fairness = '-0'"},
	    {"e,0,k,,2,0,100,1,op,,0,,0.5,,,\n", "samples.csv:2: imbalance = '0.5'"},
	    {"e,0,k,,2,0,100,1,op,,0,,2.5,,,\n", "samples.csv:2: imbalance = '2.5' at 2 threads: "
	                                         "allowed: a number in [1, 2]"},
	    {"e,0,k,,2,0,100,1,op,,0,,,-1e308,,\n", "samples.csv:2: acq_lat_p99_ns = '-1e308'"},
	    {"e,0,k,,2,0,100,1,op,,0,,,,-1.7e308,\n", "samples.csv:2: delay_drift_pct = '-1.7e308' "
	                                              "at 2 threads: allowed: a finite number >= "
	                                              "-100"},
	    /* a latency measured inside a sample of 2 ms: 1e308 ns was printed as measured */
	    {"e,0,k,,2,0,2000000,1,op,,0,,,1e308,,\n", "samples.csv:2: acq_lat_p99_ns = '1e308': "
	                                               "allowed: a time inside the sample, 0 .. "
	                                               "its elapsed_ns 2000000"},
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lab_an_data d;
		struct lab_err err;
		char name[32];

		snprintf(name, sizeof(name), "bad%zu", i);
		CHECK_EQ_I64(dm_load(name, bad[i].row, &d, &err), -LAB_EDATA);
		CHECK(strstr(err.msg, bad[i].want) != NULL);
		CHECK(strstr(err.msg, "allowed") != NULL);
		lab_an_data_free(&d);
	}
}

/* A difference of times measured inside the sample (cs_achieved_ns: the section less one clock
 * read; overhead_ns: a makespan less its ideal) may be below 0, but not beyond the sample's
 * elapsed_ns either way: 1e300 ns in a 10 ms sample was shown as measured. */
LAB_TEST(differences_of_times_fit_in_the_sample)
{
	static const char hdr[] = "experiment,point,kernel,params,threads,rep,elapsed_ns,work,"
	                          "work_unit,foreign_cpu,flagged,cs_achieved_ns,overhead_ns\n";
	static const struct {
		const char *row, *want;
	} cases[] = {
	    {"e,0,k,,2,0,10000000,1,op,,0,-4,-250\n", NULL},
	    {"e,0,k,,2,0,10000000,1,op,,0,9000000,\n", NULL},
	    {"e,0,k,,2,0,10000000,1,op,,0,1e300,\n",
	     "samples.csv:2: cs_achieved_ns = '1e300': allowed: a difference of times inside the "
	     "sample, within its elapsed_ns: -10000000 .. 10000000"},
	    {"e,0,k,,2,0,10000000,1,op,,0,-1e300,\n", "cs_achieved_ns = '-1e300': allowed"},
	    {"e,0,k,,2,0,10000000,1,op,,0,,-2e7\n", "overhead_ns = '-2e7': allowed"},
	};

	CHECK(lab_domain_of("cs_achieved_ns") == LAB_DOM_SPAN_DIFF);
	CHECK(lab_domain_of("overhead_ns") == LAB_DOM_SPAN_DIFF);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lab_an_data d;
		struct lab_err err;
		char name[32];

		snprintf(name, sizeof(name), "diff%zu", i);
		CHECK_EQ_I64(dm_load_h(name, hdr, cases[i].row, &d, &err),
		             cases[i].want ? -LAB_EDATA : 0);
		CHECK(!cases[i].want || strstr(err.msg, cases[i].want) != NULL);
		lab_an_data_free(&d);
	}
}

/* Percentiles of one sample are ordered (a p10 above its p50 is no distribution), and the
 * counts the harness keeps in 64 bits stay there. */
LAB_TEST(ordered_metrics_and_64_bit_counts)
{
	static const char hdr[] =
	    "experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	    "flagged,one_way_p10_ns,one_way_p50_ns,one_way_p90_ns,acq_lat_p50_ns,acq_lat_p99_ns\n";
	static const struct {
		const char *row, *want;
	} bad[] = {
	    {"e,0,k,,2,0,1000,1,op,,0,30,20,40,,\n",
	     "samples.csv:2: one_way_p10_ns = '30' above one_way_p50_ns = '20': allowed: "
	     "one_way_p10_ns <= one_way_p50_ns in one sample"},
	    {"e,0,k,,2,0,1000,1,op,,0,10,50,40,,\n", "one_way_p50_ns = '50' above one_way_p90_ns"},
	    {"e,0,k,,2,0,1000,1,op,,0,,,,90,80\n", "acq_lat_p50_ns = '90' above acq_lat_p99_ns"},
	    {"e,0,k,,2,0,1000,1e20,op,,0,,,,,\n", "samples.csv:2: work = '1e20'"},
	    {"e,0,k,,2,0,1e19,1e19,op,,0,,,,,\n", "samples.csv:2: elapsed_ns = '1e19'"},
	};
	struct lab_an_data d;
	struct lab_err err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[32];

		snprintf(name, sizeof(name), "order%zu", i);
		CHECK_EQ_I64(dm_load_h(name, hdr, bad[i].row, &d, &err), -LAB_EDATA);
		if (!strstr(err.msg, bad[i].want) || !strstr(err.msg, "allowed"))
			TL__FAIL("row %zu: got '%s', want '%s'", i, err.msg, bad[i].want);
		lab_an_data_free(&d);
	}
	/* equal percentiles, an empty one between, and the largest counts are samples */
	CHECK_EQ_I64(dm_load_h("order_ok", hdr,
	                       "e,0,k,,2,0,1000,1,op,,0,20,20,,5,5\n"
	                       "e,0,k,,2,1,9223372036854775808,18446744073709551615,op,,0,,,,,\n",
	                       &d, &err),
	             0);
	lab_an_data_free(&d);
}

/* A time inside the sample may reach its elapsed_ns (and the clocks' slack), not past it. */
LAB_TEST(span_metrics_up_to_elapsed)
{
	struct lab_an_data d;
	struct lab_err err;

	CHECK(lab_domain_of("acq_lat_p99_ns") == LAB_DOM_SPAN);
	CHECK(lab_domain_of("makespan_ns") == LAB_DOM_SPAN);
	CHECK(lab_domain_of("ideal_ns") == LAB_DOM_NONNEG); /* computed: may pass it */
	CHECK(lab_an_domain_span_ok(2000000, 2000000));
	CHECK(lab_an_domain_span_ok(2001000, 2000000));
	/* a p99 of 2^24 ns written as its histogram bucket's middle in a 17.48 ms sample */
	CHECK(lab_an_domain_span_ok(17825792, 17480000));
	CHECK(!lab_an_domain_span_ok(2200000, 2000000));
	CHECK(!lab_an_domain_allows(LAB_DOM_SPAN, 1, -1));
	CHECK_EQ_I64(dm_load("span", "e,0,k,,2,0,2000000,1,op,,0,,,1999999,,\n", &d, &err), 0);
	lab_an_data_free(&d);
}

LAB_TEST(negative_zero_reads_as_zero)
{
	struct lab_an_data d;
	struct lab_err err;

	CHECK_EQ_I64(dm_load("negzero", "e,0,k,,2,0,100,1,op,,0,,,,-0,-0.0\n", &d, &err), 0);
	CHECK(lab_an_metric(&d.pt[0], 0, 3) == 0 && !signbit(lab_an_metric(&d.pt[0], 0, 3)));
	CHECK(lab_an_metric(&d.pt[0], 0, 4) == 0 && !signbit(lab_an_metric(&d.pt[0], 0, 4)));
	lab_an_data_free(&d);
}

LAB_TEST(interval_cell_never_prints_nan)
{
	struct lab_doc_col col = {.key = "x", .kind = LAB_DOC_INTERVAL};
	struct lab_doc_cell c = {.median = NAN, .mean = 36, .lo = 16, .hi = NAN, .n = 3, .has = 1};
	char buf[128];

	CHECK_EQ_STR(lab_render_cell(&col, &c, buf, sizeof(buf)), "36 [16, -]");
	c.hi = INFINITY;
	CHECK_EQ_STR(lab_render_cell(&col, &c, buf, sizeof(buf)), "36 [16, unbounded)");
}
