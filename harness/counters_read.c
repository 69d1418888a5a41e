/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pure parts of reading counters: scaling for multiplexing and parsing a group read. */
#include <math.h>

#include "harness/counters.h"

const char *lab_ctr_status_name(enum lab_ctr_status st)
{
	static const char *const names[] = {"ok",   "unsupported", "permission", "does_not_fit",
	                                    "busy", "error",       "not_counted"};

	return names[st];
}

double lab_ctr_scale(uint64_t raw, uint64_t enabled, uint64_t running, double *ratio)
{
	*ratio = enabled ? (double)running / (double)enabled : 0;
	if (running == 0)
		return NAN;
	/* long double: raw * enabled can pass 2^64 on long samples. */
	return (double)((long double)raw * (long double)enabled / (long double)running);
}

int lab_ctr_parse_read(const void *buf, size_t len, const uint64_t *ids, unsigned n, uint64_t *vals,
                       uint64_t *enabled, uint64_t *running)
{
	const uint64_t *w = buf;

	for (unsigned i = 0; i < n; i++)
		vals[i] = UINT64_MAX;
	if (len < 3 * sizeof(uint64_t) || len % sizeof(uint64_t))
		return -LAB_EIO;
	uint64_t nr = w[0];
	if (nr > LAB_CTR_GROUP_MAX || len < (3 + 2 * nr) * sizeof(uint64_t))
		return -LAB_EIO;
	*enabled = w[1];
	*running = w[2];
	for (uint64_t k = 0; k < nr; k++)
		for (unsigned i = 0; i < n; i++)
			if (ids[i] == w[4 + 2 * k])
				vals[i] = w[3 + 2 * k];
	return 0;
}
