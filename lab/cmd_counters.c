/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab counters: which PMU, which presets and events can be counted here, and why not. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness/coreclock.h"
#include "harness/counters.h"
#include "harness/json.h"
#include "lab/cli.h"

static const char *const ctr_presets[] = {"sw", "ipc", "cache", "branch", "topdown", "flops"};
#define CTR_NPRESETS (sizeof(ctr_presets) / sizeof(ctr_presets[0]))

static void counters_usage(FILE *f)
{
	fprintf(f,
	        "usage: lab counters [--json] [--record-fixture FILE [--events LIST]]\n\n"
	        "Shows the performance-monitoring unit the lab finds here, perf_event_paranoid\n"
	        "and what it allows, and which counter presets and events open (test-opened\n"
	        "by this thread, as a pinned worker would), with the reason for each that does\n"
	        "not. Use the names in an experiment's `events =` key.\n\n"
	        "  --json                 one JSON document on stdout\n"
	        "  --record-fixture FILE  count a reference loop (a chain of dependent adds)\n"
	        "                         once per pass on this CPU and write the raw counts,\n"
	        "                         ids, times enabled and running, CPUID and kernel\n"
	        "                         version to FILE: a record to set beside another\n"
	        "                         machine's\n"
	        "  --events LIST          with --record-fixture: what to record (default: every\n"
	        "                         preset)\n");
}

/* Test-opens one preset; info receives each event's availability. */
static int counters_probe(const char *events, struct lab_ctr_info *info)
{
	struct lab_ctr_point *cp;
	struct lab_err err;

	memset(info, 0, sizeof(*info));
	if (lab_ctr_point_begin(&cp, LAB_CTR_AUTO, events, lab_ctr_host_self(), NULL, 1, &err))
		return -1;
	/* No sample ran: nothing becomes not_counted, the test-open verdicts stay. */
	return lab_ctr_point_end(cp, info, &err);
}

/* "available", "partial" or "unavailable", and the first reason. */
static const char *counters_verdict(const struct lab_ctr_info *in, const char **why)
{
	unsigned ok = 0, all = 0;

	*why = in->topdown_reason[0] ? in->topdown_reason : in->flops_reason;
	for (unsigned e = 0; e < lab_ctr_nevents(); e++) {
		if (!(in->requested >> e & 1))
			continue;
		all++;
		ok += in->av[e].st == LAB_CTR_ST_OK;
		if (in->av[e].st != LAB_CTR_ST_OK && !(*why)[0])
			*why = in->av[e].reason;
	}
	return all && ok == all ? "available" : ok ? "partial" : "unavailable";
}

static void counters_human(const struct lab_ctr_host *h)
{
	struct lab_ctr_info info;
	const char *why;

	printf("cpu: %s family 0x%x model 0x%x%s\n", h->vendor, h->family, h->model,
	       h->hypervisor ? " (virtual machine)" : "");
	printf("pmus: %s\ncore PMU: %s\n", h->pmus[0] ? h->pmus : "(none)",
	       h->cpu_pmu ? "yes" : "no (hardware events will not open: a VM without a vPMU?)");
	/* as root the setting limits nothing: say that first, then what it would limit */
	if (h->privileged)
		printf("perf_event_paranoid: %d: no limit here (running as root; for other users: "
		       "%s)\n",
		       h->paranoid, lab_ctr_paranoid_meaning(h->paranoid));
	else
		printf("perf_event_paranoid: %d: %s\n", h->paranoid,
		       lab_ctr_paranoid_meaning(h->paranoid));
	printf("nmi_watchdog: %d%s\n", h->nmi_watchdog,
	       h->nmi_watchdog > 0 ? " (holds one counter)" : "");
	/* the method this CPU's family takes; without a core PMU there is nothing to take it from
	 * (newcomer32: "amd_pipeline" alone read as available beside "topdown unavailable") */
	printf("top-down method: %s%s%s%s\nlibpfm4: not built in\n\npresets:\n",
	       lab_ctr_method_name(h->method), h->method_reason[0] ? ": " : "", h->method_reason,
	       h->cpu_pmu ? "" : " (unavailable here: no core PMU)");
	for (unsigned p = 0; p < CTR_NPRESETS; p++) {
		if (counters_probe(ctr_presets[p], &info))
			continue;
		const char *v = counters_verdict(&info, &why);
		printf("  %-8s %-12s%s%s\n", ctr_presets[p], v, why[0] ? "  " : "", why);
	}
	printf("\nevents (of every preset):\n");
	if (counters_probe("sw ipc cache branch topdown flops", &info))
		return;
	for (unsigned e = 0; e < lab_ctr_nevents(); e++)
		if (info.requested >> e & 1)
			printf("  %-40s %-12s %s\n", lab_ctr_event_name(e),
			       lab_ctr_status_name(info.av[e].st), info.av[e].reason);
}

