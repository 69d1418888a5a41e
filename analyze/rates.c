/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/rates.h"

#include <math.h>
#include <string.h>

/* A declared amount: finite and >= 0, else 0 (results directories are untrusted input). */
static double an_amount(const struct lab_an_json *w, const char *key)
{
	double v = lab_an_json_num(w, key, 0);

	return isfinite(v) && v > 0 ? v : 0;
}

static void an_rate(double work, const struct lab_an_stats *st, struct lab_an_rate *r)
{
	r->v = r->lo = r->hi = NAN;
	if (!(st->mean > 0))
		return;
	r->v = work / st->mean; /* declared 0 (no flops) is an exact 0, not unknown */
	if (st->n < 2)
		return;
	if (work == 0) {
		r->lo = r->hi = 0;
		return;
	}
	r->lo = st->ci95_hi > 0 ? work / st->ci95_hi : 0;
	r->hi = st->ci95_lo > 0 ? work / st->ci95_lo : INFINITY;
}

void lab_an_rates_compute(const struct lab_an_data *d, const struct lab_an_point *p,
                          struct lab_an_rates *r)
{
	/* the point's own entry, attached by the loader (a search of run.json per point was
	 * quadratic when its points were not in id order) */
	const struct lab_an_json *w =
	    d->external || !d->run ? NULL : lab_an_json_get(p->runjson, "work_per_unit");
	const struct lab_an_json *bb;

	memset(r, 0, sizeof(*r));
	r->gbytes.v = r->gbytes_wa.v = r->gflops.v = r->flops_per_byte = NAN;
	r->gbytes.lo = r->gbytes.hi = r->gbytes_wa.lo = r->gbytes_wa.hi = NAN;
	r->gflops.lo = r->gflops.hi = NAN;
	r->bandwidth_bound = -1;
	if (!w || w->type != LAB_AN_JSON_OBJ)
		return;
	r->has = 1;
	bb = lab_an_json_get(w, "bandwidth_bound");
	r->bandwidth_bound = bb && bb->type == LAB_AN_JSON_BOOL ? bb->num != 0 : -1;
	bb = lab_an_json_get(w, "adds_only");
	r->adds_only = bb && bb->type == LAB_AN_JSON_BOOL && bb->num != 0;
	r->bytes_written = an_amount(w, "bytes_written");
	r->bytes = an_amount(w, "bytes_read") + r->bytes_written;
	r->bytes_wa = r->bytes + an_amount(w, "bytes_write_allocate");
	r->flops = an_amount(w, "flops");
	if (r->bytes > 0)
		r->flops_per_byte = r->flops / r->bytes;
	if (p->st.n == 0)
		return;
	an_rate(r->bytes, &p->st, &r->gbytes);
	an_rate(r->bytes_wa, &p->st, &r->gbytes_wa);
	an_rate(r->flops, &p->st, &r->gflops);
}
