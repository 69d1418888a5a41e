/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The plots of the curves (curves.h): per group, the plotted column vs x, one curve each, 95 %
 * CI bars; the first curve key picks the colour and point shape, the second the dashes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/plots_int.h"
#include "analyze/views/curves.h"

/* Writes one block per curve; returns how many entries were written. */
static size_t an_dat(FILE *f, const struct lab_an_cv_spec *s, const struct lab_an_cv_group *g)
{
	size_t n = 0;

	fprintf(f, "# x %s lo hi (mean, 95%% CI; one block per curve)\n", s->col[s->plot_col].key);
	for (size_t j = 0; j < g->nc; j++) {
		char name[64];

		lab_an_plot_slug(g->c[j].label, name, sizeof(name)); /* a comment: one line */
		fprintf(f, "%s# curve %s\n", j ? "\n\n" : "", name);
		for (size_t k = 0; k < g->c[j].npt; k++) {
			const struct lab_an_cv_pt *e = &g->c[j].pt[k];
			const struct lab_an_cv_val *v = &e->v[s->plot_col];

			if (!v->n || !isfinite(e->x) || !isfinite(v->mean))
				continue;
			n++;
			lab_an_dat_num(f, e->x);
			lab_an_dat_num(f, v->mean);
			lab_an_dat_num(f, isfinite(v->lo) ? v->lo : v->mean);
			lab_an_dat_num(f, isfinite(v->hi) ? v->hi : v->mean);
			fputc('\n', f);
		}
	}
	return n;
}

/* The legend entry of curve c: its label, and where it has no number (lab_an_key_*). */
static const char *an_key(const struct lab_an_cv_spec *s, const struct lab_an_cv_curve *c,
                          char *buf, size_t len)
{
	struct lab_an_key k;

	lab_an_key_begin(&k, buf, len, c->label);
	for (size_t i = 0; i < c->npt; i++) {
		const struct lab_an_cv_pt *e = &c->pt[i];
		if (!e->v[s->plot_col].n || !isfinite(e->v[s->plot_col].mean))
			lab_an_key_missing(&k, e->x, e->pt);
	}
	return lab_an_key_end(&k);
}

static void an_gp(FILE *f, const struct lab_an_cv_spec *s, const struct lab_an_cv_group *g,
                  const char *base, const char *dat)
{
	char key[256];
	char title[256];

	snprintf(title, sizeof(title), "%s: %s", g->experiment, s->title);
	lab_an_gp_head(f, base, title, g->params);
	fprintf(f, "set xlabel '%s'\nset ylabel '%s'\n%s%s", s->xlabel, s->ylabel,
	        s->logx ? "set logscale x 2\n" : "", s->logy ? "set logscale y\n" : "");
	fputs("set key below nobox\nplot ", f);
	for (size_t j = 0; j < g->nc; j++) {
		const struct lab_an_cv_curve *c = &g->c[j];

		fprintf(f,
		        "%s'%s.dat' index %zu using 1:2:3:4 with yerrorlines lc %d pt %d dt %d "
		        "title ",
		        j ? ", " : "", dat, j, c->style[0] % 8 + 1, c->style[0] % 14 + 1,
		        c->style[1] % 5 + 1);
		lab_an_gp_str(f, an_key(s, c, key, sizeof(key)));
	}
	fputc('\n', f);
	lab_an_gp_tail(f, base);
}

static int an_group_plot(const struct lab_an_cv_spec *s, const struct lab_an_cv_group *g, size_t i,
                         const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                         struct lab_err *err)
{
	char slug[160], base[240], title[300];
	size_t n;
	int rc;
	FILE *f;

	snprintf(base, sizeof(base), "%.12s%02zu-%.60s-%.80s", s->view, i, g->experiment,
	         g->params);
	lab_an_plot_slug(base, slug, sizeof(slug));
	if (!(f = lab_an_open(pdir, slug, "dat", err)))
		return -LAB_EIO;
	n = an_dat(f, s, g);
	if ((rc = lab_an_close(f, slug, err)) || !n)
		return rc;
	if (!(f = lab_an_open(pdir, slug, "gp", err)))
		return -LAB_EIO;
	an_gp(f, s, g, slug, slug);
	snprintf(title, sizeof(title), "%.100s %.120s: %s", g->experiment, g->params, s->title);
	if ((rc = lab_an_close(f, slug, err)))
		return rc;
	return lab_an_plot_add(out, s->view, title, slug, s->view, i);
}

int lab_an_cv_plots(const void *state, const struct lab_an_data *d, const struct lab_an_pdir *pdir,
                    struct lab_an_plots *out, struct lab_err *err)
{
	const struct lab_an_cv *v = state;
	int rc = 0;

	(void)d;
	for (size_t i = 0; i < v->ng && !rc; i++)
		rc = an_group_plot(v->spec, &v->g[i], i, pdir, out, err);
	return rc;
}
