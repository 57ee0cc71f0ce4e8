/* SPDX-License-Identifier: MIT */
/* fio_run: run one fio command line the way fio mode does (fio_args_parse() ->
 * runner_run_progress()) and keep its results, for the modes whose steps are fio command
 * lines (quick, the presets). Nothing is printed on stdout: parse messages go where fio mode
 * puts them, job diagnostics to stderr. */
#ifndef IOPS_FIO_RUN_H
#define IOPS_FIO_RUN_H

#include <stdio.h>

#include "core/ctl.h"
#include "fio/job.h"
#include "fio/report/report.h"
#include "fio/result.h"
#include "fio/run/runner.h"

struct fio_run {
	struct fio_config cfg;
	struct job_result **res;	/* cfg.nr_jobs, heap */
	struct runner_progress *prog;	/* cfg.nr_jobs, zeroed: live figures while it runs */
	struct report rep;		/* after fio_run_go(): the report model (groups merged) */
	bool parsed, rep_built;
	int ret;			/* the runner's result: jobs that failed, or -errno */
};

/* Job results for cfg: one zeroed heap entry per job, NULL when out of memory. */
struct job_result **fio_results_alloc(const struct fio_config *cfg);
void fio_results_free(struct job_result **res, unsigned nr);

/* Parse argv (argv[0] "fio") and allocate results and progress. 0, or 1 with *exit_status
 * set (fio's message printed, nothing to run). */
int fio_run_parse(struct fio_run *run, int argc, char **argv, int *exit_status);
/* Lay out and run; after_layout as runner_run_progress(). Builds run->rep when jobs ran.
 * Returns run->ret; a runner error message is printed on stderr. */
int fio_run_go(struct fio_run *run, struct ctl *ctl, void (*after_layout)(void *, const bool *), void *arg);
void fio_run_release(struct fio_run *run);

/* fio's "Starting N processes" / "Starting N threads" line for cfg's jobs. */
void fio_print_starting(FILE *out, const struct fio_config *cfg);

#endif
