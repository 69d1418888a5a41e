/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/plots.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/plots_int.h"
#include "analyze/views/views.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

/* gnuplot's output, in the plots directory. */
#define AN_GNUPLOT_LOG "gnuplot.log"

/* Fewest thread counts for a series plot (speedup, efficiency, Karp-Flatt, fits). */
#define LAB_AN_PLOT_MIN_COUNTS 3

/* Points: threads, mean cost and CI, S and CI, E and CI, e and CI. A point without an interval
 * gets a zero-length bar (its lo and hi are the estimate) so gnuplot still draws it; the tables
 * say that there is no interval. */
static void an_dat_points(FILE *f, const struct lab_an_series *s)
{
	fputs("# threads mean ci95_lo ci95_hi speedup s_lo s_hi eff e_lo e_hi kf kf_lo kf_hi\n", f);
	for (size_t i = 0; i < s->nrow; i++) {
		const struct lab_an_row *r = &s->row[i];
		int h = r->has_speedup, c = h && r->speedup.has_ci && !r->speedup.unbounded;

		if (!r->pt->st.n)
			continue;
		fprintf(f, "%d", r->pt->threads);
		lab_an_dat_num(f, r->pt->st.mean);
		lab_an_dat_num(f, r->pt->st.ci95_lo);
		lab_an_dat_num(f, r->pt->st.ci95_hi);
		lab_an_dat_num(f, h ? r->speedup.est : NAN);
		lab_an_dat_num(f, h ? (c ? r->speedup.lo : r->speedup.est) : NAN);
		lab_an_dat_num(f, h ? (c ? r->speedup.hi : r->speedup.est) : NAN);
		lab_an_dat_num(f, h ? r->eff : NAN);
		lab_an_dat_num(f, h ? (c ? r->eff_lo : r->eff) : NAN);
		lab_an_dat_num(f, h ? (c ? r->eff_hi : r->eff) : NAN);
		lab_an_dat_num(f, r->kf);
		lab_an_dat_num(f, c && isfinite(r->kf_lo) ? r->kf_lo : r->kf);
		lab_an_dat_num(f, c && isfinite(r->kf_hi) ? r->kf_hi : r->kf);
		fputc('\n', f);
	}
	fputs("\n\n# curves: threads amdahl lo hi usl lo hi gustafson lo hi\n", f);
}

/* Model curves on a log-spaced grid from 1 to 1.5x the largest thread count. */
static void an_dat_curves(FILE *f, const struct lab_an_series *s, int maxn)
{
	const struct lab_an_fit *fit[3] = {&s->amdahl, &s->usl, &s->gustafson};
	double top = log2(fmax(2, 1.5 * maxn));

	for (int k = 0; k <= 120; k++) {
		double N = exp2(top * k / 120.0);

		fprintf(f, "%.6g", N);
		for (int m = 0; m < 3; m++) {
			double v = NAN, lo = NAN, hi = NAN;

			if (fit[m]->ok)
				lab_an_fit_speedup(fit[m], N, &v, &lo, &hi);
			lab_an_dat_num(f, v);
			lab_an_dat_num(f, lo);
			lab_an_dat_num(f, hi);
		}
		fputc('\n', f);
	}
}

static void an_gp_speedup(FILE *f, const struct lab_an_series *s, const char *base, int maxn,
                          int measured)
{
	char title[512];

	snprintf(title, sizeof(title), "%s %s: speedup", s->experiment, s->params);
	lab_an_gp_head(f, base, title, NULL);
	fprintf(f,
	        "set logscale xy 2\nset xrange [1:%g]\nset xlabel 'threads'\n"
	        "set ylabel 'speedup (cost per unit, 95%% CI)'\n",
	        1.5 * maxn);
	if (s->peak.retrograde && isfinite(s->peak.n_star))
		fprintf(f,
		        "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lc rgb '#aa0000'\n"
		        "set label 'N* = %.1f' at %g, graph 0.95 offset 1,0 textcolor rgb "
		        "'#aa0000'\n",
		        s->peak.n_star, s->peak.n_star, s->peak.n_star, s->peak.n_star);
	fprintf(f, "plot x title 'ideal' dt 3 lc rgb 'gray'");
	if (s->usl.ok)
		fprintf(f,
		        ", '%s.dat' index 1 using 1:6:7 with filledcurves fs transparent solid "
		        "0.2 lc rgb '#1f77b4' title 'USL 95%% band', '' index 1 using 1:5 with "
		        "lines lw 2 lc rgb '#1f77b4' title 'USL'",
		        base);
	if (s->amdahl.ok)
		fprintf(
		    f,
		    ", '%s.dat' index 1 using 1:3:4 with filledcurves fs transparent solid 0.15 "
		    "lc rgb '#ff7f0e' title 'Amdahl 95%% band', '' index 1 using 1:2 with lines "
		    "lw 2 dt 2 lc rgb '#ff7f0e' title 'Amdahl'",
		    base);
	if (s->weak && s->gustafson.ok)
		fprintf(f,
		        ", '%s.dat' index 1 using 1:8 with lines lw 2 dt 4 lc rgb '#2ca02c' "
		        "title 'Gustafson'",
		        base);
	if (measured)
		fprintf(f,
		        ", '%s.dat' index 0 using 1:5:6:7 with yerrorbars pt 7 lc rgb 'black' "
		        "title 'measured'",
		        base);
	fputc('\n', f);
	lab_an_gp_tail(f, base);
}

