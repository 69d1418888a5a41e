/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab analyze, lab report, lab compare: argument parsing, printing and exit codes around the
 * analyzer library (analyze/). Bad input data (a malformed CSV value, a broken run.json) is
 * exit 2 with FILE:LINE; a file that cannot be written is exit 1, and so is an output name in DIR
 * that is a symbolic link or not a regular file (analyze/wfile.h: refused, nothing written).
 * When nothing was written, the outputs an earlier analysis left in DIR are kept, and a line
 * says they are from an earlier analysis (they may not match the data now).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/analysis.h"
#include "analyze/compare.h"
#include "analyze/flagged.h"
#include "analyze/fleet.h"
#include "analyze/manifest.h"
#include "analyze/output.h"
#include "analyze/placement.h"
#include "analyze/plots.h"
#include "analyze/wfile.h"
#include "analyze/write_dir.h"
#include "harness/fileio.h"
#include "harness/record_schema.h"
#include "lab/an_heap.h"
#include "lab/analyze_print.h"
#include "lab/cli.h"
#include "lab/text_esc.h"

/* The options of analyze and report; one row in an_opts (and a field here) per option. */
struct lab_analyze_opts {
	const char *dirs[1];
	unsigned ndirs;
	const char *dir, *csv;
	bool json, no_plots, include_flagged;
	int report_only;
	const char *objective_arg;
	enum lab_an_objective objective;
};

#define AN_FLAG(name, field, help)                                                                 \
	{                                                                                          \
		name, NULL, LAB_OPT_FLAG, NULL, offsetof(struct lab_analyze_opts, field), 0, help  \
	}

static const struct lab_opt an_opts[] = {
    AN_FLAG("--json", json, "print the analysis as one JSON document on stdout"),
    AN_FLAG("--no-plots", no_plots, "write no plots (and no images in the report)"),
    AN_FLAG("--include-flagged", include_flagged,
            "keep samples flagged for load (foreign CPU time or run-queue\n"
            "wait) in stats and fits"),
    {"--objective", NULL, LAB_OPT_VALUE, "O", offsetof(struct lab_analyze_opts, objective_arg), 0,
     "relative (default): least squares on relative error of the cost\n"
     "(constant-CV noise); absolute: unweighted least squares in the\n"
     "domain of the data (throughput for threads,throughput input), the\n"
     "fit of R's usl package and codahale/usl"},
    {"--csv", NULL, LAB_OPT_VALUE, "FILE", offsetof(struct lab_analyze_opts, csv), 0,
     "external data: header with threads and seconds or throughput\n"
     "(optional series,rep); a throughput X(N) is read as the cost\n"
     "1/X(N); prints the analysis, writes no files"},
    LAB_OPTS_END,
};

static const struct lab_opt an_report_opts[] = {
    AN_FLAG("--include-flagged", include_flagged,
            "keep samples flagged for load (foreign CPU time or run-queue\n"
            "wait) in stats and fits"),
    LAB_OPTS_END,
};

static const struct lab_cmd_opts an_cmd = {
    .name = "analyze",
    .synopsis = "DIR [--json] [--no-plots] [--include-flagged] [--objective O]\n"
                "       lab analyze --csv FILE [--json] [--objective O]",
    .about = "Statistics per point (mean, sd, 95/99 % t-intervals, median, MAD, p95, CV, Tukey\n"
             "outliers), speedup with Fieller intervals, efficiency, Karp-Flatt, Amdahl and USL\n"
             "fits with 95 % intervals and the model choice, for every series (points that\n"
             "differ only in threads). Writes summary.csv, analysis.json, plots/ and\n"
             "report.html into DIR, only as regular files: an output that is a symbolic\n"
             "link is refused (exit 1). DIR/analysis-files.txt records what was written;\n"
             "the next analysis removes those files it does not write again.\n",
    .opts = an_opts,
    .pos_at = offsetof(struct lab_analyze_opts, dirs),
    .npos_at = offsetof(struct lab_analyze_opts, ndirs),
    .pos_max = 1,
    .pos_what = "directories",
};

