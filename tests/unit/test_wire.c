/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A point's record as bytes and back (harness/runner_wire.c, fresh_process = on): every part
 * comes back equal, thread times move to the receiver's origin, and bytes that are cut short,
 * padded or that claim more than they hold are refused with the reason, nothing leaked.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/runner.h"
#include "tests/testlib.h"

/* A record of 3 samples of 2 threads with OpenMP CPUs, counters and three kinds of fact. */
static void wr_record(struct lab_point_rec *rec)
{
	static const uint64_t pages[] = {768, 0, 5};

	memset(rec, 0, sizeof(*rec));
	rec->status = LAB_STATUS_OK;
	rec->verify = LAB_VERIFY_PASS;
	rec->nthreads = rec->nworkers = 2;
	rec->nreps = 3;
	rec->pid = 4242;
	snprintf(rec->reason, sizeof(rec->reason), "fine");
	rec->samples = calloc(3, sizeof(*rec->samples));
	rec->threads = calloc(6, sizeof(*rec->threads));
	rec->omp_cpus = calloc(2, sizeof(*rec->omp_cpus));
	rec->ctr = calloc(1, sizeof(*rec->ctr));
	if (!rec->samples || !rec->threads || !rec->omp_cpus || !rec->ctr)
		abort();
	for (unsigned i = 0; i < 3; i++) {
		rec->samples[i].elapsed_ns = 1000 + i;
		rec->samples[i].work = 10 * i;
		rec->samples[i].metric[1] = 0.5 * i;
	}
	for (unsigned i = 0; i < 6; i++) {
		rec->threads[i].start_ns = 100 * i;
		rec->threads[i].end_ns = 100 * i + 50;
		rec->threads[i].cpu_start = (int)i % 2;
	}
	rec->omp_cpus[0] = 3;
	rec->omp_cpus[1] = -1;
	snprintf(rec->ctr->topdown_method, sizeof(rec->ctr->topdown_method), "amd_pipeline");
	snprintf(rec->ctr->av[2].source, sizeof(rec->ctr->av[2].source), "getrusage");
	rec->ctr->samples = 7;
	struct lab_fact *f = rec->facts.f;
	snprintf(f[0].key, sizeof(f[0].key), "cpu_node");
	f[0].kind = LAB_FACT_INT;
	f[0].i = -3;
	snprintf(f[1].key, sizeof(f[1].key), "placement_note");
	f[1].kind = LAB_FACT_STR;
	f[1].s = strdup("expected n0=768");
	snprintf(f[2].key, sizeof(f[2].key), "pages_per_node");
	f[2].kind = LAB_FACT_UINTS;
	f[2].v = malloc(sizeof(pages));
	f[2].n = 3;
	if (!f[1].s || !f[2].v)
		abort();
	memcpy(f[2].v, pages, sizeof(pages));
	rec->facts.n = 3;
}

LAB_TEST(record_round_trip)
{
	struct lab_point_rec a, b;
	struct lab_err err = {0};
	char *buf = NULL;
	size_t len = 0;

	wr_record(&a);
	REQUIRE(lab_point_rec_pack(&a, 5000, &buf, &len) == 0);
	/* sent from a process whose origin was 5000, taken by one whose origin was 4000 */
	REQUIRE(lab_point_rec_unpack(buf, len, 4000, &b, &err) == 0);
	CHECK(b.pt == NULL);
	CHECK_EQ_U64(b.nreps, 3);
	CHECK_EQ_U64(b.pid, 4242);
	CHECK_EQ_STR(b.reason, "fine");
	CHECK(!memcmp(a.samples, b.samples, 3 * sizeof(*a.samples)));
	CHECK_EQ_U64(b.threads[5].start_ns, 500 + 1000);
	CHECK_EQ_U64(b.threads[5].end_ns, 550 + 1000);
	CHECK_EQ_I64(b.threads[3].cpu_start, 1);
	CHECK_EQ_I64(b.omp_cpus[0], 3);
	CHECK_EQ_I64(b.omp_cpus[1], -1);
	CHECK_EQ_STR(b.ctr->topdown_method, "amd_pipeline");
	CHECK_EQ_STR(b.ctr->av[2].source, "getrusage");
	CHECK_EQ_U64(b.ctr->samples, 7);
	REQUIRE(b.facts.n == 3);
	CHECK_EQ_I64(b.facts.f[0].i, -3);
	CHECK(b.facts.f[0].s == NULL && b.facts.f[0].v == NULL);
	CHECK_EQ_STR(b.facts.f[1].s, "expected n0=768");
	CHECK(b.facts.f[1].s != a.facts.f[1].s);
	CHECK_EQ_U64(b.facts.f[2].n, 3);
	CHECK_EQ_U64(b.facts.f[2].v[0], 768);
	CHECK_EQ_U64(b.facts.f[2].v[2], 5);
	lab_point_rec_free(&b);
	lab_point_rec_free(&a);
	free(buf);
}

/* No OpenMP CPUs, no counters, no facts, no samples: the empty parts stay empty. */
LAB_TEST(empty_record_round_trip)
{
	struct lab_point_rec a = {.status = LAB_STATUS_SKIPPED, .nthreads = 4}, b;
	struct lab_err err = {0};
	char *buf = NULL;
	size_t len = 0;

	snprintf(a.reason, sizeof(a.reason), "needs 2 NUMA nodes");
	REQUIRE(lab_point_rec_pack(&a, 0, &buf, &len) == 0);
	REQUIRE(lab_point_rec_unpack(buf, len, 0, &b, &err) == 0);
	CHECK_EQ_U64(b.status, LAB_STATUS_SKIPPED);
	CHECK_EQ_STR(b.reason, "needs 2 NUMA nodes");
	CHECK(b.threads == NULL && b.omp_cpus == NULL && b.ctr == NULL && b.facts.n == 0);
	lab_point_rec_free(&b);
	free(buf);
}

/* Every prefix, a byte more, and a header that claims more samples than came: refused. */
LAB_TEST(bad_bytes_refused)
{
	struct lab_point_rec a, b;
	struct lab_err err = {0};
	char *buf = NULL, *more;
	size_t len = 0;

	wr_record(&a);
	REQUIRE(lab_point_rec_pack(&a, 0, &buf, &len) == 0);
	for (size_t cut = 0; cut < len; cut++) {
		CHECK(lab_point_rec_unpack(buf, cut, 0, &b, &err) == -LAB_EIO);
		CHECK(b.samples == NULL && b.facts.n == 0);
	}
	CHECK(strstr(err.msg, "bytes that do not hold what its header says") != NULL);
	REQUIRE((more = malloc(len + 1)));
	memcpy(more, buf, len);
	more[len] = 'x';
	CHECK(lab_point_rec_unpack(more, len + 1, 0, &b, &err) == -LAB_EIO);
	/* nreps sits in the record after the magic and the origin: make it huge */
	struct lab_point_rec hdr;
	size_t at = sizeof("lab.rec/1") + sizeof(uint64_t);
	memcpy(&hdr, more + at, sizeof(hdr));
	hdr.nreps = 0xffffffffu;
	memcpy(more + at, &hdr, sizeof(hdr));
	CHECK(lab_point_rec_unpack(more, len, 0, &b, &err) == -LAB_EIO);
	more[0] = 'X';
	CHECK(lab_point_rec_unpack(more, len, 0, &b, &err) == -LAB_EIO);
	CHECK(strstr(err.msg, "not a record of this build") != NULL);
	free(more);
	lab_point_rec_free(&a);
	free(buf);
}
