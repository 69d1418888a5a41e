/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The view "c2c" (c2c.h): per matrix a summary row, the CPU x CPU grid of pair medians and its
 * heat map, and one row per pair with every number (c2c_matrix.csv). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/flagged.h"
#include "analyze/render/doc.h"
#include "analyze/views/c2c.h"
#include "analyze/views/view.h"

/* Matrices up to this many CPUs are a grid in the text and the report; larger ones sparse. */
#define AN_C2C_GRID_MAX 16

/* Declared by the run, or (older files) points placed as CPU pairs. */
static int an_c2c_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                          const struct lab_an_point *p)
{
	int decl = lab_an_view_declared(d, p->experiment, v->name);
	char buf[16];

	if (decl >= 0)
		return decl;
	return lab_an_params_get(p->params, "pair", buf, sizeof(buf)) ||
	       (lab_an_params_get(p->params, "placement", buf, sizeof(buf)) &&
	        !strcmp(buf, "pairs"));
}

/* The view halves a cost per round trip (c2c_latency's work unit) into a one-way latency. */
static const char *an_c2c_misfit(const struct lab_an_view *v, const struct lab_an_data *d,
                                 const struct lab_an_point *p, char *buf, size_t len)
{
	const char *unit = lab_an_point_unit(d, p);

	(void)v;
	if (!strcmp(unit, "ns/roundtrip"))
		return NULL;
	snprintf(buf, len, "a cost in %.*s, not in ns/roundtrip", lab_an_utf8_fit(unit, 40), unit);
	return buf;
}

static int an_c2c_compute(const struct lab_an_view *v, const struct lab_an_analysis *a,
                          void **state, struct lab_err *err)
{
	const struct lab_an_data *d = a->data;
	struct lab_an_c2c *c = calloc(1, sizeof(*c));
	struct lab_an_cpurel rel;
	int rc = c ? 0 : -LAB_ENOMEM;

	*state = NULL;
	lab_an_cpurel_init(&rel, d->run);
	for (size_t i = 0; i < d->npt && !rc; i++)
		if (an_c2c_applies(v, d, &d->pt[i]))
			rc = lab_an_c2c_add(c, d, &rel, &d->pt[i], a->include_flagged);
	for (size_t i = 0; !rc && i < c->nm; i++)
		rc = lab_an_c2c_finish(&c->m[i]);
	if (!rc && c->nm) {
		const char *hv = lab_an_json_str(lab_an_json_get(d->run, "host"), "hypervisor");

		c->topo_detailed = lab_an_cpurel_detailed(&rel);
		/* cut at a character, as the numa view's (a byte cut printed \xc3, hostile33) */
		snprintf(c->hypervisor, sizeof(c->hypervisor), "%.*s",
		         hv ? lab_an_utf8_fit(hv, sizeof(c->hypervisor) - 1) : 0, hv ? hv : "");
		lab_an_cpurel_free(&rel);
		*state = c;
		return 0;
	}
	lab_an_cpurel_free(&rel);
	lab_an_c2c_free(c);
	return rc ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
}

/* Why matrix m has no median at all: one sentence, no trailing period. */
static const char *an_c2c_no_median(const struct lab_an_c2c_matrix *m)
{
	if (m->flagged_out && m->flagged_out == m->ncell)
		return "no pair median: every sample ran under foreign load and was left out "
		       "(rerun when quiet or pass --include-flagged)";
	if (m->rows_gone && m->rows_gone == m->ncell)
		return "no pair median: samples.csv has no rows of any pair, though the complete "
		       "run says they ran ok (removed after the run?)";
	if (m->flagged_out || m->rows_gone)
		return "no pair median: the pairs' samples were load-flagged, removed from "
		       "samples.csv, or their points did not run (see each pair's row)";
	return "no pair median: no pair's point ran (see run.json status and reason)";
}

