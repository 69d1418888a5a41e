/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/membind.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/memavail.h"

#define MEMBIND_TRACK_MAX 256

#define MEMBIND_ALLOWED "allowed local, node:N, interleave, first_touch; N = 0 .. 63"

/*
 * One point runs at a time, but its threads allocate in thread_setup concurrently: the table
 * of remembered buffers is under a lock. The binding itself is written by the runner before the
 * team's hooks run and read by them after the team's start barrier.
 */
static struct {
	pthread_mutex_t lock;
	bool active;
	struct lab_membind m;
	struct {
		void *p;
		size_t size;
	} buf[MEMBIND_TRACK_MAX];
	unsigned n;
	unsigned lost; /* buffers not remembered: the table was full */
} membind = {.lock = PTHREAD_MUTEX_INITIALIZER};

int lab_membind_parse(const char *text, struct lab_membind *m, struct lab_err *err)
{
	char *end;

	*m = (struct lab_membind){.kind = LAB_MEMBIND_LOCAL};
	if (!strcmp(text, "local"))
		return 0;
	if (!strcmp(text, "interleave")) {
		m->kind = LAB_MEMBIND_INTERLEAVE;
		return 0;
	}
	if (!strcmp(text, "first_touch")) {
		m->kind = LAB_MEMBIND_FIRST_TOUCH;
		return 0;
	}
	if (!strncmp(text, "node:", 5) && text[5] >= '0' && text[5] <= '9') {
		long n = strtol(text + 5, &end, 10);
		if (!*end && n >= 0 && n < LAB_BUF_NODES_MAX) {
			m->kind = LAB_MEMBIND_NODE;
			m->node = (int)n;
			return 0;
		}
	}
	return lab_err_set(err, LAB_ECONFIG, "unknown memory binding (" MEMBIND_ALLOWED ")");
}

void lab_membind_canon(const char *text, char *buf, size_t len)
{
	struct lab_membind m;

	if (lab_membind_parse(text, &m, NULL) || m.kind != LAB_MEMBIND_NODE)
		snprintf(buf, len, "%s", text);
	else
		snprintf(buf, len, "node:%d", m.node);
}

int lab_membind_check(const struct lab_membind *m, unsigned numa_nodes, struct lab_err *err)
{
	if (m->kind != LAB_MEMBIND_NODE || (unsigned)m->node < numa_nodes)
		return 0;
	lab_err_set(err, LAB_EUNSUP, "membind = node:%d: this machine has %u NUMA node%s (0 .. %u)",
	            m->node, numa_nodes, numa_nodes == 1 ? "" : "s",
	            numa_nodes ? numa_nodes - 1 : 0);
	return LAB_SKIP;
}

void lab_membind_begin(const struct lab_membind *m)
{
	pthread_mutex_lock(&membind.lock);
	membind.m = *m;
	membind.active = true;
	membind.n = membind.lost = 0;
	pthread_mutex_unlock(&membind.lock);
	lab_mem_budget_begin();
}

void lab_membind_end(void)
{
	lab_mem_budget_end();
	pthread_mutex_lock(&membind.lock);
	membind.active = false;
	membind.m = (struct lab_membind){.kind = LAB_MEMBIND_LOCAL};
	membind.n = membind.lost = 0;
	pthread_mutex_unlock(&membind.lock);
}

void lab__membind_apply(struct lab_buf_opts *o)
{
	struct lab_membind m;

	if (o->place != LAB_BUF_DEFAULT)
		return;
	pthread_mutex_lock(&membind.lock);
	m = membind.m;
	pthread_mutex_unlock(&membind.lock);
	o->place = LAB_BUF_LOCAL;
	if (m.kind == LAB_MEMBIND_NODE) {
		o->place = LAB_BUF_BIND;
		o->node = m.node;
	} else if (m.kind == LAB_MEMBIND_INTERLEAVE) {
		o->place = LAB_BUF_INTERLEAVE;
	} else if (m.kind == LAB_MEMBIND_FIRST_TOUCH) {
		o->no_touch = true;
	}
}

void lab__membind_track(const struct lab_buf *b)
{
	pthread_mutex_lock(&membind.lock);
	if (membind.active && membind.n < MEMBIND_TRACK_MAX) {
		membind.buf[membind.n].p = b->p;
		membind.buf[membind.n].size = b->size_bytes;
		membind.n++;
	} else if (membind.active) {
		membind.lost++;
	}
	pthread_mutex_unlock(&membind.lock);
}

void lab__membind_untrack(const struct lab_buf *b)
{
	pthread_mutex_lock(&membind.lock);
	for (unsigned i = 0; i < membind.n; i++)
		if (membind.buf[i].p == b->p) {
			membind.buf[i] = membind.buf[--membind.n];
			break;
		}
	pthread_mutex_unlock(&membind.lock);
}

/* Adds where b's pages are to *sum; returns lab_buf_pages's result. */
static int membind_count(void *p, size_t size, struct lab_buf_pages *sum, struct lab_err *err)
{
	struct lab_buf b = {.p = p, .size_bytes = size};
	struct lab_buf_pages one;
	int rc = lab_buf_pages(&b, &one, err);

	if (rc)
		return rc;
	sum->pages += one.pages;
	sum->absent += one.absent;
	sum->other += one.other;
	for (int n = 0; n <= one.max_node; n++)
		sum->on_node[n] += one.on_node[n];
	sum->max_node = one.max_node > sum->max_node ? one.max_node : sum->max_node;
	return 0;
}

void lab_membind_facts(struct lab_ctx *ctx, const char *text)
{
	struct lab_buf_pages sum = {.max_node = -1};
	struct lab_err err = {0};
	unsigned n, lost;
	int rc = 0;
	char note[LAB_ERR_MSG_MAX + 64] = "";

	pthread_mutex_lock(&membind.lock);
	n = membind.n;
	lost = membind.lost;
	for (unsigned i = 0; i < n && rc == 0; i++)
		rc = membind_count(membind.buf[i].p, membind.buf[i].size, &sum, &err);
	pthread_mutex_unlock(&membind.lock);
	lab_ctx_fact_str(ctx, "membind", text);
	lab_ctx_fact_int(ctx, "membind_buffers", (int64_t)(n + lost));
	if (rc) {
		snprintf(note, sizeof(note), "pages not counted: %s", err.msg);
	} else {
		uint64_t zero = 0;
		lab_ctx_fact_uints(ctx, "membind_pages_per_node",
		                   sum.max_node >= 0 ? sum.on_node : &zero,
		                   sum.max_node >= 0 ? (unsigned)sum.max_node + 1 : 1);
		lab_ctx_fact_int(ctx, "membind_pages_absent", (int64_t)sum.absent);
		if (lost)
			snprintf(note, sizeof(note), "%u buffers not counted (more than %d)", lost,
			         MEMBIND_TRACK_MAX);
	}
	if (note[0])
		lab_ctx_fact_str(ctx, "membind_note", note);
}
