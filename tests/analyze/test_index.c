/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analyzer's hash indexes under crafted keys (hostile-inputs red team): names made to share
 * the home slot of an unkeyed FNV-1a (its low bits depend only on the low bits of each byte)
 * turned `lab compare` of 131,072 points from 11 s into 192 s. Under the keyed hash
 * (harness/hash.h) such names spread like any others: the probes stay linear in the names.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/index.h"
#include "tests/testlib.h"

#define IX_NAMES 1000

/* The old, unkeyed hash of s: FNV-1a and a separator byte. */
static uint64_t ix_fnv(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (h ^ 0xffu) * 1099511628211ull;
}

LAB_TEST(names_sharing_an_fnv_slot_spread)
{
	static char names[IX_NAMES][24];
	struct lab_an_strset set = {0};
	size_t n = 0;

	/* every name's FNV-1a has the same low 12 bits: one home slot of a 4096-slot table */
	for (unsigned long i = 0; n < IX_NAMES; i++) {
		snprintf(names[n], sizeof(names[n]), "zz=%lx", i);
		if ((ix_fnv(names[n]) & 0xfff) == 0x5a5)
			n++;
	}
	unsigned long long before = lab_an_index_probes();
	for (size_t i = 0; i < n; i++)
		REQUIRE(lab_an_strset_add(&set, names[i], NULL) == i);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_I64((long long)lab_an_strset_find(&set, names[i]), (long long)i);
	unsigned long long probes = lab_an_index_probes() - before;
	/* sharing a slot: about n^2 / 2 each way (a million); spread: a few per name */
	if (probes >= 20ull * IX_NAMES)
		fprintf(stderr, "%llu probes for %zu names\n", probes, n);
	CHECK(probes < 20ull * IX_NAMES);
	CHECK_EQ_I64((long long)lab_an_strset_find(&set, "zz=nothing"), -1);
	lab_an_strset_free(&set);
}
