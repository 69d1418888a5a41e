/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/plots.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/plots_int.h"
#include "analyze/views/views.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

/* gnuplot's output, in the plots directory. */
#define AN_GNUPLOT_LOG "gnuplot.log"
/* The script that loads the plots' scripts, in the plots directory (not a plot: another
 * extension than .gp). */
#define AN_GNUPLOT_BATCH "render-batch.gnuplot"
/* Failed gnuplot runs in a row, with nothing rendered between them, after which the rest is not
 * tried (a gnuplot without the cairo terminals fails on every plot). */
#define AN_GNUPLOT_GIVE_UP 8

/* The gnuplot this process waits for (0: none), for lab_an_plots_abort. */
static volatile sig_atomic_t an_gnuplot_pid;

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

/* How many plots an_series_plots draws for s. */
static size_t an_series_nplots(const struct lab_an_series *s)
{
	int measured, kf, fit;

	an_series_has(s, &measured, &kf, &fit);
	return !measured && !fit ? 0 : 1 + (size_t)measured + (size_t)kf;
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

/* Writes the batch script: `load 'BASE.gp'` for plots [first, n) (bases are the analyzer's
 * slugs, so the quoted name is inert). 0 or -1. */
static int an_gnuplot_batch(const struct lab_an_pdir *pdir, const struct lab_an_plots *p,
                            size_t first)
{
	int fd = openat(pdir->fd, AN_GNUPLOT_BATCH,
	                O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fputs("# Written by lab analyze: renders every plot. Run: gnuplot " AN_GNUPLOT_BATCH "\n",
	      f);
	for (size_t i = first; i < p->n; i++)
		fprintf(f, "load '%s.gp'\n", p->p[i].base);
	return ferror(f) | fclose(f) ? -1 : 0;
}

/* Runs `gnuplot render-batch.gnuplot` (an argument vector, no shell) with the plots directory as
 * its working directory, stdin from /dev/null, its output appended to gnuplot.log. gnuplot dies
 * with this process (PR_SET_PDEATHSIG) and lab_an_plots_abort can end it. Returns 0 when
 * gnuplot exits 0. */
static int an_gnuplot_run(const struct lab_an_pdir *pdir)
{
	static char prog[] = "gnuplot", script[] = AN_GNUPLOT_BATCH;
	char *argv[] = {prog, script, NULL};
	pid_t parent = getpid(), pid;
	int status = -1;

	pid = fork();
	if (pid == 0) {
		int fd;

		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
			_exit(127);
		if (fchdir(pdir->fd) != 0)
			_exit(127);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
		fd = open(AN_GNUPLOT_LOG, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp("gnuplot", argv);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	an_gnuplot_pid = pid;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	an_gnuplot_pid = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

void lab_an_plots_abort(void)
{
	pid_t pid = an_gnuplot_pid;

	if (pid > 0)
		kill(pid, SIGTERM);
}

/* The first plot from first on without its .png (the last file each script writes). */
static size_t an_first_unrendered(const struct lab_an_pdir *pdir, const struct lab_an_plots *p,
                                  size_t first)
{
	char name[512];
	struct stat st;

	for (; first < p->n; first++) {
		snprintf(name, sizeof(name), "%s.png", p->p[first].base);
		if (fstatat(pdir->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			break;
	}
	return first;
}

/* One gnuplot renders every plot through one script (one process per plot is slow, and one
 * argument per plot overflows the argument list). gnuplot stops at the first failing plot: that
 * plot (the first without its .png) counts as failed and a new batch starts after it. */
static void an_gnuplot_all(const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                           struct lab_an_warnings *warn)
{
	size_t failed = 0, first = 0, in_row = 0;

	while (first < out->n) {
		size_t stop;

		if (an_gnuplot_batch(pdir, out, first) != 0) {
			failed += out->n - first;
			break;
		}
		if (an_gnuplot_run(pdir) == 0)
			break;
		stop = an_first_unrendered(pdir, out, first);
		if (stop >= out->n)
			break; /* failed after the last plot: all rendered */
		in_row = stop == first ? in_row + 1 : 1;
		failed++;
		first = stop + 1;
		if (in_row >= AN_GNUPLOT_GIVE_UP) {
			failed += out->n - first;
			break;
		}
	}
	out->rendered = failed < out->n;
	if (failed)
		lab_an_warn(warn, "gnuplot failed on %zu of %zu plots; see %s/%s", failed, out->n,
		            pdir->path, AN_GNUPLOT_LOG);
}

/* Leaves out the plots past LAB_AN_PLOTS_MAX (their files too), counting them in omitted. */
static void an_plots_trim(const struct lab_an_pdir *pdir, struct lab_an_plots *out)
{
	char name[512];

	for (size_t i = LAB_AN_PLOTS_MAX; i < out->n; i++) {
		snprintf(name, sizeof(name), "%s.gp", out->p[i].base);
		unlinkat(pdir->fd, name, 0);
		snprintf(name, sizeof(name), "%s.dat", out->p[i].base);
		unlinkat(pdir->fd, name, 0);
		free(out->p[i].title);
		free(out->p[i].base);
		out->omitted++;
	}
	if (out->n > LAB_AN_PLOTS_MAX)
		out->n = LAB_AN_PLOTS_MAX;
}

/* plots/ belongs to the analyzer: files of an earlier analysis (another series set, another
 * --include-flagged choice) would otherwise linger beside the new ones. Only regular files
 * are removed, relative to the directory handle. */
static void an_plots_clean(const struct lab_an_pdir *pdir)
{
	static const char *const ext[] = {".gp", ".dat", ".svg", ".png", ".log", ".gnuplot"};
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
	/* Series in order while their plots fit under the cap; the rest are counted, not written.
	 */
	for (size_t i = 0; i < a->ns && !rc; i++) {
		size_t k = lab_an_series_hidden(a, &a->s[i]) ? 0 : an_series_nplots(&a->s[i]);

		if (k && (out->omitted || out->n + k > LAB_AN_PLOTS_MAX))
			out->omitted += k;
		else if (k)
			rc = an_series_plots(&a->s[i], i, &pd, out, err);
	}
	if (!rc)
		rc = lab_an_views_plots(a, &pd, out, err);
	if (rc)
		goto out;
	an_plots_trim(&pd, out);
	if (out->omitted)
		lab_an_warn(warn,
		            "%zu of %zu plots left out: at most %d per analysis (gnuplot renders a "
		            "few dozen a second and report.html embeds each); the tables, "
		            "summary.csv and analysis.json hold every series",
		            out->omitted, out->n + out->omitted, LAB_AN_PLOTS_MAX);
	if (!render || !out->n)
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
