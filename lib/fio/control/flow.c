/* SPDX-License-Identifier: MIT */
/* flow: fio's flow control between jobs (fio/control/flow.h). */
#include "fio/control/flow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int flow_set_init(struct flow_set *fs, const struct fio_config *cfg)
{
	memset(fs, 0, sizeof(*fs));
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job *job = &cfg->jobs[j];

		struct flow *f;

		if (!job->flow)
			continue;
		f = flow_set_of(fs, job);
		if (f) {
			atomic_fetch_add_explicit(&f->weight, job->flow, memory_order_relaxed);
			continue;
		}
		if (!fs->flows) {
			fs->flows = calloc(cfg->nr_jobs, sizeof(*fs->flows));	/* at most one per job */
			if (!fs->flows)
				return -ENOMEM;
		}
		if (!fs->gate_ok) {
			if (pthread_mutex_init(&fs->gate.mu, NULL))
				goto nomem;
			if (pthread_cond_init(&fs->gate.cv, NULL)) {
				pthread_mutex_destroy(&fs->gate.mu);
				goto nomem;
			}
			fs->gate_ok = true;
		}
		fs->flows[fs->nr].id = job->flow_id;
		atomic_init(&fs->flows[fs->nr].counter, 1);
		atomic_init(&fs->flows[fs->nr].weight, job->flow);
		fs->nr++;
	}
	return 0;

nomem:
	flow_set_release(fs);
	return -ENOMEM;
}

void flow_set_release(struct flow_set *fs)
{
	if (fs->gate_ok) {
		pthread_cond_destroy(&fs->gate.cv);
		pthread_mutex_destroy(&fs->gate.mu);
		fs->gate_ok = false;
	}
	free(fs->flows);
	fs->flows = NULL;
	fs->nr = 0;
}

struct flow *flow_set_of(const struct flow_set *fs, const struct job *job)
{
	if (!job->flow)
		return NULL;
	for (unsigned i = 0; i < fs->nr; i++)
		if (fs->flows[i].id == job->flow_id)
			return &fs->flows[i];
	return NULL;
}

void flow_join(struct flow *f, unsigned w)
{
	atomic_fetch_add_explicit(&f->weight, w, memory_order_relaxed);
}

void flow_leave(struct flow *f, unsigned w, uint64_t mine)
{
	atomic_fetch_sub_explicit(&f->weight, w, memory_order_relaxed);
	/* fio takes the job's I/Os out of the flow's counter too, so those left keep their ratio
	 * from the moment it ends (t0014), instead of catching up with its history */
	atomic_fetch_sub_explicit(&f->counter, mine, memory_order_relaxed);
}

bool flow_may_issue(struct flow *f, uint64_t *mine, unsigned w)
{
	uint64_t counter = atomic_load_explicit(&f->counter, memory_order_relaxed);
	uint64_t total = atomic_load_explicit(&f->weight, memory_order_relaxed);

	/* fio's mine / counter > w / total, in integers: mine x total > w x counter */
	if (total && (unsigned __int128)*mine * total > (unsigned __int128)w * counter)
		return false;
	atomic_fetch_add_explicit(&f->counter, 1, memory_order_relaxed);
	++*mine;
	return true;
}

void flow_gate_starting(struct flow_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->launching = true;
	g->starting++;
	pthread_mutex_unlock(&g->mu);
}

void flow_gate_failed(struct flow_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->starting--;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

void flow_gate_close(struct flow_gate *g)
{
	pthread_mutex_lock(&g->mu);
	if (g->launching) {
		g->launching = false;
		g->gen++;
		pthread_cond_broadcast(&g->cv);
	}
	pthread_mutex_unlock(&g->mu);
}

uint64_t flow_gate_wait(struct flow_gate *g, const struct clock_src *clk)
{
	uint64_t gen, t0;

	pthread_mutex_lock(&g->mu);
	g->ready++;
	gen = g->gen;
	pthread_cond_broadcast(&g->cv);
	/* a batch closed and a new one opened while this job set up: it belongs to the old one */
	while ((g->launching || g->ready < g->starting) && !(g->gen != gen && g->launching))
		pthread_cond_wait(&g->cv, &g->mu);
	if (g->launching) {	/* left for a new batch: on its own */
		t0 = clock_src_now(clk);
	} else {
		if (g->t0_key != g->starting) {	/* first out of this batch */
			g->t0_key = g->starting;
			g->t0 = clock_src_now(clk);
		}
		t0 = g->t0;
	}
	pthread_mutex_unlock(&g->mu);
	return t0;
}

void flow_gate_skip(struct flow_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->ready++;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}
