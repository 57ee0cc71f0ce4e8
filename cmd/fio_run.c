/* SPDX-License-Identifier: MIT */
#include "fio_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "fio/conf/fioconf.h"
#include "fio/report/write.h"
#include "fio_args.h"

struct job_result **fio_results_alloc(const struct fio_config *cfg)
{
	struct job_result **res = calloc(cfg->nr_jobs ? cfg->nr_jobs : 1, sizeof(*res));

	if (!res)
		return NULL;
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		res[j] = calloc(1, sizeof(**res));	/* ~100 KiB each: heap, never a stack */
		if (!res[j]) {
			fio_results_free(res, cfg->nr_jobs);
			return NULL;
		}
	}
	return res;
}

void fio_results_free(struct job_result **res, unsigned nr)
{
	if (!res)
		return;
	for (unsigned j = 0; j < nr; j++) {
		if (res[j])
			free(res[j]->ss);	/* steady state */
		free(res[j]);
	}
	free(res);
}

int fio_run_parse(struct fio_run *run, int argc, char **argv, int *exit_status)
{
	memset(run, 0, sizeof(*run));
	if (fio_args_parse(argc, argv, &run->cfg, exit_status)) {
		fio_config_release(&run->cfg);
		return 1;
	}
	run->parsed = true;
	run->res = fio_results_alloc(&run->cfg);
	run->prog = calloc(run->cfg.nr_jobs ? run->cfg.nr_jobs : 1, sizeof(*run->prog));
	if (!run->res || !run->prog) {
		fprintf(stderr, "iops: out of memory for job results\n");
		*exit_status = 1;
		fio_run_release(run);
		return 1;
	}
	return 0;
}

int fio_run_go(struct fio_run *run, struct ctl *ctl, void (*after_layout)(void *, const bool *), void *arg)
{
	struct iops_err err = { 0 };
	struct job_result **shown;

	run->ret = runner_run_progress(&run->cfg, run->res, NULL, stderr, ctl, &err, after_layout, arg, run->prog);
	if (run->ret < 0) {
		if (iops_err_isset(&err))
			fprintf(stderr, "%s\n", err.msg);
		return run->ret;
	}
	shown = calloc(run->cfg.nr_jobs ? run->cfg.nr_jobs : 1, sizeof(*shown));
	if (!shown)
		return run->ret = -ENOMEM;
	for (unsigned j = 0; j < run->cfg.nr_jobs; j++)
		shown[j] = run->res[j]->not_run ? NULL : run->res[j];
	run->rep_built = report_build(&run->rep, &run->cfg, shown, run->cfg.nr_jobs) == 0;
	free(shown);
	return run->ret;
}

void fio_run_release(struct fio_run *run)
{
	if (run->rep_built)
		report_release(&run->rep);
	fio_results_free(run->res, run->cfg.nr_jobs);
	free(run->prog);
	if (run->parsed)
		fio_config_release(&run->cfg);
	memset(run, 0, sizeof(*run));
}

void fio_print_starting(FILE *out, const struct fio_config *cfg)
{
	unsigned nr_thread = 0, nr_process = 0;

	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		if (cfg->jobs[j].thread)
			nr_thread++;
		else
			nr_process++;
	}
	fputs("Starting ", out);
	if (nr_thread)
		fprintf(out, "%u thread%s%s", nr_thread, nr_thread > 1 ? "s" : "", nr_process ? " and " : "\n");
	if (nr_process || !nr_thread)
		fprintf(out, "%u process%s\n", nr_process, nr_process > 1 ? "es" : "");
}
