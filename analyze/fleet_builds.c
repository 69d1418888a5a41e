/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The builds of the lab the hosts of a fleet ran (each host's run.json "lab"): which hosts ran
 * which, and every part in which they differ, as compare says it of two runs. The note named
 * only the first host that differed, and fleet-analysis.json had no build at all.
 */
#include <stdint.h>
#include <string.h>

#include "analyze/compare.h"
#include "analyze/fleet_builds.h"
#include "harness/json.h"

size_t lab_an_fleet_builds(const struct lab_an_fleet_view *v, size_t *first, size_t max,
                           unsigned *what)
{
	size_t nb = 0;

	*what = 0;
	for (size_t i = 0; i < v->n; i++) {
		if (!v->h[i].ok || lab_an_fleet_build_of(v, first, nb, i) != SIZE_MAX)
			continue;
		if (nb == max) /* more builds than room: the parts still counted */
			*what |= lab_an_build_diff(v->h[first[0]].d.run, v->h[i].d.run);
		else
			first[nb++] = i;
	}
	for (size_t b = 1; b < nb; b++)
		for (size_t c = 0; c < b; c++)
			*what |= lab_an_build_diff(v->h[first[c]].d.run, v->h[first[b]].d.run);
	return nb;
}

size_t lab_an_fleet_builds_unlisted(const struct lab_an_fleet_view *v, const size_t *first,
                                    size_t nb)
{
	size_t n = 0;

	for (size_t i = 0; i < v->n; i++)
		n += v->h[i].ok && lab_an_fleet_build_of(v, first, nb, i) == SIZE_MAX;
	return n;
}

size_t lab_an_fleet_build_of(const struct lab_an_fleet_view *v, const size_t *first, size_t nb,
                             size_t i)
{
	if (!v->h[i].ok)
		return SIZE_MAX;
	for (size_t b = 0; b < nb; b++)
		if (!lab_an_build_diff(v->h[first[b]].d.run, v->h[i].d.run))
			return b;
	return SIZE_MAX;
}

void lab_an_fleet_build_text(const struct lab_an_fleet_view *v, const size_t *first, size_t nb,
                             size_t b, char *buf, size_t len)
{
	const struct lab_an_json *other = nb < 2 ? NULL : v->h[first[b ? 0 : 1]].d.run;

	lab_an_build_text_vs(v->h[first[b]].d.run, other, buf, len);
}

void lab_an_fleet_builds_json(struct lab_json *w, const struct lab_an_fleet_view *v)
{
	size_t first[LAB_AN_FLEET_BUILDS_MAX], nb;
	unsigned what;
	char text[LAB_AN_BUILD_TEXT_MAX];

	nb = lab_an_fleet_builds(v, first, LAB_AN_FLEET_BUILDS_MAX, &what);
	lab_json_obj_open(w, "builds");
	lab_json_bool(w, "differ", what != 0);
	/* the points the difference can change: all, isa=auto or openmp (as compare's) */
	lab_json_str(w, "scope", what ? lab_an_build_diff_scope(what) : NULL);
	lab_json_arr_open(w, "what"); /* run.json's keys under "lab" that differ */
	for (unsigned i = 0; lab_an_build_part(i, 0); i++)
		if (what & 1u << i)
			lab_json_str(w, NULL, lab_an_build_part(i, 0));
	lab_json_arr_close(w);
	lab_json_arr_open(w, "list"); /* each build once, with the hosts that ran it */
	for (size_t b = 0; b < nb; b++) {
		lab_json_obj_open(w, NULL);
		lab_an_fleet_build_text(v, first, nb, b, text, sizeof(text));
		lab_json_str(w, "build", text);
		lab_json_str(w, "sanitize", lab_an_build_sanitize(v->h[first[b]].d.run));
		lab_json_arr_open(w, "hosts");
		for (size_t i = 0; i < v->n; i++)
			if (lab_an_fleet_build_of(v, first, nb, i) == b)
				lab_json_str(w, NULL, v->h[i].node);
		lab_json_arr_close(w);
		lab_json_obj_close(w);
	}
	lab_json_arr_close(w);
	/* hosts of builds past the list's LAB_AN_FLEET_BUILDS_MAX */
	lab_json_int(w, "unlisted_hosts", (long long)lab_an_fleet_builds_unlisted(v, first, nb));
	lab_json_obj_close(w);
}
