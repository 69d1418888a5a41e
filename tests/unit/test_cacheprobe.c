/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The last-level cache check (harness/cacheprobe.h): the sweep's decisions on bandwidth curves
 * made up here (a guest's made-up L3, an honest one, a neighbour's burst, a gradual fall, a
 * measurement that fails, a report too large to map), and one real sweep on this machine,
 * whose numbers are not asserted (unit tests never assert timings), only their shape.
 */
#include "harness/cacheprobe.h"
#include "tests/testlib.h"

#define MiB (1ull << 20)

/* A made-up machine: plateau GB/s up to fits bytes, past GB/s beyond; dip_at is read slow once
 * (a neighbour's burst); calls counts the measurements and max the largest set asked for. */
struct curve {
	uint64_t fits, dip_at, max;
	double plateau, past, middle; /* middle: GB/s between fits and 2 x fits, when > 0 */
	unsigned calls;
	bool dipped, fail;
};

static double curve_gbs(uint64_t bytes, void *arg)
{
	struct curve *c = arg;

	c->calls++;
	if (bytes > c->max)
		c->max = bytes;
	if (c->fail)
		return 0;
	if (bytes == c->dip_at && !c->dipped) {
		c->dipped = true;
		return c->past;
	}
	if (bytes <= c->fits)
		return c->plateau;
	if (c->middle > 0 && bytes <= 2 * c->fits)
		return c->middle;
	return c->past;
}

LAB_TEST(made_up_l3_found_where_loads_slow_down)
{
	/* 508 MB reported (as the EPYC guest's CPUID says), 24 MiB real. */
	struct curve c = {.fits = 24 * MiB, .plateau = 100, .past = 30};
	struct lab_cache_probe p = {.reported = 508000000, .below = MiB};

	lab_cache_probe_search(&p, curve_gbs, &c);
	CHECK(lab_cache_probe_contradicts(&p));
	/* 4, 8, 16 on the plateau, 32 past; quarter steps 19, 22.6 fit, 26.9 does not. */
	CHECK(p.fits > 16 * MiB && p.fits <= 24 * MiB);
	CHECK_EQ_U64(p.fits % 4096, 0);
	CHECK(p.inside_gbs == 100 && p.past_gbs == 30);
	CHECK_EQ_U64(p.sizes, c.calls);
	CHECK(c.max <= 32 * MiB); /* nothing larger than the first set past the level */
}

LAB_TEST(honest_l3_holds_up_to_a_quarter_of_its_size)
{
	struct curve c = {.fits = 32 * MiB, .plateau = 80, .past = 20};
	struct lab_cache_probe p = {.reported = 32 * MiB, .below = MiB};

	lab_cache_probe_search(&p, curve_gbs, &c);
	CHECK_EQ_U64(p.fits, 0);
	CHECK(!lab_cache_probe_contradicts(&p));
	CHECK_EQ_U64(c.max, 8 * MiB); /* checked as far as reported / 4, no further */
	CHECK(p.inside_gbs == 80);
}

LAB_TEST(shared_l3_is_not_a_made_up_one)
{
	/* An honest 64 MiB L3 of which the neighbours leave 24 MiB to this guest: a third of
	 * the report, not the 15x-30x of a made-up one: the report stands. */
	struct curve c = {.fits = 24 * MiB, .plateau = 80, .past = 20};
	struct lab_cache_probe p = {.reported = 64 * MiB, .below = MiB};

	lab_cache_probe_search(&p, curve_gbs, &c);
	CHECK(!lab_cache_probe_contradicts(&p));
	CHECK_EQ_U64(c.max, 16 * MiB);
}

LAB_TEST(no_room_for_a_plateau_no_sweep)
{
	struct curve c = {.fits = 4 * MiB, .plateau = 80, .past = 20};
	struct lab_cache_probe p = {.reported = 31 * MiB, .below = MiB}; /* under 32 x below */

	lab_cache_probe_search(&p, curve_gbs, &c);
	CHECK_EQ_U64(c.calls, 0);
	CHECK_EQ_U64(p.sizes, 0);
	CHECK(!lab_cache_probe_contradicts(&p));
	p = (struct lab_cache_probe){.reported = 64 * MiB, .below = 0};
	lab_cache_probe_search(&p, curve_gbs, &c);
	CHECK_EQ_U64(c.calls, 0);
}

LAB_TEST(one_slow_reading_is_measured_again)
{
	/* 8 MiB reads slow once: measured again, it is on the plateau and the sweep goes on. */
	struct curve c = {.fits = 256 * MiB, .plateau = 90, .past = 25, .dip_at = 8 * MiB};
	struct lab_cache_probe p = {.reported = 512 * MiB, .below = MiB};

	lab_cache_probe_search(&p, curve_gbs, &c);
	CHECK(c.dipped);
	CHECK_EQ_U64(p.fits, 0);
	CHECK_EQ_U64(c.max, 128 * MiB);
}

