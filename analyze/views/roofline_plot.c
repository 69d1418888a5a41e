/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The roofline plot, one per thread count the ceilings were measured at: log-log GFLOP/s vs
 * flops per byte, diagonal bandwidth roofs (cut at the highest compute roof), flat compute
 * roofs, the points with their 95 % intervals. Labels go through lab_an_gp_str. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/plots_int.h"
#include "analyze/views/roofline.h"

/* The x range: a decade around the points' intensities and the ridge points. */
static void an_xrange(const struct lab_an_rl *s, int t, double cmax, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (size_t i = 0; i < s->np; i++)
		if (s->p[i].pt->threads == t && s->p[i].intensity > 0) {
			*lo = fmin(*lo, s->p[i].intensity);
			*hi = fmax(*hi, s->p[i].intensity);
		}
	for (size_t i = 0; i < s->nc; i++)
		if (s->c[i].threads == t && s->c[i].kind == LAB_AN_RL_BW && cmax > 0 &&
		    s->c[i].value > 0) {
			*lo = fmin(*lo, cmax / s->c[i].value);
			*hi = fmax(*hi, cmax / s->c[i].value);
		}
	if (!(*hi > 0)) {
		*lo = 0.01;
		*hi = 100;
	}
	*lo /= 4;
	*hi *= 12; /* room for the labels, which sit right of their points */
}

