/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/plots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/manifest.h"
#include "analyze/plots_int.h"
#include "analyze/views/views.h"
#include "analyze/wfile.h"
#include "harness/record_schema.h"

int lab_an_plots_write(const struct lab_an_analysis *a, const char *dir, int render,
                       struct lab_an_manifest *wrote, struct lab_an_plots *out,
                       struct lab_an_warnings *warn, struct lab_err *err)
{
	struct lab_an_pdir pd = {-1, lab_an_asprintf("%s/%s", dir, LAB_DIR_PLOTS), wrote};
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->written = 1;
	if (!pd.path)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if ((pd.fd = lab_an_subdir_open(dir, LAB_DIR_PLOTS, 1, err)) < 0) {
		rc = -LAB_EIO;
		goto out;
	}
	/* Every view draws through its document (the scaling series too); past the cap the
	 * plots are counted, not written (render/gnuplot.c). What an earlier analysis drew and
	 * this one does not is removed afterwards, by the record (analyze/manifest.h). */
	if ((rc = lab_an_views_plots(a, &pd, out, err)))
		goto out;
	if (out->omitted)
		lab_an_warn(warn,
		            "%zu of %zu plots left out: at most %d per analysis (gnuplot renders a "
		            "few dozen a second and report.html embeds each); the tables, "
		            "summary.csv and analysis.json hold every series",
		            out->omitted, out->n + out->omitted, LAB_AN_PLOTS_MAX);
	if (!render || !out->n)
		goto out;
	rc = lab_an_plots_render(&pd, out, warn, err);
	if (!rc && out->no_gnuplot)
		lab_an_warn(warn,
		            "gnuplot not found: wrote the .dat/.gp files in %s but no "
		            "images (apt-get install gnuplot-nox)",
		            pd.path);
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
