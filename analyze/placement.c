/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/placement.h"

#include <stdio.h>
#include <string.h>

#include "analyze/jsonr.h"

/* Two JSON values with the same strings and numbers in the same order (params, cpus). */
static int an_json_eq(const struct lab_an_json *a, const struct lab_an_json *b)
{
	if (!a || !b)
		return a == b;
	if (a->type != b->type || a->n != b->n)
		return 0;
	if (a->type == LAB_AN_JSON_STR)
		return !strcmp(a->str, b->str);
	if (a->type == LAB_AN_JSON_NUM || a->type == LAB_AN_JSON_BOOL)
		return a->num == b->num;
	for (size_t i = 0; i < a->n; i++)
		if ((a->keys && strcmp(a->keys[i], b->keys[i])) ||
		    !an_json_eq(&a->items[i], &b->items[i]))
			return 0;
	return 1;
}

/* Two params objects equal but for their placement item. */
static int an_params_eq(const struct lab_an_json *a, const struct lab_an_json *b)
{
	size_t na = 0, nb = 0;

	if (!a || !b || a->type != LAB_AN_JSON_OBJ || b->type != LAB_AN_JSON_OBJ)
		return a == b;
	for (size_t i = 0; i < a->n; i++) {
		if (!strcmp(a->keys[i], "placement"))
			continue;
		na++;
		if (!an_json_eq(&a->items[i], lab_an_json_get(b, a->keys[i])))
			return 0;
	}
	for (size_t i = 0; i < b->n; i++)
		nb += strcmp(b->keys[i], "placement") != 0;
	return na == nb;
}

static int an_warned(const struct lab_an_warnings *w, const char *prefix)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strncmp(w->msg[i], prefix, strlen(prefix)))
			return 1;
	return 0;
}

/* The CPUs of a point as "0,1" (cut short past len). */
static void an_cpus_text(const struct lab_an_json *cpus, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; cpus && i < cpus->n && k + 16 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%.0f", i ? "," : "", cpus->items[i].num);
}

/* Points a and b of experiment name: same threads and params, other placement, same CPUs. */
static void an_pair(struct lab_an_data *d, const char *name, const struct lab_an_json *a,
                    const struct lab_an_json *b)
{
	const char *pa = lab_an_json_str(a, "placement"), *pb = lab_an_json_str(b, "placement");
	const struct lab_an_json *ca = lab_an_json_get(a, "cpus");
	char prefix[512], cpus[128];

	if (lab_an_json_num(a, "threads", -1) != lab_an_json_num(b, "threads", -2) || !pa || !pb ||
	    !strcmp(pa, pb) || !ca || !ca->n || !an_json_eq(ca, lab_an_json_get(b, "cpus")) ||
	    !an_params_eq(lab_an_json_get(a, "params"), lab_an_json_get(b, "params")))
		return;
	snprintf(prefix, sizeof(prefix), "[%s] placement %s and %s ran on the same CPUs", name, pa,
	         pb);
	if (an_warned(&d->warn, prefix))
		return;
	an_cpus_text(ca, cpus, sizeof(cpus));
	lab_an_warn(&d->warn,
	            "%s (threads=%.0f: cpus %s): this machine cannot tell them apart, so their "
	            "results measure the same thing, not a placement effect",
	            prefix, lab_an_json_num(a, "threads", 0), cpus);
}

void lab_an_placement_same(struct lab_an_data *d)
{
	const struct lab_an_json *ex = d->run ? lab_an_json_get(d->run, "experiments") : NULL;

	for (size_t e = 0; ex && ex->type == LAB_AN_JSON_ARR && e < ex->n; e++) {
		const struct lab_an_json *pts = lab_an_json_get(&ex->items[e], "points");
		const char *name = lab_an_json_str(&ex->items[e], "name");
		for (size_t i = 0; name && pts && pts->type == LAB_AN_JSON_ARR && i < pts->n; i++)
			for (size_t j = i + 1; j < pts->n; j++)
				an_pair(d, name, &pts->items[i], &pts->items[j]);
	}
}
