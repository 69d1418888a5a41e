/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab analyze, lab report, lab compare: argument parsing, printing and exit codes around the
 * analyzer library (analyze/). Bad input data (a malformed CSV value, a broken run.json) is
 * exit 2 with FILE:LINE; a file that cannot be written is exit 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze/analysis.h"
#include "analyze/compare.h"
#include "analyze/output.h"
#include "analyze/plots.h"
#include "analyze/report.h"
#include "harness/record_schema.h"
#include "lab/analyze_print.h"
#include "lab/cli.h"

struct lab_analyze_opts {
	const char *dir, *csv;
	int json, no_plots, include_flagged, report_only;
	enum lab_an_objective objective;
};

static const char lab_analyze_help[] =
    "usage: lab analyze DIR [--json] [--no-plots] [--include-flagged] [--objective O]\n"
    "       lab analyze --csv FILE [--json] [--objective O]\n\n"
    "Statistics per point (mean, sd, 95/99 % t-intervals, median, MAD, p95, CV, Tukey\n"
    "outliers), speedup with Fieller intervals, efficiency, Karp-Flatt, Amdahl and USL fits\n"
    "with 95 % intervals and the model choice, for every series (points that differ only in\n"
    "threads). Writes summary.csv, analysis.json, plots/ and report.html into DIR.\n\n"
    "  --json             print the analysis as one JSON document on stdout\n"
    "  --no-plots         write no plots (and no images in the report)\n"
    "  --include-flagged  keep samples flagged for foreign CPU load in stats and fits\n"
    "  --objective O      relative (default): least squares on relative error of the cost\n"
    "                     (constant-CV noise); absolute: unweighted least squares in the\n"
    "                     domain of the data (throughput for threads,throughput input), the\n"
    "                     fit of R's usl package and codahale/usl\n"
    "  --csv FILE         external data: header with threads and seconds or throughput\n"
    "                     (optional series,rep); a throughput X(N) is read as the cost\n"
    "                     1/X(N); prints the analysis, writes no files\n";

static const char lab_report_help[] =
    "usage: lab report DIR\n\n"
    "Analyzes DIR and writes DIR/report.html: one self-contained page (no network, no\n"
    "JavaScript) with provenance, tables, fits and the plots inline as SVG.\n";

static const char lab_compare_help[] =
    "usage: lab compare DIR_A DIR_B [--noise 0.01] [--json]\n\n"
    "Per point (same experiment, params and threads), the relative change of the mean cost\n"
    "from DIR_A (old) to DIR_B (new) with its 95 % interval and a Welch t-test. Verdict:\n"
    "'no change' unless p < 0.05; then 'improved' or 'regressed' only if the whole interval\n"
    "lies beyond +-noise, else 'within noise'.\n";

static int lab_an_exit(const struct lab_an_err *err, const char *cmd)
{
	fprintf(stderr, "lab %s: %s\n", cmd, err->msg);
	return err->code == LAB_AN_EDATA ? LAB_EXIT_USAGE : LAB_EXIT_FAILURE;
}

static int lab_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int lab_analyze_parse(int argc, char **argv, struct lab_analyze_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(o->report_only ? lab_report_help : lab_analyze_help, stdout);
			return 1;
		} else if (!strcmp(a, "--json") && !o->report_only) {
			o->json = 1;
		} else if (!strcmp(a, "--no-plots") && !o->report_only) {
			o->no_plots = 1;
		} else if (!strcmp(a, "--include-flagged")) {
			o->include_flagged = 1;
		} else if (!strcmp(a, "--objective") && i + 1 < argc) {
			const char *v = argv[++i];

			if (strcmp(v, "relative") && strcmp(v, "absolute")) {
				fprintf(stderr,
				        "lab %s: --objective '%s': allowed relative, absolute\n",
				        argv[0], v);
				return -1;
			}
			o->objective =
			    strcmp(v, "absolute") ? LAB_AN_OBJ_RELATIVE : LAB_AN_OBJ_ABSOLUTE;
		} else if (!strcmp(a, "--csv") && !o->report_only && i + 1 < argc) {
			o->csv = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "lab %s: unknown option '%s' (see --help)\n", argv[0], a);
			return -1;
		} else if (!o->dir) {
			o->dir = a;
		} else {
			fprintf(stderr, "lab %s: one directory only ('%s')\n", argv[0], a);
			return -1;
		}
	}
	if (!o->dir == !o->csv) {
		fprintf(stderr, "lab %s: give %s (see --help)\n", argv[0],
		        o->report_only ? "DIR" : "DIR or --csv FILE");
		return -1;
	}
	if (o->dir && !lab_is_dir(o->dir)) {
		fprintf(stderr, "lab %s: %s: not a results directory\n", argv[0], o->dir);
		return -1;
	}
	return 0;
}

static void lab_print_warnings(const struct lab_an_warnings *w, const char *cmd)
{
	for (size_t i = 0; i < w->n; i++)
		fprintf(stderr, "lab %s: warning: %s\n", cmd, w->msg[i]);
}

