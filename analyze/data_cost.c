/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What run.json says of an experiment and its costs: its entry, weak or strong scaling, whose
 * time a cost is (work_scope) and whether it is a latency (cost_kind), with the labels the
 * outputs print.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/data.h"
#include "analyze/data_int.h"
#include "harness/record_schema.h"

const struct lab_an_json *lab_an_data_experiment(const struct lab_an_data *d,
                                                 const char *experiment)
{
	size_t e = lab_an_exp_find(d, experiment);

	return e == (size_t)-1 ? NULL : &lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS)->items[e];
}

int lab_an_data_is_weak(const struct lab_an_data *d, const char *experiment)
{
	size_t e = lab_an_exp_find(d, experiment);
	const char *sc;

	if (e == (size_t)-1)
		return 0;
	sc = lab_an_json_str(&lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS)->items[e],
	                     LAB_KEY_SCALING);
	return sc && !strcmp(sc, "weak");
}

int lab_an_rows_gone(const struct lab_an_point *p)
{
	return p->reason && !strcmp(p->reason, LAB_AN_REASON_ROWS_GONE);
}

const char *lab_an_point_unit(const struct lab_an_data *d, const struct lab_an_point *p)
{
	return p && p->unit ? p->unit : d->unit;
}

/* Per enum lab_work_scope: the short qualifier and the sentence that explains it. */
static const char *const an_scope_name[] = LAB_WORK_SCOPE_NAMES;
static const char *const an_scope_short[] = {
    "all threads together",
    "one unit for the whole team",
    "thread 0's units only",
};
static const char *const an_scope_long[] = {
    ("wall time per unit of the whole team's work, all threads together; one thread's own "
     "time per unit is about this times the threads"),
    "wall time per unit; each unit involves the whole team and is counted once",
    "wall time per unit that thread 0 did; the other threads' work is not counted",
};

int lab_an_cost_scope(const struct lab_an_data *d, const char *experiment)
{
	size_t e = lab_an_exp_find(d, experiment);
	const char *v;

	if (e == (size_t)-1)
		return -1;
	v = lab_an_json_str(&lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS)->items[e],
	                    LAB_KEY_WORK_SCOPE);
	for (int i = 0; v && i < (int)(sizeof(an_scope_name) / sizeof(an_scope_name[0])); i++)
		if (!strcmp(v, an_scope_name[i]))
			return i;
	return -1;
}

int lab_an_cost_latency(const struct lab_an_data *d, const char *experiment)
{
	size_t e = lab_an_exp_find(d, experiment);
	const char *v;

	if (e == (size_t)-1)
		return 0;
	v = lab_an_json_str(&lab_an_json_get(d->run, LAB_KEY_EXPERIMENTS)->items[e],
	                    LAB_KEY_COST_KIND);
	return v && !strcmp(v, "latency");
}

const char *lab_an_cost_label(const struct lab_an_data *d, const struct lab_an_point *p, char *buf,
                              size_t len)
{
	const char *unit = lab_an_point_unit(d, p);
	int sc = p ? lab_an_cost_scope(d, p->experiment) : -1;

	if (sc < 0)
		snprintf(buf, len, "%s", unit);
	else
		snprintf(buf, len, "%s, %s", unit, an_scope_short[sc]);
	return buf;
}

const char *lab_an_cost_whose(const struct lab_an_data *d, const struct lab_an_point *p)
{
	int sc = p ? lab_an_cost_scope(d, p->experiment) : -1;

	return sc < 0 ? NULL : an_scope_long[sc];
}
