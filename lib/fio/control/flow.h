/* SPDX-License-Identifier: MIT */
/* flow: fio's token-based flow control between jobs (flow, flow_id, flow_sleep). Jobs with
 * flow=N > 0 and the same flow_id share one struct flow: a counter of the I/Os they did and
 * the sum of the weights of the jobs that have not ended. As in fio, every job weighs from
 * the start of the run (one that starts later, after a stonewall or a startdelay, holds the
 * others back meanwhile) until it ends. Before each I/O a job compares its share of the
 * counter with its share of the weight; while its share is above, it is held back (and
 * sleeps flow_sleep, if given). The runner owns the flows (one struct flow_set per run) and
 * hands each job a pointer: nothing here is global. */
#ifndef IOPS_FLOW_H
#define IOPS_FLOW_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/clock.h"
#include "fio/job.h"

struct flow {
	unsigned id;			/* flow_id */
	_Atomic uint64_t counter;	/* I/Os done by the flow's jobs, starts at 1 as fio's */
	_Atomic uint64_t weight;	/* sum of flow= of the jobs not ended yet */
};

/* The start gate of the jobs in flows: fio starts the jobs it launches together at once, so
 * that a job of a flow does not run alone (unthrottled) for the time its mates take to set
 * up, and does not end that much before them either. The runner says which jobs start
 * (flow_gate_starting) and when it stops launching for a while (flow_gate_close: it is about
 * to wait for jobs, or has launched them all); a job waits in flow_gate_wait until every job
 * launched with it has set up (or given up: flow_gate_skip). */
struct flow_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned starting, ready;	/* launched, and at the gate, in the current batch */
	bool launching;			/* the runner is still launching this batch */
	uint64_t gen;			/* batches closed */
	uint64_t t0, t0_key;		/* the batch's common start, and which batch it is */
};

struct flow_set {
	struct flow *flows;
	unsigned nr;
	struct flow_gate gate;
	bool gate_ok;
};

/* One flow per distinct flow_id among the jobs with flow > 0, weighing all of them. 0 or
 * -ENOMEM. */
int flow_set_init(struct flow_set *fs, const struct fio_config *cfg);
void flow_set_release(struct flow_set *fs);
/* The job's flow, or NULL when it has flow=0. */
struct flow *flow_set_of(const struct flow_set *fs, const struct job *job);

/* The gate (fs->gate, set up by flow_set_init when there is a flow). */
void flow_gate_starting(struct flow_gate *g);		/* runner: one more job launched */
void flow_gate_failed(struct flow_gate *g);		/* runner: that launch failed */
void flow_gate_close(struct flow_gate *g);		/* runner: no more launches for now */
/* job: set up, wait for the others. Returns the batch's start (clk time, when the first job
 * left the gate): the jobs of a batch share it, so their runtimes end together too. */
uint64_t flow_gate_wait(struct flow_gate *g, const struct clock_src *clk);
void flow_gate_skip(struct flow_gate *g);		/* job: will not do I/O, do not wait for me */

/* Weight w joins / leaves the flow (the runner: a job ends or never runs). */
void flow_join(struct flow *f, unsigned w);
void flow_leave(struct flow *f, unsigned w, uint64_t mine);	/* mine: the job's I/Os in the flow */

/* May the job (weight w, *mine I/Os counted so far) do its next I/O? True: the I/O is
 * counted (the flow's counter and *mine go up by one). False: its share of the counter is
 * above its share of the weight; nothing changes. */
bool flow_may_issue(struct flow *f, uint64_t *mine, unsigned w);

#endif