/* 1 when cell c's samples' median is over twice the kernel's own batch median: its whole
 * round trips held interruptions, and the batches' number is the one to read. */
static int an_c2c_batch(const struct lab_an_c2c_cell *c)
{
	return c->n && c->m_p50 > 0 && c->median_ns > 2 * c->m_p50;
}

/* The grid: each cell where lab_an_c2c_find shows it (both orders), its median (the batch
 * median where an_c2c_batch), and the mode centers of a multimodal pair as its note (the
 * heat map's label). */
static void an_c2c_grid(struct lab_doc *doc, struct lab_doc_section *s,
                        const struct lab_an_c2c_matrix *m)
{
	/* sparse past AN_C2C_GRID_MAX CPUs: thousands of pairs cost their cells, not CPUs^2 */
	int sparse = m->ncpu > AN_C2C_GRID_MAX;
	const char *title = "one-way latency, median";
	struct lab_doc_matrix *x =
	    sparse ? lab_doc_matrix_sparse(s, "latency", title, m->ncpu, m->ncpu, 2 * m->ncell)
	           : lab_doc_matrix(s, "latency", title, m->ncpu, m->ncpu);
	struct lab_doc_figure *f = lab_doc_figure(
	    s, "heatmap", "one-way latency, median ns (M: modes; b: batch median)", NULL, NULL);
	char buf[160];

	if (!x || !f)
		return;
	x->unit = "ns";
	x->rname = "cpu_a";
	x->cname = "cpu_b";
	x->legend =
	    "M: the mode centers of a multimodal pair (one number over its samples, a mean, "
	    "describes none of them); b: the kernel's batch median (metric_one_way_p50_ns), where "
	    "the samples' median held interruptions (over twice it); intervals, modes and CPU "
	    "relations: the pairs table";
	f->heat = x;
	for (size_t k = 0; k < m->ncpu; k++)
		x->rlab[k] = x->clab[k] = lab_doc_printf(doc, "%d", m->cpu[k]);
	for (size_t i = 0; i < m->ncell; i++) {
		const struct lab_an_c2c_cell *c = &m->cell[i];
		int multi = lab_an_modes_multi(&c->modes);
		for (int o = 0; o < 2 && c->n && c->cpu_a >= 0 && c->cpu_b >= 0; o++) {
			int a = o ? c->cpu_b : c->cpu_a, b = o ? c->cpu_a : c->cpu_b;
			size_t r = lab_an_c2c_pos(m, a), col = lab_an_c2c_pos(m, b);
			struct lab_doc_cell *e;

			if (a == b || lab_an_c2c_find(m, a, b) != c)
				continue;
			e = sparse ? lab_doc_smat(x, r, col) : lab_doc_mat(x, r, col);
			/* where the samples' whole round trips held interruptions (over twice the
			 * kernel's batch median), the batches' number, the one the pairs table says
			 * to read (the map showed 121 ns beside "read 39.5": plots40) */
			if (an_c2c_batch(c)) {
				lab_doc_num(e, c->m_p50);
				lab_doc_cnote(doc, e, "b:%.3g", c->m_p50);
			} else {
				lab_doc_num(e, c->median_ns);
			}
			if (multi && !an_c2c_batch(c))
				lab_doc_cnote(doc, e, "M:%s",
				              lab_an_modes_list(&c->modes, 0, 1, buf, sizeof(buf)));
		}
	}
}

/* The relation of cell c's CPUs in words, NULL when the topology does not tell. */
static const char *an_c2c_rel(const struct lab_an_c2c_cell *c)
{
	return c->smt_siblings == 1   ? "SMT siblings"
	       : c->same_package == 0 ? "other package"
	       : c->same_numa == 0    ? "other NUMA node"
	       : c->same_llc == 0     ? "other last-level cache"
	       : c->same_llc == 1     ? "one last-level cache"
	                              : NULL;
}

