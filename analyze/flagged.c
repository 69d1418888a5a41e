/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/flagged.h"

#include <stdio.h>
#include <string.h>

/* Flagged samples of d, all samples, and how many of the flagged ones run.json says a worker
 * waited for its CPU in (each point's claim capped at its flagged rows: the file is untrusted). */
static void an_flagged_count(const struct lab_an_data *d, size_t *flagged, size_t *total,
                             size_t *runq)
{
	*flagged = *total = *runq = 0;
	for (size_t i = 0; i < d->npt; i++) {
		const struct lab_an_point *p = &d->pt[i];
		size_t f = 0;
		for (size_t j = 0; p->flagged && j < p->n; j++)
			f += p->flagged[j] != 0;
		*flagged += f;
		*total += p->n;
		if (p->flagged_runq > 0)
			*runq += p->flagged_runq < (double)f ? (size_t)p->flagged_runq : f;
	}
}

void lab_an_flagged_count(const struct lab_an_data *d, size_t *flagged, size_t *total)
{
	size_t runq;

	an_flagged_count(d, flagged, total, &runq);
}

int lab_an_asym_line(const struct lab_an_data *d, char *buf, size_t len)
{
	size_t n = 0;
	double ratio = 0;

	for (size_t i = 0; i < d->npt; i++) {
		n += d->pt[i].n_asym;
		ratio = d->pt[i].asym_ratio > ratio ? d->pt[i].asym_ratio : ratio;
	}
	if (len)
		buf[0] = '\0';
	if (!n)
		return 0;
	snprintf(buf, len,
	         "%zu sample%s with asymmetric threads: the slowest thread took %.2fx the fastest "
	         "on identical work (over %.2fx: a slower or disturbed CPU no load guard sees; "
	         "speedups that involve them are suspect)",
	         n, n == 1 ? "" : "s", ratio, LAB_AN_ASYM_RATIO);
	return 1;
}

int lab_an_flagged_line(const struct lab_an_data *d, int include_flagged, char *buf, size_t len)
{
	size_t fl, total, runq;
	char why[96] = "";

	an_flagged_count(d, &fl, &total, &runq);
	if (runq)
		snprintf(why, sizeof(why), " (%zu of them: a worker waited for its CPU)", runq);
	if (len)
		buf[0] = '\0';
	if (!fl)
		return 0;
	/* "100 %" only when every sample, "0 %" never when some were. */
	double pct = 100.0 * (double)fl / (double)total;
	char ps[16];
	if (pct < 1)
		snprintf(ps, sizeof(ps), "<1");
	else
		snprintf(ps, sizeof(ps), "%d", fl < total && pct > 99 ? 99 : (int)(pct + 0.5));
	if (include_flagged)
		snprintf(buf, len,
		         "%s %% of samples (%zu of %zu) ran under foreign load%s and are included "
		         "(--include-flagged): numbers may read slow or noisy",
		         ps, fl, total, why);
	else
		snprintf(buf, len,
		         "%s %% of samples (%zu of %zu) ran under foreign load%s and were left "
		         "out; rerun when quiet or pass --include-flagged",
		         ps, fl, total, why);
	return 1;
}

size_t lab_an_flagged_kept(const struct lab_an_point *p)
{
	size_t mine = 0;

	if (!p->flagged || p->levels.n != p->n) /* flagged ones left out */
		return 0;
	for (size_t j = 0; j < p->n; j++)
		mine += p->flagged[j] != 0;
	return mine;
}

const char *lab_an_flagged_mark(const struct lab_an_point *p, char *buf, size_t len)
{
	size_t kept = lab_an_flagged_kept(p);

	if (len)
		*buf = '\0';
	if (p->n_flagged)
		snprintf(buf, len, "load-flagged %zu left out", p->n_flagged);
	else if (kept)
		snprintf(buf, len, "load-flagged %zu kept (--include-flagged)", kept);
	return len && *buf ? buf : NULL;
}

int lab_an_flagged_all(const struct lab_an_point *p)
{
	return p->st.n == 0 && p->n_flagged > 0 && p->n_flagged == p->n && !strcmp(p->status, "ok");
}

const char *lab_an_point_status(const struct lab_an_point *p)
{
	if (lab_an_flagged_all(p))
		return "flagged";
	return p->st.n == 0 && !strcmp(p->status, "ok") ? "empty" : p->status;
}

const char *lab_an_missing_why(const struct lab_an_point *p, char *buf, size_t len)
{
	if (lab_an_flagged_all(p))
		snprintf(buf, len, "all %zu samples load-flagged (--include-flagged keeps them)",
		         p->n_flagged);
	else if (strcmp(p->status, "ok"))
		snprintf(buf, len, "%s%s%s", p->status, p->reason ? ": " : "",
		         p->reason ? p->reason : "");
	else
		snprintf(buf, len, "no samples");
	return buf;
}
