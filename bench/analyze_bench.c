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
 *
 * The whole command, as a user runs it (issue 19): analyze_bench [--lab LAB] SCENARIO N [REPS
 * [DIR]] writes a directory (DIR is kept, a temporary one removed), runs LAB (default: the lab of
 * this build) on it as a child process and prints the child's CPU time (user + system), its peak
 * RSS and the wall time: points N REPS   N distinct points x REPS samples, `lab analyze DIR
 * --no-plots` (target: 100 000 x 10 under 5 s CPU and under 1 GB) perf-c2c N      N experiments of
 * one point each with perf_c2c point facts, `lab analyze DIR --no-plots` (target: 1 000 under 2 s)
 *   compare N REPS  `lab compare DIR DIR` on N points x REPS (target: 100 000 x 10 under 5 s)
 *   c2c N           one c2c_latency experiment of N disjoint CPU pairs (0-1, 2-3, ...),
 *                   `lab analyze DIR` with plots;
 *                   also prints the largest .dat (target: 2 000 pairs under 3 s, .dat < 10 MB)
 * Times are printed, never asserted: the tests assert operation counts instead.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* Creates DIR/samples.csv and DIR/run.json for writing; -1 (nothing left open) on failure. */
static int b_open_pair(const char *dir, FILE **s, FILE **r)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	*s = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/run.json", dir);
	*r = fopen(path, "w");
	if (*s && *r)
		return 0;
	if (*s)
		fclose(*s);
	if (*r)
		fclose(*r);
	return -1;
}

