/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Cost vs stride, one line per thread count and placement (the placements side by side: one
 * figure each drew three scales, plots40): the false-sharing chart of ch25 (cost drops once
 * the stride puts each thread's counter on its own cache line). The view of kernels that declare
 * "stride"; in files without views, of every experiment with a `stride` param. The stride is
 * read as the config wrote it: "4K" is 4096 bytes, not 4.
 */
#include <math.h>
#include <string.h>

#include "analyze/units.h"
#include "analyze/views/curves.h"
#include "analyze/views/view.h"

/* Points with a stride in bytes that places their counters: not the struct layouts (the
 * fs_layout view's), where the stride param plays no part ("Cost vs stride ... 8" was drawn for
 * them). A point without used samples keeps its row, with why it has no number (its curve left
 * out a loaded threads = 2 line without a word). */
static int sd_other_layout(const struct lab_an_point *p)
{
	char buf[64];

	return lab_an_params_get(p->params, "layout", buf, sizeof(buf)) && strcmp(buf, "stride");
}

/* A struct layout has no stride (the lab leaves it out of its params; older files recorded
 * the default): no x, and no point of this view. */
static int sd_keep(const struct lab_an_point *p)
{
	char buf[64];

	return !sd_other_layout(p) && lab_an_params_get(p->params, "stride", buf, sizeof(buf)) &&
	       isfinite(lab_an_size_bytes(buf));
}

static const struct lab_an_cv_spec sd_spec = {
    .view = "stride",
    .title = "Cost vs stride",
    .about =
        "The cost per unit of work against the stride between the threads' "
        "counters, one curve per thread count (and placement): the cost drops once the stride puts "
        "each thread's counter on its own cache line. Cost: median, and the mean "
        "with its 95 % t-interval over the used samples (over the run means for a "
        "point of two or more runs).",
    .about_own = 1,
    .curve = {"threads", "placement"},
    .curve1_some = 1, /* older and hand-made files may have no placement */
    .x = "stride",
    .xunit = "bytes",
    .xlabel = "stride (bytes)",
    .logx = 1,
    .keep = sd_keep,
    .x_ignored = sd_other_layout,
    .match_kept = 1,
    .col = {{.key = "cost", .src = LAB_AN_CV_COST, .bounded = LAB_AN_CV_LOWER, .cost_unit = 1}},
    .ncol = 1,
    .fig = {{.key = "stride", .title = "cost vs stride"}},
};

const struct lab_an_view lab_an_view_stride = LAB_AN_CV_VIEW("stride", sd_spec, 0);
