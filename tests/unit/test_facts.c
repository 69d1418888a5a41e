/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Point facts: what kernels report with lab_ctx_fact_* and how run.json shows it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/facts.h"
#include "harness/kernel_api.h"
#include "tests/testlib.h"

/* f as the JSON run.json would hold, into a malloc'd string. */
static char *facts_text(const struct lab_facts *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct lab_json j;

	CHECK(m != NULL);
	if (!m)
		return strdup("");
	lab_json_begin(&j, m);
	lab_json_obj_open(&j, NULL);
	lab_facts_json(&j, "point_facts", f);
	lab_json_obj_close(&j);
	fclose(m);
	return buf;
}

LAB_TEST(facts_written_in_order_last_value_wins)
{
	struct lab_facts f = {0};
	struct lab_ctx ctx = {.facts = &f};
	const uint64_t pages[] = {0, 768};

	lab_ctx_fact_int(&ctx, "cpu_node", 0);
	lab_ctx_fact_str(&ctx, "init", "bind:\"1\"");
	lab_ctx_fact_uints(&ctx, "pages_per_node", pages, 2);
	lab_ctx_fact_bool(&ctx, "placement_ok", false);
	lab_ctx_fact_int(&ctx, "cpu_node", 1);
	struct lab_facts *copy = lab_facts_dup(&f);
	lab_facts_clear(&f);
	char *s = facts_text(copy);
	CHECK_EQ_STR(s,
	             "{\n  \"point_facts\": {\n    \"cpu_node\": 1,\n    \"init\": "
	             "\"bind:\\\"1\\\"\",\n    \"pages_per_node\": [\n      0,\n      768\n    ],"
	             "\n    \"placement_ok\": false\n  }\n}");
	free(s);
	lab_facts_clear(copy);
	free(copy);
}

LAB_TEST(facts_none_write_nothing)
{
	struct lab_facts f = {0};
	struct lab_ctx ctx = {.facts = NULL};

	lab_ctx_fact_int(&ctx, "cpu_node", 1); /* no store (a kernel outside the runner): no-op */
	CHECK(lab_facts_dup(&f) == NULL);
	char *s = facts_text(NULL);
	CHECK_EQ_STR(s, "{}");
	free(s);
}

LAB_TEST(facts_overflow_counted)
{
	struct lab_facts f = {0};
	struct lab_ctx ctx = {.facts = &f};
	char key[16];

	for (int i = 0; i < LAB_FACTS_MAX + 3; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		lab_ctx_fact_int(&ctx, key, i);
	}
	CHECK_EQ_U64(f.n, LAB_FACTS_MAX);
	CHECK_EQ_U64(f.dropped, 3);
	char *s = facts_text(&f);
	CHECK(strstr(s, "\"facts_dropped\": 3") != NULL);
	free(s);
	lab_facts_clear(&f);
}
