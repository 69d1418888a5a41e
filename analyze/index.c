/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/index.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/err.h"
#include "harness/hash.h"

uint64_t lab_an_hash_str(uint64_t h, const char *s)
{
	/* with its NUL, so ("ab","c") and ("a","bc") differ */
	return lab_hash_bytes(h, s, strlen(s) + 1);
}

uint64_t lab_an_hash_long(uint64_t h, long v)
{
	return lab_hash_bytes(h, &v, sizeof(v));
}

static _Thread_local unsigned long long an_index_probes;

unsigned long long lab_an_index_probes(void)
{
	return an_index_probes;
}

/* Linear probing from the hash's home slot; the table is kept at most half full. */
size_t lab_an_index_find(const struct lab_an_index *ix, uint64_t hash,
                         int (*same)(const void *ctx, size_t item), const void *ctx)
{
	if (!ix->cap)
		return (size_t)-1;
	for (size_t i = (size_t)hash & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
		const struct lab_an_index_slot *s = &ix->slot[i];

		an_index_probes++;
		if (!s->item)
			return (size_t)-1;
		if (s->hash == hash && same(ctx, s->item - 1))
			return s->item - 1;
	}
}

static void an_index_put(struct lab_an_index_slot *slot, size_t cap, uint64_t hash, size_t item1)
{
	size_t i = (size_t)hash & (cap - 1);

	while (slot[i].item) {
		i = (i + 1) & (cap - 1);
		an_index_probes++;
	}
	slot[i].hash = hash;
	slot[i].item = item1;
}

int lab_an_index_add(struct lab_an_index *ix, uint64_t hash, size_t item)
{
	if (2 * (ix->n + 1) > ix->cap) {
		size_t cap = ix->cap ? 2 * ix->cap : 4; /* most hold a few items */
		struct lab_an_index_slot *slot = calloc(cap, sizeof(*slot));

		if (!slot)
			return -1;
		for (size_t i = 0; i < ix->cap; i++)
			if (ix->slot[i].item)
				an_index_put(slot, cap, ix->slot[i].hash, ix->slot[i].item);
		free(ix->slot);
		ix->slot = slot;
		ix->cap = cap;
	}
	an_index_put(ix->slot, ix->cap, hash, item + 1);
	ix->n++;
	return 0;
}

void lab_an_index_free(struct lab_an_index *ix)
{
	free(ix->slot);
	ix->slot = NULL;
	ix->cap = ix->n = 0;
}

struct an_strset_key {
	const struct lab_an_strset *set;
	const char *s;
};

static int an_strset_same(const void *ctx, size_t item)
{
	const struct an_strset_key *k = ctx;

	return !strcmp(k->set->s[item], k->s);
}

size_t lab_an_strset_find(const struct lab_an_strset *set, const char *s)
{
	struct an_strset_key k = {set, s};

	return lab_an_index_find(&set->ix, lab_an_hash_str(LAB_AN_HASH_INIT, s), an_strset_same,
	                         &k);
}

size_t lab_an_strset_add(struct lab_an_strset *set, const char *s, int *added)
{
	size_t i = lab_an_strset_find(set, s);

	if (added)
		*added = i == (size_t)-1;
	if (i != (size_t)-1)
		return i;
	if (lab_an_grow(&set->s, &set->cap, set->n + 1, sizeof(*set->s)) ||
	    lab_an_index_add(&set->ix, lab_an_hash_str(LAB_AN_HASH_INIT, s), set->n))
		return (size_t)-1;
	set->s[set->n] = s;
	return set->n++;
}

void lab_an_strset_free_owned(struct lab_an_strset *set)
{
	for (size_t i = 0; i < set->n; i++)
		free((char *)set->s[i]);
	lab_an_strset_free(set);
}

void lab_an_strset_free(struct lab_an_strset *set)
{
	free(set->s);
	lab_an_index_free(&set->ix);
	memset(set, 0, sizeof(*set));
}

void lab_an_bucket(const size_t *key, size_t n, size_t nkeys, size_t *order, size_t *end)
{
	size_t sum = 0;

	memset(end, 0, nkeys * sizeof(*end));
	for (size_t i = 0; i < n; i++)
		end[key[i]]++;
	for (size_t k = 0; k < nkeys; k++) { /* end[k]: where key k's items start, for now */
		size_t count = end[k];

		end[k] = sum;
		sum += count;
	}
	for (size_t i = 0; i < n; i++)
		order[end[key[i]]++] = i;
}
