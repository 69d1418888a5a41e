/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Performance counters per pinned worker (perf_event_open, pid 0, cpu -1, opened by the worker
 * after it is pinned, enabled around its timed region only). What to count comes from two
 * harness keys: `counters = off | auto | require` and `events =` presets and event names.
 *
 * The catalogue below is the one list of events the lab knows; an event's index in it is its
 * identity everywhere (the ctr_<event> column, the slot in a sample's values). Presets expand to
 * groups: one group per formula, so the ratios inside a formula never suffer from multiplexing.
 * Groups that cannot be counted together go to separate passes; sample r counts pass r % passes
 * (software events count in every pass).
 *
 * The syscalls go through struct lab_pe_ops so tests inject ENOENT, EACCES, EINVAL on the k-th
 * member, multiplexed reads and running = 0.
 */
#ifndef LAB_HARNESS_COUNTERS_H
#define LAB_HARNESS_COUNTERS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "harness/err.h"

struct lab_json;

enum lab_ctr_mode {
	LAB_CTR_OFF = 0, /* zero, so a zeroed lab_hparams (the self-check) counts nothing */
	LAB_CTR_AUTO,
	LAB_CTR_REQUIRE,
};

#define LAB_CTR_EVENTS_MAX 64 /* catalogue size bound (a uint64_t mask) */
#define LAB_CTR_GROUP_MAX  10 /* events in one group */
#define LAB_CTR_GROUPS_MAX 16
#define LAB_CTR_REASON_MAX 160

/* ---- the syscall layer ---- */

struct lab_pe_ops {
	/* Each returns >= 0 on success and -errno on failure. */
	int (*open)(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
	            unsigned long flags);
	int (*ioctl)(void *ctx, int fd, unsigned long req, unsigned long arg);
	ssize_t (*read)(void *ctx, int fd, void *buf, size_t len);
	int (*close)(void *ctx, int fd);
	void *ctx;
};

/* The real syscalls. */
extern const struct lab_pe_ops lab_pe_ops_sys;

/* ---- the catalogue ---- */

enum lab_ctr_method {
	LAB_TMA_NONE,
	LAB_TMA_INTEL_4WIDE,         /* Skylake-SP / Cascade Lake */
	LAB_TMA_INTEL_PERF_METRICS,  /* Ice Lake / Ice Lake-SP: slots + 4 topdown-* (level 1) */
	LAB_TMA_INTEL_PERF_METRICS2, /* Sapphire Rapids and later: 8 topdown-* (levels 1, 2) */
	LAB_TMA_AMD_ZEN4,            /* PipelineL1/L2, 6 dispatch slots */
	LAB_TMA_AMD_ZEN5,            /* the same with 8 slots */
};

/* What the lab found about this machine's PMU; probed once per process, or from a fixture. */
struct lab_ctr_host {
	char vendor[16]; /* "GenuineIntel", "AuthenticAMD", "unknown" */
	unsigned family, model;
	bool hypervisor;
	bool cpu_pmu;     /* /sys/bus/event_source/devices/cpu exists */
	bool topdown_fe;  /* cpu/events/topdown-fe-bound */
	bool topdown_mem; /* cpu/events/topdown-mem-bound (SPR+) */
	int paranoid;     /* perf_event_paranoid; -100 when unreadable */
	int nmi_watchdog; /* -1 when unreadable */
	bool privileged;  /* euid 0: the paranoid limits do not apply */
	char pmus[256];   /* space-separated names under event_source/devices */
	enum lab_ctr_method method;
	const char *method_reason; /* why method is NONE ("" otherwise) */
};

/*
 * Fills h from CPUID and sysfs_root ("/sys", or a fixture directory for tests) and procfs.
 * Never fails: what cannot be read is recorded as unknown.
 */
void lab_ctr_host_probe(struct lab_ctr_host *h, const char *sysfs_root);

/* The host of this process (probed on first use, thread-safe). */
const struct lab_ctr_host *lab_ctr_host_self(void);

/* Pure: the top-down method for a CPU; *why says why none. */
enum lab_ctr_method lab_ctr_method_select(const char *vendor, unsigned family, unsigned model,
                                          bool topdown_fe, bool topdown_mem, const char **why);
const char *lab_ctr_method_name(enum lab_ctr_method m);

/* Number of catalogue events; name and CSV column ("ctr_" + name with '-' '.' -> '_'). */
unsigned lab_ctr_nevents(void);
const char *lab_ctr_event_name(unsigned ev);
const char *lab_ctr_event_column(unsigned ev);
bool lab_ctr_event_is_sw(unsigned ev);
/* The attr of catalogue event ev (type, config; exclude bits are set by the caller). */
void lab_ctr_event_attr(unsigned ev, struct perf_event_attr *attr);
int lab_ctr_event_find(const char *name); /* index or -1 */

/* A parsed `events =` value: preset bits and single events. */
enum lab_ctr_preset {
	LAB_CTR_P_SW = 1u << 0,
	LAB_CTR_P_IPC = 1u << 1,
	LAB_CTR_P_CACHE = 1u << 2,
	LAB_CTR_P_BRANCH = 1u << 3,
	LAB_CTR_P_TOPDOWN = 1u << 4,
	LAB_CTR_P_FLOPS = 1u << 5,
};
struct lab_ctr_req {
	unsigned presets;
	uint64_t events;
};

/*
 * Parses an `events =` value: presets (sw ipc cache branch topdown flops) and catalogue event
 * names separated by spaces or '+' (a comma sweeps, like every key). Returns 0 or -LAB_ECONFIG
 * with "what, allowed ..." in err. req may be NULL (validation only).
 */
int lab_ctr_req_parse(const char *text, struct lab_ctr_req *req, struct lab_err *err);

/* One group: a leader and its members (catalogue indices), all counted together. */
struct lab_ctr_group {
	unsigned n;
	uint8_t ev[LAB_CTR_GROUP_MAX];
	bool sw;             /* software events: counted in every pass */
	unsigned pass;       /* hardware groups: the pass that counts them */
	const char *formula; /* "sw", "ipc", "tma_l1", ... */
};

/* The groups of req for method (before any probing). Returns the number of groups. */
unsigned lab_ctr_req_groups(const struct lab_ctr_req *req, enum lab_ctr_method method,
                            struct lab_ctr_group *g, unsigned max);

/* The catalogue events req would collect for method (the ctr_ columns). */
uint64_t lab_ctr_req_mask(const struct lab_ctr_req *req, enum lab_ctr_method method);

/* ---- collection ---- */

enum lab_ctr_status {
	LAB_CTR_ST_OK,
	LAB_CTR_ST_UNSUPPORTED, /* ENOENT, EOPNOTSUPP, ENODEV */
	LAB_CTR_ST_PERMISSION,  /* EACCES, EPERM */
	LAB_CTR_ST_NOFIT,       /* EINVAL: cannot be scheduled even alone */
	LAB_CTR_ST_BUSY,        /* EBUSY */
	LAB_CTR_ST_ERROR,       /* anything else */
	LAB_CTR_ST_NOT_COUNTED, /* opened, but time_running was 0 (or no sample ran its pass) */
};
const char *lab_ctr_status_name(enum lab_ctr_status st);

/* The availability of one requested event, as recorded in run.json. */
struct lab_ctr_avail {
	enum lab_ctr_status st;
	int err; /* errno of the failed open, 0 */
	unsigned pass;
	char source[16]; /* "perf", "getrusage", "sched_getcpu"; "" before any */
	char reason[LAB_CTR_REASON_MAX];
};

/* What a point's counters were: copied into its record, written to run.json. */
struct lab_ctr_info {
	enum lab_ctr_mode mode;
	/* Text, not pointers, so a record can be copied whole (and come back from another
	 * process: fresh_process). */
	char topdown_method[32];                 /* lab_ctr_method_name() */
	char topdown_reason[LAB_CTR_REASON_MAX]; /* "" when not asked for or available */
	char flops_reason[LAB_CTR_REASON_MAX + 80];
	uint64_t requested; /* catalogue mask */
	struct lab_ctr_avail av[LAB_CTR_EVENTS_MAX];
	unsigned npasses;
	bool exclude_kernel_sw; /* software events user-only (context switches then come from
	                           getrusage, migrations from sched_getcpu) */
	unsigned mux_samples;   /* thread-samples with a group scaled for multiplexing */
	unsigned cs_samples;    /* samples with a context switch on some thread */
	unsigned mig_samples;   /* samples with a CPU migration on some thread */
	unsigned samples;       /* samples counted, retries of flagged ones included */
};

/* Scales raw by enabled/running; NaN when running is 0. *ratio = running/enabled (or 0). */
double lab_ctr_scale(uint64_t raw, uint64_t enabled, uint64_t running, double *ratio);

/*
 * Parses one read() of a group (PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING |
 * ID): the value of each id in ids[n] goes to vals (missing ids leave UINT64_MAX). Returns 0 or
 * -LAB_EIO when buf is short or malformed.
 */
int lab_ctr_parse_read(const void *buf, size_t len, const uint64_t *ids, unsigned n, uint64_t *vals,
                       uint64_t *enabled, uint64_t *running);

struct lab_ctr_point;

/*
 * Prepares the counters of one point on the main thread: expands the request, test-opens every
 * group through ops (splitting a group whose k-th member does not fit into a new pass) and
 * records each event's availability. Returns 0 and *out (NULL when mode is off), or
 * -LAB_EUNSUP with the first unavailable event and its reason when mode is require, or
 * -LAB_ENOMEM.
 */
int lab_ctr_point_begin(struct lab_ctr_point **out, enum lab_ctr_mode mode, const char *events,
                        const struct lab_ctr_host *host, const struct lab_pe_ops *ops,
                        unsigned nworkers, struct lab_err *err);

/* In worker tid, after pinning: opens its groups. Failures mark the thread's events. */
void lab_ctr_thread_open(struct lab_ctr_point *cp, unsigned tid);

/* The number of passes the point's groups need (>= 1). */
unsigned lab_ctr_passes(const struct lab_ctr_point *cp);

/* Selects the pass counted by the next sample (sample rep counts pass rep % npasses). */
void lab_ctr_select_pass(struct lab_ctr_point *cp, unsigned rep, bool record);

/* In worker tid, right before / after its timed region. */
void lab_ctr_sample_start(struct lab_ctr_point *cp, unsigned tid);
void lab_ctr_sample_stop(struct lab_ctr_point *cp, unsigned tid, int cpu_start, int cpu_end);

/*
 * After a sample: the values of thread tid (NaN where not counted) into vals[LAB_CTR_EVENTS_MAX]
 * and its smallest running/enabled ratio into *mux (1 when nothing was multiplexed).
 */
void lab_ctr_thread_values(const struct lab_ctr_point *cp, unsigned tid, double *vals, double *mux);

/* After a recorded sample: counts warnings (context switches, migrations, multiplexing). */
void lab_ctr_sample_done(struct lab_ctr_point *cp, unsigned nworkers);

struct lab_thread_rec;
struct lab_sample_rec;
/*
 * After every sample (cp may be NULL: everything NaN): each thread's values into threads[n],
 * their sums (NaN where no thread counted) into s, and the warnings of a recorded sample.
 */
void lab_ctr_record(struct lab_ctr_point *cp, struct lab_thread_rec *threads, unsigned n,
                    struct lab_sample_rec *s);

/*
 * Closes every fd and frees cp (NULL allowed). When info is not NULL it receives what was
 * counted; after at least one recorded sample, an event that none counted becomes not_counted
 * (with no sample, info holds the test-open verdicts: `lab counters`). Returns 0, or with mode
 * require and an event not counted, -LAB_EUNSUP with the reason in err.
 */
int lab_ctr_point_end(struct lab_ctr_point *cp, struct lab_ctr_info *info, struct lab_err *err);

struct lab_plan;
/* The catalogue events any point of plan asks for on host: the ctr_ columns of the run. */
uint64_t lab_ctr_plan_mask(const struct lab_plan *plan, const struct lab_ctr_host *host);

/* The CSV header of the counter columns (",ctr_x,...,ctr_mux_ratio"; nothing for mask 0). */
void lab_ctr_columns_header(FILE *f, uint64_t mask);

/* One row's counter fields (empty where NaN). */
void lab_ctr_columns_row(FILE *f, uint64_t mask, const double *vals, double mux);

/*
 * Fixtures: the raw reads of thread tid's last recorded sample as a JSON array "groups" (formula,
 * pass, time_enabled, time_running, and per event its name, type, config, id and raw count).
 */
void lab_ctr_raw_json(const struct lab_ctr_point *cp, unsigned tid, struct lab_json *j);

/* One event of lab_ctr_raw_json: name, type, config, id, raw (null for UINT64_MAX). */
void lab_ctr_event_json(struct lab_json *j, unsigned ev, uint64_t id, uint64_t raw);

/* run.json: the "counters" object of a point. */
void lab_ctr_info_json(struct lab_json *j, const struct lab_ctr_info *info);

/* run.json: facts about the PMU inside host.counters (pmus, paranoid, method...). */
void lab_ctr_host_json(struct lab_json *j, const struct lab_ctr_host *h);

/* What perf_event_paranoid = p allows an unprivileged user, in one phrase. */
const char *lab_ctr_paranoid_meaning(int p);

#endif
