/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/hash.h"

/* The keyed hash of the key after the owner (harness/hash.h: a config's names cannot be made
 * to share a slot). */
static uint64_t strmap_hash(unsigned owner, const char *key)
{
	return lab_hash_bytes(owner, key, strlen(key));
}

/* The slot holding (owner, key), or the empty slot where it would go. */
static struct lab_strmap_slot *strmap_find(const struct lab_strmap *m, unsigned owner,
                                           const char *key)
{
	unsigned mask = m->cap - 1, i = (unsigned)strmap_hash(owner, key) & mask;

	while (m->slot[i].key && (m->slot[i].owner != owner || strcmp(m->slot[i].key, key)))
		i = (i + 1) & mask;
	return &m->slot[i];
}

bool lab_strmap_get(const struct lab_strmap *m, unsigned owner, const char *key, unsigned *value)
{
	if (!m->cap)
		return false;
	const struct lab_strmap_slot *s = strmap_find(m, owner, key);
	if (!s->key)
		return false;
	*value = s->value;
	return true;
}

static int strmap_grow(struct lab_strmap *m)
{
	struct lab_strmap old = *m;
	unsigned cap = old.cap ? old.cap * 2 : 64;

	m->slot = calloc(cap, sizeof(*m->slot));
	if (!m->slot) {
		*m = old;
		return -1;
	}
	m->cap = cap;
	for (unsigned i = 0; i < old.cap; i++)
		if (old.slot[i].key)
			*strmap_find(m, old.slot[i].owner, old.slot[i].key) = old.slot[i];
	free(old.slot);
	return 0;
}

int lab_strmap_put(struct lab_strmap *m, unsigned owner, const char *key, unsigned value)
{
	/* At most half full, so probes stay short. */
	if ((m->n + 1) * 2 > m->cap && strmap_grow(m))
		return -1;
	struct lab_strmap_slot *s = strmap_find(m, owner, key);
	if (s->key)
		return 0;
	*s = (struct lab_strmap_slot){.key = key, .owner = owner, .value = value};
	m->n++;
	return 0;
}

void lab_strmap_free(struct lab_strmap *m)
{
	free(m->slot);
	m->slot = NULL;
	m->cap = m->n = 0;
}
