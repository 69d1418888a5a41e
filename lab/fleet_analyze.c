/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab analyze on a fleet directory: each node's results analyzed as `lab analyze DIR/<node>`
 * does (by the function lab analyze hands in: this file names no command), then the cross-host
 * view (analyze/fleet_view.h) written and printed. A failed or missing host is reported; the
 * others are still analyzed (exit 1 when any host is missing or failed: a failed host's finished
 * points are shown, marked). Text read from the hosts' files
 * is printed escaped (lab_fleet_put).
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analyze/compare.h"
#include "analyze/fleet_builds.h"
#include "analyze/fleet_view.h"
#include "analyze/levels.h"
#include "lab/cli.h"
#include "lab/fleet_int.h"

/* Runs `lab analyze DIR/node OPTS` through analyze; with json its printing is dropped. */
static int fleet_analyze_host(const char *dir, const char *node, char **opts, int nopts, int json,
                              lab_fleet_host_fn analyze)
{
	char path[4200], name[] = "analyze";
	char *argv[16] = {name, path};
	int argc = 2, saved = -1, rc;

	snprintf(path, sizeof(path), "%s/%s", dir, node);
	for (int i = 0; i < nopts && argc < 15; i++)
		argv[argc++] = opts[i];
	argv[argc] = NULL;
	fflush(stdout);
	if (json) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		saved = dup(1);
		if (null >= 0) {
			dup2(null, 1);
			close(null);
		}
	} else {
		printf("== %s ==\n", node);
	}
	rc = analyze(argc, argv);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, 1);
		close(saved);
	}
	return rc;
}

/* "lab analyze: WHATMSG" on stderr, msg escaped (it may quote the hosts' files). */
static void fleet_an_say(const char *what, const char *msg)
{
	fprintf(stderr, "lab analyze: %s", what);
	lab_fleet_put(stderr, msg);
	fputc('\n', stderr);
}

static void fleet_print_num(double v, int width)
{
	if (isfinite(v))
		printf(" %*.0f", width, v);
	else
		printf(" %*s", width, "-");
}

static void fleet_print_hosts(const struct lab_an_fleet_view *v)
{
	printf("\nhosts\n  %-16s %-10s %-36s %4s %4s %5s %5s %8s\n", "node", "status", "cpu model",
	       "sock", "numa", "cores", "pus", "slurmcpu");
	for (size_t i = 0; i < v->n; i++) {
		const struct lab_an_fleet_host *h = &v->h[i];
		printf("  %-16s %-10s ", h->node, h->failed ? "FAILED" : h->ok ? "ok" : "missing");
		/* cut at a character, never inside an escape or a UTF-8 sequence */
		lab_fleet_put_cut(stdout, h->ok ? h->prov.cpu_model : h->why, 36);
		fleet_print_num(h->prov.packages, 4);
		fleet_print_num(h->prov.numa_nodes, 4);
		fleet_print_num(h->prov.cores, 5);
		fleet_print_num(h->prov.pus, 5);
		fleet_print_num(h->prov.slurm_cpus, 8);
		putchar('\n');
	}
}

/* A note when the hosts ran different builds of the lab, naming every part that differs and
 * each build with its hosts: a difference between two hosts may then be the build's (another
 * compiler, another -march for the auto kernels), not the machine's. */
