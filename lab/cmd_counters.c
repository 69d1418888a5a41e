/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab counters: which PMU, which presets and events can be counted here, and why not. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness/counters.h"
#include "harness/json.h"
#include "harness/selfcheck.h"
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
	        "                         version to FILE: a fixture for tests/fixtures/counters\n"
	        "  --events LIST          what to record (default: every preset)\n"
	        "  -h, --help             this text\n");
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
	printf("perf_event_paranoid: %d: %s%s\n", h->paranoid,
	       lab_ctr_paranoid_meaning(h->paranoid),
	       h->privileged ? " (running as root: the limits do not apply)" : "");
	printf("nmi_watchdog: %d%s\n", h->nmi_watchdog,
	       h->nmi_watchdog > 0 ? " (holds one counter)" : "");
	printf("top-down method: %s%s%s\nlibpfm4: not built in\n\npresets:\n",
	       lab_ctr_method_name(h->method), h->method_reason[0] ? ": " : "", h->method_reason);
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
		lab_selfcheck_add_chain(CTR_FIXTURE_ADDS / LAB_SELFCHECK_CHAIN_BLOCK);
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

static int counters_record(const char *path, const char *events)
{
	struct lab_ctr_point *cp;
	struct lab_err err;
	cpu_set_t set;
	int cpu = sched_getcpu();

	/* Stay on one CPU, as a pinned worker would. */
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (lab_ctr_point_begin(&cp, LAB_CTR_AUTO, events, lab_ctr_host_self(), NULL, 1, &err)) {
		fprintf(stderr, "lab counters: --events %s: %s\n", events, err.msg);
		return LAB_EXIT_USAGE;
	}
	lab_ctr_thread_open(cp, 0);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "lab counters: create %s: %s\n", path, strerror(errno));
		lab_ctr_point_end(cp, NULL, NULL);
		return LAB_EXIT_FAILURE;
	}
	counters_fixture_json(f, cp, events);
	if (ferror(f) | (fclose(f) != 0)) {
		fprintf(stderr, "lab counters: write %s: %s\n", path, strerror(errno));
		unlink(path);
		return LAB_EXIT_FAILURE;
	}
	fprintf(stderr, "lab counters: fixture written to %s\n", path);
	return LAB_EXIT_OK;
}

int lab_cmd_counters(int argc, char **argv)
{
	bool json = false;
	const char *fixture = NULL, *events = "sw ipc cache branch topdown flops";

	for (int i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "--record-fixture") || !strcmp(argv[i], "--events")) &&
		    i + 1 >= argc) {
			fprintf(stderr, "lab counters: %s needs a value\n", argv[i]);
			return LAB_EXIT_USAGE;
		}
		if (!strcmp(argv[i], "--record-fixture")) {
			fixture = argv[++i];
		} else if (!strcmp(argv[i], "--events")) {
			events = argv[++i];
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			counters_usage(stdout);
			return LAB_EXIT_OK;
		} else {
			fprintf(stderr,
			        "lab counters: unknown option '%s' (allowed: --json, --help)\n",
			        argv[i]);
			return LAB_EXIT_USAGE;
		}
	}
	if (fixture)
		return counters_record(fixture, events);
	if (json)
		counters_json(lab_ctr_host_self());
	else
		counters_human(lab_ctr_host_self());
	return LAB_EXIT_OK;
}
