/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The kernel density behind the mode search (modes_int.h): linear binning onto the grid, then
 * Abramson's adaptive Gaussian kernel computed a few bins at a time. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "analyze/modes_int.h"

/* Linear binning of the sorted samples onto the grid. */
static void md_bin(const double *s, size_t n, double lo, double step, double *cnt)
{
	memset(cnt, 0, MD_GRID * sizeof(*cnt));
	for (size_t i = 0; i < n; i++) {
		double pos = (s[i] - lo) / step;
		size_t b = (size_t)pos;
		double fr = pos - (double)b;

		if (b >= MD_GRID - 1) {
			cnt[MD_GRID - 1] += 1;
			continue;
		}
		cnt[b] += 1 - fr;
		cnt[b + 1] += fr;
	}
}

/* How many whole d >= first lie below dmax, at most cap. */
static size_t md_span(size_t first, double dmax, size_t cap)
{
	double n = ceil(dmax) - (double)first;

	return !(n > 0) ? 0 : n >= (double)cap ? cap : (size_t)n;
}

/* Bins whose kernel tables are stepped together (md_gauss). */
#define MD_LANES 4

/* A bin's kernel as one row: exp(-c d^2) at grid offset d from the bin is row[MD_GRID + d], for
 * d from -MD_GRID to MD_GRID - 1. */
typedef double md_row[2 * MD_GRID];

typedef double md_v2 __attribute__((vector_size(2 * sizeof(double))));

/* Lanes 0, 1 and 2, 3 as pairs (for SSE2's registers). */
struct md_pair {
	md_v2 a, b;
};

static struct md_pair md_lanes(const double *v)
{
	return (struct md_pair){{v[0], v[1]}, {v[2], v[3]}};
}

/* Lane j of each pair set to 1. */
static void md_stop(struct md_pair *rp, struct md_pair *rm, struct md_pair *q, size_t j)
{
	switch (j) {
	case 0:
		rp->a[0] = rm->a[0] = q->a[0] = 1;
		break;
	case 1:
		rp->a[1] = rm->a[1] = q->a[1] = 1;
		break;
	case 2:
		rp->b[0] = rm->b[0] = q->b[0] = 1;
		break;
	default:
		rp->b[1] = rm->b[1] = q->b[1] = 1;
	}
}

/*
 * The Gaussian exp(-c d^2) on both sides of up to MD_LANES bins (lane j: c[j], len[j] steps):
 * d = i into row[j][MD_GRID + i], d = -(i + 1) into row[j][MD_GRID - 1 - i]. Stepped by a
 * recurrence, exp(-c (d+1)^2) = exp(-c d^2) exp(-c (2d + 1)), so there is no exp() per grid
 * point (the density is the analyzer's hot spot). Each step is a chain of multiplications; the
 * lanes' and the two sides' chains run in one loop so the CPU overlaps them. A lane past its
 * length multiplies by 1 from then on (its values are not used: no underflow to subnormals).
 */
static void md_gauss(const double *c, const size_t *len, size_t nl, md_row *row)
{
	double vp0[MD_LANES], rp0[MD_LANES], rm0[MD_LANES], q0[MD_LANES];
	struct md_pair vp, rp, vm, rm, q;
	size_t i = 0, end = 0;

	for (size_t j = 0; j < MD_LANES; j++) {
		vp0[j] = 1;
		rp0[j] = j < nl ? exp(-c[j]) : 1;
		rm0[j] = j < nl ? exp(-c[j] * 3) : 1;
		q0[j] = j < nl ? exp(-2 * c[j]) : 1;
	}
	vp = md_lanes(vp0);
	rp = vm = md_lanes(rp0);
	rm = md_lanes(rm0);
	q = md_lanes(q0);
	for (;;) {
		end = MD_GRID + 1;
		for (size_t j = 0; j < nl; j++) {
			if (len[j] <= i) /* past its length: its multipliers become 1 */
				md_stop(&rp, &rm, &q, j);
			else if (len[j] < end)
				end = len[j];
		}
		if (end > MD_GRID)
			return;
		for (; i < end; i++) {
			/* one lane at a time, spelled out: kept in registers */
			row[0][MD_GRID + i] = vp.a[0];
			row[1][MD_GRID + i] = vp.a[1];
			row[2][MD_GRID + i] = vp.b[0];
			row[3][MD_GRID + i] = vp.b[1];
			row[0][MD_GRID - 1 - i] = vm.a[0];
			row[1][MD_GRID - 1 - i] = vm.a[1];
			row[2][MD_GRID - 1 - i] = vm.b[0];
			row[3][MD_GRID - 1 - i] = vm.b[1];
			vp.a *= rp.a;
			vp.b *= rp.b;
			rp.a *= q.a;
			rp.b *= q.b;
			vm.a *= rm.a;
			vm.b *= rm.b;
			rm.a *= q.a;
			rm.b *= q.b;
		}
	}
}

/* dens[i] += w * k[i] for i < n, two elements at a time: each element gets the same product and
 * sum as one at a time. */
static void md_axpy(double *dens, const double *k, size_t n, double w)
{
	md_v2 wv = {w, w};
	size_t i = 0;

	for (; i + 2 <= n; i += 2) {
		md_v2 d, kv;

		memcpy(&d, dens + i, sizeof(d));
		memcpy(&kv, k + i, sizeof(kv));
		d += wv * kv;
		memcpy(dens + i, &d, sizeof(d));
	}
	for (; i < n; i++)
		dens[i] += w * k[i];
}

