/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tests/kernels/kwork.h"

#include <stdio.h>
#include <string.h>

#include "harness/param.h"
#include "kernels/registry.h"

int kwork_declared(const char *kernel, const char *const *kv, struct lab_work *w)
{
	const struct lab_kernel *k = NULL;
	char params[512] = {0};
	struct lab_err err = {0};

	for (const struct lab_kernel *const *p = lab_kernels; *p && !k; p++)
		if (!strcmp((*p)->name, kernel))
			k = *p;
	if (!k || k->params_size > sizeof(params) || lab_param_defaults(k->params, params, &err))
		return fprintf(stderr, "%s: no such kernel, or its defaults fail\n", kernel), -1;
	for (unsigned i = 0; kv[i]; i++) {
		char key[32];
		const char *eq = strchr(kv[i], '=');
		if (!eq)
			return fprintf(stderr, "%s: not key=value\n", kv[i]), -1;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - kv[i]), kv[i]);
		const struct lab_param *p = lab_param_find(k->params, key);
		if (!p || lab_param_parse(p, eq + 1, params, &err))
			return fprintf(stderr, "%s: %s\n", kv[i], p ? err.msg : "unknown key"), -1;
	}
	memset(w, 0, sizeof(*w));
	k->work_per_unit(params, w);
	return 0;
}
