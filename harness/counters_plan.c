/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counter columns of samples.csv and threads.csv. */
#include <math.h>

#include "harness/counters.h"
#include "harness/plan.h"

uint64_t lab_ctr_plan_mask(const struct lab_plan *plan, const struct lab_ctr_host *host)
{
	uint64_t mask = 0;
	struct lab_ctr_req req;
	struct lab_err err;

	for (unsigned i = 0; i < plan->npts; i++) {
		const struct lab_point *pt = &plan->pts[i];
		if (pt->h.counters != LAB_CTR_OFF &&
		    lab_ctr_req_parse(pt->h.events, &req, &err) == 0)
			mask |= lab_ctr_req_mask(&req, host->method);
	}
	return mask;
}

void lab_ctr_columns_header(FILE *f, uint64_t mask)
{
	if (!mask)
		return;
	for (unsigned e = 0; e < lab_ctr_nevents(); e++)
		if (mask >> e & 1)
			fprintf(f, ",%s", lab_ctr_event_column(e));
	fputs(",ctr_mux_ratio", f);
}

void lab_ctr_columns_row(FILE *f, uint64_t mask, const double *vals, double mux)
{
	if (!mask)
		return;
	for (unsigned e = 0; e < lab_ctr_nevents(); e++) {
		if (!(mask >> e & 1))
			continue;
		if (isfinite(vals[e]))
			fprintf(f, ",%.17g", vals[e]);
		else
			fputc(',', f);
	}
	fprintf(f, ",%.6g", mux);
}