static void counters_json(const struct lab_ctr_host *h)
{
	struct lab_json j;
	struct lab_ctr_info info;
	const char *why;

	lab_json_begin(&j, stdout);
	lab_json_obj_open(&j, NULL);
	lab_json_obj_open(&j, "host");
	lab_ctr_host_json(&j, h);
	lab_json_obj_close(&j);
	lab_json_arr_open(&j, "presets");
	for (unsigned p = 0; p < CTR_NPRESETS; p++) {
		if (counters_probe(ctr_presets[p], &info))
			continue;
		lab_json_obj_open(&j, NULL);
		lab_json_str(&j, "name", ctr_presets[p]);
		lab_json_str(&j, "status", counters_verdict(&info, &why));
		lab_json_str(&j, "reason", why);
		lab_json_obj_close(&j);
	}
	lab_json_arr_close(&j);
	if (counters_probe("sw ipc cache branch topdown flops", &info) == 0)
		lab_ctr_info_json(&j, &info);
	lab_json_obj_close(&j);
	lab_json_end(&j);
	putchar('\n');
}

#define CTR_FIXTURE_ADDS (64ull * 1000 * 1000)

static void counters_fixture_json(FILE *f, struct lab_ctr_point *cp, const char *events)
{
	struct lab_json j;
	struct lab_ctr_info info;
	struct lab_err err;
	struct utsname u;
	unsigned passes = lab_ctr_passes(cp);

	lab_json_begin(&j, f);
	lab_json_obj_open(&j, NULL);
	lab_json_str(&j, "schema", "lab.counters-fixture/1");
	lab_json_obj_open(&j, "host");
	lab_ctr_host_json(&j, lab_ctr_host_self());
	lab_json_str(&j, "kernel", uname(&u) == 0 ? u.release : "unknown");
	lab_json_obj_close(&j);
	lab_json_str(&j, "events", events);
	lab_json_str(&j, "workload", "dependent integer adds, one per cycle");
	lab_json_uint(&j, "adds", CTR_FIXTURE_ADDS);
	lab_json_arr_open(&j, "passes");
	for (unsigned pass = 0; pass < passes; pass++) {
		lab_ctr_select_pass(cp, pass, true);
		lab_ctr_sample_start(cp, 0);
		lab_coreclock_add_chain(CTR_FIXTURE_ADDS / LAB_CORECLOCK_CHAIN_BLOCK);
		lab_ctr_sample_stop(cp, 0, 0, 0);
		lab_ctr_sample_done(cp, 1);
		lab_json_obj_open(&j, NULL);
		lab_json_uint(&j, "pass", pass);
		lab_ctr_raw_json(cp, 0, &j);
		lab_json_obj_close(&j);
	}
	lab_json_arr_close(&j);
	lab_ctr_point_end(cp, &info, &err);
	lab_ctr_info_json(&j, &info);
	lab_json_obj_close(&j);
	lab_json_end(&j);
	fputc('\n', f);
}

/*
 * The fixture's path must be new or a regular file: a symbolic link (or anything else) is
 * refused, never followed, so recording cannot overwrite the file a link points to. Returns 0,
 * or prints one line and returns the exit code.
 */
#define COUNTERS_PATH_ALLOWED "allowed: a new or regular file in a directory this user can write"

/* A path that cannot be used (no such directory, a file as one, no permission, read-only) is
 * bad usage, said of the path given (not of the temporary beside it); else a failure. */
static int counters_path_error(const char *path, int e)
{
	bool usage = e == ENOENT || e == ENOTDIR || e == EACCES || e == EPERM || e == EROFS ||
	             e == ENAMETOOLONG || e == ELOOP || e == EISDIR;

	lab_opts_error("lab counters: --record-fixture %s: %s%s", path, strerror(e),
	               usage ? " (" COUNTERS_PATH_ALLOWED ")" : "");
	return usage ? LAB_EXIT_USAGE : LAB_EXIT_FAILURE;
}

