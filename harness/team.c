/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/team.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "harness/kernel_api.h"

struct team_worker {
	alignas(LAB_SLOT) struct lab_team *team;
	unsigned tid;
	int cpu;
	pthread_t thread;
	bool started;
	int bind_rc;
	struct lab_err bind_err;
};

struct lab_team {
	/* The spinning barrier's words, each on its own slot: every worker hammers them. */
	alignas(LAB_SLOT) atomic_uint sync_count;
	alignas(LAB_SLOT) atomic_uint sync_gen;
	alignas(LAB_SLOT) pthread_mutex_t lock;
	pthread_cond_t wake; /* workers: a new job or quit */
	pthread_cond_t done; /* main: a worker finished */
	unsigned job_gen;    /* bumped per job, under lock */
	unsigned finished;   /* workers done with the current job */
	unsigned ready;      /* workers past binding */
	bool quit;
	lab_team_fn fn;
	void *arg;
	const struct lab_topo *topo;
	bool bind;
	unsigned n;
	struct team_worker *w;
};

static void *team_main(void *p)
{
	struct team_worker *w = p;
	struct lab_team *team = w->team;
	unsigned seen = 0;

	if (team->bind)
		w->bind_rc = lab_topo_bind_self(team->topo, w->cpu, &w->bind_err);
	pthread_mutex_lock(&team->lock);
	team->ready++;
	pthread_cond_broadcast(&team->done);
	for (;;) {
		while (!team->quit && team->job_gen == seen)
			pthread_cond_wait(&team->wake, &team->lock);
		if (team->quit)
			break;
		seen = team->job_gen;
		lab_team_fn fn = team->fn;
		void *arg = team->arg;
		pthread_mutex_unlock(&team->lock);
		fn(arg, w->tid);
		pthread_mutex_lock(&team->lock);
		if (++team->finished == team->n)
			pthread_cond_broadcast(&team->done);
	}
	pthread_mutex_unlock(&team->lock);
	return NULL;
}

int lab_team_create(struct lab_team **out, const struct lab_topo *topo, const int *cpus, unsigned n,
                    bool bind, struct lab_err *err)
{
	struct lab_team *team =
	    aligned_alloc(LAB_SLOT, (sizeof(*team) + LAB_SLOT - 1) & ~(size_t)(LAB_SLOT - 1));
	int rc = 0;

	if (!team)
		return lab_err_set(err, LAB_ENOMEM, "out of memory creating a team of %u", n);
	memset(team, 0, sizeof(*team));
	team->w = aligned_alloc(LAB_SLOT, n * sizeof(*team->w));
	if (!team->w) {
		free(team);
		return lab_err_set(err, LAB_ENOMEM, "out of memory creating a team of %u", n);
	}
	memset(team->w, 0, n * sizeof(*team->w));
	pthread_mutex_init(&team->lock, NULL);
	pthread_cond_init(&team->wake, NULL);
	pthread_cond_init(&team->done, NULL);
	team->topo = topo;
	team->bind = bind;
	team->n = n;
	for (unsigned i = 0; i < n; i++) {
		struct team_worker *w = &team->w[i];
		w->team = team;
		w->tid = i;
		w->cpu = cpus[i];
		int e = pthread_create(&w->thread, NULL, team_main, w);
		if (e) {
			rc = lab_err_set(err, LAB_ESYS, "create thread %u of %u: %s", i, n,
			                 strerror(e));
			goto fail;
		}
		w->started = true;
	}
	pthread_mutex_lock(&team->lock);
	while (team->ready < n)
		pthread_cond_wait(&team->done, &team->lock);
	pthread_mutex_unlock(&team->lock);
	for (unsigned i = 0; i < n; i++)
		if (team->w[i].bind_rc) {
			*err = team->w[i].bind_err;
			rc = lab_err_prefix(err, "bind thread %u to cpu %d: ", i, team->w[i].cpu);
			goto fail;
		}
	*out = team;
	return 0;
fail:
	lab_team_destroy(team);
	return rc;
}

void lab_team_start(struct lab_team *team, lab_team_fn fn, void *arg)
{
	pthread_mutex_lock(&team->lock);
	team->fn = fn;
	team->arg = arg;
	team->finished = 0;
	team->job_gen++;
	pthread_cond_broadcast(&team->wake);
	pthread_mutex_unlock(&team->lock);
}

void lab_team_wait(struct lab_team *team)
{
	pthread_mutex_lock(&team->lock);
	while (team->finished < team->n)
		pthread_cond_wait(&team->done, &team->lock);
	pthread_mutex_unlock(&team->lock);
}

void lab_team_run(struct lab_team *team, lab_team_fn fn, void *arg)
{
	lab_team_start(team, fn, arg);
	lab_team_wait(team);
}

void lab_team_sync(struct lab_team *team)
{
	unsigned gen = atomic_load_explicit(&team->sync_gen, memory_order_acquire);

	if (atomic_fetch_add_explicit(&team->sync_count, 1, memory_order_acq_rel) + 1 == team->n) {
		atomic_store_explicit(&team->sync_count, 0, memory_order_relaxed);
		atomic_fetch_add_explicit(&team->sync_gen, 1, memory_order_release);
		return;
	}
	while (atomic_load_explicit(&team->sync_gen, memory_order_acquire) == gen)
		lab_cpu_relax();
}

void lab_team_destroy(struct lab_team *team)
{
	if (!team)
		return;
	pthread_mutex_lock(&team->lock);
	team->quit = true;
	pthread_cond_broadcast(&team->wake);
	pthread_mutex_unlock(&team->lock);
	for (unsigned i = 0; i < team->n; i++)
		if (team->w[i].started)
			pthread_join(team->w[i].thread, NULL);
	pthread_cond_destroy(&team->wake);
	pthread_cond_destroy(&team->done);
	pthread_mutex_destroy(&team->lock);
	free(team->w);
	free(team);
}
