/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A hash index from keys to item numbers (indices into the caller's own array), so the loaders
 * find a point and the analysis finds a series in O(1) expected time instead of scanning every
 * earlier one (100 000 distinct points took minutes that way). The index stores only the key's
 * hash and the item number; the caller compares keys with its own function, so the items may
 * move (realloc) freely.
 */
#ifndef LAB_ANALYZE_INDEX_H
#define LAB_ANALYZE_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct lab_an_index_slot {
	uint64_t hash;
	size_t item; /* item number + 1; 0: empty */
};

struct lab_an_index {
	struct lab_an_index_slot *slot;
	size_t cap, n; /* cap: a power of two, or 0 */
};

/* The keyed hash of s continued from h (start with LAB_AN_HASH_INIT); a number mixes in as its
 * bytes (harness/hash.h: it differs from process to process, so it finds and never orders). */
#define LAB_AN_HASH_INIT 14695981039346656037ULL
uint64_t lab_an_hash_str(uint64_t h, const char *s);
uint64_t lab_an_hash_long(uint64_t h, long v);

/* Slots this thread's index lookups and insertions have looked at so far (a test's measure of
 * how well the hash spreads crafted keys). */
unsigned long long lab_an_index_probes(void);

/*
 * The item whose key hashes to hash and for which same(ctx, item) is true, or (size_t)-1 when
 * there is none.
 */
size_t lab_an_index_find(const struct lab_an_index *ix, uint64_t hash,
                         int (*same)(const void *ctx, size_t item), const void *ctx);
/* Records item under hash (the caller has checked it is new). Returns 0, or -1 out of memory. */
int lab_an_index_add(struct lab_an_index *ix, uint64_t hash, size_t item);
void lab_an_index_free(struct lab_an_index *ix);

/*
 * Distinct strings in the order they were first added, found in O(1) expected time: the
 * experiments a view or analysis.json meets, however many there are. The strings are borrowed
 * (they must outlive the set); zero-initialize before the first add.
 */
struct lab_an_strset {
	const char **s;
	size_t n, cap;
	struct lab_an_index ix;
};

/* The number of s in set (0, 1, ... in order of first addition), added when new; *added (when
 * not NULL) says whether it was. Returns (size_t)-1 when memory runs out. */
size_t lab_an_strset_add(struct lab_an_strset *set, const char *s, int *added);
/* The number of s in set, or (size_t)-1 when it is not there. */
size_t lab_an_strset_find(const struct lab_an_strset *set, const char *s);
void lab_an_strset_free(struct lab_an_strset *set);
/* The same for a set that owns its strings (each malloc'd for it): they are freed too. */
void lab_an_strset_free_owned(struct lab_an_strset *set);

/* A counting sort of the n items by key[i] < nkeys, stable: order gets the items key by key,
 * and end[k] (nkeys entries) where key k's items end, so they are order[k ? end[k - 1] : 0] up
 * to order[end[k] - 1]. O(n + nkeys). */
void lab_an_bucket(const size_t *key, size_t n, size_t nkeys, size_t *order, size_t *end);

#endif
