/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab counters: which PMU, which presets and events can be counted here, and why not. */
#include <stdio.h>
#include <string.h>

#include "harness/counters.h"
#include "harness/json.h"
#include "lab/cli.h"

static const char *const ctr_presets[] = {"sw", "ipc", "cache", "branch", "topdown", "flops"};
#define CTR_NPRESETS (sizeof(ctr_presets) / sizeof(ctr_presets[0]))

static void counters_usage(FILE *f)
{
	fprintf(f, "usage: lab counters [--json]\n\n"
	           "Shows the performance-monitoring unit the lab finds here, perf_event_paranoid\n"
	           "and what it allows, and which counter presets and events open (test-opened\n"
	           "by this thread, as a pinned worker would), with the reason for each that does\n"
	           "not. Use the names in an experiment's `events =` key.\n\n"
	           "  --json       one JSON document on stdout\n"
	           "  -h, --help   this text\n");
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

int lab_cmd_counters(int argc, char **argv)
{
	bool json = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
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
	if (json)
		counters_json(lab_ctr_host_self());
	else
		counters_human(lab_ctr_host_self());
	return LAB_EXIT_OK;
}
