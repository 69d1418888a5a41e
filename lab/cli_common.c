/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What lab run and lab plan share: options, loading and validating configs, printing plans; and
 * the program's name (lab_self, which main sets). */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "build_info.h"
#include "harness/buffer.h"
#include "harness/cpufeat.h"
#include "harness/estimate.h"
#include "harness/json.h"
#include "harness/precision.h"
#include "harness/prov.h"
#include "kernels/registry.h"
#include "lab/cli.h"

const char *lab_self = "lab";

void lab_cli_stem(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n >= 4 && !strcmp(base + n - 4, ".ini")) /* before the cut: "....i" of a long name */
		n -= 4;
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), base);
	for (char *c = buf; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-",
		            *c))
			*c = '_';
	if (!*buf) /* a config named ".ini" made results/<stamp>- */
		snprintf(buf, len, "config");
}

/* A diagnostic's place: the order of its file among the messages' files, its line, and its
 * own order (a message without "FILE:LINE:" after every file's, in its order). */
struct cli_at {
	unsigned file, i;
	unsigned long line;
};

static int cli_cmp_at(const void *a, const void *b)
{
	const struct cli_at *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* d's messages by file, in the order of the command line's configs (then of first appearance),
 * and line (validation found them step by step: lines 2, 8, 10, 9, 7 read out of order,
 * newcomer44); left as they are when out of memory. */
static void cli_diag_sort(struct lab_diag *d, const struct lab_cli_args *a)
{
	struct cli_at *at = malloc((d->n + 1) * sizeof(*at));
	char **msg = malloc((d->n + 1) * sizeof(*msg));
	unsigned nfile = a->nconfigs;

	for (unsigned i = 0; at && msg && i < d->n; i++) {
		const char *m = d->msg[i], *c = strchr(m, ':');
		char *end = NULL;
		unsigned long line = 0;

		/* the first ":DIGITS: " (a path may hold a ':' of its own, review44, and a ":12:",
		 * hostile45) */
		for (; c; c = strchr(c + 1, ':'))
			if (isdigit((unsigned char)c[1]) &&
			    (line = strtoul(c + 1, &end, 10), *end == ':' && end[1] == ' '))
				break;

		at[i] = (struct cli_at){UINT_MAX, i, 0};
		if (!c || c == m || !end || end == c + 1 || *end != ':' || !strncmp(m, "--", 2))
			continue;
		at[i].line = line;
		at[i].file = nfile++;
		for (unsigned k = 0; k < a->nconfigs; k++) /* a config named on the command line */
			if (strlen(a->configs[k]) == (size_t)(c - m) &&
			    !strncmp(a->configs[k], m, (size_t)(c - m))) {
				at[i].file = k;
				nfile--;
				break;
			}
		for (unsigned j = 0; at[i].file >= a->nconfigs && j < i; j++) /* a short scan */
			if (at[j].file != UINT_MAX && !strncmp(d->msg[j], m, (size_t)(c - m) + 1)) {
				at[i].file = at[j].file;
				nfile--;
				break;
			}
	}
	if (at && msg) {
		qsort(at, d->n, sizeof(*at), cli_cmp_at);
		for (unsigned i = 0; i < d->n; i++)
			msg[i] = d->msg[at[i].i];
		memcpy(d->msg, msg, d->n * sizeof(*msg));
	}
	free(at);
	free(msg);
}

static int cli_report_diag(struct lab_diag *d, const struct lab_cli_args *a)
{
	unsigned n = lab_diag_count(d);
	const char *where = a->nconfigs ? a->configs[0] : "the built-in quick config";

	cli_diag_sort(d, a);
	/* A message quotes the config and --set text: escaped, each stays one line. */
	for (unsigned i = 0; i < d->n; i++)
		lab_opts_error("%s", d->msg[i]);
	if (d->dropped)
		fprintf(stderr, "... and %u more error%s\n", d->dropped,
		        d->dropped == 1 ? "" : "s");
	/* One error is its own line (FILE:LINE, what is allowed); several get a count, and where
	 * they are: the command line's (--set, --topology, --only) are not the file's. */
	unsigned cmdline = 0;
	for (unsigned i = 0; i < d->n; i++)
		cmdline += !strncmp(d->msg[i], "--", 2);
	const char *and = cmdline == d->n ? "" : cmdline ? " and on the command line" : "";
	if (n > 1 && cmdline == d->n && !d->dropped)
		lab_opts_error("lab: %u errors on the command line; nothing was run", n);
	else if (n > 1 && a->nconfigs > 1)
		lab_opts_error("lab: %u errors in the %u configs%s; nothing was run", n,
		               a->nconfigs, and);
	else if (n > 1)
		lab_opts_error("lab: %u errors in %s%s; nothing was run", n, where, and);
	lab_diag_free(d);
	return LAB_EXIT_USAGE;
}

/*
 * Loads the configs in order; a file that cannot be read is one error among the others, so
 * every file is still checked. Returns 0, or a negative code when out of memory.
 */
/* The first config argument before i that names the same file as configs[i] (one path, or
 * one file under two names), or i. */
static unsigned cli_same_file(const struct lab_cli_args *a, unsigned i)
{
	struct stat si, sj;
	int ok = stat(a->configs[i], &si) == 0;

	for (unsigned j = 0; j < i; j++)
		if (!strcmp(a->configs[j], a->configs[i]) ||
		    (ok && stat(a->configs[j], &sj) == 0 && si.st_dev == sj.st_dev &&
		     si.st_ino == sj.st_ino))
			return j;
	return i;
}

static int cli_load(const struct lab_cli_args *a, struct lab_cli_setup *s, struct lab_diag *d,
                    unsigned *unread, struct lab_err *err)
{
	int rc = 0;

	*unread = 0;
	if (a->nconfigs == 0) {
		snprintf(s->stem, sizeof(s->stem), "quick");
		return lab_cfg_load_text(&s->cfg, "quick.ini (built in)", lab_quick_ini,
		                         lab_quick_ini_len, d, err);
	}
	lab_cli_stem(a->configs[0], s->stem, sizeof(s->stem));
	for (unsigned i = 0; i < a->nconfigs && rc != -LAB_ENOMEM; i++) {
		unsigned j = cli_same_file(a, i);
		if (j < i) { /* its sections and [global] would clash with themselves */
			lab_diag_add(d,
			             "%s: the same config as argument %u, %s (allowed: each config "
			             "once)",
			             a->configs[i], j + 1, a->configs[j]);
			continue;
		}
		rc = lab_cfg_load_file(&s->cfg, a->configs[i], d, err);
		if (rc == -LAB_EIO) {
			lab_diag_add(d, "%s", err->msg);
			++*unread;
		}
	}
	return rc == -LAB_ENOMEM ? rc : 0;
}

extern const char *const lab_build_isa[];

int lab_cli_mask_check(const struct lab_env *env)
{
	unsigned need = 0, hidden;
	char names[256];

	for (size_t i = 0; lab_build_isa[i]; i++)
		need |= lab_cpu_bit(lab_build_isa[i]); /* the names a mask knows */
	if (!(hidden = need & env->cpu_features_masked))
		return 0;
	lab_cpu_format(hidden, names, sizeof(names));
	/* sse2 is x86-64's own: no build goes below it */
	lab_opts_error("lab: %s hides %s, which this build's own code may use anywhere (C flags "
	               "'%s'): a CPU without it could not start this lab (allowed: hide what the "
	               "build does not need%s)",
	               LAB_CPU_MASK_ENV, names, LAB_C_FLAGS,
	               hidden & LAB_CPU_SSE2 ? "; every x86-64 CPU has sse2"
	                                     : ", or build for a baseline, e.g. "
	                                       "CFLAGS=-march=x86-64");
	return LAB_EXIT_USAGE;
}

int lab_cli_prepare(const struct lab_cli_args *a, struct lab_cli_setup *s)
{
	struct lab_diag d = {0};
	struct lab_err err = {0};
	unsigned unread;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	/* A bad topology, unreadable files and syntax errors are all reported in one pass. */
	if (lab_topo_open(&s->topo, a->topology, &err))
		lab_diag_add(&d, "%s%s", a->topology ? "--topology " : "", err.msg);
	if (cli_load(a, s, &d, &unread, &err)) {
		lab_opts_error("lab: %s", err.msg);
		lab_diag_free(&d);
		return LAB_EXIT_FAILURE;
	}
	for (unsigned i = 0; i < a->nsets; i++)
		lab_cfg_add_set(&s->cfg, a->sets[i], &d);
	unsigned syntax = lab_diag_count(&d);
	/* A config that could not be read leaves its sections out: --only naming none of them
	 * would only follow from that (the other files are still checked, without --only). */
	bool only = a->nonly && !unread;
	/* With a bad --topology the config is still checked, on a stand-in, for the errors
	 * which do not depend on the machine. */
	if (!s->topo && lab_topo_open_standin(&s->topo, &err)) {
		lab_opts_error("lab: %s", err.msg);
		lab_diag_free(&d);
		return LAB_EXIT_FAILURE;
	}
	if (lab_cli_caches(a, s) != LAB_EXIT_OK) {
		lab_diag_free(&d);
		return LAB_EXIT_USAGE;
	}
	rc = lab_plan_build(&s->plan, &s->cfg, lab_kernels, s->topo, only ? a->only : NULL,
	                    only ? a->nonly : 0, &d, &err);
	if (rc == 0 && syntax) {
		lab_plan_free(s->plan);
		s->plan = NULL;
		rc = -LAB_ECONFIG;
	}
	if (rc == -LAB_ECONFIG)
		return cli_report_diag(&d, a);
	if (rc) {
		lab_opts_error("lab: %s", err.msg);
		lab_diag_free(&d);
		return LAB_EXIT_FAILURE;
	}
	return lab_cli_mask_check(&s->plan->env);
}

void lab_cli_release(struct lab_cli_setup *s)
{
	lab_plan_free(s->plan);
	lab_topo_close(s->topo);
	lab_cfg_free(&s->cfg);
	memset(s, 0, sizeof(*s));
}

/* A point of the plan; a planned one with its estimate, its runs together (run.json's wall_s
 * says what they took), without what a precision target may add. */
static void cli_plan_json_point(struct lab_json *j, const struct lab_plan *plan,
                                const struct lab_point *pt)
{
	lab_json_obj_open(j, NULL);
	lab_plan_point_json(j, pt);
	lab_json_str(j, "status", pt->state == LAB_POINT_SKIPPED ? "skipped" : "planned");
	if (pt->state == LAB_POINT_SKIPPED)
		lab_json_str(j, "reason", pt->reason);
	else
		lab_json_num(j, "estimate_s",
		             lab_cli_run_estimate_ns(plan, pt) * (pt->h.runs ? pt->h.runs : 1) /
		                 1e9);
	lab_json_obj_close(j);
}

static void cli_plan_json(const struct lab_cli_setup *s)
{
	struct lab_json j;

	lab_json_begin(&j, stdout);
	lab_json_obj_open(&j, NULL);
	lab_json_str(&j, "topology", lab_topo_summary(s->topo));
	lab_json_bool(&j, "thissystem", lab_topo_is_thissystem(s->topo));
	lab_json_uint(&j, "cpus_allowed", s->plan->env.ncpus);
	lab_prov_write_caches(&j, s->topo); /* the sizes L1/2, L3*4 came from */
	lab_json_str(&j, "cache_note", s->cache_note[0] ? s->cache_note : NULL);
	lab_cli_llc_json(&j, &s->llc);
	lab_json_arr_open(&j, "experiments");
	for (unsigned e = 0; e < s->plan->nexp; e++) {
		const struct lab_experiment *x = &s->plan->exp[e];
		if (!x->npoints)
			continue;
		lab_json_obj_open(&j, NULL);
		lab_json_str(&j, "name", x->name);
		lab_json_str(&j, "kernel", x->kernel->name);
		lab_json_arr_open(&j, "points");
		for (unsigned i = 0; i < x->npoints; i++)
			cli_plan_json_point(&j, s->plan, &s->plan->pts[x->first_point + i]);
		lab_json_arr_close(&j);
		lab_json_obj_close(&j);
	}
	lab_json_arr_close(&j);
	lab_json_arr_open(&j, "lessons");
	for (unsigned i = 0; i < s->plan->nlessons; i++) {
		const struct lab_plan_lesson *l = &s->plan->lessons[i];
		lab_json_obj_open(&j, NULL);
		lab_json_str(&j, "name", l->name);
		lab_json_str(&j, "claim", l->claim);
		lab_json_str(&j, "expr", l->expr);
		lab_json_str(&j, "file", l->line ? l->file : "--set");
		lab_json_int(&j, "line", l->line);
		lab_json_str(&j, "unplanned", l->unplanned); /* null: this plan can judge it */
		lab_json_obj_close(&j);
	}
	lab_json_arr_close(&j);
	lab_json_obj_close(&j);
	lab_json_end(&j);
}

/* "0,16,1,17": thread i runs on the i-th CPU, so the order matters (no ranges). */
static void cli_cpus_in_order(char *buf, size_t len, const int *cpus, unsigned n)
{
	size_t used = 0;

	snprintf(buf, len, "%s", n ? "" : "-"); /* none: skipped before it had CPUs */
	for (unsigned i = 0; i < n && used + 16 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "", cpus[i]);
	if (used + 16 >= len)
		snprintf(buf + used, len - used, ",...");
}

/* What a first-touched byte costs here (ns), measured once: page faults cost ten times more
 * on some guests than on others (harness/buffer.h); 0 when it could not be measured. */
static double cli_touch_price(void)
{
	static double price = -1;

	if (price < 0)
		price = lab_buf_touch_ns_per_byte((size_t)4 << 20, 5);
	return price;
}

/* One run of pt as its kernel declares it (harness/estimate.h); *touch_ns: its first touches. */
static double cli_point_run_ns(const struct lab_plan *plan, const struct lab_point *pt,
                               double *touch_ns)
{
	struct lab_est_plan e;

	lab_est_plan_of(pt, plan->exp[pt->exp].kernel, 0, &e);
	if (e.k.touch_bytes > 0)
		e.touch_ns_per_byte = cli_touch_price();
	*touch_ns = lab_est_touch_ns(&e);
	return lab_est_run_ns(&e);
}

double lab_cli_run_estimate_ns(const struct lab_plan *plan, const struct lab_point *pt)
{
	double touch_ns;

	return pt->state == LAB_POINT_SKIPPED ? 0 : cli_point_run_ns(plan, pt, &touch_ns);
}

/*
 * Seconds the plan should take on a quiet machine: per point one run as the kernel declares it
 * (harness/estimate.h: setup, warm-up and calibration, reps samples), times runs; a point with a
 * precision target up to its budget, those extras within total_budget (harness/precision.h);
 * LAB_EST_SELFCHECK_NS for the self-check. Retries of flagged samples come on top. Returns the
 * most (precision targets spending their whole budget); *fixed: without what the precision
 * targets may add; *touch: seconds of first touches.
 */
static double cli_plan_seconds(const struct lab_plan *plan, double *fixed, double *touch)
{
	double ns = LAB_EST_SELFCHECK_NS, extra = 0;
	uint64_t total = 0;

	*touch = 0;
	for (unsigned i = 0; i < plan->npts; i++) {
		const struct lab_point *pt = &plan->pts[i];
		double prec = 0, touch_ns;
		if (pt->state == LAB_POINT_SKIPPED)
			continue;
		(void)lab_prec_parse(pt->h.precision, &prec, NULL);
		lab_prec_point_estimate(cli_point_run_ns(plan, pt, &touch_ns), pt->h.runs, prec > 0,
		                        pt->h.budget, &ns, &extra);
		*touch += touch_ns * (double)(pt->h.runs ? pt->h.runs : 1) / 1e9;
		if (pt->h.total_budget && (!total || pt->h.total_budget < total))
			total = pt->h.total_budget;
	}
	*fixed = ns / 1e9;
	return lab_prec_total_estimate(ns, extra, total) / 1e9;
}

/* "12 s", "5 min", "1.5 h" into buf. */
const char *lab_cli_duration(double s, char *buf, size_t len)
{
	if (s < 90)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 2 * 3600)
		snprintf(buf, len, "%.0f min", s / 60);
	else if (s < 3 * 86400)
		snprintf(buf, len, "%.1f h", s / 3600);
	else if (s < 365 * 86400)
		snprintf(buf, len, "%.0f days", s / 86400);
	else if (s < 1e6 * 365.25 * 86400)
		snprintf(buf, len, "%.0f years", s / (365.25 * 86400));
	else
		snprintf(buf, len, "%.2g years", s / (365.25 * 86400));
	return buf;
}

