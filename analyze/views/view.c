/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What views ask of the run and of each other (view.h); nothing here knows the list of views. */
#include "analyze/views/view.h"

#include <string.h>

#include "analyze/analysis.h"
#include "analyze/index.h"
#include "analyze/views/views.h" /* struct lab_an_view_run, not the list */

/* Asked for every point by every view: the experiment is found through the loader's index,
 * O(1) however many experiments the run has (a scan made 1,000 experiments take minutes). */
int lab_an_view_declared(const struct lab_an_data *d, const char *exp, const char *name)
{
	const struct lab_an_json *v = lab_an_json_get(lab_an_data_experiment(d, exp), "views");

	if (!v || v->type != LAB_AN_JSON_ARR)
		return -1;
	for (size_t i = 0; i < v->n; i++)
		if (v->items[i].type == LAB_AN_JSON_STR && !strcmp(v->items[i].str, name))
			return 1;
	return 0;
}

int lab_an_series_hidden(const struct lab_an_analysis *a, const struct lab_an_series *s)
{
	for (size_t i = 0; i < a->nviews && s->nrow; i++)
		if (a->views[i].v->hides_series && a->views[i].state &&
		    a->views[i].v->applies(a->views[i].v, a->data, s->row[0].pt))
			return 1;
	return 0;
}

static _Thread_local unsigned long long an_view_probes;

uint64_t lab_an_view_key(const char *experiment, const char *params, long n)
{
	return lab_an_hash_long(
	    lab_an_hash_str(lab_an_hash_str(LAB_AN_HASH_INIT, experiment), params), n);
}

void lab_an_view_probe(void)
{
	an_view_probes++;
}

unsigned long long lab_an_view_probes(void)
{
	return an_view_probes;
}