static void an_gp_simple(FILE *f, const struct lab_an_series *s, const char *base, const char *dat,
                         int kf)
{
	char title[512];

	snprintf(title, sizeof(title), "%s %s: %s", s->experiment, s->params,
	         kf ? "Karp-Flatt serial fraction" : "efficiency");
	lab_an_gp_head(f, base, title, NULL);
	fprintf(f, "set logscale x 2\nset xlabel 'threads'\nset ylabel '%s'\n",
	        kf ? "e(N) (95% CI)" : "efficiency S/N (95% CI)");
	if (kf) {
		fprintf(f,
		        "plot '%s.dat' index 0 using 1:11:12:13 with yerrorbars pt 7 "
		        "lc rgb 'black' title 'e(N)'",
		        dat);
		if (s->usl.ok)
			fprintf(f, ", %.9g + %.9g*x title 'USL: sigma + kappa N' lc rgb '#1f77b4'",
			        s->usl.x[1], s->usl.x[2]);
		if (s->amdahl.ok)
			fprintf(f, ", %.9g title 'Amdahl f' dt 2 lc rgb '#ff7f0e'", s->amdahl.x[1]);
		fputc('\n', f);
	} else {
		fprintf(f,
		        "set yrange [0:*]\nplot 1 title 'ideal' dt 3 lc rgb 'gray', '%s.dat' "
		        "index 0 using 1:8:9:10 with yerrorlines pt 7 lc rgb 'black' "
		        "title 'E(N)'\n",
		        dat);
	}
	lab_an_gp_tail(f, base);
}

/*
 * Which plots of a series have something to draw (gnuplot stops on an all-undefined plot). A
 * series measured at fewer than LAB_AN_PLOT_MIN_COUNTS thread counts gets no plot at all: a
 * line through two points shows no trend, no fit and no Karp-Flatt curve (its table has the
 * numbers).
 */
static void an_series_has(const struct lab_an_series *s, int *measured, int *kf, int *fit)
{
	size_t counts = 0;

	*measured = *kf = 0;
	*fit = s->amdahl.ok || s->usl.ok || (s->weak && s->gustafson.ok);
	for (size_t i = 0; i < s->nrow; i++) {
		int has = s->row[i].has_speedup && isfinite(s->row[i].speedup.est);
		*measured |= has;
		*kf |= isfinite(s->row[i].kf);
		/* rows ascend in threads: a count is new when it differs from the row before */
		counts += has && (i == 0 || s->row[i].pt->threads != s->row[i - 1].pt->threads);
	}
	if (counts < LAB_AN_PLOT_MIN_COUNTS)
		*measured = *kf = *fit = 0;
}

static int an_series_plots(const struct lab_an_series *s, size_t idx,
                           const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                           struct lab_err *err)
{
	char slug[160], base[200], other[220], title[400];
	int maxn = 1, rc, measured, kfany, fit;
	FILE *f;

	an_series_has(s, &measured, &kfany, &fit);
	if (!measured && !fit)
		return 0;
	for (size_t i = 0; i < s->nrow; i++)
		maxn = s->row[i].pt->threads > maxn ? s->row[i].pt->threads : maxn;
	lab_an_series_slug(s, slug, sizeof(slug));
	snprintf(base, sizeof(base), "%02zu-%s-speedup", idx + 1, slug);
	if (!(f = lab_an_open(pdir, base, "dat", err)))
		return -LAB_EIO;
	an_dat_points(f, s);
	an_dat_curves(f, s, maxn);
	if ((rc = lab_an_close(f, base, err)))
		return rc;
	if (!(f = lab_an_open(pdir, base, "gp", err)))
		return -LAB_EIO;
	an_gp_speedup(f, s, base, maxn, measured);
	snprintf(title, sizeof(title), "%.150s %.150s: speedup", s->experiment, s->params);
	if ((rc = lab_an_close(f, base, err)) ||
	    (rc = lab_an_plot_add(out, "speedup", title, base, NULL, idx)))
		return rc;
	for (int kf = 0; kf < 2; kf++) {
		const char *kind = kf ? "karpflatt" : "efficiency";

		if (kf ? !kfany : !measured)
			continue;
		snprintf(other, sizeof(other), "%02zu-%s-%s", idx + 1, slug, kind);
		snprintf(title, sizeof(title), "%.150s %.150s: %s", s->experiment, s->params, kind);
		if (!(f = lab_an_open(pdir, other, "gp", err)))
			return -LAB_EIO;
		an_gp_simple(f, s, other, base, kf);
		if ((rc = lab_an_close(f, other, err)) ||
		    (rc = lab_an_plot_add(out, kind, title, other, NULL, idx)))
			return rc;
	}
	return 0;
}

