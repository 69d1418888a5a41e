/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The kernels' buffer helper on this machine: alignment, zeroed memory, first touch by the
 * calling thread (pages absent until touched, then present), the page histogram, binding to
 * node 0 and to a node that does not exist, interleave, and both huge-page settings. Node 0
 * always exists; more nodes are exercised in the QEMU guest (tests/vm).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/buffer.h"
#include "harness/facts.h"
#include "harness/memavail.h"
#include "harness/membind.h"
#include "tests/testlib.h"

static void check_zero(const struct lab_buf *b)
{
	const unsigned char *c = b->p;
	size_t bad = 0;

	for (size_t i = 0; i < b->size_bytes; i++)
		bad += c[i] != 0;
	CHECK_EQ_U64(bad, 0);
}

LAB_TEST(alignment_and_zeroed)
{
	static const size_t aligns[] = {0, 64, 128, 4096, 65536, 2u << 20};
	static const size_t sizes[] = {1, 100, 4096, 5000, 1u << 20};

	for (size_t a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++)
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			struct lab_buf_opts o = {.align_bytes = aligns[a]};
			struct lab_buf b;
			struct lab_err err = {0};
			size_t want = aligns[a] ? aligns[a] : 128;
			REQUIRE(lab_buf_alloc(&b, sizes[s], &o, &err) == 0);
			CHECK_EQ_U64((uintptr_t)b.p % want, 0);
			CHECK_EQ_U64(b.size_bytes, sizes[s]);
			check_zero(&b);
			memset(b.p, 0xab, b.size_bytes); /* the whole size is writable */
			lab_buf_free(&b);
			CHECK(b.p == NULL);
		}
	lab_buf_free(&(struct lab_buf){0}); /* an empty buffer frees */
}

LAB_TEST(bad_size_or_alignment)
{
	struct lab_buf b;
	struct lab_err err = {0};

	CHECK_EQ_I64(lab_buf_alloc(&b, 0, NULL, &err), -LAB_EINVAL);
	CHECK(b.p == NULL);
	CHECK_EQ_I64(lab_buf_alloc(&b, 64, &(struct lab_buf_opts){.align_bytes = 96}, &err),
	             -LAB_EINVAL);
	CHECK(strstr(err.msg, "power-of-two alignment") != NULL);
}

/* A buffer past the memory left is refused before anything is mapped or touched (size = 8G on
 * a 4 GiB machine ended in the OOM killer or swapping, not in a reason). */
LAB_TEST(buffer_past_available_memory_refused)
{
	unsigned long long kb = 0;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");
	struct lab_buf b;
	struct lab_err err = {0};

	while (f && fgets(line, sizeof(line), f) && sscanf(line, "MemAvailable: %llu kB", &kb) != 1)
		;
	if (f)
		fclose(f);
	if (!kb)
		SKIP("no MemAvailable in /proc/meminfo");
	CHECK_EQ_I64(lab_buf_alloc(&b, (size_t)kb * 1024 * 2, NULL, &err), -LAB_ENOMEM);
	CHECK(b.p == NULL);
	CHECK(strstr(err.msg, "of memory available (MemAvailable); allowed: a smaller size") !=
	      NULL);
}

/* A /proc/meminfo stand-in saying MemAvailable is kb kB; its path lives until the case ends. */
static void fake_meminfo(unsigned long long kb)
{
	static char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/meminfo", testlib_tmpdir());
	f = fopen(path, "w");
	REQUIRE(f != NULL);
	fprintf(f,
	        "MemTotal:       16384000 kB\nMemFree:         1000 kB\n"
	        "MemAvailable:   %llu kB\nBuffers:            0 kB\n",
	        kb);
	fclose(f);
	lab_mem_meminfo_path(path);
}

/* A buffer the threads touch later (no_touch, membind = first_touch) is checked too: its pages
 * will be just as real. */
LAB_TEST(untouched_buffer_past_available_memory_refused)
{
	struct lab_buf b;
	struct lab_err err = {0};

	fake_meminfo(4096);
	CHECK_EQ_I64(lab_buf_alloc(&b, 8u << 20, &(struct lab_buf_opts){.no_touch = true}, &err),
	             -LAB_ENOMEM);
	CHECK(b.p == NULL);
	CHECK_EQ_STR(err.msg, "a buffer of 8 MiB: this machine has 4 MiB of memory available "
	                      "(MemAvailable); allowed: a smaller size");
	REQUIRE(lab_buf_alloc(&b, 2u << 20, &(struct lab_buf_opts){.no_touch = true}, &err) == 0);
	lab_buf_free(&b);
	lab_mem_meminfo_path(NULL);
}

