/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Benchmark of the analyzer: writes a synthetic results directory of 100 000 samples (20
 * experiments x 10 strides x 10 thread counts x 50 repetitions, USL-shaped costs with 3 % noise,
 * 1 % load-flagged) and times load + statistics + series + fits + summary.csv + analysis.json,
 * plots excluded. Usage: analyze_bench [--distinct N] [DIR] (default: a fresh directory under
 * /tmp, removed). The target: under 1 s on the 2-vCPU build machine.
 *
 * --distinct N instead writes N distinct points (threads 1, 2, 4, 8 of N/4 strides, 3
 * repetitions each): the shape that was quadratic in the number of points (issue 12: 50 000
 * points took 8 s, 100 000 over 2 minutes). Target: 100 000 points in under 2 s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analysis.h"
#include "analyze/output.h"

#define B_EXP    20
#define B_STRIDE 10
#define B_REPS   50

static const int b_threads[] = {1, 2, 4, 6, 8, 12, 16, 24, 32, 48};

static double b_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of this process: on a shared, loaded machine the wall clock mostly measures the
 * neighbours. */
static double b_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A deterministic uniform in [0, 1) (xorshift), and a rough normal from 12 of them. */
static double b_normal(unsigned long long *s)
{
	double sum = 0;

	for (int i = 0; i < 12; i++) {
		*s ^= *s << 13;
		*s ^= *s >> 7;
		*s ^= *s << 17;
		sum += (double)(*s >> 11) / 9007199254740992.0;
	}
	return sum - 6;
}

/* N distinct points: one experiment, N/4 series of threads 1, 2, 4, 8, 3 repetitions each. */
static int b_write_distinct(const char *dir, long n)
{
	char path[4096];
	unsigned long long seed = 88172645463325252ULL;
	FILE *s, *r;

	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	s = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/run.json", dir);
	r = fopen(path, "w");
	if (!s || !r)
		return -1;
	fputs("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	      "flagged\n",
	      s);
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"e\", \"kernel\": \"k\", \"points\": [\n",
	      r);
	for (long p = 0; p < n; p++) {
		int N = 1 << (p % 4);

		fprintf(r,
		        "%s{\"point\": %ld, \"threads\": %d, \"params\": {\"stride\": \"%ld\"}}\n",
		        p ? ", " : "", p, N, p / 4);
		for (int k = 0; k < 3; k++)
			fprintf(
			    s,
			    "e,%ld,k,\"placement=compact;stride=%ld\",%d,%d,%.0f,1000,op,0.01,0\n",
			    p, p / 4, N, k, 1e6 * (1 + 0.5 / N) * (1 + 0.03 * b_normal(&seed)));
	}
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? -1 : 0;
}

static int b_write(const char *dir)
{
	char path[4096];
	unsigned long long seed = 88172645463325252ULL;
	FILE *s, *r;
	long point = 0;

	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	s = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/run.json", dir);
	r = fopen(path, "w");
	if (!s || !r)
		return -1;
	fputs("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	      "flagged,ops_per_s\n",
	      s);
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [", r);
	for (int e = 0; e < B_EXP; e++) {
		fprintf(r,
		        "%s{\"name\": \"exp%d\", \"kernel\": \"k%d\", \"scaling\": \"strong\", "
		        "\"points\": [",
		        e ? ", " : "", e, e);
		for (int st = 0; st < B_STRIDE; st++)
			for (int t = 0; t < 10; t++, point++) {
				int N = b_threads[t];
				double sg = 0.02 + 0.01 * st, kp = 0.0005 * (e % 4);
				double mu = 10.0 * (1 + sg * (N - 1) + kp * N * (N - 1)) / N;

				fprintf(r,
				        "%s{\"point\": %ld, \"threads\": %d, \"params\": "
				        "{\"stride\": \"%d\"}, \"status\": \"ok\"}",
				        st || t ? ", " : "", point, N, 8 << st);
				for (int k = 0; k < B_REPS; k++) {
					double c = mu * (1 + 0.03 * b_normal(&seed));
					int fl = (point * B_REPS + k) % 100 == 7;

					fprintf(
					    s,
					    "exp%d,%ld,k%d,\"placement=compact;stride=%d\",%d,%d,"
					    "%.0f,1000000,op,%.2f,%d,%.6g\n",
					    e, point, e, 8 << st, N, k, c * 1e6, fl ? 0.9 : 0.01,
					    fl, 1e9 / c);
				}
			}
		fputs("]}", r);
	}
	fputs("]}\n", r);
	return (fclose(s) | fclose(r)) ? -1 : 0;
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/lab-bench-XXXXXX", path[4096];
	long distinct = 0;
	const char *dir;
	struct lab_an_data d;
	struct lab_an_analysis a;
	struct lab_err err = {0};
	double t0, t1, t2, t3, t4, c0;

	if (argc > 2 && !strcmp(argv[1], "--distinct")) {
		distinct = strtol(argv[2], NULL, 10);
		argc -= 2;
		argv += 2;
	}
	dir = argc > 1 ? argv[1] : mkdtemp(tmpl);
	if (!dir || (distinct > 0 ? b_write_distinct(dir, distinct) : b_write(dir))) {
		fprintf(stderr, "analyze_bench: cannot write the results directory\n");
		return 1;
	}
	t0 = b_now();
	c0 = b_cpu();
	if (lab_an_data_load_dir(&d, dir, &err))
		goto fail;
	t1 = b_now();
	if (lab_an_data_summarize(&d, 0, &err) || lab_an_analysis_run(&d, 0, &a, &err))
		goto fail;
	t2 = b_now();
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if (lab_an_summary_write(&a, path, &err))
		goto fail;
	snprintf(path, sizeof(path), "%s/analysis.json", dir);
	if (lab_an_analysis_json_write(&a, path, &err))
		goto fail;
	t3 = b_now();
	t4 = t3 - t0;
	printf("analyze_bench: %zu samples, %zu points, %zu series\n", d.nsamples, d.npt, a.ns);
	printf("  load %.3f s, statistics+fits %.3f s, write %.3f s, total %.3f s wall, %.3f s "
	       "CPU (plots excluded)\n",
	       t1 - t0, t2 - t1, t3 - t2, t4, b_cpu() - c0);
	lab_an_analysis_free(&a);
	lab_an_data_free(&d);
	if (argc <= 1) {
		snprintf(path, sizeof(path), "rm -rf '%s'", dir);
		if (system(path) != 0)
			fprintf(stderr, "analyze_bench: could not remove %s\n", dir);
	}
	return 0;
fail:
	fprintf(stderr, "analyze_bench: %s\n", err.msg);
	return 1;
}
