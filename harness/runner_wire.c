/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A point's record as bytes (runner.h), for a run measured in a new process of the same binary
 * (fresh_process = on): the record itself, then its samples, thread rows, OpenMP CPUs, counter
 * record and facts. Both ends are one build, so the structs go as they are; what points
 * elsewhere is rebuilt, and every length is checked against the bytes that came.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/runner.h"

#define WIRE_MAGIC "lab.rec/1"

struct wire_out {
	char *buf;
	size_t len, cap;
	int failed;
};

static void wire_put(struct wire_out *w, const void *p, size_t n)
{
	if (w->failed || !n)
		return;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		while (cap < w->len + n)
			cap *= 2;
		char *g = realloc(w->buf, cap);
		if (!g) {
			w->failed = 1;
			return;
		}
		w->buf = g;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

int lab_point_rec_pack(const struct lab_point_rec *rec, uint64_t origin_ns, char **buf, size_t *len)
{
	struct wire_out w = {0};
	uint8_t has_omp = rec->omp_cpus != NULL, has_ctr = rec->ctr != NULL;

	wire_put(&w, WIRE_MAGIC, sizeof(WIRE_MAGIC));
	wire_put(&w, &origin_ns, sizeof(origin_ns));
	wire_put(&w, rec, sizeof(*rec));
	wire_put(&w, rec->samples, (size_t)rec->nreps * sizeof(*rec->samples));
	wire_put(&w, rec->threads, (size_t)rec->nreps * rec->nworkers * sizeof(*rec->threads));
	wire_put(&w, &has_omp, 1);
	if (has_omp)
		wire_put(&w, rec->omp_cpus, (size_t)rec->nthreads * sizeof(*rec->omp_cpus));
	wire_put(&w, &has_ctr, 1);
	if (has_ctr)
		wire_put(&w, rec->ctr, sizeof(*rec->ctr));
	for (unsigned i = 0; i < rec->facts.n && i < LAB_FACTS_MAX; i++) {
		const struct lab_fact *f = &rec->facts.f[i];
		uint64_t slen = f->s ? strlen(f->s) : 0;
		wire_put(&w, &slen, sizeof(slen));
		wire_put(&w, f->s, slen);
		if (f->v)
			wire_put(&w, f->v, (size_t)f->n * sizeof(*f->v));
	}
	if (w.failed) {
		free(w.buf);
		return -LAB_ENOMEM;
	}
	*buf = w.buf;
	*len = w.len;
	return 0;
}

struct wire_in {
	const char *p;
	size_t left;
};

/* n bytes into dst (NULL: skip); 0, or -1 when fewer came. */
static int wire_get(struct wire_in *r, void *dst, size_t n)
{
	if (n > r->left)
		return -1;
	if (dst && n)
		memcpy(dst, r->p, n);
	r->p += n;
	r->left -= n;
	return 0;
}

/* A new block of count x size bytes from r; NULL when they did not come or memory ran out
 * (then *oom is set). */
static void *wire_block(struct wire_in *r, size_t count, size_t size, int *oom)
{
	void *b;

	if (count && size > r->left / count)
		return NULL;
	if (!(b = malloc(count && size ? count * size : 1))) {
		*oom = 1;
		return NULL;
	}
	wire_get(r, b, count * size);
	return b;
}

/* The facts after the record's arrays: owned strings and value lists rebuilt. */
static int wire_facts(struct wire_in *r, struct lab_facts *f, int *oom)
{
	unsigned n = f->n < LAB_FACTS_MAX ? f->n : LAB_FACTS_MAX;

	f->n = 0;
	for (unsigned i = 0; i < n; i++) {
		struct lab_fact *x = &f->f[i];
		bool has_s = x->s != NULL, has_v = x->v != NULL;
		uint64_t slen;

		x->s = NULL;
		x->v = NULL;
		f->n = i + 1; /* from here lab_facts_clear frees what fact i holds */
		x->key[sizeof(x->key) - 1] = '\0';
		if (!has_v)
			x->n = 0;
		if (wire_get(r, &slen, sizeof(slen)) || slen > r->left || (slen && !has_s))
			return -1;
		if (has_s) {
			if (!(x->s = malloc((size_t)slen + 1))) {
				*oom = 1;
				return -1;
			}
			wire_get(r, x->s, (size_t)slen);
			x->s[slen] = '\0';
		}
		if (has_v && !(x->v = wire_block(r, x->n, sizeof(*x->v), oom)))
			return -1;
	}
	return 0;
}

int lab_point_rec_unpack(const char *buf, size_t len, uint64_t origin_ns, struct lab_point_rec *rec,
                         struct lab_err *err)
{
	struct wire_in r = {.p = buf, .left = len};
	char magic[sizeof(WIRE_MAGIC)];
	uint64_t theirs;
	uint8_t has_omp = 0, has_ctr = 0;
	int oom = 0;

	memset(rec, 0, sizeof(*rec));
	if (wire_get(&r, magic, sizeof(magic)) || memcmp(magic, WIRE_MAGIC, sizeof(magic)) ||
	    wire_get(&r, &theirs, sizeof(theirs)) || wire_get(&r, rec, sizeof(*rec)))
		return lab_err_set(err, LAB_EIO, "a point's record from its process: %s",
		                   len ? "not a record of this build" : "nothing came");
	struct lab_facts facts = rec->facts;
	bool omp = rec->omp_cpus != NULL;
	rec->samples = NULL;
	rec->threads = NULL;
	rec->omp_cpus = NULL;
	rec->ctr = NULL;
	rec->facts.n = 0;
	rec->pt = NULL;
	rec->reason[sizeof(rec->reason) - 1] = '\0';
	if (rec->nworkers > rec->nthreads ||
	    !(rec->samples = wire_block(&r, rec->nreps, sizeof(*rec->samples), &oom)) ||
	    (rec->nworkers && !(rec->threads = wire_block(&r, (size_t)rec->nreps * rec->nworkers,
	                                                  sizeof(*rec->threads), &oom))) ||
	    wire_get(&r, &has_omp, 1) || has_omp != omp ||
	    (has_omp &&
	     !(rec->omp_cpus = wire_block(&r, rec->nthreads, sizeof(*rec->omp_cpus), &oom))) ||
	    wire_get(&r, &has_ctr, 1) ||
	    (has_ctr && !(rec->ctr = wire_block(&r, 1, sizeof(*rec->ctr), &oom))))
		goto fail;
	rec->facts = facts;
	if (wire_facts(&r, &rec->facts, &oom) || r.left)
		goto fail;
	/* Thread times count from the other process's origin: move them to ours (one clock). */
	int64_t shift = (int64_t)(theirs - origin_ns);
	for (size_t i = 0; rec->threads && i < (size_t)rec->nreps * rec->nworkers; i++) {
		rec->threads[i].start_ns = (uint64_t)((int64_t)rec->threads[i].start_ns + shift);
		rec->threads[i].end_ns = (uint64_t)((int64_t)rec->threads[i].end_ns + shift);
	}
	return 0;
fail:
	lab_point_rec_free(rec);
	memset(rec, 0, sizeof(*rec));
	if (oom)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	return lab_err_set(err, LAB_EIO,
	                   "a point's record from its process: %zu bytes that do "
	                   "not hold what its header says",
	                   len);
}