/* numa30: a buffer bound to a node (MPOL_BIND does not spill) past that node's free and
 * reclaimable memory is refused with both sizes; it was the OOM killer ending the whole run,
 * with MemAvailable of the machine well above it. */
LAB_TEST(bound_buffer_past_its_node_refused)
{
	static char dir[4096];
	char path[4200];
	struct lab_buf b;
	struct lab_err err = {0};
	struct lab_buf_opts o = {.place = LAB_BUF_BIND, .node = 0, .no_touch = true};
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/nodes", testlib_tmpdir());
	snprintf(path, sizeof(path), "%s/node0", dir);
	REQUIRE(mkdir(dir, 0777) == 0 && mkdir(path, 0777) == 0);
	snprintf(path, sizeof(path), "%s/node0/meminfo", dir);
	REQUIRE((f = fopen(path, "w")) != NULL);
	fprintf(f, "Node 0 MemTotal:  16384000 kB\nNode 0 MemFree:      2048 kB\n"
	           "Node 0 Active(file):  1024 kB\nNode 0 Inactive(file): 1024 kB\n"
	           "Node 0 Shmem:     900000 kB\n");
	fclose(f);
	lab_mem_node_dir(dir);
	CHECK_EQ_U64(lab_mem_node_available(0), 4u << 20);
	CHECK_EQ_U64(lab_mem_node_available(1), SIZE_MAX); /* no file: no check */
	CHECK_EQ_I64(lab_buf_alloc(&b, 8u << 20, &o, &err), -LAB_ENOMEM);
	CHECK(b.p == NULL);
	CHECK_EQ_STR(err.msg, "a buffer of 8 MiB bound to NUMA node 0: that node has 4 MiB free or "
	                      "reclaimable (MemFree + file pages + reclaimable kernel memory); "
	                      "allowed: a smaller size");
	/* review31: within a point the node's bound buffers add up, touched or not (three arrays
	 * of 3 MiB each passed a 4 MiB node one at a time) */
	struct lab_buf c;
	lab_mem_budget_begin();
	REQUIRE(lab_buf_alloc(&b, 3u << 20, &o, &err) == 0);
	CHECK_EQ_I64(lab_buf_alloc(&c, 3u << 20, &o, &err), -LAB_ENOMEM);
	CHECK(strstr(err.msg, "3 MiB of it held by the point's other buffers bound there") != NULL);
	lab_buf_free(&b);
	REQUIRE(lab_buf_alloc(&c, 3u << 20, &o, &err) == 0); /* b's room is back */
	lab_buf_free(&c);
	lab_mem_budget_end();
	o.place = LAB_BUF_PREFERRED; /* spills to another node: the machine's memory counts */
	REQUIRE(lab_buf_alloc(&b, 8u << 20, &o, &err) == 0);
	lab_buf_free(&b);
	lab_mem_node_dir(NULL);
}

/* Within a point, buffers count against MemAvailable as it was when the point began, touched
 * or not and from whichever thread: three arrays of 3 MiB each pass a 4 MiB MemAvailable one at a
 * time, never together. Freeing gives the room back; after the point the live reading rules. */
LAB_TEST(point_budget_counts_every_buffer_it_holds)
{
	struct lab_buf_opts o = {.no_touch = true};
	struct lab_buf a, b;
	struct lab_err err = {0};

	fake_meminfo(4096);
	lab_mem_budget_begin();
	REQUIRE(lab_buf_alloc(&a, 3u << 20, &o, &err) == 0);
	CHECK_EQ_I64(lab_buf_alloc(&b, 3u << 20, &o, &err), -LAB_ENOMEM);
	CHECK(b.p == NULL);
	CHECK_EQ_STR(err.msg, "a buffer of 3 MiB: this machine had 4 MiB of memory available "
	                      "(MemAvailable) when the point began, 3 MiB of it held by the "
	                      "point's other buffers; allowed: a smaller size");
	lab_buf_free(&a);
	REQUIRE(lab_buf_alloc(&b, 3u << 20, &o, &err) == 0);             /* a's room is back */
	REQUIRE(lab_buf_alloc(&a, 3u << 20, NULL, &err) == -LAB_ENOMEM); /* touched: the same */
	lab_mem_budget_end();
	REQUIRE(lab_buf_alloc(&a, 3u << 20, &o, &err) == 0);
	lab_buf_free(&a);
	lab_buf_free(&b);
	lab_mem_meminfo_path(NULL);
}

struct toucher {
	struct lab_buf *b;
	size_t offset, len;
};