/* What matrix m can compare: the chapter's point is how a pair's latency depends on what its
 * CPUs share (an SMT core, a last-level cache, a package); when every measured pair is of one
 * kind (two vCPUs give one pair; one pair is one kind whatever the topology says of it) no
 * such comparison is in the data, and a finding says so.
 * Under a hypervisor the relations are the topology it reports, not the host's. */
static void an_c2c_kinds(struct lab_doc_section *s, const struct lab_an_c2c *c,
                         const struct lab_an_c2c_matrix *m)
{
	const char *kind = NULL;
	size_t measured = 0;
	int one = 1;

	for (size_t i = 0; i < m->ncell; i++) {
		const char *rel = an_c2c_rel(&m->cell[i]);

		if (!m->cell[i].n)
			continue;
		measured++; /* a pair of unknown relation may be another kind */
		one = one && rel && (!kind || !strcmp(kind, rel));
		kind = kind ? kind : rel;
	}
	/* one pair is one kind, even one whose relation the topology does not say */
	if ((kind && one) || measured == 1)
		lab_doc_finding(
		    s, LAB_DOC_INFO, NULL,
		    "%s %s: how latency depends on what two CPUs share (SMT core, "
		    "last-level cache, package) cannot be compared in this data",
		    measured == 1 ? "the one pair measured is"
		                  : lab_doc_printf(s->doc, "all %zu measured pairs are", measured),
		    kind ? kind : "of a relation run.json's topology does not say");
	if (kind && *c->hypervisor)
		lab_doc_note(s,
		             "the pairs' relations are the topology the hypervisor (%s) reports: "
		             "which host CPUs run the vCPUs, and what they share, is not seen from "
		             "the guest",
		             c->hypervisor);
}

/* The row note: the pair's relation; samples the load guard left out or kept; multimodal, its modes
 * in words; and when the kernel's batches put the pair at under half the whole samples' one-way (a
 * sample's round trips hold its preemptions: --include-flagged read 3213 ns where the batches'
 * median was 212 ns), the batches' median beside it. */
static void an_c2c_rnote(struct lab_doc_table *t, const struct lab_an_c2c_cell *c)
{
	char note[640] = "", fl[96];
	size_t k = 0;
	const char *rel = an_c2c_rel(c);

	if (rel)
		lab_an_cat(note, sizeof(note), &k, "%s", rel);
	if (c->n && c->pt && lab_an_flagged_mark(c->pt, fl, sizeof(fl))) /* else why says it */
		lab_an_cat(note, sizeof(note), &k, "%s%s", k ? "; " : "", fl);
	if (lab_an_modes_multi(&c->modes)) {
		lab_an_cat(note, sizeof(note), &k, "%sMULTIMODAL, %zu modes:", k ? "; " : "",
		           c->modes.count);
		for (size_t i = 0; i < c->modes.count; i++)
			lab_an_cat(note, sizeof(note), &k, "%s %.4g ns (%.0f%%)", i ? "," : "",
			           c->modes.mode[i].center, 100 * c->modes.mode[i].weight);
		lab_an_cat(
		    note, sizeof(note), &k,
		    " (compare pairs by their modes: the median %.4g ns is one mode's at best, "
		    "the mean none's)",
		    c->median_ns);
	}
	if (an_c2c_batch(c))
		lab_an_cat(note, sizeof(note), &k,
		           "%sthe kernel's batches put it at %.4g ns (metric_one_way_p50_ns): the "
		           "samples' whole round trips hold interruptions, so read that",
		           k ? "; " : "", c->m_p50);
	if (*note)
		lab_doc_rnote(t, "%s", note);
}