/* dens[t] += w[j] * k[j][t] for t from lo to hi, lane after lane for each t (as one lane after
 * the other would add them), two t at a time. */
static void md_axpy4(double *dens, const double *const *k, const double *w, size_t lo, size_t hi)
{
	md_v2 w0 = {w[0], w[0]}, w1 = {w[1], w[1]}, w2 = {w[2], w[2]}, w3 = {w[3], w[3]};
	size_t t = lo;

	for (; t + 2 <= hi; t += 2) {
		md_v2 d, k0, k1, k2, k3;

		memcpy(&d, dens + t, sizeof(d));
		memcpy(&k0, k[0] + t, sizeof(k0));
		memcpy(&k1, k[1] + t, sizeof(k1));
		memcpy(&k2, k[2] + t, sizeof(k2));
		memcpy(&k3, k[3] + t, sizeof(k3));
		d += w0 * k0;
		d += w1 * k1;
		d += w2 * k2;
		d += w3 * k3;
		memcpy(dens + t, &d, sizeof(d));
	}
	for (; t < hi; t++)
		for (size_t j = 0; j < MD_LANES; j++)
			dens[t] += w[j] * k[j][t];
}

/* Lane j's weight w[j] times its kernel k[j] (k[j][t] at grid point t) added to dens from lo[j]
 * to hi[j], in lane order at each grid point. The points all MD_LANES lanes cover are done in
 * one pass; each lane then adds its own outside them. */
static void md_add(double *dens, const double *const *k, const double *w, const size_t *lo,
                   const size_t *hi, size_t nl)
{
	size_t from = 0, to = MD_GRID;

	for (size_t j = 0; j < nl; j++) {
		from = lo[j] > from ? lo[j] : from;
		to = hi[j] < to ? hi[j] : to;
	}
	if (nl < MD_LANES || from >= to)
		from = to = MD_GRID; /* nothing in common */
	else
		md_axpy4(dens, k, w, from, to);
	for (size_t j = 0; j < nl; j++) {
		size_t below = hi[j] < from ? hi[j] : from; /* from >= lo[j] */

		md_axpy(dens + lo[j], k[j] + lo[j], below - lo[j], w[j]);
		if (hi[j] > to)
			md_axpy(dens + to, k[j] + to, hi[j] - to, w[j]);
	}
}

/* Gaussian kernel density on the grid with bandwidth h * lambda[b] for the mass in bin b,
 * cut at 8 bandwidths. With one bandwidth for all bins (shared: the pilot) the kernel values
 * are computed once, as far as any bin needs them; otherwise for MD_LANES bins at a time. Each
 * grid point adds up the same products in the same order (bin by bin) either way. */
static void md_kde(const double *cnt, const double *lambda, int shared, double step, double h,
                   double *dens)
{
	md_row row[MD_LANES];
	double c[MD_LANES], w[MD_LANES];
	const double *k[MD_LANES];
	size_t bin[MD_LANES], lo[MD_LANES], hi[MD_LANES], len[MD_LANES], nl = 0;
	int have = 0;

	memset(dens, 0, MD_GRID * sizeof(*dens));
	for (size_t b = 0; b <= MD_GRID; b++) {
		if (b < MD_GRID && cnt[b] != 0) {
			double hb = h * lambda[b], u = step / hb;
			size_t np = md_span(0, 8 / u, MD_GRID - b), nm = md_span(1, 8 / u, b);

			w[nl] = cnt[b] / hb;
			c[nl] = 0.5 * u * u;
			len[nl] = np > nm ? np : nm;
			lo[nl] = b - nm; /* nm grid points below b, np from b on */
			hi[nl] = b + np;
			if (shared && !have) {
				size_t fp = md_span(0, 8 / u, MD_GRID);
				size_t fm = md_span(1, 8 / u, MD_GRID - 1);

				len[nl] = fp > fm ? fp : fm;
				md_gauss(c + nl, len + nl, 1, row);
			}
			have = 1;
			bin[nl++] = b;
		}
		if (nl == MD_LANES || (b == MD_GRID && nl)) {
			if (!shared)
				md_gauss(c, len, nl, row);
			for (size_t j = 0; j < nl; j++)
				k[j] = row[shared ? 0 : j] + MD_GRID - bin[j];
			md_add(dens, k, w, lo, hi, nl);
			nl = 0;
		}
	}
}

/*
 * Abramson's adaptive kernel: a fixed-bandwidth pilot, then each bin's bandwidth scaled by
 * (pilot / geometric mean of pilot)^(-1/2). Sparse regions (a light second mode, a tail) get
 * wider kernels, so their sampling noise does not read as extra modes, while dense peaks stay
 * sharp. Only bins with mass need a bandwidth (and add to the geometric mean).
 */
void lab__modes_density(const double *s, size_t n, double lo, double step, double h, double *dens)
{
	double cnt[MD_GRID], lambda[MD_GRID], logsum = 0;

	md_bin(s, n, lo, step, cnt);
	for (size_t b = 0; b < MD_GRID; b++)
		lambda[b] = 1;
	md_kde(cnt, lambda, 1, step, h, dens);
	for (size_t b = 0; b < MD_GRID; b++)
		if (cnt[b] != 0)
			logsum += cnt[b] * log(fmax(dens[b], 1e-300));
	for (size_t b = 0; b < MD_GRID; b++)
		if (cnt[b] != 0)
			lambda[b] =
			    fmin(pow(fmax(dens[b], 1e-300) / exp(logsum / (double)n), -0.5), 50);
	md_kde(cnt, lambda, 0, step, h, dens);
}