/* Writes summary.csv, analysis.json, plots and report.html into the results directory. */
static int lab_analyze_write(const struct lab_an_analysis *a, const struct lab_analyze_opts *o,
                             struct lab_an_warnings *warn, struct lab_an_err *err)
{
	struct lab_an_plots plots = {0};
	char path[4096];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", o->dir, LAB_FILE_SUMMARY);
	if ((rc = lab_an_summary_write(a, path, err)))
		return rc;
	snprintf(path, sizeof(path), "%s/%s", o->dir, LAB_FILE_ANALYSIS);
	if ((rc = lab_an_analysis_json_write(a, path, err)))
		return rc;
	snprintf(path, sizeof(path), "%s/%s", o->dir, LAB_AN_FILE_C2C);
	if (a->c2c.nm && (rc = lab_an_c2c_csv_write(&a->c2c, path, err)))
		return rc;
	if (!o->no_plots && (rc = lab_an_plots_write(a, o->dir, 1, &plots, warn, err)))
		return rc;
	rc = lab_an_report_write(a, &plots, o->dir, err);
	if (!rc && o->report_only)
		printf("wrote %s/%s\n", o->dir, LAB_FILE_REPORT);
	else if (!rc && o->no_plots)
		fprintf(stderr, "lab analyze: wrote %s/{%s,%s,%s}\n", o->dir, LAB_FILE_SUMMARY,
		        LAB_FILE_ANALYSIS, LAB_FILE_REPORT);
	else if (!rc)
		fprintf(stderr, "lab analyze: wrote %s/{%s,%s,%s} and %zu plots in %s/%s (%s)\n",
		        o->dir, LAB_FILE_SUMMARY, LAB_FILE_ANALYSIS, LAB_FILE_REPORT, plots.n,
		        o->dir, LAB_DIR_PLOTS,
		        plots.rendered ? ".svg, .png, .dat, .gp" : ".dat and .gp only");
	lab_an_plots_free(&plots);
	return rc;
}

static int lab_analyze_main(int argc, char **argv, int report_only)
{
	struct lab_analyze_opts o = {.report_only = report_only};
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	struct lab_an_warnings warn = {0};
	struct lab_an_err err = {0};
	int rc = lab_analyze_parse(argc, argv, &o), code = LAB_EXIT_OK;

	if (rc)
		return rc > 0 ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	rc = o.csv ? lab_an_data_load_csv(&d, o.csv, &err) : lab_an_data_load_dir(&d, o.dir, &err);
	if (rc && o.csv && err.code == LAB_AN_EIO)
		err.code = LAB_AN_EDATA; /* a --csv FILE that cannot be opened is bad usage */
	if (!rc)
		rc = lab_an_data_summarize(&d, o.include_flagged, &err);
	if (!rc)
		rc = lab_an_analysis_run_obj(&d, o.include_flagged, o.objective, &a, &err);
	if (rc) {
		code = lab_an_exit(&err, argv[0]);
		goto out;
	}
	lab_print_warnings(&d.warn, argv[0]);
	if (o.dir && (rc = lab_analyze_write(&a, &o, &warn, &err)))
		code = lab_an_exit(&err, argv[0]);
	lab_print_warnings(&warn, argv[0]);
	if (o.json)
		lab_an_analysis_json(&a, stdout);
	else if (!report_only)
		lab_analyze_print(stdout, &a);
out:
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
	lab_an_warnings_free(&warn);
	return code;
}

int lab_cmd_analyze(int argc, char **argv)
{
	return lab_analyze_main(argc, argv, 0);
}

int lab_cmd_report(int argc, char **argv)
{
	return lab_analyze_main(argc, argv, 1);
}

static int lab_compare_load(const char *dir, struct lab_an_data *d, struct lab_an_err *err)
{
	int rc;

	if (!lab_is_dir(dir))
		return lab_an_err_set(err, LAB_AN_EDATA, "%s: not a results directory", dir);
	rc = lab_an_data_load_dir(d, dir, err);
	if (!rc)
		rc = lab_an_data_summarize(d, 0, err);
	lab_print_warnings(&d->warn, "compare");
	return rc;
}

int lab_cmd_compare(int argc, char **argv)
{
	const char *dir[2] = {NULL, NULL};
	double noise = 0.01;
	int json = 0, nd = 0, code = LAB_EXIT_OK;
	struct lab_an_data d[2] = {{0}, {0}};
	struct lab_an_compare c = {0};
	struct lab_an_err err = {0};

	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(lab_compare_help, stdout);
			return LAB_EXIT_OK;
		} else if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (!strcmp(argv[i], "--noise") && i + 1 < argc) {
			noise = strtod(argv[++i], &end);
			if (*end || !(noise >= 0) || noise >= 1) {
				fprintf(stderr,
				        "lab compare: --noise '%s': a fraction in [0, 1), "
				        "e.g. 0.01\n",
				        argv[i]);
				return LAB_EXIT_USAGE;
			}
		} else if (argv[i][0] == '-' || nd == 2) {
			fprintf(stderr, "lab compare: unexpected argument '%s' (see --help)\n",
			        argv[i]);
			return LAB_EXIT_USAGE;
		} else {
			dir[nd++] = argv[i];
		}
	}
	if (nd != 2) {
		fprintf(stderr, "lab compare: give DIR_A DIR_B (see --help)\n");
		return LAB_EXIT_USAGE;
	}
	if (lab_compare_load(dir[0], &d[0], &err) || lab_compare_load(dir[1], &d[1], &err) ||
	    lab_an_compare_run(&d[0], &d[1], noise, &c, &err)) {
		code = lab_an_exit(&err, "compare");
		goto out;
	}
	if (json)
		lab_an_compare_json(&c, dir[0], dir[1], stdout);
	else
		lab_compare_print(stdout, &c);
out:
	lab_an_compare_free(&c);
	lab_an_data_free(&d[0]);
	lab_an_data_free(&d[1]);
	return code;
}