static void *touch_thread(void *arg)
{
	struct toucher *t = arg;

	lab_buf_touch(t->b, t->offset, t->len);
	return NULL;
}

/* Untouched pages are absent; another thread's touch places exactly its part. */
LAB_TEST(first_touch_by_the_owner)
{
	struct lab_buf_opts o = {.no_touch = true, .huge = LAB_BUF_HUGE_OFF};
	struct lab_buf b;
	struct lab_buf_pages pg;
	struct lab_err err = {0};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	pthread_t th;

	REQUIRE(lab_buf_alloc(&b, 64 * page, &o, &err) == 0);
	REQUIRE(lab_buf_pages(&b, &pg, &err) == 0);
	CHECK_EQ_U64(pg.pages, 64);
	CHECK_EQ_U64(pg.absent, 64);
	CHECK_EQ_I64(pg.max_node, -1);
	struct toucher t = {.b = &b, .offset = 16 * page + 1, .len = 16 * page};
	REQUIRE(pthread_create(&th, NULL, touch_thread, &t) == 0);
	pthread_join(th, NULL);
	REQUIRE(lab_buf_pages(&b, &pg, &err) == 0);
	/* Bytes 16p+1 .. 32p: pages 16 to 32, 17 pages. */
	CHECK_EQ_U64(pg.absent, 64 - 17);
	CHECK_EQ_U64(pg.on_node[0], 17);
	CHECK_EQ_U64(pg.other, 0);
	lab_buf_touch(&b, 0, SIZE_MAX); /* clipped to the buffer */
	REQUIRE(lab_buf_pages(&b, &pg, &err) == 0);
	CHECK_EQ_U64(pg.absent, 0);
	check_zero(&b);
	lab_buf_free(&b);
}

/* Bound, preferred and interleaved on node 0 (every machine has one): every page is there. */
LAB_TEST(page_histogram_node0)
{
	static const enum lab_buf_place places[] = {LAB_BUF_LOCAL, LAB_BUF_BIND, LAB_BUF_PREFERRED,
	                                            LAB_BUF_INTERLEAVE};

	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		struct lab_buf_opts o = {.place = places[i], .node = 0, .huge = LAB_BUF_HUGE_OFF};
		struct lab_buf b;
		struct lab_buf_pages pg;
		struct lab_err err = {0};
		REQUIRE(lab_buf_alloc(&b, 1u << 20, &o, &err) == 0);
		REQUIRE(lab_buf_pages(&b, &pg, &err) == 0);
		CHECK_EQ_U64(pg.pages, (1u << 20) / (size_t)sysconf(_SC_PAGESIZE));
		uint64_t placed = 0;
		for (int n = 0; n < LAB_BUF_NODES_MAX; n++)
			placed += pg.on_node[n];
		CHECK_EQ_U64(placed, pg.pages);
		if (places[i] == LAB_BUF_BIND)
			CHECK_EQ_U64(pg.on_node[0], pg.pages);
		lab_buf_free(&b);
	}
}

LAB_TEST(bind_to_missing_node_fails)
{
	static const int nodes[] = {LAB_BUF_NODES_MAX - 1, LAB_BUF_NODES_MAX, -1};

	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		struct lab_buf_opts o = {.place = LAB_BUF_BIND, .node = nodes[i]};
		struct lab_buf b;
		struct lab_err err = {0};
		char want[64];
		CHECK_EQ_I64(lab_buf_alloc(&b, 4096, &o, &err), -LAB_EINVAL);
		snprintf(want, sizeof(want), "NUMA node %d: not a node this process may use",
		         nodes[i]);
		CHECK(strstr(err.msg, want) == err.msg);
		CHECK(strstr(err.msg, "(nodes 0") != NULL);
		CHECK(b.p == NULL);
	}
}

/* Both settings are accepted; ON aligns to 2 MiB so THP can back the buffer. */
LAB_TEST(huge_page_flag_accepted)
{
	static const enum lab_buf_huge hs[] = {LAB_BUF_HUGE_ON, LAB_BUF_HUGE_OFF};

	for (size_t i = 0; i < 2; i++) {
		struct lab_buf_opts o = {.huge = hs[i]};
		struct lab_buf b;
		struct lab_buf_pages pg;
		struct lab_err err = {0};
		REQUIRE(lab_buf_alloc(&b, 3u << 20, &o, &err) == 0);
		if (hs[i] == LAB_BUF_HUGE_ON)
			CHECK_EQ_U64((uintptr_t)b.p % (2u << 20), 0);
		REQUIRE(lab_buf_pages(&b, &pg, &err) == 0);
		CHECK_EQ_U64(pg.absent, 0);
		check_zero(&b);
		lab_buf_free(&b);
	}
}

