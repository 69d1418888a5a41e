/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The cache check's line (lab/cli_caches.c): a measured end one quarter step from the power of
 * two it rounds to says what a sweep one step off would plan and how to keep the size (sweeps
 * on the EPYC guest ended at 13.5 or 16 MiB and planned 8 or 16 MiB, silently).
 */
#include <math.h>
#include <string.h>

#include "lab/cli.h"
#include "tests/testlib.h"

/* A contradicted check of L3 (508 MiB reported) whose sweep ended at fits bytes. */
static void cc_text(uint64_t fits, uint64_t use, char *buf, size_t len)
{
	struct lab_cli_llc c = {.level = 3, .use = use, .hv = "bhyve"};

	c.p.reported = 508ull << 20;
	c.p.below = 1ull << 20;
	c.p.fits = fits;
	c.p.sizes = 8;
	c.p.sweeps = 3;
	c.p.inside_gbs = 80;
	c.p.past_gbs = 40;
	lab_cli_llc_text(&c, buf, len);
}

/* The sweep's quarter steps above 2^k MiB, cut to whole pages as the probe cuts them. */
static uint64_t cc_step(unsigned k, int q)
{
	return (uint64_t)((double)(1ull << (20 + k)) * pow(2.0, q / 4.0)) & ~4095ull;
}

LAB_TEST(cache_line_says_when_a_step_changes_the_plan)
{
	char buf[512];

	cc_text(cc_step(4, 0), 16ull << 20, buf, sizeof(buf)); /* 16 MiB: 13.5 would plan 8 */
	CHECK(strstr(buf, "use 16 MiB here") &&
	      strstr(buf, "a sweep one quarter step shorter would use 8 MiB (--cache L3=16M keeps "
	                  "16 MiB)"));
	cc_text(cc_step(3, 3), 8ull << 20, buf, sizeof(buf)); /* 13.5 MiB: 16 would plan 16 */
	CHECK(strstr(buf, "use 8 MiB here") &&
	      strstr(buf, "a sweep one quarter step longer would use 16 MiB (--cache L3=8M keeps "
	                  "8 MiB)"));
	for (int q = 1; q <= 2; q++) { /* 19.0 and 22.6 MiB: one step either way plans 16 too */
		cc_text(cc_step(4, q), 16ull << 20, buf, sizeof(buf));
		CHECK(strstr(buf, "use 16 MiB here") && !strstr(buf, "a sweep one quarter step"));
	}
	CHECK(strlen(buf) + 1 < sizeof(((struct lab_cli_setup *)0)->cache_note));
}
