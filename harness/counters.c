/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Opening, probing, enabling and reading the counter groups of one point. */
#include "harness/counters_internal.h"

#include <errno.h>
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static enum lab_ctr_status ctr_classify(int e, int paranoid, char *reason, size_t len)
{
	switch (e) {
	case ENOENT:
		snprintf(reason, len,
		         "ENOENT: no such PMU or event here (a VM without a virtual PMU?)");
		return LAB_CTR_ST_UNSUPPORTED;
	case EOPNOTSUPP:
	case ENODEV:
		snprintf(reason, len, "%s: not supported by this PMU",
		         e == ENODEV ? "ENODEV" : "EOPNOTSUPP");
		return LAB_CTR_ST_UNSUPPORTED;
	case EACCES:
	case EPERM:
		snprintf(reason, len,
		         "%s: permission (perf_event_paranoid=%d; need CAP_PERFMON or sysctl "
		         "kernel.perf_event_paranoid=1)",
		         e == EACCES ? "EACCES" : "EPERM", paranoid);
		return LAB_CTR_ST_PERMISSION;
	case EINVAL:
		snprintf(reason, len, "EINVAL: invalid here or cannot be scheduled, even alone");
		return LAB_CTR_ST_NOFIT;
	case EMFILE:
	case ENFILE:
		snprintf(
		    reason, len,
		    "EMFILE: out of file descriptors (one per event and thread; raise ulimit -n)");
		return LAB_CTR_ST_ERROR;
	case EBUSY:
		snprintf(reason, len, "EBUSY: the PMU is held exclusively by another user");
		return LAB_CTR_ST_BUSY;
	default:
		snprintf(reason, len, "perf_event_open: %s", strerror(e));
		return LAB_CTR_ST_ERROR;
	}
}

static void ctr_mark(struct lab_ctr_point *cp, unsigned ev, int e)
{
	struct lab_ctr_avail *a = &cp->info.av[ev];

	if (a->st == LAB_CTR_ST_OK && a->source[0])
		return; /* counted by another group: available */
	a->err = e;
	snprintf(a->source, sizeof(a->source), "perf");
	a->st =
	    e ? ctr_classify(e, cp->host->paranoid, a->reason, sizeof(a->reason)) : LAB_CTR_ST_OK;
	if (!e)
		a->reason[0] = '\0';
}

static void ctr_attr(const struct lab_ctr_point *cp, const struct lab_ctr_group *g, unsigned k,
                     struct perf_event_attr *attr)
{
	lab_ctr_event_attr(g->ev[k], attr);
	attr->read_format = CTR_RFMT;
	attr->disabled = k == 0;
	attr->exclude_hv = 1;
	attr->exclude_kernel = g->sw ? cp->info.exclude_kernel_sw : 1;
}

/* Opens event k of g into tg (joining tg's leader when it has one); returns 0 or -errno. */
static int ctr_open_one(const struct lab_ctr_point *cp, const struct lab_ctr_group *g, unsigned k,
                        struct ctr_tgroup *tg)
{
	struct perf_event_attr attr;
	int leader = tg->n ? tg->fd[0] : -1;

