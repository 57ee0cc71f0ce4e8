/* SPDX-License-Identifier: MIT */
/* ioping_run: the request loop of ioping 1.3. One request at a time at a fixed cadence
 * (time_next += interval; no catching up after an overrun), timed with CLOCK_MONOTONIC
 * around the I/O system call (plus fdatasync for uncached writes); offsets from the ioping
 * RNG or sequential with -L; statistics per print period and for the run. Stops after -c
 * requests, at the -w deadline, or on a stop request (a signal), then prints the summary. */
#ifndef IOPS_IOPING_RUN_H
#define IOPS_IOPING_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "core/ctl.h"
#include "core/err.h"
#include "ioping/ioping_opts.h"
#include "ioping/ioping_out.h"
#include "ioping/ioping_rng.h"
#include "ioping/ioping_target.h"

struct ioping_run {
	const struct ioping_opts *opts;
	struct ioping_target *target;
	struct ioping_rng *rng;
	void *buf;			/* opts->size bytes, 4 KiB aligned */
	struct ioping_out *out;
	FILE *warn;			/* warnings ("ioping: ...") */
	struct ctl *ctl;
	unsigned long aio_ctx;		/* -A: kernel AIO context, 0 if none */
};

/* -A: create the one-slot AIO context (ioping does it before looking at the target).
 * Returns 0 or -errno with err ("aio setup failed", exit status 2). */
int ioping_run_aio_setup(struct ioping_run *run, struct iops_err *err);
void ioping_run_aio_release(struct ioping_run *run);

/* Allocate the request buffer (posix_memalign 4096, size bytes). Returns 0 or -ENOMEM with
 * err ("buffer allocation failed", exit status 2). */
int ioping_run_alloc(struct ioping_run *run, struct iops_err *err);
void ioping_run_free(struct ioping_run *run);

/* The loop and the final output. Returns 0, or -errno with err filled (err->code is the exit
 * status: 1 for AIO submit/getevents failures, 3 for request, fadvise and fdatasync
 * failures, like ioping). */
int ioping_run_loop(struct ioping_run *run, struct iops_err *err);

#endif
