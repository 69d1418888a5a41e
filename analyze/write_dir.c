/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/write_dir.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/manifest.h"
#include "analyze/output.h"
#include "analyze/report.h"
#include "analyze/views/views.h"
#include "analyze/wfile.h"
#include "analyze/wstale.h"
#include "harness/record_schema.h"

/* The most view CSV files checked up front (each is checked again when it is written). */
#define AN_DIR_VIEW_FILES 60

int lab_an_dir_check(const struct lab_an_analysis *a, const char *dir, int plots,
                     struct lab_err *err)
{
	const char *files[AN_DIR_VIEW_FILES + 5] = {LAB_FILE_SUMMARY, LAB_FILE_ANALYSIS,
	                                            LAB_FILE_REPORT, LAB_AN_MANIFEST};
	char *views[AN_DIR_VIEW_FILES];
	size_t nv = lab_an_views_files(a, views, AN_DIR_VIEW_FILES);
	int rc;

	for (size_t i = 0; i < nv; i++)
		files[4 + i] = views[i];
	rc = lab_an_outputs_check(dir, files, plots ? LAB_DIR_PLOTS : NULL, err);
	for (size_t i = 0; i < nv; i++)
		free(views[i]);
	return rc;
}

static volatile sig_atomic_t an_dir_active, an_dir_stop;

void lab_an_dir_interrupt(void)
{
	an_dir_stop = 1;
	lab_an_plots_stop();
}

int lab_an_dir_writing(void)
{
	return an_dir_active;
}

/* After a step: an interruption ends the writing as a failure would (EINTR, whatever the step
 * said of the gnuplot that was ended). */
static int an_dir_stopped(int rc, struct lab_err *err)
{
	if (!an_dir_stop)
		return rc;
	return lab_err_set(err, LAB_EINTR, "interrupted");
}

/* Writes dir/name with fn and records it. */
static int an_dir_file(const struct lab_an_analysis *a, const char *dir, const char *name,
                       int (*fn)(const struct lab_an_analysis *, const char *, struct lab_err *),
                       struct lab_an_manifest *wrote, struct lab_err *err)
{
	char *path = lab_an_asprintf("%s/%s", dir, name);
	int rc;

	if (!path)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	rc = fn(a, path, err);
	free(path);
	if (!rc && lab_an_manifest_add(wrote, NULL, name))
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
	return rc;
}

/* Writes every output in order, recording each; stops at the first failure. */
static int an_dir_outputs(const struct lab_an_analysis *a, const char *dir, int plots,
                          struct lab_an_manifest *wrote, struct lab_an_plots *out,
                          struct lab_an_warnings *warn, struct lab_err *err)
{
	int rc = an_dir_stopped(0, err);

	if (!rc)
		rc = an_dir_stopped(
		    an_dir_file(a, dir, LAB_FILE_SUMMARY, lab_an_summary_write, wrote, err), err);
	if (!rc)
		rc = an_dir_stopped(
		    an_dir_file(a, dir, LAB_FILE_ANALYSIS, lab_an_analysis_json_write, wrote, err),
		    err);
	if (!rc)
		rc = an_dir_stopped(lab_an_views_csv(a, dir, wrote, err), err);
	if (!rc && plots)
		rc = an_dir_stopped(lab_an_plots_write(a, dir, 1, wrote, out, warn, err), err);
	if (!rc)
		rc = an_dir_stopped(lab_an_report_write(a, out, dir, err), err);
	if (!rc && lab_an_manifest_add(wrote, NULL, LAB_FILE_REPORT))
		rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
	return rc;
}

int lab_an_dir_write(const struct lab_an_analysis *a, const char *dir, int plots,
                     struct lab_an_plots *out, size_t *nwritten, int *clean,
                     struct lab_an_warnings *warn, struct lab_err *err)
{
	struct lab_an_manifest old, wrote = {0};
	struct lab_err late = {0};
	int rc, rc2 = 0;

	memset(out, 0, sizeof(*out));
	*nwritten = 0;
	*clean = 0;
	if ((rc = lab_an_manifest_read(dir, &old, warn, err)))
		return rc;
	lab_an_stale_sweep(dir); /* what a killed analysis left; never fails this one */
	an_dir_active = 1;
	rc = an_dir_outputs(a, dir, plots, &wrote, out, warn, err);
	*nwritten = wrote.n;
	/* After a failure part-way too: what an earlier analysis wrote does not stay beside a
	 * part of this one. The first error is the one reported. */
	if (!rc || wrote.n)
		rc2 = lab_an_manifest_finish(dir, &old, &wrote, warn, rc ? &late : err);
	if (rc && rc2 < 0) /* the first error is reported, and this one said */
		lab_an_manifest_unrecorded(warn, &late, wrote.n);
	*clean = rc2 == 0;
	rc2 = rc2 < 0 ? rc2 : 0; /* 1: a file of the earlier analysis stays, said in warn */
	an_dir_active = 0;
	lab_an_manifest_free(&old);
	lab_an_manifest_free(&wrote);
	return rc ? rc : rc2;
}
