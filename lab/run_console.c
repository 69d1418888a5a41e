/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab run's console: the progress line with its ETA, a line per finished point, and the summary
 * at the end (run_console.h). */
#include "lab/run_console.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/clock.h"
#include "lab/cli.h"

/* After a point's line: a reader that left ends the run as Ctrl-C would, once, with a word. */
static void run_stdout_check(struct lab_run_console *c)
{
	static bool said;

	if (!ferror(stdout) || errno != EPIPE || said)
		return;
	said = true;
	int none = 0; /* -1, no signal's number: a later signal is not its repeat; a signal's own
	               * number stays, so that its repeat is still one request */
	atomic_compare_exchange_strong(c->interrupted, &none, -1);
	/* after the last point the run is complete all the same (run.json says so) */
	fprintf(stderr, "lab: standard output was closed (its reader left): the run stops here, "
	                "interrupted unless every point had finished\n");
}

/* The sum of the plan's runs as the estimate counts them: the ETA weighs runs by it (a 2 GiB
 * point's fresh buffers outlast a hundred points in L1). */
void lab_run_console_begin(struct lab_run_console *c)
{
	const struct lab_plan *plan = c->s->plan;

	/* the point lines' columns as wide as the plan's longest name and params (up to 32 and
	 * 100 characters: ch26-locks's reach 84), so that the numbers line up */
	c->wname = 8;
	c->wparams = 16;
	for (unsigned i = 0; i < plan->npts; i++) {
		const struct lab_point *pt = &plan->pts[i];
		int wn = (int)strlen(plan->exp[pt->exp].name), wp = (int)strlen(pt->params_text);
		c->est_total +=
		    lab_cli_run_estimate_ns(plan, pt) * (double)(pt->h.runs ? pt->h.runs : 1);
		c->wname = wn > c->wname ? (wn < 32 ? wn : 32) : c->wname;
		c->wparams = wp > c->wparams ? (wp < 100 ? wp : 100) : c->wparams;
	}
}

/* Seconds left: the elapsed time scaled by the estimated work left over the work done; by
 * runs counted when the estimate has nothing to say (nothing done yet, or precision targets
 * adding runs past the plan). */
static double run_eta(struct lab_run_console *c, unsigned done, unsigned total,
                      const struct lab_point *pt)
{
	double elapsed = (double)(lab_clock_ns() - c->t0_ns) / 1e9;

	if (c->est_cur)
		c->est_done += lab_cli_run_estimate_ns(c->s->plan, c->est_cur);
	c->est_cur = pt;
	if (c->est_done > 0 && c->est_total > c->est_done)
		return elapsed / c->est_done * (c->est_total - c->est_done);
	return done ? elapsed / done * (total - done) : NAN;
}

void lab_run_console_progress(void *ctx, unsigned done, unsigned total, const struct lab_point *pt)
{
	struct lab_run_console *c = ctx;

	if (!c->start_rc)
		c->start_rc = lab_results_start(c->res, pt, &c->start_err);
	if (!c->progress)
		return;
	double eta = run_eta(c, done, total, pt);
	const struct lab_experiment *e = &c->s->plan->exp[pt->exp];
	fprintf(stderr, "\r\033[K[%u/%u] %s threads=%u %s", done + 1, total, e->name, pt->nthreads,
	        pt->params_text);
	if (isfinite(eta) && eta < 90)
		fprintf(stderr, "  ETA %.0fs", eta);
	else if (isfinite(eta))
		fprintf(stderr, "  ETA %.0f min", eta / 60);
	fflush(stderr);
}