static const struct lab_cmd_opts an_report_cmd = {
    .name = "report",
    .synopsis = "DIR [--include-flagged]",
    .about = "Analyzes DIR and writes DIR/report.html: one self-contained page (no network, no\n"
             "JavaScript) with provenance, tables, fits and the plots inline as SVG.\n",
    .opts = an_report_opts,
    .pos_at = offsetof(struct lab_analyze_opts, dirs),
    .npos_at = offsetof(struct lab_analyze_opts, ndirs),
    .pos_max = 1,
    .pos_what = "directories",
};

struct compare_args {
	const char *dirs[2];
	unsigned ndirs;
	const char *noise;
	bool json, include_flagged;
};

static const struct lab_opt compare_opts[] = {
    {"--noise", NULL, LAB_OPT_VALUE, "FRACTION", offsetof(struct compare_args, noise), 0,
     "changes inside +-FRACTION are 'within noise' (default 0.01, or 1%)"},
    {"--json", NULL, LAB_OPT_FLAG, NULL, offsetof(struct compare_args, json), 0,
     "one JSON document on stdout"},
    {"--include-flagged", NULL, LAB_OPT_FLAG, NULL, offsetof(struct compare_args, include_flagged),
     0,
     "compare with samples flagged for load (foreign CPU time or\n"
     "run-queue wait) kept"},
    LAB_OPTS_END,
};

static const struct lab_cmd_opts compare_cmd = {
    .name = "compare",
    .synopsis = "DIR_A DIR_B [--noise 0.01] [--json] [--include-flagged]",
    .about = "Per point (same experiment, params and threads), the relative change of the mean\n"
             "cost from DIR_A (old) to DIR_B (new) with its 95 % interval and a Welch t-test.\n"
             "Verdict: 'no change' unless p < 0.05; then 'improved' or 'regressed' only if the\n"
             "whole interval lies beyond +-noise, 'within noise' if it lies inside, else\n"
             "'changed (size unclear)'; 'untested' with one sample on a side (no interval, no\n"
             "test), or one setup where runs >= 2 were planned (ONE SETUP: no run-to-run\n"
             "spread to test against). Where a view's figure is not the cost (a construct's\n"
             "overhead_ns, where the cost is test + reference), a second table tests that\n"
             "figure too, as the difference new - old in its unit.\n",
    .opts = compare_opts,
    .pos_at = offsetof(struct compare_args, dirs),
    .npos_at = offsetof(struct compare_args, ndirs),
    .pos_max = 2,
    .pos_what = "directories",
};

/* Messages quote the files' text (names, values): escaped, one line each (lab_opts_error). */
static int lab_an_exit(const struct lab_err *err, const char *cmd)
{
	lab_opts_error("lab %s: %s", cmd, err->msg);
	return err->code == LAB_EDATA ? LAB_EXIT_USAGE : LAB_EXIT_FAILURE;
}

/* The text tables on stdout through the escaping stream (lab/text_esc.h): the analysis a, or
 * the comparison c of old and new. Returns an exit code. */
static int lab_text_print(const struct lab_an_analysis *a, const struct lab_an_compare *c,
                          const struct lab_an_data *old, const struct lab_an_data *new_)
{
	FILE *t = lab_text_esc_open(stdout);

	if (!t) {
		fprintf(stderr, "lab: out of memory\n");
		return LAB_EXIT_FAILURE;
	}
	if (a)
		lab_analyze_print(t, a);
	else
		lab_compare_print(t, c, old, new_);
	lab_text_esc_close(t); /* a failed write shows in ferror(stdout): main reports it */
	return LAB_EXIT_OK;
}

static int lab_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int lab_analyze_parse(int argc, char **argv, struct lab_analyze_opts *o)
{
	int report_only = o->report_only;
	int rc = lab_opts_parse(report_only ? &an_report_cmd : &an_cmd, argc, argv, o, sizeof(*o));

	o->report_only = report_only;
	if (rc)
		return rc == LAB_OPTS_HELP ? 1 : -1;
	o->dir = o->ndirs ? o->dirs[0] : NULL;
	o->objective = LAB_AN_OBJ_RELATIVE;
	if (o->objective_arg) {
		if (!strcmp(o->objective_arg, "absolute")) {
			o->objective = LAB_AN_OBJ_ABSOLUTE;
		} else if (strcmp(o->objective_arg, "relative")) {
			lab_opts_error("lab %s: --objective '%s': allowed relative, absolute",
			               argv[0], o->objective_arg);
			return -1;
		}
	}
	if (!o->dir == !o->csv) {
		fprintf(stderr, "lab %s: give %s (see --help)\n", argv[0],
		        o->report_only ? "DIR" : "DIR or --csv FILE");
		return -1;
	}
	if (o->dir && !lab_is_dir(o->dir)) {
		struct stat st;
		int gone = stat(o->dir, &st) != 0;
		lab_opts_error(
		    "lab %s: %s: not a results directory (%s; allowed: a directory lab run "
		    "wrote)",
		    argv[0], o->dir, gone ? strerror(errno) : lab_file_kind(st.st_mode));
		return -1;
	}
	return 0;
}