static void fleet_print_builds(const struct lab_an_fleet_view *v)
{
	char text[LAB_AN_BUILD_TEXT_MAX], what[600];
	size_t first[LAB_AN_FLEET_BUILDS_MAX], nb;
	unsigned diff;

	nb = lab_an_fleet_builds(v, first, LAB_AN_FLEET_BUILDS_MAX, &diff);
	if (!diff)
		return;
	lab_an_build_diff_text(diff, what, sizeof(what));
	printf("note: the hosts ran different builds of the lab, in %s (", what);
	for (size_t b = 0; b < nb; b++) {
		const char *sep = "";

		fputs(b ? "; " : "", stdout);
		for (size_t i = 0; i < v->n; i++)
			if (lab_an_fleet_build_of(v, first, nb, i) == b) {
				fputs(sep, stdout);
				lab_fleet_put(stdout, v->h[i].node);
				sep = ", ";
			}
		lab_an_fleet_build_text(v, first, nb, b, text, sizeof(text));
		fputs(": ", stdout);
		lab_fleet_put(stdout, text);
	}
	size_t more = lab_an_fleet_builds_unlisted(v, first, nb);
	if (more)
		printf("; and %zu host%s of further builds: at most %d builds are listed", more,
		       more == 1 ? "" : "s", LAB_AN_FLEET_BUILDS_MAX);
	const char *whose, *clause = lab_an_build_scope_clause(diff, &whose);
	if (clause)
		printf("): %s: a difference between hosts there may be the %s, not the machine's\n",
		       clause, whose);
	else
		fputs("): a difference between hosts may be the build's, not the machine's\n",
		      stdout);
}

/* Every point once, each host's mean [95 % interval] beside the others. */
/* Host h's line of point q (measured): its mean and interval, of its run means with runs >= 2
 * (as lab analyze DIR/<node> shows it), and the flag of a point that kept one setup of its
 * runs. */
static void fleet_print_host(const struct lab_an_fleet_host *h, const struct lab_an_point *q)
{
	char flag[96];
	const char *one = lab_an_one_setup_flag(q, flag, sizeof(flag));

	if (q->st.n == 1)
		printf("    %-16s %.4g, no interval  n=1", h->node, q->st.mean);
	else if (q->levels.runs >= 2)
		printf("    %-16s %.4g [%.4g, %.4g]  %zu runs (n=%zu)", h->node, q->st.mean,
		       q->st.ci95_lo, q->st.ci95_hi, q->levels.runs, q->st.n);
	else
		printf("    %-16s %.4g [%.4g, %.4g]  n=%zu", h->node, q->st.mean, q->st.ci95_lo,
		       q->st.ci95_hi, q->st.n);
	printf("%s%s%s\n", one ? "  " : "", one ? one : "", h->failed ? "  (host FAILED)" : "");
}

/* The hosts without row r's point, counted, the first few named (one line: listing every
 * absent host under every point grew with hosts x points). */
static void fleet_print_absent(const struct lab_an_fleet_view *v, const struct lab_an_fleet_row *r)
{
	size_t some[4], n = lab_an_fleet_absent(v, r, some, 4), none = v->n - r->n - r->others;

	/* hosts that measured another quantity have a row of their own: not "not measured" */
	if (r->others)
		printf("    measured as another quantity on %zu of %zu hosts (a row of its own)\n",
		       r->others, v->n);
	if (!none)
		return;
	printf("    not measured on %zu of %zu hosts", none, v->n);
	for (size_t k = 0; !r->others && k < n; k++) { /* names: those of another row aside */
		fputs(k ? ", " : ": ", stdout);
		lab_fleet_put(stdout, v->h[some[k]].node);
	}
	if (!r->others && none > n)
		printf(" and %zu more", none - n);
	putchar('\n');
}

static void fleet_print_points(const struct lab_an_fleet_view *v)
{
	char unit[160];

	printf("\nsame point on every host: mean [95%% interval]\n");
	for (size_t i = 0; i < v->nrow; i++) {
		const struct lab_an_fleet_row *r = &v->row[i];
		const struct lab_an_fleet_member *m0 = &v->mem[r->first];
		const struct lab_an_point *p = m0->p;

		fputs("  ", stdout);
		lab_fleet_put(stdout, p->experiment);
		putchar(' ');
		lab_fleet_put(stdout, p->params);
		printf(" thr=%d (", p->threads);
		lab_fleet_put(stdout, lab_an_cost_label(&v->h[m0->host].d, p, unit, sizeof(unit)));
		if (r->rows > 1 &&
		    p->kernel) { /* rows of one key: their kernels may differ alone */
			fputs(", kernel ", stdout);
			lab_fleet_put(stdout, p->kernel);
		}
		fputs(")\n", stdout);
		for (size_t k = 0; k < r->n; k++) {
			const struct lab_an_fleet_member *m = &v->mem[r->first + k];
			const struct lab_an_point *q = m->p;
			const char *node = v->h[m->host].node;

			if (!q->st.n && q->n_flagged)
				printf("    %-16s - (all %zu samples load-flagged)\n", node,
				       q->n_flagged);
			else if (!q->st.n) {
				printf("    %-16s - (", node);
				lab_fleet_put(stdout, q->status ? q->status : "no samples");
				fputs(")\n", stdout);
			} else
				fleet_print_host(&v->h[m->host], q);
		}
		fleet_print_absent(v, r);
	}
}

