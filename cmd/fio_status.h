/* SPDX-License-Identifier: MIT */
/* fio_status: the thread behind --status-interval (mid-run reports). Every interval
 * (counted from the start of fio) it takes a snapshot of every job (runner_snapshot) and
 * prints a complete report, in every selected format, to the report stream, while the jobs
 * run; the final report is unaffected. fio_status_request() asks for one report now (SIGUSR1). */
#ifndef IOPS_FIO_STATUS_H
#define IOPS_FIO_STATUS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sys/diskstats.h"
#include "fio/job.h"
#include "fio/result.h"
#include "fio/run/runner.h"

struct fio_status {
	const struct fio_config *cfg;
	struct runner_progress *prog;	/* cfg->nr_jobs entries */
	struct job_result *const *res;	/* the jobs' final results */
	struct job_result *snaps;	/* cfg->nr_jobs copies the jobs fill on request */
	struct job_result **shown;
	const struct diskstats *ds;	/* NULL: no "Disk stats" */
	FILE *out;
	uint64_t genesis_ns, interval_ns;	/* interval 0: only on request */

	pthread_t tid;
	atomic_bool started;		/* read by the fio watcher (SIGUSR1) */
	bool done, requested;
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* CLOCK_MONOTONIC */
};

/* Allocate the snapshot buffers (hooked into prog[i].snap: call before the jobs start) and
 * start the thread. Returns 0 or -errno (then nothing runs). */
int fio_status_start(struct fio_status *s, const struct fio_config *cfg,
		     struct runner_progress *prog, struct job_result *const *res,
		     const struct diskstats *ds, uint64_t genesis_ns, FILE *out);

/* Ask for one report as soon as possible. */
void fio_status_request(struct fio_status *s);

/* Stop the thread (a report being printed completes first) and free the buffers. Safe on a
 * zeroed struct or after a failed start. */
void fio_status_stop(struct fio_status *s);

#endif
