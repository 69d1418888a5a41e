/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One spelling per amount: within an experiment, a size or duration param written two ways
 * (tile=4K at one point, tile=4096 at another) is refused. The loader's duplicate check reads
 * them as one amount, while the views, series and lesson selectors match params as text: a
 * blocked scan lost its serial baseline and read speedup 1 [1, 1] against itself, and a scaling
 * series fell in two (hostile33). `lab run` writes each amount one way, so only an edited file
 * meets this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/data.h"
#include "analyze/data_int.h"
#include "analyze/index.h"
#include "harness/hash.h"
#include "harness/record_schema.h"

/* One key=value item of a point: where its value and its amount stand. */
struct an_spell {
	size_t pt;
	const char *key, *val, *amt;
	size_t klen, vlen, alen;
};

struct an_spell_key {
	const struct lab_an_data *d;
	const struct an_spell *s;
	const struct an_spell *cur;
};

/* The whole key and amount, each with its length: a hash of their first 100 bytes put values
 * that differ past that in one chain (64,000 points: 143 s in memcmp, hostile37). */
static uint64_t an_spell_hash(const struct lab_an_data *d, const struct an_spell *x)
{
	uint64_t h = lab_an_hash_str(LAB_AN_HASH_INIT, d->pt[x->pt].experiment);

	h = lab_hash_bytes(lab_an_hash_long(h, (long)x->klen), x->key, x->klen);
	return lab_hash_bytes(lab_an_hash_long(h, (long)x->alen), x->amt, x->alen);
}

static int an_spell_same(const void *ctx, size_t i)
{
	const struct an_spell_key *k = ctx;
	const struct an_spell *a = &k->s[i], *b = k->cur;

	return a->klen == b->klen && a->alen == b->alen && !memcmp(a->key, b->key, a->klen) &&
	       !memcmp(a->amt, b->amt, a->alen) &&
	       !strcmp(k->d->pt[a->pt].experiment, k->d->pt[b->pt].experiment);
}

void lab__an_point_where(const struct lab_an_data *d, const struct lab_an_point *p, char *buf,
                         size_t len)
{
	if (p->runjson)
		snprintf(buf, len, "%s/%s:%u", d->source, LAB_FILE_RUN, p->runjson->line);
	else
		snprintf(buf, len, "%s/%s:%zu", d->source, LAB_FILE_SAMPLES, p->line);
}

/* The refusal of b, spelled otherwise than a. */
static int an_spell_refuse(const struct lab_an_data *d, const struct an_spell *a,
                           const struct an_spell *b, struct lab_err *err)
{
	const struct lab_an_point *p = &d->pt[b->pt], *q = &d->pt[a->pt];
	char where[512];

	lab__an_point_where(d, p, where, sizeof(where));
	return lab_err_set(
	    err, LAB_EDATA,
	    "%s: point %ld of [%s] writes %.*s=%.*s where point %ld writes %.*s=%.*s: "
	    "one amount spelled two ways (allowed: one spelling of an amount per "
	    "key in an experiment, as lab run writes it)",
	    where, p->id, p->experiment, (int)b->klen, b->key, (int)b->vlen, b->val, q->id,
	    (int)a->klen, a->key, (int)a->vlen, a->val);
}

/* The items of point i, params and amounts walked side by side (the same items, in order),
 * appended to *s: every one, as the loader reads more than a leading digit as an amount (.25M,
 * +100ns: hostile35), and an item that is none has its value as its amount, one spelling.
 * Returns 0 or -1 out of memory. */
static int an_spell_items(const struct lab_an_data *d, size_t i, const char *amounts,
                          struct an_spell **s, size_t *n, size_t *cap)
{
	const char *p = d->pt[i].params, *a = amounts;

	while (*p && *a) {
		size_t pl = strcspn(p, ";"), al = strcspn(a, ";"), kl = strcspn(p, "=");
		if (kl < pl && kl < al) {
			if (lab_an_grow(s, cap, *n + 1, sizeof(**s)))
				return -1;
			(*s)[(*n)++] = (struct an_spell){i,  p,           p + kl + 1, a + kl + 1,
			                                 kl, pl - kl - 1, al - kl - 1};
		}
		p += pl + (p[pl] == ';');
		a += al + (a[al] == ';');
	}
	return 0;
}

int lab__an_points_spelled_once(const struct lab_an_data *d, char *const *amounts,
                                struct lab_err *err)
{
	struct an_spell *s = NULL;
	struct lab_an_index ix = {0};
	size_t n = 0, cap = 0, done = 0;
	int rc = 0;

	for (size_t i = 0; i < d->npt && !rc; i++) {
		if (an_spell_items(d, i, amounts[i], &s, &n, &cap)) {
			rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
			break;
		}
		for (; done < n && !rc; done++) {
			struct an_spell_key k = {d, s, &s[done]};
			uint64_t h = an_spell_hash(d, &s[done]);
			size_t j = lab_an_index_find(&ix, h, an_spell_same, &k);
			if (j == (size_t)-1) {
				if (lab_an_index_add(&ix, h, done))
					rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
			} else if (s[j].vlen != s[done].vlen ||
			           memcmp(s[j].val, s[done].val, s[done].vlen)) {
				rc = an_spell_refuse(d, &s[j], &s[done], err);
			}
		}
	}
	free(s);
	lab_an_index_free(&ix);
	return rc;
}
