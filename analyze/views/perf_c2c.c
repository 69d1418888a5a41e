/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perf c2c per point (`perf_c2c = on`): the hottest shared cache lines the harness kept from
 * `perf c2c report` (point_facts perf_c2c, perf_c2c_lines, perf_c2c_top), or why perf could
 * not run there. Any experiment whose points recorded perf_c2c, whatever its kernel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/render/doc.h"
#include "analyze/views/view.h"

/* The loader attached run.json's point_facts to each point (p->facts): read, never searched. */
static int an_pc_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                         const struct lab_an_point *p)
{
	(void)v;
	(void)d;
	return lab_an_json_str(p->facts, "perf_c2c") != NULL;
}

/* The state: the points that recorded perf_c2c, in point order, NULL-terminated. */
static int an_pc_compute(const struct lab_an_view *v, const struct lab_an_analysis *a, void **state,
                         struct lab_err *err)
{
	const struct lab_an_point **pt = calloc(a->data->npt + 1, sizeof(*pt));
	size_t n = 0;

	if (!pt)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (size_t i = 0; i < a->data->npt; i++)
		if (an_pc_applies(v, a->data, &a->data->pt[i]))
			pt[n++] = &a->data->pt[i];
	*state = n ? pt : NULL;
	if (!n)
		free(pt);
	return 0;
}

/* 1 when s is a line address as perf c2c prints it: 0x and hex digits. */
static int an_pc_hex(const char *s)
{
	return s[0] == '0' && s[1] == 'x' && s[2] &&
	       !s[2 + strspn(s + 2, "0123456789abcdefABCDEF")];
}

/* 1 when v is a whole count perf could have made (0 .. 2^53). */
static int an_pc_count(double v)
{
	return v >= 0 && v <= 9007199254740992.0 && v == floor(v);
}

/* One hot line of perf_c2c_top, the n bytes at l ("0x40 rmt_hitm=7 lcl_hitm=23: +0x0
 * 61.0%/52.7% [.] f (a.so) ..."), as a row of hot (point, line, its HITMs, its offsets). */
static void an_pc_line(struct lab_doc *doc, struct lab_doc_table *hot, long id, const char *l,
                       size_t n)
{
	const char *line = lab_doc_printf(doc, "%.*s", (int)n, l);
	char addr[64];
	double rmt, lcl;
	int off = 0;

	lab_doc_row(hot);
	lab_doc_str(doc, lab_doc_at(hot, 0), lab_doc_printf(doc, "%ld", id));
	/* a line address in hex and whole counts (0xzz, -1 and 1e308 were shown as perf's) */
	if (sscanf(line, "%63s rmt_hitm=%lf lcl_hitm=%lf:%n", addr, &rmt, &lcl, &off) == 3 && off &&
	    an_pc_hex(addr) && an_pc_count(rmt) && an_pc_count(lcl)) {
		lab_doc_str(doc, lab_doc_at(hot, 1), addr);
		lab_doc_num(lab_doc_at(hot, 2), rmt);
		lab_doc_num(lab_doc_at(hot, 3), lcl);
		lab_doc_str(doc, lab_doc_at(hot, 4), line + off + (line[off] == ' '));
	} else
		lab_doc_rwhy(hot, "not in perf c2c's layout: %s", line);
}

/* Per (experiment, params) run of points: a table of the points (perf's status and the shared
 * lines it found), and one of their hottest lines when perf found any. */
static int an_pc_describe(const struct lab_an_view *v, const void *state, struct lab_doc *doc)
{
	const struct lab_an_point *const *pt = state;
	struct lab_doc_section *sec = NULL;
	struct lab_doc_table *t = NULL, *hot = NULL;

	(void)v;
	doc->title = "perf c2c: hottest shared cache lines";
	lab_doc_about(doc,
	              "Per point run under perf c2c: whether perf ran (or why not), the shared "
	              "cache lines it found, the hottest four with their remote and local HITMs "
	              "and, per offset in the line, its share of them, symbol and object.",
	              "per hot line its remote/local HITMs; per offset its share of them");
	for (size_t i = 0; pt[i]; i++) {
		const struct lab_an_point *p = pt[i], *q = i ? pt[i - 1] : NULL;
		const char *top = lab_an_json_str(p->facts, "perf_c2c_top");

		if (!q || strcmp(p->experiment, q->experiment) || strcmp(p->params, q->params)) {
			sec = lab_doc_section(doc, p->experiment, p->params);
			t = lab_doc_table(sec, "points", "perf c2c per point");
			hot = NULL;
			lab_doc_col(t, "point", NULL, LAB_DOC_KEY);
			lab_doc_col(t, "threads", NULL, LAB_DOC_KEY);
			lab_doc_col(t, "perf_c2c", NULL, LAB_DOC_TEXT);
			lab_doc_col(t, "lines", NULL, LAB_DOC_COUNT);
		}
		lab_doc_row(t);
		lab_doc_str(doc, lab_doc_at(t, 0), lab_doc_printf(doc, "%ld", p->id));
		lab_doc_str(doc, lab_doc_at(t, 1), lab_doc_printf(doc, "%d", p->threads));
		lab_doc_str(doc, lab_doc_at(t, 2), lab_an_json_str(p->facts, "perf_c2c"));
		lab_doc_num(lab_doc_at(t, 3), lab_an_json_num(p->facts, "perf_c2c_lines", NAN));
		lab_doc_why(doc, lab_doc_at(t, 3), "not recorded");
		if (top && *top && !hot) {
			hot = lab_doc_table(sec, "hot_lines", "hottest shared lines per point");
			lab_doc_col(hot, "point", NULL, LAB_DOC_KEY);
			lab_doc_col(hot, "line", NULL, LAB_DOC_KEY);
			lab_doc_col(hot, "rmt_hitm", NULL, LAB_DOC_COUNT);
			lab_doc_col(hot, "lcl_hitm", NULL, LAB_DOC_COUNT);
			lab_doc_col(hot, "offsets", NULL, LAB_DOC_TEXT);
		}
		for (const char *l = top, *end; l && *l; l = end ? end + 2 : l + strlen(l)) {
			end = strstr(l, "; ");
			an_pc_line(doc, hot, p->id, l, end ? (size_t)(end - l) : strlen(l));
		}
	}
	return lab_doc_failed(doc) ? -LAB_ENOMEM : 0;
}

const struct lab_an_view lab_an_view_perf_c2c = {
    .name = "perf_c2c",
    .follows_any_run = 1,
    .applies = an_pc_applies,
    .compute = an_pc_compute,
    .free = free,
    .describe = an_pc_describe,
};
