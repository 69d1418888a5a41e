/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/estimate.h"

#include <math.h>
#include <string.h>

#include "harness/counters.h"

/* Calibration: the growing samples (each at most 1/1.5 of the next, below min_time: about
 * half of min_time together, or none when one iteration already lasts that long), then two
 * full samples; each sample with the harness's own cost. */
static double est_calibration_ns(double target, double sample, double iter)
{
	double steps = iter > 0 && iter < target ? ceil(log(target / iter) / log(16.0)) : 0;

	if (iter >= target)
		return 2 * (sample + LAB_EST_SAMPLE_NS);
	return 0.5 * target + 2 * sample + (steps + 2) * LAB_EST_SAMPLE_NS;
}

double lab_est_touch_ns(const struct lab_est_plan *e)
{
	double price = e->touch_ns_per_byte > 0 ? e->touch_ns_per_byte : LAB_EST_TOUCH_NS_PER_BYTE;

	return e->k.touch_bytes > 0 ? e->k.touch_bytes * price : 0;
}

double lab_est_run_ns(const struct lab_est_plan *e)
{
	double target = e->min_time_ns > e->floor_ns ? e->min_time_ns : e->floor_ns;
	double sample = LAB_EST_OVERSHOOT * target, cal, wu;

	if (e->timed) { /* runs until the stop flag: exactly min_time, after one warm-up sample */
		sample = e->min_time_ns;
		wu = e->warmup_ns > 0 ? e->warmup_ns + LAB_EST_SAMPLE_NS : 0;
	} else {
		if (e->k.iter_ns > sample)
			sample = e->k.iter_ns;
		cal = est_calibration_ns(target, sample, e->k.iter_ns);
		/* The warm-up keeps sampling from the calibration's start until its time is spent.
		 */
		wu = e->warmup_ns > cal ? e->warmup_ns + 0.5 * sample : cal;
	}
	double counters = e->counters ? LAB_EST_COUNTERS_NS * (e->nthreads ? e->nthreads : 1) : 0;

	return LAB_EST_POINT_NS + counters + e->k.setup_ns + lab_est_touch_ns(e) + wu +
	       e->reps * (sample + LAB_EST_SAMPLE_NS);
}

void lab_est_plan_of(const struct lab_point *pt, const struct lab_kernel *k, double clock_res_ns,
                     struct lab_est_plan *e)
{
	memset(e, 0, sizeof(*e));
	e->warmup_ns = (double)pt->h.warmup;
	e->min_time_ns = (double)pt->h.min_time;
	e->floor_ns = 1000 * clock_res_ns;
	e->reps = (double)pt->h.reps;
	e->counters = pt->h.counters != LAB_CTR_OFF;
	e->nthreads = pt->nthreads;
	e->timed = k && (k->flags & LAB_KF_TIMED);
	if (k && k->estimate)
		k->estimate(pt->kparams, pt->nthreads, &e->k);
}