void lab_cli_estimate_text(const struct lab_plan *plan, char *buf, size_t len)
{
	double fixed, touch, most = cli_plan_seconds(plan, &fixed, &touch);
	char a[160], b[32];

	/* A precision target stops when it is met: its budget bounds the run, it is no forecast. */
	if (fixed < 0.5)
		snprintf(a, sizeof(a), "under 1 s");
	else
		snprintf(a, sizeof(a), "about %s", lab_cli_duration(fixed, b, sizeof(b)));
	/* Where fresh buffers take a good part of it, say so: it is the machine, not the lab. */
	if (fixed >= 0.5 && touch >= 0.25 * fixed && cli_touch_price() > 0)
		snprintf(a + strlen(a), sizeof(a) - strlen(a),
		         ", %s of it first touches of fresh buffers (%.1f us per 4 KiB page here)",
		         lab_cli_duration(touch, b, sizeof(b)), cli_touch_price() * 4096 / 1e3);
	if (most > fixed * 1.05)
		snprintf(buf, len, "%s, up to %s where precision targets use their budget%s", a,
		         lab_cli_duration(most, b, sizeof(b)),
		         fixed > 3 * 86400 ? " (narrow the sweep, or lower reps and min_time)"
		                           : "");
	else
		snprintf(buf, len, "%s%s", a,
		         fixed > 3 * 86400 ? " (narrow the sweep, or lower reps and min_time)"
		                           : "");
}

