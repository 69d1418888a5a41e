/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer targets for the analyzer's readers: results directories and --csv files are
 * untrusted input (issue 12). One source, three targets chosen at compile time by FZ_TARGET:
 *   1 fuzz_samples  the input is samples.csv (beside a run.json with no experiments)
 *   2 fuzz_runjson  the input is run.json (beside a small fixed samples.csv)
 *   3 fuzz_csv      the input is an external CSV for `lab analyze --csv`
 * Each loaded data set goes through the whole analysis (statistics, series, fits, every view)
 * and every writer of its document: analysis.json, the text tables, the report's sections, the
 * views' CSV files and the plots' .dat/.gp files (gnuplot is not run), so slow grouping or a bad
 * pointer anywhere after the reader shows too. Errors are expected and fine; a crash, a sanitizer
 * report, a leak or a hang is a bug. The input is written to a file because the loaders read paths,
 * as `lab analyze` does.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analysis.h"
#include "analyze/output.h"
#include "analyze/plots.h"
#include "analyze/render/render.h"
#include "analyze/views/views.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fz_dir[256], fz_path[300];
static FILE *fz_null;

static const char fz_samples[] =
    "experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,flagged,m\n"
    "e,0,noop,placement=compact,1,0,1000,10,op,0.01,0,5\n"
    "e,0,noop,placement=compact,1,1,1010,10,op,0.01,0,\n"
    "e,1,noop,placement=compact,2,0,600,10,op,0.01,1,4\n"
    "e,2,noop,placement=compact,4,0,400,10,op,0.01,0,3\n";

static void fz_write(const char *name, const void *data, size_t size)
{
	FILE *f;

	snprintf(fz_path, sizeof(fz_path), "%s/%s", fz_dir, name);
	f = fopen(fz_path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
		perror(fz_path);
		abort();
	}
}

/* Removes every file in directory path (the writers' output of one input), and the directory
 * when rm is set. */
static void fz_empty(const char *path, int rm)
{
	DIR *dir = opendir(path);
	struct dirent *e;

	while (dir && (e = readdir(dir)))
		if (e->d_type != DT_DIR)
			unlinkat(dirfd(dir), e->d_name, 0);
	if (dir)
		closedir(dir);
	if (rm)
		rmdir(path);
}

/* Leaves no scratch directory behind when libFuzzer exits normally. */
static void fz_cleanup(void)
{
	snprintf(fz_path, sizeof(fz_path), "%s/plots", fz_dir);
	fz_empty(fz_path, 1);
	fz_empty(fz_dir, 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char run[] =
	    "{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": []}\n";

	(void)argc;
	(void)argv;
	snprintf(fz_dir, sizeof(fz_dir), "%s/lab-fuzz-XXXXXX",
	         access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	fz_null = fopen("/dev/null", "w");
	if (!mkdtemp(fz_dir) || !fz_null) {
		perror("fuzz_results");
		abort();
	}
	atexit(fz_cleanup);
	if (FZ_TARGET == 1)
		fz_write("run.json", run, strlen(run));
	if (FZ_TARGET == 2)
		fz_write("samples.csv", fz_samples, strlen(fz_samples));
	return 0;
}

/* Every point the loader made must be whole: the later stages trust these fields. */
static void fz_check(const struct lab_an_data *d)
{
	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i];

		if (!p->experiment || !p->params || !p->status || !p->kernel || p->threads < 1 ||
		    (p->n && !p->cost))
			abort();
		for (size_t j = 0; j < p->n; j++)
			if (!(p->cost[j] > 0))
				abort();
	}
}

/* Every writer of the analysis: what they write is not checked here (the renderers' tests do
 * that), only that untrusted text reaches none of them as a crash, a leak or a hang. The output
 * files go and the input files stay. */
static void fz_write_all(const struct lab_an_analysis *a)
{
	struct lab_an_plots plots = {0};
	struct lab_an_warnings warn = {0};
	struct lab_err err = {0};
	char *names[64];
	size_t n;

	lab_an_analysis_json(a, fz_null);
	for (size_t i = 0; i < a->nviews; i++)
		if (a->views[i].doc)
			lab_render_text(fz_null, a->views[i].doc);
	lab_an_views_html(fz_null, a, NULL, fz_dir);
	lab_an_views_csv(a, fz_dir, NULL, &err);
	n = lab_an_views_files(a, names, sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < n; i++) {
		snprintf(fz_path, sizeof(fz_path), "%s/%s", fz_dir, names[i]);
		unlink(fz_path);
		free(names[i]);
	}
	lab_an_plots_write(a, fz_dir, 0, NULL, &plots, &warn, &err);
	lab_an_plots_free(&plots);
	lab_an_warnings_free(&warn);
	snprintf(fz_path, sizeof(fz_path), "%s/plots", fz_dir);
	fz_empty(fz_path, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lab_an_data d;
	struct lab_an_analysis a;
	struct lab_err err = {0};
	int rc;

	if (FZ_TARGET == 1)
		fz_write("samples.csv", data, size);
	else if (FZ_TARGET == 2)
		fz_write("run.json", data, size);
	else
		fz_write("ext.csv", data, size);
	rc = FZ_TARGET == 3 ? lab_an_data_load_csv(&d, fz_path, &err)
	                    : lab_an_data_load_dir(&d, fz_dir, &err);
	if (rc) {
		if (!err.msg[0])
			abort(); /* every error says what and where */
		lab_an_data_free(&d);
		return 0;
	}
	fz_check(&d);
	if (lab_an_data_summarize(&d, 0, &err) == 0) {
		if (lab_an_analysis_run(&d, 0, &a, &err) == 0)
			fz_write_all(&a);
		lab_an_analysis_free(&a); /* a run that failed half-way may hold memory too */
	}
	lab_an_data_free(&d);
	return 0;
}
