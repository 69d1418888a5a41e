/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A team of pinned worker threads. Each worker binds itself to its planned CPU once, then waits
 * for jobs; a job runs fn(arg, tid) on every worker at once. Inside a job the workers can meet at
 * a spinning barrier (lab_team_sync) so that timed regions start together, not at the scattered
 * moments a sleeping barrier would wake them.
 */
#ifndef LAB_HARNESS_TEAM_H
#define LAB_HARNESS_TEAM_H

#include "harness/err.h"
#include "harness/topo.h"

struct lab_team;

typedef void (*lab_team_fn)(void *arg, unsigned tid);

/*
 * Starts n workers; worker i binds to cpus[i] when topo is this system (and bind is true).
 * Returns 0 and *out, or a negative code when a thread cannot be created or bound (the message
 * names the thread and the CPU). Binding is checked, not assumed.
 */
int lab_team_create(struct lab_team **out, const struct lab_topo *topo, const int *cpus, unsigned n,
                    bool bind, struct lab_err *err);

/* Starts fn on every worker and returns at once. One job at a time. */
void lab_team_start(struct lab_team *team, lab_team_fn fn, void *arg);

/* Waits until every worker has returned from the job started last. */
void lab_team_wait(struct lab_team *team);

/* lab_team_start + lab_team_wait. */
void lab_team_run(struct lab_team *team, lab_team_fn fn, void *arg);

/* Called by every worker inside a job: returns when all n workers have arrived (spinning). */
void lab_team_sync(struct lab_team *team);

/* Stops and joins the workers; NULL is allowed. */
void lab_team_destroy(struct lab_team *team);

#endif
