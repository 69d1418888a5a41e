/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lab/an_heap.c: the analyzer's heap is grown ahead by about what a large input will need and
 * that range is advised for transparent huge pages (VmFlags "hg" in /proc/self/smaps); small or
 * unreadable inputs ask for nothing. Under a sanitizer, whose allocator does not use the break,
 * the growth part is skipped.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/an_heap.h"
#include "tests/testlib.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define AH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define AH_SANITIZED 1
#endif
#endif

/* A file of size bytes (sparse: no disk used) under the test's directory. */
static char *ah_file(const char *name, off_t size)
{
	static char path[2][256];
	static int k;
	char *p = path[k++ % 2];
	int fd;

	snprintf(p, sizeof(path[0]), "%s", name);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, size)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	return p;
}

#ifndef AH_SANITIZED
/* The VmFlags of the mapping that holds addr, from /proc/self/smaps ("" when not found). */
static void ah_vmflags(uintptr_t addr, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0;

	*out = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' '))
			in = addr >= lo && addr < hi;
		else if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(out, len, "%s", line + 8);
			break;
		}
	}
	if (f)
		fclose(f);
}
#endif

LAB_TEST(small_or_unreadable_inputs_ask_nothing)
{
	const char *files[3] = {NULL, "no/such/samples.csv", NULL};

	CHECK_EQ_U64(lab_an_heap_setup(files, 3), 0);
	files[2] = ah_file("ah_small.csv", 1 << 20);
	REQUIRE(files[2] != NULL);
	CHECK_EQ_U64(lab_an_heap_setup(files, 3), 0);
	files[0] = "."; /* a directory is not an input's size */
	CHECK_EQ_U64(lab_an_heap_setup(files, 3), 0);
	unlink(files[2]);
}

LAB_TEST(large_input_grows_the_heap_advised)
{
#ifdef AH_SANITIZED
	SKIP("a sanitizer's allocator does not grow the program break");
#else
	const char *files[2] = {ah_file("ah_a.csv", 60 << 20), ah_file("ah_b.csv", 40 << 20)};
	uintptr_t before = (uintptr_t)sbrk(0);
	size_t got;
	char flags[512];

	REQUIRE(files[0] && files[1]);
	got = lab_an_heap_setup(files, 2);
	unlink(files[0]);
	unlink(files[1]);
	/* 8 x 100 MiB ahead, in one range from the old break to the new */
	CHECK(got >= (size_t)800 << 20);
	CHECK((uintptr_t)sbrk(0) >= before + got);
	ah_vmflags((uintptr_t)sbrk(0) - 4096, flags, sizeof(flags));
	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK))
		SKIP_PART("a kernel without transparent huge pages takes no MADV_HUGEPAGE");
	else if (!strstr(flags, " hg"))
		TL__FAIL("the grown heap is not advised for huge pages: VmFlags:%s", flags);
	/* the heap serves allocations as before */
	char *p = malloc((size_t)200 << 20);
	REQUIRE(p != NULL);
	memset(p, 1, (size_t)200 << 20);
	CHECK(p[(size_t)200 << 20 >> 1] == 1);
	free(p);
#endif
}
