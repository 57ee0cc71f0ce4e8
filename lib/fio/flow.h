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

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "fio/job.h"

struct flow {
	unsigned id;			/* flow_id */
	_Atomic uint64_t counter;	/* I/Os done by the flow's jobs, starts at 1 as fio's */
	_Atomic uint64_t weight;	/* sum of flow= of the jobs not ended yet */
};

struct flow_set {
	struct flow *flows;
	unsigned nr;
};

/* One flow per distinct flow_id among the jobs with flow > 0, weighing all of them. 0 or
 * -ENOMEM. */
int flow_set_init(struct flow_set *fs, const struct fio_config *cfg);
void flow_set_release(struct flow_set *fs);
/* The job's flow, or NULL when it has flow=0. */
struct flow *flow_set_of(const struct flow_set *fs, const struct job *job);

/* Weight w joins / leaves the flow (the runner: a job ends or never runs). */
void flow_join(struct flow *f, unsigned w);
void flow_leave(struct flow *f, unsigned w);

/* May the job (weight w, *mine I/Os counted so far) do its next I/O? True: the I/O is
 * counted (the flow's counter and *mine go up by one). False: its share of the counter is
 * above its share of the weight; nothing changes. */
bool flow_may_issue(struct flow *f, uint64_t *mine, unsigned w);

#endif
