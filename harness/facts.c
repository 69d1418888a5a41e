/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/facts.h"

#include <stdlib.h>
#include <string.h>

#include "harness/kernel_api.h"

/* The slot for key: the existing one (a fact set twice keeps the last value) or a new one. */
static struct lab_fact *facts_slot(struct lab_ctx *ctx, const char *key)
{
	struct lab_facts *f = ctx->facts;

	if (!f)
		return NULL;
	/* Keys are literals in kernel code: a bad one is a bug there, not input. */
	LAB_BUG_ON(!key || !*key || strlen(key) >= LAB_FACT_KEY_MAX ||
	           strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(key));
	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->f[i].key, key)) {
			free(f->f[i].s);
			free(f->f[i].v);
			f->f[i] = (struct lab_fact){0};
			snprintf(f->f[i].key, sizeof(f->f[i].key), "%s", key);
			return &f->f[i];
		}
	if (f->n == LAB_FACTS_MAX) {
		f->dropped++;
		return NULL;
	}
	struct lab_fact *s = &f->f[f->n++];
	*s = (struct lab_fact){0};
	snprintf(s->key, sizeof(s->key), "%s", key);
	return s;
}

void lab_ctx_fact_int(struct lab_ctx *ctx, const char *key, int64_t v)
{
	struct lab_fact *s = facts_slot(ctx, key);

	if (s) {
		s->kind = LAB_FACT_INT;
		s->i = v;
	}
}

void lab_ctx_fact_bool(struct lab_ctx *ctx, const char *key, bool v)
{
	struct lab_fact *s = facts_slot(ctx, key);

	if (s) {
		s->kind = LAB_FACT_BOOL;
		s->b = v;
	}
}

void lab_ctx_fact_str(struct lab_ctx *ctx, const char *key, const char *v)
{
	struct lab_fact *s = facts_slot(ctx, key);

	if (!s)
		return;
	s->kind = LAB_FACT_STR;
	s->s = strdup(v ? v : "");
	if (!s->s) {
		ctx->facts->n--;
		ctx->facts->dropped++;
	}
}

void lab_ctx_fact_uints(struct lab_ctx *ctx, const char *key, const uint64_t *v, unsigned n)
{
	struct lab_fact *s = facts_slot(ctx, key);

	if (!s)
		return;
	s->kind = LAB_FACT_UINTS;
	s->n = n;
	s->v = malloc((n ? n : 1) * sizeof(*v));
	if (!s->v) {
		ctx->facts->n--;
		ctx->facts->dropped++;
		return;
	}
	if (n)
		memcpy(s->v, v, n * sizeof(*v));
}

void lab_facts_clear(struct lab_facts *f)
{
	if (!f)
		return;
	for (unsigned i = 0; i < f->n; i++) {
		free(f->f[i].s);
		free(f->f[i].v);
	}
	f->n = 0;
	f->dropped = 0;
}

struct lab_facts *lab_facts_dup(const struct lab_facts *src)
{
	struct lab_facts *f;

	if (!src || (!src->n && !src->dropped) || !(f = calloc(1, sizeof(*f))))
		return NULL;
	f->dropped = src->dropped;
	for (unsigned i = 0; i < src->n; i++) {
		const struct lab_fact *a = &src->f[i];
		struct lab_fact *b = &f->f[f->n];
		*b = *a;
		b->s = a->s ? strdup(a->s) : NULL;
		b->v = a->v ? malloc((a->n ? a->n : 1) * sizeof(*a->v)) : NULL;
		if ((a->s && !b->s) || (a->v && !b->v)) {
			free(b->s);
			free(b->v);
			f->dropped++;
			continue;
		}
		if (a->v && a->n)
			memcpy(b->v, a->v, a->n * sizeof(*a->v));
		f->n++;
	}
	return f;
}

void lab_facts_json(struct lab_json *j, const char *key, const struct lab_facts *f)
{
	if (!f || (!f->n && !f->dropped))
		return;
	lab_json_obj_open(j, key);
	for (unsigned i = 0; i < f->n; i++) {
		const struct lab_fact *a = &f->f[i];
		switch (a->kind) {
		case LAB_FACT_INT:
			lab_json_int(j, a->key, a->i);
			break;
		case LAB_FACT_BOOL:
			lab_json_bool(j, a->key, a->b);
			break;
		case LAB_FACT_STR:
			lab_json_str(j, a->key, a->s);
			break;
		case LAB_FACT_UINTS:
			lab_json_arr_open(j, a->key);
			for (unsigned k = 0; k < a->n; k++)
				lab_json_uint(j, NULL, a->v[k]);
			lab_json_arr_close(j);
			break;
		}
	}
	if (f->dropped)
		lab_json_uint(j, "facts_dropped", f->dropped);
	lab_json_obj_close(j);
}