static int run_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One line per finished point: the median cost per unit of work and the rate. */
static void run_print_point(struct lab_run_console *c, const struct lab_point_rec *rec)
{
	const struct lab_point *pt = rec->pt;
	const struct lab_experiment *e = &c->s->plan->exp[pt->exp];
	double *cost;

	if (c->progress)
		fprintf(stderr, "\r\033[K");
	if (!c->legend) {
		printf("# median ns per unit of work, all threads together ([shared]: a unit the "
		       "team does once; [thread 0]: its units only), and million units/s\n");
		c->legend = true;
	}
	printf("%-*s %-*s thr=%-3u ", c->wname ? c->wname : 14, e->name,
	       c->wparams ? c->wparams : 40, pt->params_text, pt->nthreads);
	/* a point of several runs prints a line a run: which one (a precision point's total is
	 * its cap, no plan) */
	if (rec->runs_planned >= 2 && !rec->prec.on)
		printf("run %u/%u ", rec->run + 1, rec->runs_planned);
	else if (rec->runs_planned >= 2)
		printf("run %u ", rec->run + 1);
	if (rec->status != LAB_STATUS_OK) {
		printf("%s: %s\n", rec->status == LAB_STATUS_SKIPPED ? "SKIPPED" : "FAILED",
		       rec->reason);
		fflush(stdout);
		run_stdout_check(c);
		return;
	}
	cost = calloc(rec->nreps ? rec->nreps : 1, sizeof(*cost));
	if (!cost)
		return;
	for (unsigned r = 0; r < rec->nreps; r++)
		cost[r] = rec->samples[r].work
		              ? (double)rec->samples[r].elapsed_ns / (double)rec->samples[r].work
		              : NAN;
	qsort(cost, rec->nreps, sizeof(cost[0]), run_cmp_double);
	/* the mean of the two middle ones for an even count, as lab analyze (ch28 runs reps = 2) */
	double med = !rec->nreps      ? NAN
	             : rec->nreps % 2 ? cost[rec->nreps / 2]
	                              : (cost[rec->nreps / 2 - 1] + cost[rec->nreps / 2]) / 2;
	free(cost);
	printf("%10.3f ns/%s%s  %9.2f M/s  verify %s", med, e->kernel->work_unit,
	       e->kernel->work_scope == LAB_WORK_SHARED ? " [shared]"
	       : e->kernel->work_scope == LAB_WORK_ONE  ? " [thread 0]"
	                                                : "",
	       1e3 / med, rec->verify == LAB_VERIFY_PASS ? "ok" : "-");
	/* The cause and count here; the run's totals once at the end (run_report_load). */
	if (rec->nflagged)
		printf("  (flagged: %u of %u samples, %s)", rec->nflagged, rec->nreps,
		       rec->nflagged_runq == rec->nflagged ? "run-queue wait"
		       : rec->nflagged_runq                ? "foreign load, run-queue wait"
		                                           : "foreign load");
	putchar('\n');
	fflush(stdout);
	run_stdout_check(c);
	/* Per-point causes are counted and said once at the end (run_report). */
	lab_run_warn_add(&c->warn, rec);
}

int lab_run_console_point(void *ctx, const struct lab_point_rec *rec, struct lab_err *err)
{
	struct lab_run_console *c = ctx;

	if (c->start_rc) {
		*err = c->start_err;
		return c->start_rc;
	}
	run_print_point(c, rec);
	c->failed += rec->status == LAB_STATUS_FAILED;
	c->skipped += rec->status == LAB_STATUS_SKIPPED;
	c->flagged_points += rec->nflagged > 0;
	c->samples += rec->nreps;
	c->flagged += rec->nflagged;
	c->flagged_runq += rec->nflagged_runq;
	c->total_spent += rec->last_run && rec->prec.total_exhausted;
	for (unsigned i = 0; rec->samples && i < rec->nreps; i++)
		c->retried += rec->samples[i].attempts > 1;
	int rc = lab_results_point(c->res, rec, err);
	c->begun += rc == 0 && rec->run == 0;
	c->done += rc == 0 && rec->last_run;
	return rc;
}
/* How the load guard went: samples retried, and what to do about those that stayed flagged. */
static void run_report_load(const struct lab_run_console *con)
{
	if (con->retried)
		printf("load: %u of %u samples ran under foreign load and were taken again "
		       "(retry_flagged, quiet_wait)\n",
		       con->retried, con->samples);
	if (!con->flagged)
		return;
	/* retry_flagged = 0 takes none again: "their retries ran out" was no reason there */
	printf("load: %u of %u samples (%.0f %%) were kept flagged (taken again as often as "
	       "retry_flagged allows, or their point's load had outlasted every retry once)",
	       con->flagged, con->samples, 100.0 * con->flagged / con->samples);
	if (con->flagged_runq)
		printf(", %u of them because a worker waited for its CPU (runq_wait above "
		       "max_runq_wait: another task ran on it)",
		       con->flagged_runq);
	printf(
	    "; the analyzer leaves them out. Rerun when the machine is quiet (see `uptime`, "
	    "`top`), raise retry_flagged or quiet_wait, or analyze with --include-flagged to use "
	    "them anyway\n");
}