static void lab_print_warnings(const struct lab_an_warnings *w, const char *cmd)
{
	for (size_t i = 0; i < w->n; i++)
		lab_opts_error("lab %s: warning: %s", cmd, w->msg[i]);
}

/* Writes summary.csv, analysis.json, the views' CSV files, plots and report.html into the
 * results directory (analyze/write_dir.h); *started is 1 once a file was written, 2 when besides
 * a file of an earlier analysis stays or what was written is not recorded. */
/* One analysis writes DIR's outputs at a time: an exclusive flock on DIR itself (no file added
 * to it), waited for with a line when another lab analyze or report holds it (two with other
 * options left report.html of one beside analysis.json of the other, recorded as one
 * analysis: hostile38). Returns the descriptor to close when done, or -1 (DIR cannot be
 * opened: the writing says why). */
static int lab_analyze_lock(const char *dir, int report_only)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
		lab_opts_error("lab %s: waiting for another lab analyze or report of %s to finish "
		               "writing",
		               report_only ? "report" : "analyze", dir);
		while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
			; /* a signal that ends the process does not return here */
	}
	return fd;
}

static int lab_analyze_write(const struct lab_an_analysis *a, const struct lab_analyze_opts *o,
                             struct lab_an_warnings *warn, struct lab_err *err, int *started)
{
	struct lab_an_plots plots = {0};
	size_t nwritten = 0;
	int rc, clean = 0, lock = lab_analyze_lock(o->dir, o->report_only);

	/* A link or special file where an output goes: refused before anything is written. */
	if ((rc = lab_an_dir_check(a, o->dir, !o->no_plots, err))) {
		if (lock >= 0)
			close(lock);
		return rc;
	}
	rc = lab_an_dir_write(a, o->dir, !o->no_plots, &plots, &nwritten, &clean, warn, err);
	if (lock >= 0)
		close(lock);
	*started = nwritten > 0 ? 1 + !clean : 0;
	if (!rc && o->report_only) { /* what it wrote besides: lab analyze's files */
		fputs("wrote ", stdout);
		lab_opts_puts_escaped(stdout, o->dir);
		printf("/%s (and summary.csv, analysis.json, the views' files%s)\n",
		       LAB_FILE_REPORT, o->no_plots ? "" : ", plots/");
	} else if (!rc && o->no_plots)
		lab_opts_error("lab analyze: wrote %s/{%s,%s,%s}", o->dir, LAB_FILE_SUMMARY,
		               LAB_FILE_ANALYSIS, LAB_FILE_REPORT);
	else if (!rc) {
		char kinds[96] = ".dat and .gp only";

		if (plots.drawn == plots.n)
			snprintf(kinds, sizeof(kinds), ".svg, .png, .dat, .gp");
		else if (plots.drawn) /* gnuplot drew some */
			snprintf(kinds, sizeof(kinds),
			         ".dat and .gp; .svg and .png for %zu of them", plots.drawn);
		lab_opts_error("lab analyze: wrote %s/{%s,%s,%s} and %zu plot%s in %s/%s (%s)",
		               o->dir, LAB_FILE_SUMMARY, LAB_FILE_ANALYSIS, LAB_FILE_REPORT,
		               plots.n, plots.n == 1 ? "" : "s", o->dir, LAB_DIR_PLOTS, kinds);
	}
	lab_an_plots_free(&plots);
	return rc;
}

/* After a failure: what DIR holds now. Nothing written: the outputs there (if any) are an
 * earlier analysis's, which may no longer match the data, so say so. Part written: what is
 * there is this analysis's alone (the earlier one's other files were removed), but
 * incomplete. */