/* 1 when the ;-separated params string ps holds item (len bytes) as a whole item. */
static int an_has_item(const char *ps, const char *item, size_t len)
{
	for (const char *p = ps; p && *p;) {
		const char *end = strchr(p, ';');
		size_t il = end ? (size_t)(end - p) : strlen(p);

		if (il == len && !strncmp(p, item, len))
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

/* A short label of e: its experiment when the points at t come from several, and the params
 * items that differ between them ("isa=avx2 size=16K"). */
static void an_label(const struct lab_an_rl *s, int t, const struct lab_an_rl_pt *e, char *buf,
                     size_t len)
{
	size_t k = 0;
	int multi = 0;

	for (size_t i = 0; i < s->np; i++)
		multi |=
		    s->p[i].pt->threads == t && strcmp(s->p[i].pt->experiment, e->pt->experiment);
	buf[0] = 0;
	if (multi)
		k = (size_t)snprintf(buf, len, "%.40s", e->pt->experiment);
	for (const char *p = e->pt->params; p && *p && k + 2 < len;) {
		const char *end = strchr(p, ';');
		size_t il = end ? (size_t)(end - p) : strlen(p);
		int common = 1;

		for (size_t i = 0; i < s->np && common; i++)
			common = s->p[i].pt->threads != t || an_has_item(s->p[i].pt->params, p, il);
		if (!common && k + il + 2 < len) {
			if (k)
				buf[k++] = ' ';
			memcpy(buf + k, p, il);
			buf[k += il] = 0;
		}
		p = end ? end + 1 : NULL;
	}
	if (!*buf)
		snprintf(buf, len, "%.40s", e->pt->experiment);
}

static void an_labels(FILE *f, const struct lab_an_rl *s, int t)
{
	char label[160];

	for (size_t i = 0, k = 1; i < s->np; i++) {
		const struct lab_an_rl_pt *e = &s->p[i];

		if (e->pt->threads != t || !(e->gflops > 0) || !isfinite(e->gflops) ||
		    !(e->intensity > 0))
			continue;
		an_label(s, t, e, label, sizeof(label));
		fprintf(f, "set label %zu ", k++);
		lab_an_gp_str(f, label);
		fprintf(f, " at %.9g,%.9g offset 0.6,0.4 font ',8' noenhanced\n", e->intensity,
		        e->gflops);
	}
}

static void an_plot_cmd(FILE *f, const struct lab_an_rl *s, int t, double cmax, const char *base)
{
	char title[160];
	int first = 1;

	fputs("plot ", f);
	for (size_t i = 0; i < s->nc; i++) {
		const struct lab_an_rl_ceil *c = &s->c[i];

		if (c->threads != t || !(c->value > 0) || !isfinite(c->value))
			continue;
		fputs(first ? "" : ", ", f);
		first = 0;
		if (c->kind == LAB_AN_RL_BW && cmax > 0)
			fprintf(f, "(%.9g*x < %.9g ? %.9g*x : 1/0)", c->value, cmax, c->value);
		else if (c->kind == LAB_AN_RL_BW)
			fprintf(f, "%.9g*x", c->value);
		else
			fprintf(f, "%.9g", c->value);
		snprintf(title, sizeof(title), "%.100s: %.4g %s", c->name, c->value,
		         c->kind == LAB_AN_RL_BW ? "GB/s" : "GFLOP/s");
		fprintf(f, " with lines lw 2 dt %d title ", c->kind == LAB_AN_RL_BW ? 1 : 2);
		lab_an_gp_str(f, title);
	}
	fprintf(f,
	        "%s'%s.dat' using 1:2:3:4 with yerrorbars pt 7 lc rgb 'black' title "
	        "'points (median, 95%% CI)'\n",
	        first ? "" : ", ", base);
}

static int an_rl_chart(const struct lab_an_rl *s, int t, size_t idx, const struct lab_an_pdir *pdir,
                       struct lab_an_plots *out, struct lab_err *err)
{
	char base[64], title[128];
	double cmax = NAN, xlo, xhi;
	FILE *f;
	int rc;

	snprintf(base, sizeof(base), "r%02zu-roofline-%dt", idx + 1, t);
	for (size_t i = 0; i < s->nc; i++)
		if (s->c[i].threads == t && s->c[i].kind == LAB_AN_RL_COMPUTE &&
		    isfinite(s->c[i].value) && !(s->c[i].value <= cmax))
			cmax = s->c[i].value;
	if (!(f = lab_an_open(pdir, base, "dat", err)))
		return -LAB_EIO;
	fputs("# intensity(flop/byte) gflops_per_s ci95_lo ci95_hi\n", f);
	for (size_t i = 0; i < s->np; i++)
		if (s->p[i].pt->threads == t && s->p[i].gflops > 0 && isfinite(s->p[i].gflops) &&
		    s->p[i].intensity > 0) {
			fprintf(f, "%.9g", s->p[i].intensity);
			lab_an_dat_num(f, s->p[i].gflops);
			lab_an_dat_num(f, s->p[i].lo);
			lab_an_dat_num(f, isinf(s->p[i].hi) ? NAN : s->p[i].hi);
			fputc('\n', f);
		}
	if ((rc = lab_an_close(f, base, err)))
		return rc;
	if (!(f = lab_an_open(pdir, base, "gp", err)))
		return -LAB_EIO;
	snprintf(title, sizeof(title), "Roofline, %d thread%s: measured ceilings", t,
	         t == 1 ? "" : "s");
	lab_an_gp_head(f, base, title, NULL);
	an_xrange(s, t, cmax, &xlo, &xhi);
	fprintf(f,
	        "set logscale xy\nset xrange [%.9g:%.9g]\nset samples 400\n"
	        "set xlabel 'flops per byte (read + written; write-allocate not counted)'\n"
	        "set ylabel 'GFLOP/s'\nset key bottom right box noenhanced font ',8'\n",
	        xlo, xhi);
	an_labels(f, s, t);
	an_plot_cmd(f, s, t, cmax, base);
	lab_an_gp_tail(f, base);
	if ((rc = lab_an_close(f, base, err)))
		return rc;
	return lab_an_plot_add(out, "roofline", title, base, "roofline", idx);
}

int lab_an_rl_plots(const void *state, const struct lab_an_data *d, const struct lab_an_pdir *pdir,
                    struct lab_an_plots *out, struct lab_err *err)
{
	const struct lab_an_rl *s = state;
	int rc = 0;

	(void)d;
	for (size_t i = 0; i < s->nt && !rc; i++)
		rc = an_rl_chart(s, s->tcount[i], i, pdir, out, err);
	return rc;
}