LAB_TEST(a_gentle_fall_is_not_the_end)
{
	/* From 16 to 32 MiB the loads run at 70 of 100 GB/s: within 1.5x of the plateau, still the
	 * level (a replacement policy keeps part of a set a little too large). */
	struct curve c = {.fits = 16 * MiB, .plateau = 100, .middle = 70, .past = 30};
	struct lab_cache_probe p = {.reported = 1024 * MiB, .below = MiB};

	lab_cache_probe_search(&p, curve_gbs, &c);
	CHECK(lab_cache_probe_contradicts(&p));
	CHECK(p.fits == 32 * MiB);
	CHECK(p.past_gbs == 30);
}

LAB_TEST(failed_measurement_claims_nothing)
{
	struct curve c = {.fits = 8 * MiB, .plateau = 90, .past = 20, .fail = true};
	struct lab_cache_probe p = {.reported = 508 * MiB, .below = MiB};

	lab_cache_probe_search(&p, curve_gbs, &c);
	CHECK_EQ_U64(c.calls, 1);
	CHECK_EQ_U64(p.fits, 0);
	CHECK(!lab_cache_probe_contradicts(&p));
}

LAB_TEST(huge_report_checked_up_to_the_cap)
{
	struct curve c = {.fits = 64ull << 30, .plateau = 90, .past = 20};
	struct lab_cache_probe p = {.reported = 64ull << 30, .below = 2 * MiB};

	lab_cache_probe_search(&p, curve_gbs, &c);
	CHECK_EQ_U64(p.fits, 0);
	CHECK(c.max <= LAB_CACHE_PROBE_MAX);
}

LAB_TEST(real_sweep_on_this_machine)
{
	/* Up to 32 MiB: what the machine's loads do is its own; the probe must measure, stay in
	 * the range it was given and say nothing it did not see. */
	struct lab_cache_probe p = {.reported = 128 * MiB, .below = MiB};
	struct lab_err err = {0};

	REQUIRE(lab_cache_probe_run(&p, &err) == 0);
	CHECK(p.sizes >= 3);
	CHECK(p.inside_gbs > 0);
	if (p.fits) {
		CHECK(p.fits >= 4 * MiB && p.fits < 32 * MiB);
		CHECK(p.past_gbs > 0 && p.past_gbs < p.inside_gbs);
	} else {
		CHECK(p.past_gbs == 0);
	}
}

/* The first set inside reads slow (a neighbour's burst on both readings): the plateau is the
 * fastest set seen inside, so DRAM is still told apart from it. */
static double low_start_gbs(uint64_t bytes, void *arg)
{
	unsigned *calls = arg;

	++*calls;
	return bytes == 4 * MiB ? 50 : bytes <= 16 * MiB ? 90 : 40;
}

LAB_TEST(plateau_is_the_fastest_set_inside)
{
	unsigned calls = 0;
	struct lab_cache_probe p = {.reported = 508 * MiB, .below = MiB};

	lab_cache_probe_search(&p, low_start_gbs, &calls);
	CHECK(lab_cache_probe_contradicts(&p));
	CHECK(p.inside_gbs == 90);
	CHECK(p.fits >= 16 * MiB && p.fits < 32 * MiB);
}

/* A made-up machine whose sweeps differ: sweep k (counted at each first set, 4 x below) ends at
 * ends[k], 0: never (the report holds). */
struct sweeps {
	uint64_t below, ends[3];
	unsigned k;
};

static double sweeps_gbs(uint64_t bytes, void *arg)
{
	struct sweeps *s = arg;

	if (bytes == 4 * s->below)
		s->k++;
	return !s->ends[s->k - 1] || bytes <= s->ends[s->k - 1] ? 100 : 30;
}

/* A neighbour's burst cut one sweep short (the level's end read at 8 MiB in one plan and 16 in
 * the next): the median of three keeps the sweeps that agree. */
LAB_TEST(median_of_sweeps_outvotes_a_burst)
{
	struct sweeps s = {.below = MiB, .ends = {8 * MiB, 24 * MiB, 24 * MiB}};
	struct lab_cache_probe p = {.reported = 508000000, .below = MiB};

	lab_cache_probe_median(&p, sweeps_gbs, &s, LAB_CACHE_PROBE_SWEEPS);
	CHECK_EQ_U64(s.k, 3);
	CHECK_EQ_U64(p.sweeps, 3);
	CHECK(p.fits > 16 * MiB && p.fits <= 24 * MiB);
	CHECK(p.past_gbs == 30 && p.inside_gbs == 100);
	/* one sweep cut short where the others found no end: the report stands */
	s = (struct sweeps){.below = MiB, .ends = {0, 8 * MiB, 0}};
	p = (struct lab_cache_probe){.reported = 64 * MiB, .below = MiB};
	lab_cache_probe_median(&p, sweeps_gbs, &s, LAB_CACHE_PROBE_SWEEPS);
	CHECK(!lab_cache_probe_contradicts(&p));
	/* and the other way: one sweep that found none is outvoted by two that did */
	s = (struct sweeps){.below = MiB, .ends = {0, 12 * MiB, 16 * MiB}};
	p = (struct lab_cache_probe){.reported = 508000000, .below = MiB};
	lab_cache_probe_median(&p, sweeps_gbs, &s, LAB_CACHE_PROBE_SWEEPS);
	CHECK(p.fits > 12 * MiB && p.fits <= 16 * MiB);
}