static void lab_analyze_failed_note(const char *cmd, const char *dir, int started)
{
	if (!dir)
		return;
	if (started)
		lab_opts_error("lab %s: the outputs in %s are incomplete: writing stopped part-way "
		               "(%s)",
		               cmd, dir,
		               started == 1 ? "no file of an earlier analysis is kept beside them"
		                            : "a warning below says what else stays");
	else if (lab_an_manifest_earlier(dir))
		lab_opts_error("lab %s: the outputs in %s (%s, %s, %s, %s/) are from an earlier "
		               "analysis: not updated, they may not match the data now",
		               cmd, dir, LAB_FILE_SUMMARY, LAB_FILE_ANALYSIS, LAB_FILE_REPORT,
		               LAB_DIR_PLOTS);
}

static volatile sig_atomic_t lab_analyze_sig;

/* SIGTERM/SIGINT/SIGHUP (a closed terminal) while analyzing. While the outputs are written, the
 * first one stops the writing after the file under way, and the analysis ends as one that failed
 * part-way: what it wrote is recorded (a later analysis removes it), the earlier analysis's files
 * are gone, and a line says the outputs are incomplete; then the signal ends the process
 * (lab_analyze_raise). Before that, or a second time: gnuplot goes too (it would keep writing into
 * plots/), and so do the temporaries of the files being written; then the signal ends the process
 * as usual. */
