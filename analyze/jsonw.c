/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/jsonw.h"

#include "analyze/modes.h"

void lab_an_modes_json(struct lab_json *w, const struct lab_an_modes *m, double scale)
{
	if (!m->count) {
		lab_json_str(w, "modes", NULL);
		return;
	}
	lab_json_int(w, "modes", (long long)m->count);
	lab_json_bool(w, "multimodal", m->count > 1);
	lab_json_arr_open(w, "mode_centers");
	for (size_t i = 0; i < m->count; i++)
		lab_json_num(w, NULL, m->mode[i].center * scale);
	lab_json_arr_close(w);
	lab_json_arr_open(w, "mode_weights");
	for (size_t i = 0; i < m->count; i++)
		lab_json_num(w, NULL, m->mode[i].weight);
	lab_json_arr_close(w);
}