/* N distinct points: one experiment, N/4 series of threads 1, 2, 4, 8, reps repetitions each. */
static int b_write_distinct(const char *dir, long n, int reps)
{
	unsigned long long seed = 88172645463325252ULL;
	FILE *s, *r;

	if (b_open_pair(dir, &s, &r))
		return -1;
	fputs("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	      "flagged\n",
	      s);
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"e\", \"kernel\": \"k\", \"work_unit\": \"op\", \"points\": [\n",
	      r);
	for (long p = 0; p < n; p++) {
		int N = 1 << (p % 4);

		fprintf(r,
		        "%s{\"point\": %ld, \"threads\": %d, \"params\": {\"stride\": \"%ld\"}, "
		        "\"placement\": \"compact\", \"status\": \"ok\", \"reps\": %d}\n",
		        p ? ", " : "", p, N, p / 4, reps);
		for (int k = 0; k < reps; k++)
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
	unsigned long long seed = 88172645463325252ULL;
	FILE *s, *r;
	long point = 0;

	if (b_open_pair(dir, &s, &r))
		return -1;
	fputs("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	      "flagged,ops_per_s\n",
	      s);
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [", r);
	for (int e = 0; e < B_EXP; e++) {
		fprintf(r,
		        "%s{\"name\": \"exp%d\", \"kernel\": \"k%d\", \"work_unit\": \"op\", "
		        "\"scaling\": \"strong\", \"points\": [",
		        e ? ", " : "", e, e);
		for (int st = 0; st < B_STRIDE; st++)
			for (int t = 0; t < 10; t++, point++) {
				int N = b_threads[t];
				double sg = 0.02 + 0.01 * st, kp = 0.0005 * (e % 4);
				double mu = 10.0 * (1 + sg * (N - 1) + kp * N * (N - 1)) / N;

				fprintf(r,
				        "%s{\"point\": %ld, \"threads\": %d, \"params\": "
				        "{\"stride\": \"%d\"}, \"placement\": \"compact\", "
				        "\"status\": \"ok\", \"reps\": %d}",
				        st || t ? ", " : "", point, N, 8 << st, B_REPS);
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

/* N experiments of one point each, every point with perf_c2c facts as the harness records them. */
static int b_write_perf_c2c(const char *dir, long n)
{
	FILE *s, *r;

	if (b_open_pair(dir, &s, &r))
		return -1;
	fputs("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	      "flagged\n",
	      s);
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [\n", r);
	for (long e = 0; e < n; e++) {
		fprintf(
		    r,
		    "%s{\"name\": \"x%ld\", \"kernel\": \"noop\", \"work_unit\": \"op\", "
		    "\"views\": "
		    "[], \"points\": [{\"point\": %ld, \"threads\": 2, \"params\": {\"perf_c2c\": "
		    "\"on\"}, \"placement\": \"compact\", \"status\": \"ok\", \"reps\": 3, "
		    "\"point_facts\": {\"perf_c2c\": \"ok\", "
		    "\"perf_c2c_lines\": 3, \"perf_c2c_top\": \"0x7f3a1c000040 rmt_hitm=706 "
		    "lcl_hitm=2391: +0x0 61.0%%/52.7%% [.] f (a.so); 0x7f3a1c000080 rmt_hitm=12 "
		    "lcl_hitm=40: +0x8 1.0%%/0.7%% [.] g (a.so)\"}}]}\n",
		    e ? ", " : "", e, e);
		for (int k = 0; k < 3; k++)
			fprintf(s,
			        "x%ld,%ld,noop,\"perf_c2c=on;placement=compact\",2,%d,%d,1000,op,0."
			        "01,0\n",
			        e, e, k, 1000000 + 1000 * k);
	}
	fputs("]}\n", r);
	return (fclose(s) | fclose(r)) ? -1 : 0;
}

/* One c2c_latency experiment of n disjoint CPU pairs, (0, 1), (2, 3), ... (a matrix of 2n CPUs
 * with n measured cells: the shape whose heatmap was cubic, issue 19), 5 samples each. */
static int b_write_c2c(const char *dir, long n)
{
	FILE *s, *r;

	if (b_open_pair(dir, &s, &r))
		return -1;
	fputs("experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,"
	      "flagged,one_way_ns\n",
	      s);
	fputs("{\"schema\": \"lab.run/1\", \"status\": \"complete\", \"experiments\": [{\"name\": "
	      "\"c2c\", \"kernel\": \"c2c_latency\", \"work_unit\": \"roundtrip\", \"views\": "
	      "[\"c2c\"], \"metrics\": [{\"name\": \"one_way_ns\", \"unit\": \"ns\", \"agg\": "
	      "\"mean\"}], \"points\": [\n",
	      r);
	for (long p = 0; p < n; p++) {
		long a = 2 * p, b = a + 1;
		double ow = 40 + (p % 8 ? 100 : 0) + 0.1 * (double)(p % 10);

		fprintf(r,
		        "%s{\"point\": %ld, \"threads\": 2, \"placement\": \"pairs\", \"cpus\": "
		        "[%ld, %ld], \"params\": {\"method\": \"load_store\", \"pair\": "
		        "\"%ld-%ld\"}, \"status\": \"ok\", \"reps\": 5}\n",
		        p ? ", " : "", p, a, b, a, b);
		for (int k = 0; k < 5; k++)
			fprintf(s,
			        "c2c,%ld,c2c_latency,\"method=load_store;pair=%ld-%ld;"
			        "placement=pairs\",2,%d,%.0f,100000,roundtrip,0.01,0,%.3f\n",
			        p, a, b, k, 2e5 * (ow + 0.2 * k), ow + 0.2 * k);
	}
	fputs("]}]}\n", r);
	return (fclose(s) | fclose(r)) ? -1 : 0;
}

/* Runs argv as a child with stdout to /dev/null; its CPU seconds, peak RSS (MB) and wall
 * seconds. Returns its exit status, or -1. */
static int b_child(const char **argv, double *cpu_s, double *rss_mb, double *wall_s)
{
	struct rusage ru;
	int status;
	double t0 = b_now();
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, 1);
		execv(argv[0], (char *const *)argv); /* execv does not write them */
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		return -1;
	*wall_s = b_now() - t0;
	*cpu_s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
	         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
	*rss_mb = (double)ru.ru_maxrss / 1024.0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The largest .dat file in dir/plots (bytes) and its name. */
static long long b_largest_dat(const char *dir, char *name, size_t len)
{
	char path[4096];
	long long max = 0;
	struct dirent *e;
	DIR *dp;

	snprintf(path, sizeof(path), "%s/plots", dir);
	if (!(dp = opendir(path)))
		return 0;
	while ((e = readdir(dp))) {
		struct stat st;
		size_t l = strlen(e->d_name);

		snprintf(path, sizeof(path), "%s/plots/%s", dir, e->d_name);
		if (l > 4 && !strcmp(e->d_name + l - 4, ".dat") && !stat(path, &st) &&
		    st.st_size > max) {
			max = st.st_size;
			snprintf(name, len, "%s", e->d_name);
		}
	}
	closedir(dp);
	return max;
}

#ifndef LAB_BENCH_LAB
#define LAB_BENCH_LAB "lab"
#endif

/* analyze_bench [--lab LAB] SCENARIO N [REPS]: see the top of the file. */
static int b_scenario(int argc, char **argv)
{
	char tmpl[] = "/tmp/lab-bench-XXXXXX", cmd[4200], dat[256] = "";
	const char *lab = LAB_BENCH_LAB, *child[6] = {NULL};
	char *dir, *sc;
	long n, reps;
	double cpu, rss, wall;
	int rc, w;

	if (argc > 2 && !strcmp(argv[1], "--lab")) {
		lab = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 3 || (n = strtol(argv[2], NULL, 10)) < 1) {
		fprintf(stderr, "usage: analyze_bench [--lab LAB] points|perf-c2c|compare|c2c N "
		                "[REPS [DIR]]\n");
		return 2;
	}
	sc = argv[1];
	reps = argc > 3 ? strtol(argv[3], NULL, 10) : 10;
	if (!(dir = argc > 4 ? argv[4] : mkdtemp(tmpl)) || reps < 1)
		return 2;
	if (!strcmp(sc, "points") || !strcmp(sc, "compare"))
		w = b_write_distinct(dir, n, (int)reps);
	else if (!strcmp(sc, "perf-c2c"))
		w = b_write_perf_c2c(dir, n);
	else if (!strcmp(sc, "c2c"))
		w = b_write_c2c(dir, n);
	else
		w = -2;
	child[0] = lab;
	child[1] = strcmp(sc, "compare") ? "analyze" : "compare";
	child[2] = dir;
	child[3] = strcmp(sc, "compare") ? (strcmp(sc, "c2c") ? "--no-plots" : NULL) : dir;
	if (w) {
		fprintf(stderr, "analyze_bench: %s\n",
		        w == -2 ? "unknown scenario" : "cannot write the results directory");
		rc = 2;
	} else if ((rc = b_child(child, &cpu, &rss, &wall)) < 0) {
		fprintf(stderr, "analyze_bench: cannot run %s\n", lab);
	} else {
		long long big = b_largest_dat(dir, dat, sizeof(dat));

		printf("analyze_bench %s %ld%s: lab %s exit %d, %.2f s CPU, %.0f MB peak RSS, "
		       "%.2f s wall",
		       sc, n, strcmp(sc, "points") && strcmp(sc, "compare") ? "" : " x reps",
		       child[1], rc, cpu, rss, wall);
		if (big)
			printf(", largest .dat %.2f MB (%s)", (double)big / 1e6, dat);
		printf("\n");
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (argc <= 4 && system(cmd) != 0)
		fprintf(stderr, "analyze_bench: could not remove %s\n", dir);
	return rc ? 1 : 0;
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

	if (argc > 1 && (!strcmp(argv[1], "--lab") || !strcmp(argv[1], "points") ||
	                 !strcmp(argv[1], "perf-c2c") || !strcmp(argv[1], "compare") ||
	                 !strcmp(argv[1], "c2c")))
		return b_scenario(argc, argv);
	if (argc > 2 && !strcmp(argv[1], "--distinct")) {
		distinct = strtol(argv[2], NULL, 10);
		argc -= 2;
		argv += 2;
	}
	dir = argc > 1 ? argv[1] : mkdtemp(tmpl);
	if (!dir || (distinct > 0 ? b_write_distinct(dir, distinct, 3) : b_write(dir))) {
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
