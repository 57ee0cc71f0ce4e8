/* SPDX-License-Identifier: MIT */
/* ioprio: Linux I/O priority values (class << 13 | level) for fio's prio, prioclass and
 * cmdprio* options: the job thread's priority, the per-request choice, the checks. */
#ifndef IOPS_IOPRIO_H
#define IOPS_IOPRIO_H

#include <stdbool.h>
#include <stdint.h>

#include "fio/job.h"

#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_CLASS_RT		1
#define IOPRIO_CLASS_BE		2
#define IOPRIO_SLOTS		4	/* distinct priorities reported per direction */

static inline uint16_t ioprio_value(unsigned cls, unsigned level)
{
	return (uint16_t)(cls << IOPRIO_CLASS_SHIFT | level);
}

/* The priority of the job's requests without cmdprio: prio / prioclass (prio alone: best
 * effort), 0 when neither is set. */
uint16_t ioprio_job_value(const struct job *job);

/* The priority of one request of direction ddir and size bs; rnd is uniform in 0..99. */
uint16_t ioprio_pick(const struct job *job, unsigned ddir, uint64_t bs, unsigned rnd);

/* The distinct priorities direction ddir may use, the job's first; returns how many (<= max). */
unsigned ioprio_values(const struct job *job, unsigned ddir, uint16_t *out, unsigned max);

struct opt_diag;
/* After the options: cmdprio needs libaio or io_uring, not both of its forms, and at most
 * IOPRIO_SLOTS priorities per direction; sets job->cmdprio_on. 0 or -EINVAL with d filled. */
int ioprio_check(struct job *job, struct opt_diag *d);

/* The job thread's priority (ioprio_set), when prio or prioclass is given. 0 or -errno. */
int ioprio_set_thread(const struct job *job);

#endif