int lab_fleet_analyze(int argc, char **argv, lab_fleet_host_fn analyze)
{
	static struct lab_an_fleet f;
	struct lab_an_fleet_view v;
	struct lab_an_warnings warn = {0};
	struct lab_err err = {0};
	const char *dir = NULL;
	char *opts[8];
	int nopts = 0, json = 0, plots = 1, incl = 0, code = LAB_EXIT_OK;
	size_t nplots = 0, missing = 0, failed = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (argv[i][0] != '-')
			dir = argv[i];
		else if (nopts < 7) {
			plots &= strcmp(argv[i], "--no-plots") != 0;
			incl |= !strcmp(argv[i], "--include-flagged");
			opts[nopts++] = argv[i];
			if (!strcmp(argv[i], "--objective") && i + 1 < argc && nopts < 7)
				opts[nopts++] = argv[++i];
		}
	}
	if (lab_an_fleet_read(dir, &f, &err)) {
		fleet_an_say("", err.msg);
		return err.code == LAB_EDATA ? LAB_EXIT_USAGE : LAB_EXIT_FAILURE;
	}
	if (lab_an_fleet_view_load(dir, &f, incl, &v, &err)) {
		fleet_an_say("", err.msg);
		lab_an_fleet_view_free(&v);
		return err.code == LAB_EDATA ? LAB_EXIT_USAGE : LAB_EXIT_FAILURE;
	}
	for (size_t i = 0; i < v.n; i++) {
		if (!v.h[i].ok) {
			fprintf(stderr, "lab analyze: host %s: ", v.h[i].node);
			lab_fleet_put(stderr, v.h[i].why);
			fputc('\n', stderr);
			missing++;
			continue;
		}
		if (v.h[i].failed) {
			fprintf(stderr, "lab analyze: host %s: failed: ", v.h[i].node);
			lab_fleet_put(stderr, v.h[i].why);
			fputc('\n', stderr);
			failed++;
		}
		if (fleet_analyze_host(dir, v.h[i].node, opts, nopts, json, analyze) != 0)
			missing += !v.h[i].failed;
	}
	if (lab_an_fleet_view_write(dir, &v, plots, &nplots, &warn, &err)) {
		fleet_an_say("", err.msg);
		code = LAB_EXIT_FAILURE;
	}
	for (size_t i = 0; i < warn.n; i++)
		fleet_an_say("warning: ", warn.msg[i]);
	if (json) {
		lab_an_fleet_view_json(&v, stdout);
	} else {
		fputs("\n== fleet ", stdout);
		lab_fleet_put(stdout, dir);
		printf(": %zu hosts, %zu missing, %zu failed ==\n", v.n, missing, failed);
		fleet_print_hosts(&v);
		fleet_print_builds(&v);
		fleet_print_points(&v);
	}
	if (!code && plots)
		fprintf(
		    stderr,
		    "lab analyze: wrote %s/fleet-analysis.json and %zu fleet plots in %s/plots\n",
		    dir, nplots, dir);
	else if (!code)
		fprintf(stderr, "lab analyze: wrote %s/fleet-analysis.json\n", dir);
	if (!code && (missing || failed))
		code = LAB_EXIT_FAILURE;
	lab_an_warnings_free(&warn);
	lab_an_fleet_view_free(&v);
	return code;
}
