/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds of the lab a fleet's hosts ran (analyze/fleet_builds.c). */
#ifndef LAB_ANALYZE_FLEET_BUILDS_H
#define LAB_ANALYZE_FLEET_BUILDS_H

#include <stddef.h>

#include "analyze/fleet_view.h"

struct lab_json;

/* the distinct builds told apart (more are counted in the parts that differ, not listed) */
#define LAB_AN_FLEET_BUILDS_MAX 16

/* The distinct builds v's loaded hosts ran (hosts whose run.json name no differing part share
 * one): into first[] the index of each one's first host, up to max of them, in host order.
 * Returns how many; *what gets every part in which any two differ (lab_an_build_diff's
 * bits), 0 when the hosts ran one build. */
/* The loaded hosts of builds past the first max (lab_an_fleet_builds), which no list names. */
size_t lab_an_fleet_builds_unlisted(const struct lab_an_fleet_view *v, const size_t *first,
                                    size_t nb);
size_t lab_an_fleet_builds(const struct lab_an_fleet_view *v, size_t *first, size_t max,
                           unsigned *what);
/* The build (an index into first, of nb) host i ran; SIZE_MAX for a host not loaded or one
 * past the builds listed. */
size_t lab_an_fleet_build_of(const struct lab_an_fleet_view *v, const size_t *first, size_t nb,
                             size_t i);
/* Build b's text (lab_an_build_text_vs beside the first build, or the second for the first). */
void lab_an_fleet_build_text(const struct lab_an_fleet_view *v, const size_t *first, size_t nb,
                             size_t b, char *buf, size_t len);
/* The "builds" member of fleet-analysis.json: {"differ", "what": [run.json keys under "lab"],
 * "list": [{"build": text, "sanitize": S or null, "hosts": [node, ...]}]}. */
void lab_an_fleet_builds_json(struct lab_json *w, const struct lab_an_fleet_view *v);

#endif
