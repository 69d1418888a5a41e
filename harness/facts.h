/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Per-point facts a kernel reports (where its pages really are, which node its threads ran on)
 * into run.json's "point_facts" object of that point. The kernel side is in kernel_api.h
 * (lab_ctx_fact_*); this is the harness side: the store, copying and writing it.
 */
#ifndef LAB_HARNESS_FACTS_H
#define LAB_HARNESS_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/json.h"

#define LAB_FACT_KEY_MAX 32
#define LAB_FACTS_MAX    32 /* facts per point; more are dropped (counted in `dropped`) */

enum lab_fact_kind { LAB_FACT_INT, LAB_FACT_BOOL, LAB_FACT_STR, LAB_FACT_UINTS };

struct lab_fact {
	char key[LAB_FACT_KEY_MAX];
	enum lab_fact_kind kind;
	int64_t i;
	bool b;
	char *s;     /* LAB_FACT_STR, owned */
	uint64_t *v; /* LAB_FACT_UINTS, owned, n values */
	unsigned n;
};

struct lab_facts {
	unsigned n;
	unsigned dropped; /* facts that did not fit or ran out of memory */
	struct lab_fact f[LAB_FACTS_MAX];
};

/* Deep-copies src into a new store (NULL when src is empty or memory ran out). */
struct lab_facts *lab_facts_dup(const struct lab_facts *src);

/* Frees what the facts own and empties them; NULL is fine. */
void lab_facts_clear(struct lab_facts *f);

/* Writes f as the JSON object member key (nothing when f is NULL or empty). */
void lab_facts_json(struct lab_json *j, const char *key, const struct lab_facts *f);

#endif