double lab_cli_estimate_seconds(const struct lab_plan *plan)
{
	double fixed, touch;

	cli_plan_seconds(plan, &fixed, &touch);
	return fixed;
}

static void cli_print_estimate(const struct lab_plan *plan)
{
	char est[320];

	lab_cli_estimate_text(plan, est, sizeof(est));
	printf("estimated run time: %s (warm-up, calibration and reps x min_time per point and "
	       "run; more on a busy machine, where flagged samples are retried)\n",
	       est);
}

bool lab_cli_cpus_restricted(const struct lab_topo *topo, char *buf, size_t len)
{
	unsigned npus = lab_topo_pus(topo, NULL, 0), n;
	int *allowed = malloc((npus ? npus : 1) * sizeof(int));
	char list[256];

	if (!allowed || !lab_topo_is_thissystem(topo) ||
	    (n = lab_topo_cpus_allowed(topo, allowed, npus)) >= npus) {
		free(allowed);
		return false;
	}
	lab_topo_cpulist_format(list, sizeof(list), allowed, n);
	snprintf(buf, len,
	         "cpus allowed: %s (%u of %u): this process may use only these (its affinity "
	         "mask: taskset, numactl, a job launcher), so every placement is planned on them",
	         list, n, npus);
	free(allowed);
	return true;
}