/* How much of a mapping THP backs, from smaps: the mapping that holds the address, its
 * AnonHugePages over its size; field lines that begin with a hex digit ("Anonymous:") are no
 * mapping's line (one scanned into the mapping's start read 64 MiB of huge pages as 0 %). A
 * buffer advised MADV_NOHUGEPAGE has none; one that is not mapped says -1. */
LAB_TEST(huge_share_from_smaps)
{
	static const char smaps[] = "7f0000000000-7f0000200000 rw-p 00000000 00:00 0 \n"
	                            "Size:               2048 kB\nAnonymous:          2048 kB\n"
	                            "AnonHugePages:      2048 kB\n"
	                            "7f5fc4600000-7f5fc8600000 rw-p 00000000 00:00 0 \n"
	                            "Size:              65536 kB\nRss:               65536 kB\n"
	                            "Anonymous:         65536 kB\nLazyFree:              0 kB\n"
	                            "AnonHugePages:     16384 kB\nFilePmdMapped:         0 kB\n"
	                            "7f5fc8600000-7f5fc8800000 rw-p 00000000 00:00 0 \n"
	                            "AnonHugePages:         0 kB\n";
	char path[1024], name[700];
	FILE *f;
	struct lab_buf_opts o = {.huge = LAB_BUF_HUGE_OFF};
	struct lab_buf b;
	struct lab_err err = {0};
	const uintptr_t two = 0x7f0000100000, end = 0x7f5fc8700000;

	/* a file mapping whose path runs past any fixed line buffer, its tail a mapping's line */
	memset(name, 'x', sizeof(name));
	memcpy(name + sizeof(name) - 21, "1-ffffffffffff rw-p", 20);
	snprintf(path, sizeof(path), "%s/smaps", testlib_tmpdir());
	REQUIRE((f = fopen(path, "w")));
	fprintf(f,
	        "%s7f5fd0000000-7f5fd0001000 r--p 00000000 08:01 12 /%s\n"
	        "AnonHugePages:         0 kB\n",
	        smaps, name);
	REQUIRE(fclose(f) == 0);
	CHECK_EQ_I64(lab__buf_huge_pct_in(path, (void *)0x7f5fc5000000, 1), 25);
	CHECK_EQ_I64(lab__buf_huge_pct_in(path, (void *)0x7f0000000000, 1), 100);
	CHECK_EQ_I64(lab__buf_huge_pct_in(path, (void *)0x7f5fc8600000, 1), 0);
	CHECK_EQ_I64(lab__buf_huge_pct_in(path, (void *)0x1000, 1), -1);
	CHECK_EQ_I64(lab__buf_huge_pct_in("/nonexistent/smaps", (void *)0x1000, 1), -1);
	/* a buffer over three mappings: (2048 + 16384 + 0) of (2048 + 65536 + 2048) kB */
	CHECK_EQ_I64(lab__buf_huge_pct_in(path, (void *)two, end - two),
	             (int64_t)(100.0 * (2048 + 16384) / (2048 + 65536 + 2048) + 0.5));
	REQUIRE(lab_buf_alloc(&b, 4u << 20, &o, &err) == 0);
	CHECK_EQ_I64(lab_buf_huge_pct(&b), 0);
	lab_buf_free(&b);
}

LAB_TEST(small_objects)
{
	struct lab_err err = {0};
	char *a = lab_buf_obj_alloc(200, &err), *b = lab_buf_obj_alloc(1, &err);

	REQUIRE(a && b);
	CHECK_EQ_U64((uintptr_t)a % 128, 0);
	CHECK_EQ_U64((uintptr_t)b % 128, 0);
	for (int i = 0; i < 200; i++)
		CHECK_EQ_U64(a[i], 0);
	/* Pages of their own: two objects never share a page, so never a line. */
	CHECK((uintptr_t)a / 4096 != (uintptr_t)b / 4096);
	memset(a, 1, 200);
	lab_buf_obj_free(a);
	lab_buf_obj_free(b);
	lab_buf_obj_free(NULL);
}