/* Prints how the run ended, once, and tells the truth about what was kept. */
/* s as one word a shell reads back (the "next:" line is pasted): as it is when every byte is
 * plain, else in single quotes ('my dir': 'o;touch X' ran touch), or as $'...' where it holds
 * control bytes ('a\nb' in quotes is another directory's name); ./ before a leading '-' (an
 * option when pasted). */
static void run_put_word(const char *s)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                            "0123456789_./:@%+=,-";
	const char *dot = *s == '-' ? "./" : "";
	bool ctl = false;

	for (const char *q = s; *q; q++)
		ctl |= (unsigned char)*q < 0x20 || *q == 0x7f;
	if (*s && !s[strspn(s, plain)]) {
		fputs(dot, stdout);
		lab_opts_puts_escaped(stdout, s);
		return;
	}
	if (ctl) { /* bash's ANSI-C quoting: every byte said */
		printf("$'%s", dot);
		for (const unsigned char *q = (const unsigned char *)s; *q; q++)
			if (*q < 0x20 || *q >= 0x7f || *q == '\'' || *q == '\\')
				printf("\\x%02x", *q);
			else
				putchar(*q);
		putchar('\'');
		return;
	}
	printf("'%s", dot);
	for (const char *q = s; *q;) { /* runs between quotes whole: UTF-8 stays UTF-8 */
		size_t n = strcspn(q, "'");
		char *run = strndup(q, n);

		if (run)
			lab_opts_puts_escaped(stdout, run);
		free(run);
		q += n;
		if (*q == '\'') {
			fputs("'\\''", stdout);
			q++;
		}
	}
	putchar('\'');
}

/* The run's wall time so far, "48 s" or "9 min 28 s" (run.json's points say theirs, wall_s). */
static const char *run_took(const struct lab_run_console *con, char *buf, size_t len)
{
	long s = lround((double)(lab_clock_ns() - con->t0_ns) / 1e9);

	if (s < 90)
		snprintf(buf, len, "%ld s", s);
	else
		snprintf(buf, len, "%ld min %ld s", s / 60, s % 60);
	return buf;
}

void lab_run_console_report(const struct lab_run_console *con, const char *self, const char *dir,
                            int rc, const struct lab_err *err, int crc, const struct lab_err *cerr)
{
	unsigned npts = con->s->plan->npts;
	char took[64];

	if (rc && rc != -LAB_EINTR)
		lab_opts_error("lab: %s", err->msg);
	if (crc && (!rc || strcmp(cerr->msg, err->msg) != 0))
		lab_opts_error("lab: %s (run.json may still say \"running\")", cerr->msg);
	if (rc == -LAB_EINTR && (con->done || con->begun))
		lab_opts_error("lab: interrupted; what finished is in %s", dir);
	else if (rc == -LAB_EINTR)
		lab_opts_error("lab: interrupted before a point finished; the plan is in %s", dir);
	/* the directory as -o named it: escaped, as in every message */
	fputs("\nresults: ", stdout);
	lab_opts_puts_escaped(stdout, dir);
	if (rc == 0 && crc == 0)
		printf(" (%u points, %u skipped, %u failed verification or setup) in %s\n", npts,
		       con->skipped, con->failed, run_took(con, took, sizeof(took)));
	else {
		printf(" is incomplete: %u of %u points finished", con->done, npts);
		/* their finished runs are kept; run.json says runs < runs_planned */
		if (con->begun > con->done)
			printf(", %u more with fewer runs than planned", con->begun - con->done);
		printf(" (%s)\n", rc == -LAB_EINTR ? "interrupted" : "the run failed");
	}
	run_report_load(con);
	fflush(stdout);
	lab_run_warn_print(stderr, &con->warn);
	/* The binary as the user called it (build/lab/lab from the source tree), so the line
	 * works from where they are; plain `lab` when it came from the PATH. */
	printf("next: ");
	run_put_word(self && strchr(self, '/') ? self : "lab");
	fputs(" analyze ", stdout);
	run_put_word(dir);
	putchar('\n');
}