static int counters_fixture_path_ok(const char *path)
{
	struct stat st;

	if (!*path) {
		lab_opts_error("lab counters: --record-fixture '': an empty file name (%s)",
		               COUNTERS_PATH_ALLOWED);
		return LAB_EXIT_USAGE;
	}
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : counters_path_error(path, errno);
	if (S_ISREG(st.st_mode))
		return 0;
	lab_opts_error("lab counters: --record-fixture %s: %s (allowed: a new or regular file; "
	               "links are not followed)",
	               path, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
	return LAB_EXIT_USAGE;
}

/*
 * Writes the fixture under a new temporary name beside path (mkstemp: O_EXCL, so no link is
 * followed) and renames it over path, which replaces a name, never a link's target.
 */
static int counters_record_write(const char *path, struct lab_ctr_point *cp, const char *events)
{
	char *tmp = NULL;
	FILE *f = NULL;
	int fd = -1, rc = LAB_EXIT_FAILURE;
	bool made = false; /* tmp exists */

	/* a short name of its own beside path: path's name plus a suffix could pass NAME_MAX */
	const char *slash = strrchr(path, '/');
	if (asprintf(&tmp, "%.*s.lab-fixture.XXXXXX", slash ? (int)(slash - path + 1) : 0, path) <
	    0) {
		tmp = NULL;
		lab_opts_error("lab counters: out of memory");
		goto out;
	}
	fd = mkstemp(tmp);
	made = fd >= 0;
	if (fd < 0) { /* the temporary's error is its directory's, whatever path itself is */
		int e = errno;
		lab_opts_error("lab counters: --record-fixture %s: cannot create a file in its "
		               "directory: %s (" COUNTERS_PATH_ALLOWED ")",
		               path, strerror(e));
		rc = e == EIO || e == ENOMEM || e == ENOSPC || e == EDQUOT ? LAB_EXIT_FAILURE
		                                                           : LAB_EXIT_USAGE;
		goto out;
	}
	if (fchmod(fd, 0644) != 0 || !(f = fdopen(fd, "w"))) {
		lab_opts_error("lab counters: create %s: %s", tmp, strerror(errno));
		goto out;
	}
	counters_fixture_json(f, cp, events); /* ends cp */
	cp = NULL;
	bool failed = ferror(f) != 0;
	failed |= fclose(f) != 0;
	f = NULL;
	fd = -1;
	if (failed || rename(tmp, path) != 0) {
		lab_opts_error("lab counters: write %s: %s", path, strerror(errno));
		goto out;
	}
	lab_opts_error("lab counters: fixture written to %s", path);
	rc = LAB_EXIT_OK;
out:
	if (cp)
		lab_ctr_point_end(cp, NULL, NULL);
	if (f)
		fclose(f);
	else if (fd >= 0)
		close(fd);
	if (rc && made)
		unlink(tmp);
	free(tmp);
	return rc;
}

static int counters_record(const char *path, const char *events)
{
	struct lab_ctr_point *cp;
	struct lab_err err;
	cpu_set_t set;
	int cpu = sched_getcpu();
	int rc = counters_fixture_path_ok(path);

	if (rc)
		return rc;
	/* Stay on one CPU, as a pinned worker would. */
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (lab_ctr_point_begin(&cp, LAB_CTR_AUTO, events, lab_ctr_host_self(), NULL, 1, &err)) {
		lab_opts_error("lab counters: --events %s: %s", events, err.msg);
		return LAB_EXIT_USAGE;
	}
	lab_ctr_thread_open(cp, 0);
	return counters_record_write(path, cp, events);
}

int lab_cmd_counters(int argc, char **argv)
{
	bool json = false;
	const char *fixture = NULL, *events = NULL;

	for (int i = 1; i < argc; i++) {
		const char **val = !strcmp(argv[i], "--record-fixture") ? &fixture
		                   : !strcmp(argv[i], "--events")       ? &events
		                                                        : NULL;
		if (val && i + 1 >= argc) {
			lab_opts_error("lab counters: %s needs a value", argv[i]);
			return LAB_EXIT_USAGE;
		}
		if (val && *val) {
			lab_opts_error(
			    "lab counters: %s given twice ('%s', then '%s'; allowed once)", argv[i],
			    *val, argv[i + 1]);
			return LAB_EXIT_USAGE;
		}
		if (val) {
			*val = argv[++i];
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			counters_usage(stdout);
			return LAB_EXIT_OK;
		} else {
			lab_opts_error("lab counters: unknown option '%s' (allowed: --json, "
			               "--record-fixture FILE, --events LIST, --help)",
			               argv[i]);
			return LAB_EXIT_USAGE;
		}
	}
	if (events && !fixture) {
		lab_opts_error("lab counters: --events '%s' goes with --record-fixture FILE (it "
		               "names what to record)",
		               events);
		return LAB_EXIT_USAGE;
	}
	if (fixture)
		return counters_record(fixture,
		                       events ? events : "sw ipc cache branch topdown flops");
	if (json)
		counters_json(lab_ctr_host_self());
	else
		counters_human(lab_ctr_host_self());
	return LAB_EXIT_OK;
}
