/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * False sharing in structs (chapter 25): packed per-thread structs (layout = struct) beside the
 * same structs on their own 128 bytes (struct_aligned), ns per increment vs threads, in one
 * chart per op so the gap is read at a glance. Points of layout = stride belong to the stride
 * view and are left to it.
 */
#include <string.h>

#include "analyze/views/curves.h"
#include "analyze/views/view.h"

/* Only the struct layouts: layout = stride is the stride view's. */
static int an_keep(const struct lab_an_point *p)
{
	char buf[32];

	return lab_an_params_get(p->params, "layout", buf, sizeof(buf)) &&
	       !strncmp(buf, "struct", 6);
}

static const struct lab_an_cv_spec an_spec = {
    .view = "fs_layout",
    .title = "False sharing in structs: packed vs aligned",
    .about = "ns per increment, all threads together (elapsed / increments "
             "of the whole team; per thread: x threads; interval clipped at 0), one "
             "curve per layout. struct: each thread's hot field sits in a "
             "packed array of 32-byte structs, so each cache line holds two "
             "neighbours' hot fields; "
             "struct_aligned: each struct on its own 128 bytes. At 2+ threads "
             "a gap is the cost of false sharing (how large depends on the op and the "
             "core: stores may cost little extra where the store buffer hides them); at "
             "1 thread they should agree.",
    .note = "ns per increment, all threads together: median | mean [95% CI] over reps (over run "
            "means with runs >= 2)",
    .curve = {"layout", NULL},
    .xlabel = "threads",
    .logx = 1,
    .keep = an_keep,
    .col = {{.key = "ns_per_increment", .src = LAB_AN_CV_COST, .bounded = LAB_AN_CV_LOWER}},
    .ncol = 1,
    .fig = {{.ylabel = "ns per increment, all threads together", .logy = 1}},
};

const struct lab_an_view lab_an_view_fs_layout = LAB_AN_CV_VIEW("fs_layout", an_spec, 0);