	ctr_attr(cp, g, k, &attr);
	attr.disabled = leader < 0;
	int fd = cp->ops->open(cp->ops->ctx, &attr, 0, -1, leader, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return fd;
	tg->fd[tg->n] = fd;
	tg->ev[tg->n] = g->ev[k];
	if (cp->ops->ioctl(cp->ops->ctx, fd, PERF_EVENT_IOC_ID, (unsigned long)&tg->id[tg->n]) < 0)
		tg->id[tg->n] = UINT64_MAX;
	tg->n++;
	return 0;
}

static void ctr_close_group(const struct lab_ctr_point *cp, struct ctr_tgroup *tg)
{
	/* Members first, then the leader. */
	for (unsigned k = tg->n; k-- > 0;)
		cp->ops->close(cp->ops->ctx, tg->fd[k]);
	tg->n = 0;
}

/* Drops the context-switch and migration events from a user-only software group. */
static void ctr_sw_user_only(struct lab_ctr_point *cp, struct lab_ctr_group *g)
{
	unsigned n = 0;

	for (unsigned k = 0; k < g->n; k++) {
		int ev = g->ev[k];
		if (ev == cp->ev_csw || ev == cp->ev_mig) {
			struct lab_ctr_avail *a = &cp->info.av[ev];
			a->st = LAB_CTR_ST_OK;
			a->err = 0;
			snprintf(a->source, sizeof(a->source), "%s",
			         ev == cp->ev_csw ? "getrusage" : "sched_getcpu");
			snprintf(a->reason, sizeof(a->reason),
			         "perf counts it in kernel context, which this user may not count");
			continue;
		}
		g->ev[n++] = (uint8_t)ev;
	}
	g->n = n;
}

/*
 * Test-opens group gi on the calling (main) thread. A member that fails with EINVAL while the
 * group holds others does not fit beside them: it and the rest move to a new group (a new pass).
 */
static void ctr_probe_group(struct lab_ctr_point *cp, unsigned gi)
{
	struct lab_ctr_group *g = &cp->g[gi];
	struct ctr_tgroup tg = {.n = 0};
	uint8_t kept[LAB_CTR_GROUP_MAX];
	unsigned nk = 0;

	for (unsigned k = 0; k < g->n; k++) {
		int rc = ctr_open_one(cp, g, k, &tg);
		if (rc == 0) {
			kept[nk++] = g->ev[k];
			ctr_mark(cp, g->ev[k], 0);
			continue;
		}
		if (g->sw && (rc == -EACCES || rc == -EPERM) && !cp->info.exclude_kernel_sw) {
			/* Kernel-side software counting is not allowed: retry user-only. */
			ctr_close_group(cp, &tg);
			cp->info.exclude_kernel_sw = true;
			ctr_sw_user_only(cp, g);
			ctr_probe_group(cp, gi);
			return;
		}
		if (rc == -EINVAL && tg.n > 0 && !g->sw && cp->ng < LAB_CTR_GROUPS_MAX) {
			struct lab_ctr_group *split = &cp->g[cp->ng++];
			*split = *g;
			split->n = g->n - k;
			memmove(split->ev, g->ev + k, split->n);
			break;
		}
		ctr_mark(cp, g->ev[k], -rc);
	}
	ctr_close_group(cp, &tg);
	g->n = nk;
	memcpy(g->ev, kept, nk);
}

/* Hardware groups get one pass each; software groups count in every pass. */
static void ctr_assign_passes(struct lab_ctr_point *cp)
{
	unsigned pass = 0;

	for (unsigned i = 0; i < cp->ng; i++) {
		struct lab_ctr_group *g = &cp->g[i];
		g->pass = g->sw || g->n == 0 ? 0 : pass++;
		for (unsigned k = 0; k < g->n; k++)
			if (!g->sw && cp->info.av[g->ev[k]].st == LAB_CTR_ST_OK)
				cp->info.av[g->ev[k]].pass = g->pass;
	}
	cp->info.npasses = pass ? pass : 1;
}

static void ctr_preset_reasons(struct lab_ctr_point *cp, const struct lab_ctr_req *req)
{
	const struct lab_ctr_host *h = cp->host;
	bool intel = h->method == LAB_TMA_INTEL_4WIDE || h->method == LAB_TMA_INTEL_PERF_METRICS ||
	             h->method == LAB_TMA_INTEL_PERF_METRICS2;

	snprintf(cp->info.topdown_method, sizeof(cp->info.topdown_method), "%s",
	         lab_ctr_method_name(h->method));
	cp->info.topdown_reason[0] = cp->info.flops_reason[0] = '\0';
	if ((req->presets & LAB_CTR_P_TOPDOWN) && h->method == LAB_TMA_NONE)
		snprintf(cp->info.topdown_reason, sizeof(cp->info.topdown_reason), "%s",
		         h->method_reason ? h->method_reason : "");
	if ((req->presets & LAB_CTR_P_FLOPS) && h->method == LAB_TMA_NONE)
		snprintf(cp->info.flops_reason, sizeof(cp->info.flops_reason),
		         "the lab picks FLOP events with the top-down method, and there is none "
		         "here (%s)",
		         h->method_reason ? h->method_reason : "");
	(void)intel;
}

/* require: the first requested event (or preset) that cannot be counted fails the point. */
static int ctr_require(const struct lab_ctr_point *cp, struct lab_err *err)
{
	if (cp->info.topdown_reason[0])
		return lab_err_set(err, LAB_EUNSUP, "counters = require: topdown: %s",
		                   cp->info.topdown_reason);
	if (cp->info.flops_reason[0])
		return lab_err_set(err, LAB_EUNSUP, "counters = require: flops: %s",
		                   cp->info.flops_reason);
	for (unsigned e = 0; e < lab_ctr_nevents(); e++) {
		const struct lab_ctr_avail *a = &cp->info.av[e];
		if ((cp->info.requested >> e & 1) && a->st != LAB_CTR_ST_OK)
			return lab_err_set(err, LAB_EUNSUP, "counters = require: %s: %s: %s",
			                   lab_ctr_event_name(e), lab_ctr_status_name(a->st),
			                   a->reason);
	}
	return 0;
}

int lab_ctr_point_begin(struct lab_ctr_point **out, enum lab_ctr_mode mode, const char *events,
                        const struct lab_ctr_host *host, const struct lab_pe_ops *ops,
                        unsigned nworkers, struct lab_err *err)
{
	struct lab_ctr_req req;
	struct lab_ctr_point *cp;
	int rc;

	*out = NULL;
	if (mode == LAB_CTR_OFF)
		return 0;
	if ((rc = lab_ctr_req_parse(events, &req, err)))
		return rc;
	cp = calloc(1, sizeof(*cp));
	if (cp)
		cp->t = aligned_alloc(128, ((nworkers * sizeof(*cp->t)) + 127) & ~(size_t)127);
	if (!cp || !cp->t) {
		free(cp);
		return lab_err_set(err, LAB_ENOMEM, "out of memory for counters");
	}
	memset(cp->t, 0, nworkers * sizeof(*cp->t));
	cp->ops = ops ? ops : &lab_pe_ops_sys;
	cp->host = host;
	cp->nw = nworkers;
	cp->info.mode = mode;
	cp->info.requested = lab_ctr_req_mask(&req, host->method);
	cp->ev_csw = lab_ctr_event_find("context-switches");
	cp->ev_mig = lab_ctr_event_find("cpu-migrations");
	/* Unprivileged at paranoid >= 2 may not count kernel context: skip the EACCES round. */
	cp->info.exclude_kernel_sw = !host->privileged && host->paranoid >= 2;
	cp->ng = lab_ctr_req_groups(&req, host->method, cp->g, LAB_CTR_GROUPS_MAX);
	ctr_preset_reasons(cp, &req);
	for (unsigned i = 0; i < cp->ng; i++) {
		if (cp->g[i].sw && cp->info.exclude_kernel_sw)
			ctr_sw_user_only(cp, &cp->g[i]);
		ctr_probe_group(cp, i); /* may append split groups, probed in turn */
	}
	ctr_assign_passes(cp);
	if (mode == LAB_CTR_REQUIRE && (rc = ctr_require(cp, err))) {
		lab_ctr_point_end(cp, NULL, NULL);
		return rc;
	}
	*out = cp;
	return 0;
}

void lab_ctr_thread_open(struct lab_ctr_point *cp, unsigned tid)
{
	if (!cp)
		return;
	struct ctr_thread *t = &cp->t[tid];
	for (unsigned i = 0; i < cp->ng; i++)
		for (unsigned k = 0; k < cp->g[i].n; k++) {
			int rc = ctr_open_one(cp, &cp->g[i], k, &t->g[i]);
			if (rc < 0 && !t->open_err) {
				t->open_err = -rc;
				t->open_err_ev = cp->g[i].ev[k];
			}
		}
}

void lab_ctr_select_pass(struct lab_ctr_point *cp, unsigned rep, bool record)
{
	if (!cp)
		return;
	cp->pass = rep % cp->info.npasses;
	cp->record = record;
}

int lab_ctr_point_end(struct lab_ctr_point *cp, struct lab_ctr_info *info, struct lab_err *err)
{
	int rc = 0;

	if (!cp)
		return 0;
	for (unsigned tid = 0; tid < cp->nw; tid++) {
		struct ctr_thread *t = &cp->t[tid];
		for (unsigned i = 0; i < cp->ng; i++)
			ctr_close_group(cp, &t->g[i]);
		struct lab_ctr_avail *a = &cp->info.av[t->open_err_ev];
		if (t->open_err && a->st == LAB_CTR_ST_OK) {
			a->st = ctr_classify(t->open_err, cp->host->paranoid, a->reason,
			                     sizeof(a->reason));
			a->err = t->open_err;
		}
	}
	for (unsigned e = 0; info && cp->recorded && e < lab_ctr_nevents(); e++) {
		struct lab_ctr_avail *a = &cp->info.av[e];
		if (!(cp->info.requested >> e & 1) || a->st != LAB_CTR_ST_OK ||
		    cp->counted >> e & 1)
			continue;
		a->st = LAB_CTR_ST_NOT_COUNTED;
		snprintf(a->reason, sizeof(a->reason),
		         "opened, but no recorded sample counted it (time_running 0: the group got "
		         "no counter; or fewer reps than the %u passes)",
		         cp->info.npasses);
		if (cp->info.mode == LAB_CTR_REQUIRE && rc == 0)
			rc = lab_err_set(err, LAB_EUNSUP, "counters = require: %s: not counted",
			                 lab_ctr_event_name(e));
	}
	if (info)
		*info = cp->info;
	free(cp->t);
	free(cp);
	return rc;
}
