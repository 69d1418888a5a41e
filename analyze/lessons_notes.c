/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a verdict says after itself (lessons_int.h lab__lesson_notes): threads that shared a
 * core, a machine that may hide what a claim is about (an emulated CPU, a VM's NUMA nodes), and
 * a run of a point far from its others when the verdict is inconclusive.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/compare.h"
#include "analyze/data.h"
#include "analyze/flagged.h"
#include "analyze/lessons_int.h"
#include "analyze/levels.h"
#include "analyze/stats.h"
#include "analyze/views/locks_delay.h"
#include "harness/record_schema.h"

/* qsort's order of (package, core, cpu) triples. */
static int ev_core_cmp(const void *a, const void *b)
{
	const double *x = a, *y = b;

	for (int i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

/* 1 when two distinct CPUs of point p's (run.json's "cpus") are PUs of one core; *cpu0, *cpu1
 * two such. A CPU listed twice is one PU, not two; a core is its (package, core) pair. */
static int ev_shares_core(const struct ev_pindex *x, const struct lab_an_point *p, double *cpu0,
                          double *cpu1)
{
	const struct lab_an_json *cpus = lab_an_json_get(p->runjson, "cpus");
	const double *core;
	double *key;
	size_t n = 0;
	int shared = 0;

	if (!cpus || cpus->type != LAB_AN_JSON_ARR || cpus->n < 2 ||
	    cpus->n > LAB_AN_LESSON_PUS_MAX || !(key = malloc(cpus->n * 3 * sizeof(*key))))
		return 0;
	for (size_t i = 0; i < cpus->n; i++)
		if (cpus->items[i].type == LAB_AN_JSON_NUM &&
		    (core = lab__lesson_core(x, cpus->items[i].num))) {
			key[3 * n] = core[0]; /* package, core, then the CPU */
			key[3 * n + 1] = core[1];
			key[3 * n + 2] = cpus->items[i].num;
			n++;
		}
	if (n)
		qsort(key, n, 3 * sizeof(*key), ev_core_cmp);
	/* sorted, a core's CPUs are together and a CPU listed twice follows itself */
	for (size_t i = 1; i < n && !shared; i++) {
		const double *a = key + 3 * (i - 1), *b = key + 3 * i;

		if (a[0] == b[0] && a[1] == b[1] && a[2] != b[2]) {
			*cpu0 = a[2];
			*cpu1 = b[2];
			shared = 1;
		}
	}
	free(key);
	return shared;
}

/* A claim on a point whose threads ran on PUs of one core (SMT siblings, as placement = compact
 * puts them) says so after its verdict: those threads share the core's L1 and pipelines, so no
 * line moves between them and they do not scale as cores do. */
static void ev_smt_note(const struct ev *e, struct lab_an_lesson *out)
{
	double c0, c1;
	size_t len = strlen(out->text);

	for (unsigned v = 0; e->px->npus && v < e->nvar; v++)
		if (e->var[v].pt->threads >= 2 && ev_shares_core(e->px, e->var[v].pt, &c0, &c1)) {
			snprintf(out->text + len, sizeof(out->text) - len,
			         "; note: point %ld ran threads on CPUs %.0f and %.0f, PUs of one "
			         "core (SMT siblings): they share its L1 and pipelines, so no line "
			         "moves between them (placement = cores puts threads on distinct "
			         "cores first)",
			         e->var[v].pt->id, c0, c1);
			return;
		}
}

/* Whether point p's params name where its memory goes (mem_node, membind, init) or put its
 * threads on one NUMA node (placement=node:N). */
static int ev_numa_point(const struct lab_an_point *p)
{
	static const char *const keys[] = {"mem_node=",      "membind=node",    "init=bind",
	                                   "init=preferred", "init=interleave", "placement=node:"};

	for (const char *s = p->params; s && *s; s += strcspn(s, ";"), s += *s == ';')
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strncmp(s, keys[k], strlen(keys[k])))
				return 1;
	return 0;
}

/* A claim measured in a virtual machine says what the machine may hide: under an emulated CPU
 * (QEMU TCG) every time is the emulator's; under a hypervisor, a NUMA claim that does not hold
 * may have met nodes that split one physical node's memory, where remote and local cost the
 * same whatever the hardware beneath does. */
static void ev_vm_note(const struct ev *e, struct lab_an_lesson *out)
{
	size_t len = strlen(out->text);
	int numa = 0;

	for (unsigned v = 0; v < e->nvar; v++)
		numa |= ev_numa_point(e->var[v].pt);
	if (!strcmp(e->px->hypervisor, "QEMU TCG"))
		snprintf(out->text + len, sizeof(out->text) - len,
		         "; note: measured on an emulated CPU (QEMU TCG): the times are the "
		         "emulator's, not any hardware's");
	else if (e->px->hypervisor[0] && numa && e->px->numa_nodes >= 2 &&
	         out->verdict != LAB_AN_HOLDS)
		snprintf(out->text + len, sizeof(out->text) - len,
		         "; note: measured in a virtual machine (%s): its NUMA nodes may split one "
		         "physical node's memory, so remote and local can cost the same whatever "
		         "the hardware beneath does",
		         e->px->hypervisor);
}

/* A claim measured by a lab built with sanitizers (run.json lab.sanitize): its times are the
 * instrumented code's, whatever the verdict. */
static void ev_sanitize_note(const struct ev *e, struct lab_an_lesson *out)
{
	const char *san = lab_an_build_sanitize(e->d->run);
	size_t len = strlen(out->text);

	if (san) /* cut at a character boundary, the cut marked */
		snprintf(out->text + len, sizeof(out->text) - len,
		         "; note: measured by a lab built with sanitizers (%.*s%s): the times are "
		         "the instrumented code's",
		         lab_an_utf8_fit(san, 40), san, san[lab_an_utf8_fit(san, 40)] ? "..." : "");
}

/*
 * An inconclusive claim on a point of 3 or more runs, one of which lies far from the others
 * (its distance from their median over 3 times their range and over 10 % of it), names that run:
 * one setup can widen an interval over run means past a bound, and more runs tell whether it was
 * a fluke; run means in two clusters (lab_an_runs_apart) are said as such. Only cost means are
 * looked at; runs are numbered as samples.csv's run column.
 */
static void ev_runs_note(const struct ev *e, struct lab_an_lesson *out)
{
	size_t len = strlen(out->text);
	struct lab_an_apart a;

	for (unsigned v = 0; out->verdict == LAB_AN_INCONCLUSIVE && v < e->nvar; v++) {
		const struct lab_an_point *p = e->var[v].pt;
		const char *unit = lab_an_point_unit(e->d, p) ? lab_an_point_unit(e->d, p) : "";
		size_t loaded = lab_an_flagged_kept(p);
		char cause[200];

		if (e->var[v].metric >= 0 || !lab_an_runs_apart(p, &a))
			continue;
		/* load the lab saw explains a spread of its own: not a setup's difference */
		if (loaded)
			snprintf(cause, sizeof(cause),
			         "%zu of its samples ran under foreign load (kept by "
			         "--include-flagged), which may be all that sets them apart",
			         loaded);
		else
			snprintf(cause, sizeof(cause), "%s",
			         a.kind == LAB_AN_APART_CLUSTERS
			             ? "its setups differ in something the lab does not see (the "
			               "pages a setup got; on a VM, where the host runs the vCPUs)"
			             : "more runs would tell whether that setup was a fluke");
		if (a.kind == LAB_AN_APART_CLUSTERS)
			snprintf(
			    out->text + len, sizeof(out->text) - len,
			    "; note: the runs of point %ld fall into two clusters (%.0f at %.4g "
			    ".. %.4g, %.0f at %.4g .. %.4g%s%s): %s%s",
			    p->id, a.c[0], a.c[1], a.c[2], a.c[3], a.c[4], a.c[5], *unit ? " " : "",
			    unit, cause,
			    loaded ? ""
			           : "; more runs, in a section of their own, sample both alike");
		else
			snprintf(out->text + len, sizeof(out->text) - len,
			         "; note: run %d of point %ld (mean %.4g%s%s) lies far from its %d "
			         "other runs (%.4g .. %.4g) and widens the interval: %s",
			         a.run, p->id, a.mean, *unit ? " " : "", unit, a.nruns - 1, a.lo,
			         a.hi, cause);
		return;
	}
}

/* Why p kept fewer of its runs than run.json counts (seen: the runs samples.csv has rows of,
 * lab_an_point_runs_seen): their rows gone from samples.csv, their samples all flagged for load,
 * or some of each. */
static const char *an_runs_why(const struct lab_an_point *p, size_t seen, double runs)
{
	if (!((double)seen < runs))
		return "the others' samples were all flagged for load";
	return seen > p->levels.runs ? "some others' rows are not in samples.csv, the rest's "
	                               "samples were all flagged for load"
	                             : "the others' rows are not in samples.csv";
}

/* Whether var v is a metric with values in one of its point's two or more kept runs (the rest
 * blank): its summary then falls back to one run's samples (review37: "holds" on one run of
 * three, its table row saying "over the run means"), said into why. */
static int an_metric_one_setup(const struct ev *e, const struct ev_var *v, char *why, size_t len)
{
	const struct lab_an_msum *m =
	    v->metric >= 0 ? lab_an_msum_of(v->pt, (size_t)v->metric) : NULL;

	if (!m || !m->n || m->runs >= 2 || v->pt->levels.runs < 2)
		return 0;
	snprintf(why, len,
	         ": point %ld has %s values in one of its %zu kept runs, so they are one setup's "
	         "and say nothing of the others: run it again",
	         v->pt->id, e->d->metric_name[v->metric], v->pt->levels.runs);
	return 1;
}

int lab__lesson_one_setup(const struct ev *e, char *why, size_t len)
{
	for (unsigned v = 0; v < e->nvar; v++) {
		const struct lab_an_point *p = e->var[v].pt;
		double runs, planned;
		size_t kept;
		char what[160];

		if (an_metric_one_setup(e, &e->var[v], why, len))
			return 1;
		if (!lab_an_point_one_setup(p, &kept, &runs, &planned))
			continue;
		size_t seen = runs >= 2 ? lab_an_point_runs_seen(p) : 0;
		int gone = runs >= 2 && (double)seen < runs;

		if (runs >= 2) /* its runs' samples flagged, or their rows gone, or both */
			snprintf(what, sizeof(what), "kept %zu of its %.0f runs (%s)", kept, runs,
			         an_runs_why(p, seen, runs));
		else /* an interrupted run, before the point's 2nd */
			snprintf(what, sizeof(what),
			         "has %zu run of the %.0f planned (no more had run)", kept,
			         planned);
		snprintf(why, len,
		         ": point %ld %s, so its samples are one setup's and say nothing of the "
		         "others: %s",
		         p->id, what,
		         runs >= 2 && !gone ? "rerun on a quieter machine" : "run it again");
		return 1;
	}
	return 0;
}

int lab__lesson_flagged(const struct ev *e, size_t *flagged, size_t *used)
{
	int loaded = 0;

	*flagged = *used = 0;
	for (unsigned v = 0; v < e->nvar; v++) {
		const struct lab_an_point *p = e->var[v].pt;
		bool seen = false;
		for (unsigned w = 0; w < v; w++)
			seen = seen || e->var[w].pt == p;
		if (seen)
			continue;
		size_t mine = lab_an_flagged_kept(p);
		*used += p->levels.n; /* the samples its means are from */
		*flagged += mine;
		loaded |= 2 * mine > p->n;
	}
	return loaded || 2 * *flagged > *used;
}

/* Means from samples flagged for load (kept by --include-flagged): said, with how
 * many, after the verdict (a shared counter "failed" to stay flat on two busy vCPUs), unless
 * the verdict's reason said it already (most of them: lessons_judge.c). */
static void ev_flagged_note(const struct ev *e, struct lab_an_lesson *out)
{
	size_t flagged = out->flagged, used = out->samples, len = strlen(out->text);

	(void)e;
	if (flagged && !out->load_said)
		snprintf(out->text + len, sizeof(out->text) - len,
		         "; note: %zu of the %zu samples these means are from were flagged for "
		         "foreign load%s (kept by --include-flagged): %s",
		         flagged, used,
		         out->loaded && 2 * flagged <= used ? ", most of one point's" : "",
		         out->loaded ? "a busy machine's numbers decide nothing; rerun when quiet"
		                     : "a busy machine's numbers, which may read slow or noisy");
}

/* A claim whose side is one speedup, at N threads, whose interval lies wholly above N says the
 * speedup is superlinear: no team of N shares one job's work N ways faster than by N, so the
 * point differs from its 1-thread baseline by more than its threads (a working set split into
 * caches, CPUs that differ). Said only in analysis.json's series before. */
static void ev_superlinear_note(const struct ev *e, struct lab_an_lesson *out)
{
	const struct lab_lesson_claim *c = e->c;
	size_t len = strlen(out->text);

	for (int side = 0; side < 2; side++) {
		int n = side ? c->rhs : c->lhs, v = e->leaf[n];
		if (c->node[n].op != LAB_LESSON_SPEEDUP || v < 0 || !isfinite(out->lo))
			continue;
		/* the interval is the side's where the other side is a number */
		if (c->node[side ? c->lhs : c->rhs].op != LAB_LESSON_NUM)
			continue;
		if (out->lo > e->var[v].pt->threads)
			snprintf(
			    out->text + len, sizeof(out->text) - len,
			    "; note: SUPERLINEAR: the speedup's interval lies above %d, its thread "
			    "count: more than the team's share of the work changed (a working set "
			    "that now fits in caches, CPUs that differ)",
			    e->var[v].pt->threads);
		return;
	}
}

/* A lock point whose busy-loop delay moved (analyze/views/locks_delay.h: its calibration drifted,
 * its critical section came out off cs_ns, or its throughput passed 1/cs_ns) is DELAY FLAGGED in
 * the locks view; a verdict that reads it says so, naming the first such point (a fairness
 * lesson held at 2.5 on a tas point whose 100 ns sections ran 48 to 65 ns, where its one
 * calibrated setup gave 2.0). */
static void ev_delay_note(const struct ev *e, struct lab_an_lesson *out)
{
	size_t len = strlen(out->text), moved = 0;
	const struct lab_an_point *first = NULL;
	char why[448], first_why[448] = "", more[48] = "";

	for (unsigned v = 0; v < e->nvar; v++) {
		const struct lab_an_point *p = e->var[v].pt;
		bool seen = false;

		for (unsigned w = 0; w < v; w++)
			seen = seen || e->var[w].pt == p;
		if (seen || !lab_an_delay_point(e->d, p, why, sizeof(why)))
			continue;
		if (!moved++) {
			first = p;
			snprintf(first_why, sizeof(first_why), "%s", why);
		}
	}
	if (moved > 1)
		snprintf(more, sizeof(more), " (and %zu more of its points)", moved - 1);
	if (first)
		snprintf(
		    out->text + len, sizeof(out->text) - len,
		    "; note: the delay these means rest on moved, so they are not the "
		    "configured sections' (compare with care): point %ld (threads=%d, %.*s%s)%s: "
		    "%s",
		    first->id, first->threads, lab_an_utf8_fit(first->params, 80), first->params,
		    strlen(first->params) > 80 ? "..." : "", more, first_why);
}

/* A point of the claim that kept 2 or more of its runs but not all (the others' samples all
 * flagged for load, or their rows gone), or got 2 or more of more planned (an interrupted run):
 * its interval is over those setups alone, said beside any verdict (one kept run makes the
 * claim inconclusive: lab__lesson_one_setup). */
static void ev_kept_runs_note(const struct ev *e, struct lab_an_lesson *out)
{
	size_t len, got, planned;

	/* every such point of the claim, each once (the first alone left out the one that
	 * stretched the interval: a ratio's divisor kept 2 of 5 runs) */
	for (unsigned v = 0; v < e->nvar; v++) {
		const struct lab_an_point *p = e->var[v].pt;
		double runs = p->runjson ? lab_an_json_num(p->runjson, LAB_KEY_RUNS, 1) : 1;
		unsigned w = 0;

		while (w < v && e->var[w].pt != p)
			w++;
		if (w < v || p->levels.runs < 2 || strcmp(p->status, "ok"))
			continue;
		len = strlen(out->text);
		if (p->levels.runs < runs)
			snprintf(
			    out->text + len, sizeof(out->text) - len,
			    "; note: point %ld kept %zu of its %.0f runs (%s): its interval is "
			    "over those setups alone",
			    p->id, p->levels.runs, runs,
			    an_runs_why(p, lab_an_point_runs_seen(p), runs));
		/* an interrupted run: fewer than planned (a precision target's cap is no plan) */
		else if (lab_an_point_runs_short(p, &got, &planned) &&
		         !lab_an_json_get(p->runjson, LAB_KEY_PRECISION_TARGET))
			snprintf(out->text + len, sizeof(out->text) - len,
			         "; note: point %ld has %zu of its %zu planned runs (the run ended "
			         "first): its interval is over those setups alone",
			         p->id, got, planned);
	}
}

void lab__lesson_notes(const struct ev *e, struct lab_an_lesson *out)
{
	ev_flagged_note(e, out);
	ev_delay_note(e, out);
	ev_superlinear_note(e, out);
	ev_smt_note(e, out);
	ev_vm_note(e, out);
	ev_sanitize_note(e, out);
	ev_kept_runs_note(e, out);
	ev_runs_note(e, out);
}
