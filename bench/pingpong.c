/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench_pingpong: the plainest core-to-core probe, independent of the lab's harness, to check
 * the c2c_latency kernel against. Two threads pinned to CPUs A and B bounce a sequence number
 * on one 128-byte-aligned line (acquire loads, release stores); each sample times N round trips
 * with CLOCK_MONOTONIC around the whole batch and prints round trip / 2.
 *
 * usage: bench_pingpong [CPU_A CPU_B [ROUNDTRIPS [SAMPLES]]]   (defaults 0 1 100000 31)
 */
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct pp_shared {
	alignas(128) _Atomic uint64_t flag;
	alignas(128) uint64_t roundtrips, samples;
	pthread_barrier_t start;
	int cpu_b;
};

static uint64_t pp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int pp_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static inline void pp_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* The responder: answers every odd value with the next even one. */
static void *pp_responder(void *arg)
{
	struct pp_shared *s = arg;
	uint64_t total = s->roundtrips * (s->samples + 1);

	if (pp_pin(s->cpu_b) != 0)
		fprintf(stderr, "bench_pingpong: cannot pin to CPU %d\n", s->cpu_b);
	pthread_barrier_wait(&s->start);
	for (uint64_t k = 1; k <= total; k++) {
		while (atomic_load_explicit(&s->flag, memory_order_acquire) != 2 * k - 1)
			pp_relax();
		atomic_store_explicit(&s->flag, 2 * k, memory_order_release);
	}
	return NULL;
}

static int pp_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static struct pp_shared s;
	int cpu_a = argc > 1 ? atoi(argv[1]) : 0;
	uint64_t k = 0;
	pthread_t th;

	s.cpu_b = argc > 2 ? atoi(argv[2]) : 1;
	s.roundtrips = argc > 3 ? strtoull(argv[3], NULL, 10) : 100000;
	s.samples = argc > 4 ? strtoull(argv[4], NULL, 10) : 31;
	if (s.roundtrips == 0 || s.samples == 0) {
		fprintf(stderr, "usage: bench_pingpong [CPU_A CPU_B [ROUNDTRIPS [SAMPLES]]]\n");
		return 2;
	}
	double *one_way = calloc(s.samples, sizeof(*one_way));
	if (!one_way || pp_pin(cpu_a) != 0) {
		fprintf(stderr, "bench_pingpong: cannot pin to CPU %d (or out of memory)\n", cpu_a);
		return 1;
	}
	pthread_barrier_init(&s.start, NULL, 2);
	if (pthread_create(&th, NULL, pp_responder, &s) != 0)
		return 1;
	pthread_barrier_wait(&s.start);
	/* Sample 0 is a warm-up and is dropped. */
	for (uint64_t r = 0; r <= s.samples; r++) {
		uint64_t t0 = pp_now_ns();
		for (uint64_t i = 0; i < s.roundtrips; i++) {
			k++;
			atomic_store_explicit(&s.flag, 2 * k - 1, memory_order_release);
			while (atomic_load_explicit(&s.flag, memory_order_acquire) != 2 * k)
				pp_relax();
		}
		if (r > 0)
			one_way[r - 1] = (double)(pp_now_ns() - t0) / (2.0 * (double)s.roundtrips);
	}
	pthread_join(th, NULL);
	for (uint64_t r = 0; r < s.samples; r++)
		printf("sample %llu: %.2f ns one-way\n", (unsigned long long)r, one_way[r]);
	qsort(one_way, s.samples, sizeof(*one_way), pp_cmp);
	printf("bench_pingpong cpus %d-%d: one-way median %.2f ns, min %.2f, p10 %.2f, p90 %.2f "
	       "(%llu samples x %llu round trips)\n",
	       cpu_a, s.cpu_b, one_way[s.samples / 2], one_way[0], one_way[s.samples / 10],
	       one_way[s.samples * 9 / 10], (unsigned long long)s.samples,
	       (unsigned long long)s.roundtrips);
	free(one_way);
	return 0;
}