/* One row per cell, in point order. */
static void an_c2c_pairs(struct lab_doc *doc, struct lab_doc_section *s,
                         const struct lab_an_c2c_matrix *m)
{
	static const struct lab_doc_col col[] = {{"cpu_a", NULL, LAB_DOC_KEY},
	                                         {"cpu_b", NULL, LAB_DOC_KEY},
	                                         {"point", NULL, LAB_DOC_KEY},
	                                         {"one_way", "ns", LAB_DOC_INTERVAL},
	                                         {"modes", NULL, LAB_DOC_COUNT},
	                                         {"mode_centers", "ns", LAB_DOC_TEXT},
	                                         {"mode_weights", NULL, LAB_DOC_TEXT},
	                                         {"multimodal", NULL, LAB_DOC_COUNT},
	                                         {"smt_siblings", NULL, LAB_DOC_COUNT},
	                                         {"same_package", NULL, LAB_DOC_COUNT},
	                                         {"same_numa", NULL, LAB_DOC_COUNT},
	                                         {"same_llc", NULL, LAB_DOC_COUNT},
	                                         {"metric_one_way_ns", "ns", LAB_DOC_VALUE},
	                                         {"metric_one_way_p10_ns", "ns", LAB_DOC_VALUE},
	                                         {"metric_one_way_p50_ns", "ns", LAB_DOC_VALUE},
	                                         {"metric_one_way_p90_ns", "ns", LAB_DOC_VALUE}};
	struct lab_doc_table *t = lab_doc_table(s, "pairs", "per pair: one-way latency (ns)");
	char buf[160];

	if (t)
		t->csv = "c2c_matrix";
	for (size_t k = 0; k < sizeof(col) / sizeof(col[0]); k++)
		lab_doc_col(t, col[k].key, col[k].unit, col[k].kind);
	for (size_t i = 0; i < m->ncell; i++) {
		const struct lab_an_c2c_cell *c = &m->cell[i];
		const double metric[] = {c->m_one_way, c->m_p10, c->m_p50, c->m_p90};
		const int rel[] = {c->smt_siblings, c->same_package, c->same_numa, c->same_llc};

		lab_doc_row(t);
		/* -1: not known (a point skipped before it had CPUs): no label */
		if (c->cpu_a >= 0 && c->cpu_b >= 0) {
			lab_doc_str(doc, lab_doc_at(t, 0), lab_doc_printf(doc, "%d", c->cpu_a));
			lab_doc_str(doc, lab_doc_at(t, 1), lab_doc_printf(doc, "%d", c->cpu_b));
		}
		lab_doc_str(doc, lab_doc_at(t, 2), lab_doc_printf(doc, "%ld", c->pt->id));
		if (strcmp(c->pt->status, "ok"))
			lab_doc_rwhy(t, "not run: %s%s%s", c->pt->status, c->pt->reason ? ": " : "",
			             c->pt->reason ? c->pt->reason : " (see run.json)");
		else if (!c->n)
			lab_doc_rwhy(t,
			             "every sample ran under foreign load and was left out (rerun "
			             "when quiet or pass --include-flagged)");
		else if (c->ci_runs)
			lab_doc_ival(lab_doc_at(t, 3), c->median_ns, c->mean_ns, c->ci95_lo,
			             c->ci95_hi, c->n);
		else
			lab_doc_ival_median(lab_doc_at(t, 3), c->median_ns, c->mean_ns, c->ci95_lo,
			                    c->ci95_hi, c->n);
		if (c->modes.count) {
			lab_doc_num(lab_doc_at(t, 4), (double)c->modes.count);
			lab_doc_str(doc, lab_doc_at(t, 5),
			            lab_an_modes_list(&c->modes, 0, 1, buf, sizeof(buf)));
			lab_doc_str(doc, lab_doc_at(t, 6),
			            lab_an_modes_list(&c->modes, 1, 1, buf, sizeof(buf)));
		} else if (c->n) {
			lab_doc_why(doc, lab_doc_at(t, 4), "n < %d", LAB_AN_MODES_MIN_N);
		}
		if (c->n)
			lab_doc_num(lab_doc_at(t, 7), lab_an_modes_multi(&c->modes));
		for (size_t k = 0; k < 4; k++)
			if (rel[k] >= 0)
				lab_doc_num(lab_doc_at(t, 8 + k), rel[k]);
			else
				lab_doc_why(doc, lab_doc_at(t, 8 + k), "unknown");
		for (size_t k = 0; k < 4; k++)
			lab_doc_num(lab_doc_at(t, 12 + k), metric[k]);
		an_c2c_rnote(t, c);
	}
}