/* Runs `gnuplot a.gp b.gp ...` (an argument vector, no shell) for plots [first, first + n) with
 * the plots directory as its working directory, its output appended to gnuplot.log. The names
 * are the analyzer's slugs, so gnuplot writes only fresh NAME.svg and NAME.png there. Returns 0
 * when gnuplot exits 0. */
static int an_gnuplot_run(const struct lab_an_pdir *pdir, const struct lab_an_plots *p,
                          size_t first, size_t n)
{
	static char prog[] = "gnuplot";
	char **argv = calloc(n + 2, sizeof(*argv));
	int status = -1;
	pid_t pid;

	if (!argv)
		return -1;
	argv[0] = prog;
	for (size_t i = 0; i < n; i++)
		argv[i + 1] = lab_an_asprintf("%s.gp", p->p[first + i].base);
	pid = fork();
	if (pid == 0) {
		int fd;

		if (fchdir(pdir->fd) != 0)
			_exit(127);
		fd = open(AN_GNUPLOT_LOG, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp("gnuplot", argv);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) != pid)
		status = -1;
	for (size_t i = 0; i < n; i++)
		free(argv[i + 1]);
	free(argv);
	return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* One gnuplot process renders everything (one process per plot is slow); gnuplot stops at the
 * first failing script, so on failure each script runs alone and the failures are counted. */
static void an_gnuplot_all(const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                           struct lab_an_warnings *warn)
{
	size_t failed = 0;

	if (an_gnuplot_run(pdir, out, 0, out->n) == 0) {
		out->rendered = 1;
		return;
	}
	for (size_t i = 0; i < out->n; i++)
		failed += an_gnuplot_run(pdir, out, i, 1) != 0;
	out->rendered = failed < out->n;
	lab_an_warn(warn, "gnuplot failed on %zu of %zu plots; see %s/%s", failed, out->n,
	            pdir->path, AN_GNUPLOT_LOG);
}

/* plots/ belongs to the analyzer: files of an earlier analysis (another series set, another
 * --include-flagged choice) would otherwise linger beside the new ones. Only regular files
 * are removed, relative to the directory handle. */
static void an_plots_clean(const struct lab_an_pdir *pdir)
{
	static const char *const ext[] = {".gp", ".dat", ".svg", ".png", ".log"};
	int dup = fcntl(pdir->fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dup >= 0 ? fdopendir(dup) : NULL;
	struct dirent *e;
	struct stat st;

	if (!d && dup >= 0)
		close(dup);
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
			size_t el = strlen(ext[i]);

			if (len > el && !strcmp(e->d_name + len - el, ext[i]) &&
			    fstatat(pdir->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISREG(st.st_mode)) {
				unlinkat(pdir->fd, e->d_name, 0);
				break;
			}
		}
	}
	if (d)
		closedir(d);
}

int lab_an_plots_write(const struct lab_an_analysis *a, const char *dir, int render,
                       struct lab_an_plots *out, struct lab_an_warnings *warn, struct lab_err *err)
{
	struct lab_an_pdir pd = {-1, lab_an_asprintf("%s/%s", dir, LAB_DIR_PLOTS)};
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->written = 1;
	if (!pd.path)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if ((pd.fd = lab_an_subdir_open(dir, LAB_DIR_PLOTS, 1, err)) < 0) {
		rc = -LAB_EIO;
		goto out;
	}
	an_plots_clean(&pd);
	for (size_t i = 0; i < a->ns && !rc; i++)
		if (!lab_an_series_hidden(a, &a->s[i]))
			rc = an_series_plots(&a->s[i], i, &pd, out, err);
	if (!rc)
		rc = lab_an_views_plots(a, &pd, out, err);
	if (rc || !render || !out->n)
		goto out;
	out->no_gnuplot = !lab_an_have_program("gnuplot");
	if (out->no_gnuplot)
		lab_an_warn(warn,
		            "gnuplot not found: wrote the .dat/.gp files in %s but no "
		            "images (apt-get install gnuplot-nox)",
		            pd.path);
	else
		an_gnuplot_all(&pd, out, warn);
out:
	if (pd.fd >= 0)
		close(pd.fd);
	free((char *)pd.path);
	return rc;
}

void lab_an_plots_free(struct lab_an_plots *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->p[i].title);
		free(p->p[i].base);
	}
	free(p->p);
	memset(p, 0, sizeof(*p));
}
