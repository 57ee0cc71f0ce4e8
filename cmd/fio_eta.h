/* SPDX-License-Identifier: MIT */
/* fio_eta: the thread that prints fio's live status (ETA) line while the jobs run
 * (fio's eta.c). Formatting lives in lib/eta.c; this file samples the runner's
 * progress every eta interval and writes the line to stdout. */
#ifndef IOPS_FIO_ETA_H
#define IOPS_FIO_ETA_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fio/job.h"
#include "fio/run/runner.h"

struct fio_eta {
	const struct fio_config *cfg;
	struct runner_progress *prog;	/* cfg->nr_jobs entries, written by the runner */
	FILE *out;
	uint64_t genesis_ns;		/* the run's start, for the total elapsed time */
	uint64_t interval_ns, newline_ns;

	uint64_t *prev_bytes, *prev_ios;	/* per job and direction, at the previous line */
	uint64_t *job_eta_s;
	char *states;
	char *line;
	size_t line_cap, prev_len;
	uint64_t last_ns, last_newline_ns;
	bool printed;

	pthread_t tid;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* CLOCK_MONOTONIC */
	bool done;
};

/* Whether fio would print the line: never with --eta=never; with auto only when stdout is a
 * terminal; never when normal output is not selected and the report goes to stdout. */
bool fio_eta_wanted(const struct fio_config *cfg, bool report_to_stdout);

/* Allocate and start the thread. Returns 0 or -errno (then nothing runs, nothing to stop). */
int fio_eta_start(struct fio_eta *e, const struct fio_config *cfg, struct runner_progress *prog,
		  uint64_t genesis_ns, FILE *out);

/* Stop the thread (no further line is printed) and free what start allocated. Safe to call
 * when start failed or was never called on a zeroed struct. */
void fio_eta_stop(struct fio_eta *e);

/* Build one line (without the trailing '\r') from the progress at now_ns and remember it as
 * the previous line. Exposed for the thread and for tests. */
const char *fio_eta_line(struct fio_eta *e, uint64_t now_ns);

#endif
