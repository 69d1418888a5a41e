/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Per sample, on each worker: enable its pass's groups, disable, read, scale, sum. */
#include <math.h>

#include "harness/counters_internal.h"
#include "harness/json.h"
#include "harness/runner.h"

static bool ctr_in_pass(const struct lab_ctr_point *cp, unsigned gi)
{
	return cp->g[gi].sw || cp->g[gi].pass == cp->pass;
}

void lab_ctr_sample_start(struct lab_ctr_point *cp, unsigned tid)
{
	if (!cp || !cp->record)
		return;
	struct ctr_thread *t = &cp->t[tid];
	const struct lab_pe_ops *o = cp->ops;
	if (cp->info.exclude_kernel_sw)
		getrusage(RUSAGE_THREAD, &t->ru0);
	for (unsigned i = 0; i < cp->ng; i++) {
		struct ctr_tgroup *tg = &t->g[i];
		tg->active = tg->n && ctr_in_pass(cp, i);
		if (!tg->active)
			continue;
		o->ioctl(o->ctx, tg->fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		o->ioctl(o->ctx, tg->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	}
}

void lab_ctr_sample_stop(struct lab_ctr_point *cp, unsigned tid, int cpu_start, int cpu_end)
{
	if (!cp || !cp->record)
		return;
	struct ctr_thread *t = &cp->t[tid];
	const struct lab_pe_ops *o = cp->ops;
	uint64_t buf[3 + 2 * LAB_CTR_GROUP_MAX];
	for (unsigned i = 0; i < cp->ng; i++) {
		struct ctr_tgroup *tg = &t->g[i];
		if (tg->active)
			o->ioctl(o->ctx, tg->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	}
	for (unsigned i = 0; i < cp->ng; i++) {
		struct ctr_tgroup *tg = &t->g[i];
		if (!tg->active)
			continue;
		ssize_t n = o->read(o->ctx, tg->fd[0], buf, sizeof(buf));
		if (n < 0 || lab_ctr_parse_read(buf, (size_t)n, tg->id, tg->n, tg->raw,
		                                &tg->enabled, &tg->running))
			tg->active = false;
	}
	if (cp->info.exclude_kernel_sw) {
		struct rusage ru;
		getrusage(RUSAGE_THREAD, &ru);
		t->csw = (double)(ru.ru_nvcsw - t->ru0.ru_nvcsw + ru.ru_nivcsw - t->ru0.ru_nivcsw);
		t->mig = cpu_start != cpu_end;
	}
}

void lab_ctr_thread_values(const struct lab_ctr_point *cp, unsigned tid, double *vals, double *mux)
{
	*mux = 1;
	for (unsigned e = 0; e < LAB_CTR_EVENTS_MAX; e++)
		vals[e] = NAN;
	if (!cp || !cp->record)
		return;
	const struct ctr_thread *t = &cp->t[tid];
	for (unsigned i = 0; i < cp->ng; i++) {
		const struct ctr_tgroup *tg = &t->g[i];
		if (!tg->active)
			continue;
		for (unsigned k = 0; k < tg->n; k++) {
			double ratio;
			if (tg->raw[k] == UINT64_MAX || !isnan(vals[tg->ev[k]]))
				continue;
			vals[tg->ev[k]] =
			    lab_ctr_scale(tg->raw[k], tg->enabled, tg->running, &ratio);
			if (ratio < *mux)
				*mux = ratio;
		}
	}
	bool sw = cp->ev_csw >= 0 && (cp->info.requested >> cp->ev_csw & 1);
	if (cp->info.exclude_kernel_sw && sw) {
		vals[cp->ev_csw] = t->csw;
		vals[cp->ev_mig] = t->mig;
	}
}

void lab_ctr_sample_done(struct lab_ctr_point *cp, unsigned nworkers)
{
	double vals[LAB_CTR_EVENTS_MAX], mux;
	bool cs = false, mig = false;

	if (!cp || !cp->record)
		return;
	for (unsigned tid = 0; tid < nworkers; tid++) {
		lab_ctr_thread_values(cp, tid, vals, &mux);
		cp->info.mux_samples += mux < 1;
		cs |= cp->ev_csw >= 0 && vals[cp->ev_csw] > 0;
		mig |= cp->ev_mig >= 0 && vals[cp->ev_mig] > 0;
		for (unsigned e = 0; e < lab_ctr_nevents(); e++)
			if (!isnan(vals[e]))
				cp->counted |= 1ull << e;
	}
	cp->recorded++;
	cp->info.samples++;
	cp->info.cs_samples += cs;
	cp->info.mig_samples += mig;
}

void lab_ctr_record(struct lab_ctr_point *cp, struct lab_thread_rec *threads, unsigned n,
                    struct lab_sample_rec *s)
{
	for (unsigned e = 0; e < LAB_CTR_EVENTS_MAX; e++)
		s->ctr[e] = NAN;
	s->ctr_mux = 1;
	for (unsigned i = 0; i < n; i++) {
		struct lab_thread_rec *t = &threads[i];
		lab_ctr_thread_values(cp, i, t->ctr, &t->ctr_mux);
		s->ctr_mux = t->ctr_mux < s->ctr_mux ? t->ctr_mux : s->ctr_mux;
		for (unsigned e = 0; e < LAB_CTR_EVENTS_MAX; e++)
			if (!isnan(t->ctr[e]))
				s->ctr[e] = (isnan(s->ctr[e]) ? 0 : s->ctr[e]) + t->ctr[e];
	}
	lab_ctr_sample_done(cp, n);
}

void lab_ctr_raw_json(const struct lab_ctr_point *cp, unsigned tid, struct lab_json *j)
{
	lab_json_arr_open(j, "groups");
	for (unsigned i = 0; cp && i < cp->ng; i++) {
		const struct ctr_tgroup *tg = &cp->t[tid].g[i];
		if (!tg->active)
			continue;
		lab_json_obj_open(j, NULL);
		lab_json_str(j, "formula", cp->g[i].formula);
		lab_json_uint(j, "pass", cp->g[i].pass);
		lab_json_uint(j, "time_enabled", tg->enabled);
		lab_json_uint(j, "time_running", tg->running);
		lab_json_arr_open(j, "events");
		for (unsigned k = 0; k < tg->n; k++)
			lab_ctr_event_json(j, tg->ev[k], tg->id[k], tg->raw[k]);
		lab_json_arr_close(j);
		lab_json_obj_close(j);
	}
	lab_json_arr_close(j);
}

unsigned lab_ctr_passes(const struct lab_ctr_point *cp)
{
	return cp ? cp->info.npasses : 1;
}