static void lab_analyze_on_signal(int sig)
{
	if (lab_an_dir_writing() && !lab_analyze_sig) {
		lab_analyze_sig = sig;
		lab_an_dir_interrupt();
		return;
	}
	lab_an_plots_abort();
	lab_an_wfile_abort();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A signal the writing was stopped for ends the process now, as the signal would have. */
static void lab_analyze_raise(const char *cmd)
{
	int sig = lab_analyze_sig;

	if (!sig)
		return;
	lab_opts_error("lab %s: interrupted (%s)", cmd,
	               sig == SIGINT   ? "SIGINT"
	               : sig == SIGHUP ? "SIGHUP"
	                               : "SIGTERM");
	fflush(stdout);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void lab_analyze_signals(void)
{
	struct sigaction sa = {.sa_handler = lab_analyze_on_signal};

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Sets the heap up for the inputs of an analysis (lab/an_heap.h): a --csv file, or each
 * directory's samples.csv and run.json; a path too long to name is left out of the estimate
 * (its loader says what is wrong with it). */
static void lab_analyze_heap(const char *csv, const char *const *dirs, size_t n)
{
	static const char *const names[2] = {LAB_FILE_SAMPLES, LAB_FILE_RUN};
	char path[4][4096];
	const char *files[4] = {csv};

	for (size_t i = 0; !csv && i < 4 && i / 2 < n; i++) {
		int len = snprintf(path[i], sizeof(path[i]), "%s/%s", dirs[i / 2], names[i % 2]);

		files[i] = len > 0 && (size_t)len < sizeof(path[i]) ? path[i] : NULL;
	}
	lab_an_heap_setup(files, 4);
}

static int lab_analyze_main(int argc, char **argv, int report_only)
{
	struct lab_analyze_opts o = {.report_only = report_only};
	struct lab_an_data d = {0};
	struct lab_an_analysis a = {0};
	struct lab_an_warnings warn = {0};
	struct lab_err err = {0};
	int rc = lab_analyze_parse(argc, argv, &o), code = LAB_EXIT_OK, started = 0;

	if (rc)
		return rc > 0 ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	if (o.dir && !report_only && lab_an_fleet_is_dir(o.dir))
		return lab_fleet_analyze(argc, argv, lab_cmd_analyze);
	lab_analyze_signals();
	lab_analyze_heap(o.csv, &o.dir, o.dir ? 1 : 0);
	rc = o.csv ? lab_an_data_load_csv(&d, o.csv, &err) : lab_an_data_load_dir(&d, o.dir, &err);
	if (rc && o.csv && err.code == LAB_EIO)
		err.code = LAB_EDATA; /* a --csv FILE that cannot be opened is bad usage */
	if (!rc && o.dir)
		lab_an_placement_same(&d);
	if (!rc)
		rc = lab_an_data_summarize(&d, o.include_flagged, &err);
	if (!rc) /* with runs >= 2 the point's interval comes from its run means */
		rc = lab_an_levels_apply(&d, o.include_flagged, &err);
	if (!rc)
		rc = lab_an_analysis_run_plots(&d, o.include_flagged, o.objective, o.no_plots, &a,
		                               &err);
	if (rc) {
		code = lab_an_exit(&err, argv[0]);
		lab_analyze_failed_note(argv[0], o.dir, 0);
		goto out;
	}
	lab_print_warnings(&d.warn, argv[0]);
	char line[256];
	if ((o.json || report_only) &&
	    lab_an_flagged_line(&d, o.include_flagged, line, sizeof(line)))
		lab_opts_error("lab %s: %s", argv[0], line);
	if (o.dir && (rc = lab_analyze_write(&a, &o, &warn, &err, &started))) {
		code = rc == -LAB_EINTR ? LAB_EXIT_FAILURE : lab_an_exit(&err, argv[0]);
		lab_analyze_failed_note(argv[0], o.dir, started);
	}
	lab_analyze_raise(argv[0]);
	lab_print_warnings(&warn, argv[0]);
	if (o.json)
		lab_an_analysis_json(&a, stdout);
	else if (!report_only && (rc = lab_text_print(&a, NULL, NULL, NULL)))
		code = rc;
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

static int lab_compare_load(const char *dir, struct lab_an_data *d, int include_flagged,
                            struct lab_err *err)
{
	int rc = lab_an_data_load_dir(d, dir, err); /* not a results directory: -LAB_EDATA */

	if (!rc)
		rc = lab_an_data_summarize_modes(d, include_flagged, 0, err); /* shows no modes */
	if (!rc) /* with runs, the run-to-run noise decides (analyze/compare.h) */
		rc = lab_an_levels_apply(d, include_flagged, err);
	return rc;
}

/* A loaded directory's warnings and its flagged-samples line: said once both loaded, so that
 * a bad second directory is one line (the first's load warning came before it). */
static void lab_compare_notes(const char *dir, struct lab_an_data *d, int include_flagged)
{
	char line[256];

	lab_print_warnings(&d->warn, "compare");
	if (lab_an_flagged_line(d, include_flagged, line, sizeof(line)))
		lab_opts_error("lab compare: %s: %s", dir, line);
}

int lab_cmd_compare(int argc, char **argv)
{
	struct compare_args o;
	double noise = 0.01;
	int code = LAB_EXIT_OK;
	struct lab_an_data d[2] = {{0}, {0}};
	struct lab_an_compare c = {0};
	struct lab_err err = {0};
	int rc = lab_opts_parse(&compare_cmd, argc, argv, &o, sizeof(o));

	if (rc)
		return rc == LAB_OPTS_HELP ? LAB_EXIT_OK : LAB_EXIT_USAGE;
	if (o.noise && lab_opts_fraction(o.noise, &noise)) { /* checked by the parser */
		lab_opts_error(
		    "lab compare: --noise '%s': expected a decimal fraction in [0, 1) or a "
		    "percentage below 100%%, e.g. 0.01 or 1%%",
		    o.noise);
		return LAB_EXIT_USAGE;
	}
	if (o.ndirs != 2) {
		fprintf(stderr, "lab compare: give DIR_A DIR_B (see --help)\n");
		return LAB_EXIT_USAGE;
	}
	const char *const *dir = o.dirs;
	bool json = o.json;
	lab_analyze_heap(NULL, dir, 2);
	if (lab_compare_load(dir[0], &d[0], o.include_flagged, &err) ||
	    lab_compare_load(dir[1], &d[1], o.include_flagged, &err) ||
	    lab_an_compare_run(&d[0], &d[1], noise, &c, &err)) {
		code = lab_an_exit(&err, "compare");
		goto out;
	}
	lab_compare_notes(dir[0], &d[0], o.include_flagged);
	lab_compare_notes(dir[1], &d[1], o.include_flagged);
	if (json)
		lab_an_compare_json(&c, dir[0], dir[1], stdout);
	else
		code = lab_text_print(NULL, &c, &d[0], &d[1]);
out:
	lab_an_compare_free(&c);
	lab_an_data_free(&d[0]);
	lab_an_data_free(&d[1]);
	return code;
}