/* A point's membind reaches buffers that leave the placement to the harness, and only those. */
LAB_TEST(membind_applies_to_default_buffers)
{
	struct lab_membind m;
	struct lab_buf def, mine, ft;
	struct lab_buf_pages pg;
	struct lab_err err = {0};
	struct lab_facts facts = {0};
	struct lab_ctx ctx = {.facts = &facts};

	REQUIRE(lab_membind_parse("node:0", &m, &err) == 0);
	CHECK_EQ_I64(m.kind, LAB_MEMBIND_NODE);
	CHECK_EQ_I64(lab_membind_check(&m, 1, &err), 0);
	REQUIRE(lab_membind_parse("node:2", &m, &err) == 0);
	CHECK_EQ_I64(lab_membind_check(&m, 2, &err), LAB_SKIP);
	CHECK_EQ_STR(err.msg, "membind = node:2: this machine has 2 NUMA nodes (0 .. 1)");
	CHECK_EQ_I64(lab_membind_parse("node:64", &m, &err), -LAB_ECONFIG);
	CHECK_EQ_I64(lab_membind_parse("Local", &m, &err), -LAB_ECONFIG);

	/* first_touch: the harness leaves default buffers untouched; explicit ones keep theirs. */
	REQUIRE(lab_membind_parse("first_touch", &m, &err) == 0);
	lab_membind_begin(&m);
	REQUIRE(lab_buf_alloc(&ft, 8 * 4096, NULL, &err) == 0);
	REQUIRE(lab_buf_alloc(&mine, 8 * 4096, &(struct lab_buf_opts){.place = LAB_BUF_LOCAL},
	                      &err) == 0);
	REQUIRE(lab_buf_pages(&ft, &pg, &err) == 0);
	CHECK_EQ_U64(pg.absent, 8);
	REQUIRE(lab_buf_pages(&mine, &pg, &err) == 0);
	CHECK_EQ_U64(pg.absent, 0);
	lab_buf_touch(&ft, 0, 3 * 4096);
	lab_membind_facts(&ctx, "first_touch");
	lab_membind_end();
	/* Only the default buffer is counted: 3 pages on node 0, 5 not yet written. */
	REQUIRE(facts.n == 4);
	CHECK_EQ_STR(facts.f[0].key, "membind");
	CHECK_EQ_STR(facts.f[0].s, "first_touch");
	CHECK_EQ_STR(facts.f[1].key, "membind_buffers");
	CHECK_EQ_I64(facts.f[1].i, 1);
	CHECK_EQ_STR(facts.f[2].key, "membind_pages_per_node");
	REQUIRE(facts.f[2].n == 1);
	CHECK_EQ_U64(facts.f[2].v[0], 3);
	CHECK_EQ_STR(facts.f[3].key, "membind_pages_absent");
	CHECK_EQ_I64(facts.f[3].i, 5);
	lab_facts_clear(&facts);
	lab_buf_free(&ft);
	lab_buf_free(&mine);

	/* interleave and node:0 bind through the kernel (node 0 always exists); freed buffers
	 * are forgotten. */
	static const char *const binds[] = {"interleave", "node:0"};
	for (int i = 0; i < 2; i++) {
		REQUIRE(lab_membind_parse(binds[i], &m, &err) == 0);
		lab_membind_begin(&m);
		int rc = lab_buf_alloc(&def, 4 * 4096, NULL, &err);
		if (rc == -LAB_EUNSUP) { /* a kernel without NUMA support: said, not hidden */
			fprintf(stderr, "membind %s: %s\n", binds[i], err.msg);
			lab_membind_end();
			continue;
		}
		REQUIRE(rc == 0);
		REQUIRE(lab_buf_alloc(&mine, 4096, NULL, &err) == 0);
		lab_buf_free(&mine);
		lab_membind_facts(&ctx, binds[i]);
		lab_membind_end();
		CHECK_EQ_I64(facts.f[1].i, 1);
		REQUIRE(facts.f[2].n >= 1);
		CHECK_EQ_U64(facts.f[2].v[0], 4);
		lab_facts_clear(&facts);
		lab_buf_free(&def);
	}

	/* After the point: local again, nothing remembered. */
	REQUIRE(lab_buf_alloc(&def, 4096, NULL, &err) == 0);
	lab_membind_facts(&ctx, "local");
	CHECK_EQ_I64(facts.f[1].i, 0);
	lab_facts_clear(&facts);
	lab_buf_free(&def);
}

/* The price of fresh memory the plan's estimate uses: some positive ns per byte for a buffer
 * that can be mapped, 0 (not measured) for none or one past the memory left. */
LAB_TEST(touch_price_measured_or_zero)
{
	CHECK(lab_buf_touch_ns_per_byte((size_t)1 << 20, 2) > 0);
	CHECK(lab_buf_touch_ns_per_byte(0, 2) == 0);
	CHECK(lab_buf_touch_ns_per_byte((size_t)1 << 20, 0) == 0);
	fake_meminfo(512);
	CHECK(lab_buf_touch_ns_per_byte((size_t)1 << 20, 2) == 0);
	lab_mem_meminfo_path(NULL);
}