void lab_cli_print_plan(const struct lab_cli_setup *s, bool json)
{
	char cpus[512];

	if (json) {
		cli_plan_json(s);
		return;
	}
	printf("topology: %s%s\n", lab_topo_summary(s->topo),
	       lab_topo_is_thissystem(s->topo) ? "" : " (planning only: nothing is bound)");
	if (lab_cli_cpus_restricted(s->topo, cpus, sizeof(cpus)))
		printf("%s\n", cpus);
	if (s->cache_note[0])
		printf("caches: %s\n", s->cache_note);
	for (unsigned e = 0; e < s->plan->nexp; e++) {
		const struct lab_experiment *x = &s->plan->exp[e];
		if (!x->npoints)
			continue;
		printf("\n[%s] kernel = %s, %u point%s\n", x->name, x->kernel->name, x->npoints,
		       x->npoints == 1 ? "" : "s");
		for (unsigned i = 0; i < x->npoints; i++) {
			const struct lab_point *pt = &s->plan->pts[x->first_point + i];
			cli_cpus_in_order(cpus, sizeof(cpus), pt->cpus, pt->ncpus);
			printf("  %4u  threads=%-3u cpus=%-16s %s%s%s\n", pt->id, pt->nthreads,
			       cpus, pt->params_text,
			       pt->state == LAB_POINT_SKIPPED ? "  SKIPPED: " : "",
			       pt->state == LAB_POINT_SKIPPED ? pt->reason : "");
		}
	}
	if (s->plan->nlessons)
		printf("\n[lessons] %u claim%s, checked against this plan (the analyzer judges "
		       "them on the data)\n",
		       s->plan->nlessons, s->plan->nlessons == 1 ? "" : "s");
	for (unsigned i = 0; i < s->plan->nlessons; i++) {
		const struct lab_plan_lesson *l = &s->plan->lessons[i];
		printf("  %s = %s\n", l->name, l->expr);
		if (l->unplanned) /* a --set narrowed a sweep, or the machine skips the point */
			printf("        NOT RUN on this plan: %s (the analyzer will say so)\n",
			       l->unplanned);
	}
	printf("\n%u point%s planned\n", s->plan->npts, s->plan->npts == 1 ? "" : "s");
	cli_print_estimate(s->plan);
}