/* One section per matrix: the summary row, the grid and its heat map, the pairs. */
static void an_c2c_section(struct lab_doc *doc, const struct lab_an_c2c *c,
                           const struct lab_an_c2c_matrix *m)
{
	struct lab_doc_section *s = lab_doc_section(doc, m->experiment, m->params);
	struct lab_doc_table *t = lab_doc_table(s, "summary", NULL);

	if (s)
		s->title = "c2c one-way latency (ns)";
	lab_doc_col(t, "method", NULL, LAB_DOC_KEY);
	lab_doc_col(t, "pairs", NULL, LAB_DOC_COUNT);
	lab_doc_col(t, "cpus", NULL, LAB_DOC_COUNT);
	lab_doc_col(t, "multimodal", NULL, LAB_DOC_COUNT);
	lab_doc_col(t, "min_median", "ns", LAB_DOC_VALUE);
	lab_doc_col(t, "max_median", "ns", LAB_DOC_VALUE);
	lab_doc_row(t);
	lab_doc_str(doc, lab_doc_at(t, 0), *m->method ? m->method : "?");
	lab_doc_num(lab_doc_at(t, 1), (double)m->ncell);
	lab_doc_num(lab_doc_at(t, 2), (double)m->ncpu);
	lab_doc_num(lab_doc_at(t, 3), (double)m->multimodal);
	lab_doc_num(lab_doc_at(t, 4), m->min_ns); /* none: infinite, so no number */
	lab_doc_num(lab_doc_at(t, 5), m->max_ns);
	if (!(m->max_ns >= m->min_ns))
		lab_doc_finding(s, LAB_DOC_WARN, NULL, "%s", an_c2c_no_median(m));
	if (!c->topo_detailed)
		lab_doc_finding(s, LAB_DOC_WARN, NULL,
		                "run.json has no host.topology.pus_detail: SMT siblings and NUMA "
		                "nodes are marked only where the topology summary proves them");
	an_c2c_kinds(s, c, m);
	if (m->ncpu) /* none: no pair had CPUs (skipped before it had them); the table says why */
		an_c2c_grid(doc, s, m);
	an_c2c_pairs(doc, s, m);
}

static int an_c2c_describe(const struct lab_an_view *v, const void *state, struct lab_doc *doc)
{
	const struct lab_an_c2c *c = state;

	(void)v;
	doc->title = "Core-to-core latency";
	lab_doc_about(doc,
	              "One-way latency = elapsed / round trips / 2 per sample; per CPU pair the "
	              "median of its samples with a distribution-free 95 % interval (order "
	              "statistics, n >= 6; it holds for multimodal samples too), the mean and n. "
	              "A pair whose samples form several modes (the host moving vCPUs, SMT vs "
	              "cross-core paths) shows its modes with their weights, since its median is "
	              "a number nobody measured. Every value per pair is in c2c_matrix.csv.",
	              NULL);
	for (size_t i = 0; i < c->nm; i++)
		an_c2c_section(doc, c, &c->m[i]);
	return lab_doc_failed(doc) ? -LAB_ENOMEM : 0;
}

const struct lab_an_view lab_an_view_c2c = {
    .name = "c2c",
    .applies = an_c2c_applies,
    .hides_series = 1, /* one pair per series: the matrix shows them */
    .compute = an_c2c_compute,
    .free = lab_an_c2c_free,
    .describe = an_c2c_describe,
    .misfit = an_c2c_misfit,
};
