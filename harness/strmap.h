/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A hash index from (owner, string) to an index, so the config reader finds a section or a key
 * in O(1) instead of scanning (a 60 000-key config was quadratic). Keys are not copied: they
 * must outlive the map.
 */
#ifndef LAB_HARNESS_STRMAP_H
#define LAB_HARNESS_STRMAP_H

#include <stdbool.h>

struct lab_strmap_slot {
	const char *key; /* NULL: empty */
	unsigned owner;
	unsigned value;
};

struct lab_strmap {
	struct lab_strmap_slot *slot;
	unsigned cap, n; /* cap is 0 or a power of two */
};

/* The value stored for (owner, key) into *value; false when absent. */
bool lab_strmap_get(const struct lab_strmap *m, unsigned owner, const char *key, unsigned *value);

/* Stores (owner, key) -> value unless the pair is there. Returns 0, or -1 out of memory. */
int lab_strmap_put(struct lab_strmap *m, unsigned owner, const char *key, unsigned value);

/* Frees the slots; the map is empty and reusable after. */
void lab_strmap_free(struct lab_strmap *m);

#endif
