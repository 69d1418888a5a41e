/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analyzer's heap (lab/an_heap.h). Mappings only above 32 MiB (glibc's largest threshold;
 * below it each grown array was a fresh mapping, faulted in anew) and no trimming took `lab
 * analyze` on 100,000 points x 10 samples from 147,000 page faults to 127,000 on a PVM guest
 * (6.1 -> 5.4 s CPU). The rest are first touches of the heap, one per 4 KiB. glibc asks for
 * huge pages itself only when told by the environment (GLIBC_TUNABLES=glibc.malloc.hugetlb=1),
 * so the heap is grown here, before anything touches it, by what the analysis is expected to
 * use (AH_PER_INPUT_BYTE times the input; measured: 514 MB of heap for a 69 MB samples.csv and
 * an 11 MB run.json), and that range is advised MADV_HUGEPAGE: 127,000 faults -> about 1,000
 * there. Where the kernel gives no huge pages (transparent_hugepage=never) the advice does
 * nothing; the range is address space, not memory, until it is used.
 */
#include "lab/an_heap.h"

#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define AH_PER_INPUT_BYTE 8
#define AH_MIN            ((size_t)64 << 20) /* below it the faults cost little */
#define AH_MAX            ((size_t)1 << 30)

static size_t ah_expected(const char *const *files, size_t nfiles)
{
	size_t sum = 0;
	struct stat st;

	for (size_t i = 0; i < nfiles; i++)
		if (files[i] && !stat(files[i], &st) && S_ISREG(st.st_mode) && st.st_size > 0)
			sum += (size_t)st.st_size;
	return sum > AH_MAX / AH_PER_INPUT_BYTE ? AH_MAX : sum * AH_PER_INPUT_BYTE;
}

size_t lab_an_heap_setup(const char *const *files, size_t nfiles)
{
	size_t want = ah_expected(files, nfiles), page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t from, to;
	void *volatile grow;

	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	if (want < AH_MIN)
		return 0;
	/* One allocation past the top of the heap moves the break by it and the pad; freed, the
	 * range stays (no trim) and nothing in it has been touched. */
	from = ((uintptr_t)sbrk(0) + page - 1) & ~(uintptr_t)(page - 1);
	mallopt(M_TOP_PAD, (int)want);
	/* Through a volatile pointer: clang (14, -O2) removed a plain malloc-free pair, so the
	 * break never moved and nothing was advised. */
	grow = malloc((size_t)1 << 20);
	free(grow);
	mallopt(M_TOP_PAD, 128 << 10); /* glibc's default */
	to = (uintptr_t)sbrk(0);
	if (!grow || to <= from)
		return 0;
	madvise((void *)from, to - from, MADV_HUGEPAGE);
	return to - from;
}
