/* SPDX-License-Identifier: MIT */
/* fio mode: fio_args_parse() → header lines → lay out and run the jobs → final report.
 *
 * iops runs every job as a thread; "Starting N processes/threads" still counts thread= the
 * way fio does, so the output matches. Diagnostics (errors, "fio: terminating on signal N")
 * go to stderr: stdout carries results only (fio prints some of them on stdout, which breaks
 * JSON output). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "core/clock.h"
#include "fio/progress/idleprof.h"
#include "sys/diskstats.h"
#include "engine/engine.h"
#include "files.h"
#include "fio_args.h"
#include "fio_eta.h"
#include "fio_run.h"
#include "fio_status.h"
#include "fio/job.h"
#include "modes.h"
#include "plot_out.h"
#include "fio/report/report.h"
#include "fio/report/write.h"
#include "fio/result.h"
#include "fio/run/runner.h"
#include "server.h"
#include "core/err.h"

#define FIO_VERSION_LINE	"fio-3.33"

struct fio_disks {
	const struct fio_config *cfg;
	struct diskstats ds;
	const char **paths;
	unsigned nr_paths;
	bool begun;
	/* the status line starts with the jobs, once the files are laid out */
	struct runner_progress *prog;	/* NULL: no status line */
	struct fio_eta eta;
	uint64_t genesis_ns;
	/* status-interval: the periodic reports start with the jobs too */
	bool eta_on;			/* prog may exist for the status reports alone */
	struct job_result **res;
	FILE *out;
	struct fio_status status;
};

static void fio_eta_begin(struct fio_disks *d)
{
	int r = d->prog && d->eta_on ? fio_eta_start(&d->eta, d->cfg, d->prog, d->genesis_ns, stdout) : 0;

	if (r < 0)	/* the run goes on without the status line */
		fprintf(stderr, "fio: cannot start the status (eta) thread: %s\n", err_str(-r));
}

/* status-interval: the reporting thread, once the files are laid out and disks are known. */
static void fio_status_begin(struct fio_disks *d)
{
	int r;

	if (!d->prog)	/* without --status-interval: for SIGUSR1 only */
		return;
	r = fio_status_start(&d->status, d->cfg, d->prog, d->res, d->nr_paths ? &d->ds : NULL,
			     d->genesis_ns, d->out);
	if (r < 0)	/* the run goes on without the periodic reports */
		fprintf(stderr, "fio: cannot start the status-interval thread: %s\n", err_str(-r));
}

/* Disk statistics start once the files are laid out, over the files of the jobs that run
 * on a real engine (fio: no job ran, no "Disk stats"). */
static void fio_disks_begin(void *arg, const bool *runs)
{
	struct fio_disks *d = arg;
	const struct fio_config *cfg = d->cfg;
	unsigned total = 0, k = 0;

	d->begun = true;
	fio_eta_begin(d);
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		total += cfg->jobs[j].filenames ? cfg->jobs[j].nr_files : 0;
	if (!total)
		return;
	d->paths = calloc(total, sizeof(*d->paths));
	if (!d->paths)
		return;	/* no disk statistics rather than no run */
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct engine_ops *ops = engine_find(cfg->jobs[j].ioengine);

		if (!runs[j] || !cfg->jobs[j].filenames || !ops || (ops->flags & ENGINE_F_DISKLESS))
			continue;
		for (unsigned f = 0; f < cfg->jobs[j].nr_files; f++)
			d->paths[k++] = cfg->jobs[j].filenames[f];
	}
	d->nr_paths = k;
	if (k)
		(void)diskstats_begin(&d->ds, d->paths, k);
	fio_status_begin(d);
}

/* "fio: terminating on signal N" as soon as the stop arrives (fio prints it from its signal
 * handler), exactly once. */
struct fio_watch {
	struct ctl *ctl;
	atomic_bool printed;
	atomic_bool done;
	struct fio_status *status;	/* status-interval: SIGUSR1 asks it for a report */
};

static void fio_watch_print(struct fio_watch *fw)
{
	if (!atomic_exchange(&fw->printed, true))
		fprintf(stderr, "fio: terminating on signal %d\n", ctl_signo(fw->ctl));
}

static void *fio_watch_main(void *arg)
{
	struct fio_watch *fw = arg;
	int seen = 0;	/* status-interval: SIGUSR1 requests handled */

	/* returns when a stop is requested, or when fio_main ends the run (done + ctl_wake);
	 * status-interval: each SIGUSR1 meanwhile asks for a full report */
	for (;;) {
		bool stopped = ctl_wait_stop_status(fw->ctl, &fw->done, &seen);

		if (stopped && !atomic_load(&fw->done))
			fio_watch_print(fw);
		if (stopped || atomic_load(&fw->done))
			break;
		fio_status_request(fw->status);
	}
	return NULL;
}

/* --plot of the presets: the same report as json+ into the page. 0 or 1 (printed). */
static int fio_plot(const struct fio_config *cfg, struct job_result *const *shown, const struct disk_result *disks,
		    unsigned nr_disks, const char *path, const char *mode)
{
	struct fio_config *c = malloc(sizeof(*c));
	struct plot_out_stream s;
	char title[64];
	int rc;

	if (!c || plot_out_stream_open(mode, &s)) {
		free(c);
		return 1;
	}
	*c = *cfg;	/* the jobs are shared, read only: only the format differs */
	c->output_format = OUT_JSON_PLUS;
	rc = report_print(s.f, c, shown, cfg->nr_jobs, disks, nr_disks);
	free(c);
	if (rc < 0) {
		fprintf(stderr, "iops %s: --plot: %s\n", mode, err_str(-rc));
		fclose(s.f);
		free(s.buf);
		return 1;
	}
	snprintf(title, sizeof(title), "iops %s", mode);
	return plot_out_stream_write(mode, &s, path, title, mode);
}

int fio_main(int argc, char **argv, struct ctl *ctl)
{
	return fio_main_plot(argc, argv, ctl, NULL, NULL);
}

int fio_main_plot(int argc, char **argv, struct ctl *ctl, const char *plot, const char *mode)
{
	struct fio_watch fw;
	pthread_t watch_tid;
	bool watching;
	struct fio_config cfg;
	struct job_result **res = NULL;
	struct job_result **shown = NULL;
	struct disk_result disks[DISKSTATS_MAX];
	struct fio_disks *dk = NULL;
	struct iops_err err = { 0 };
	struct idleprof idle = { 0 };
	struct idle_result *idle_res = NULL;
	unsigned nr_disks = 0;
	int exit_status = 0, ret, status;
	FILE *out = stdout;
	uint64_t genesis_ns = clock_now_ns();
	bool normal, reported = false;
	struct files_out om_file = { 0 };	/* openmetrics: --output written whole, renamed at the end */

	for (int i = 1; i < argc; i++) {	/* fio's client/server: modes of their own */
		if (!strcmp(argv[i], "--server") || !strncmp(argv[i], "--server=", 9))
			return server_main(argc, argv, ctl);
		if (!strncmp(argv[i], "--client=", 9))
			return client_main(argc, argv, ctl);
	}
	memset(&cfg, 0, sizeof(cfg));
	if (fio_args_parse(argc, argv, &cfg, &exit_status)) {
		fio_config_release(&cfg);
		return exit_status;
	}
	if (cfg.parse_only) {
		fio_config_release(&cfg);
		return 0;
	}
	modes_second_stop_exit = 128;	/* a second SIGINT/SIGTERM: out at once, whatever hangs */
	if (cfg.output_path) {
		int r = (cfg.output_format & OUT_OPENMETRICS) ? files_out_open(&om_file, cfg.output_path) : 0;

		out = r < 0 ? NULL : om_file.f ? om_file.f : fopen(cfg.output_path, "w");
		if (!out) {
			fprintf(stderr, "fio: unable to open '%s' for output: %s\n", cfg.output_path,
				err_str(r < 0 ? -r : errno));
			fio_config_release(&cfg);
			return 1;
		}
	}
	normal = (cfg.output_format & OUT_NORMAL) != 0 || cfg.output_format == 0;

	res = fio_results_alloc(&cfg);
	shown = calloc(cfg.nr_jobs ? cfg.nr_jobs : 1, sizeof(*shown));
	dk = calloc(1, sizeof(*dk));
	if (!res || !shown || !dk) {
		fprintf(stderr, "fio: out of memory\n");
		status = 1;
		goto release;
	}

	if (normal) {
		report_job_headers(out, &cfg);
		fprintf(out, "%s\n", FIO_VERSION_LINE);
		fio_print_starting(out, &cfg);
		fflush(out);
	}

	dk->cfg = &cfg;
	dk->genesis_ns = genesis_ns;
	dk->res = res;
	dk->out = out;
	dk->eta_on = fio_eta_wanted(&cfg, out == stdout);
	if (cfg.nr_jobs) {	/* status-interval: the reports (SIGUSR1) need it too */
		dk->prog = calloc(cfg.nr_jobs, sizeof(*dk->prog));	/* no progress: no status line */
		if (!dk->prog)
			fprintf(stderr, "fio: out of memory for the status (eta) line\n");
	}
	fw.ctl = ctl;
	fw.status = &dk->status;
	atomic_init(&fw.printed, false);
	atomic_init(&fw.done, false);
	watching = pthread_create(&watch_tid, NULL, fio_watch_main, &fw) == 0;
	if (cfg.idle_prof) {	/* --idle-prof: calibrated before the jobs, measured while they run */
		idle_res = calloc(1, sizeof(*idle_res));
		if (!idle_res || idleprof_start(&idle, cfg.idle_prof) < 0) {
			fprintf(stderr, "fio: cannot start the idle profiling threads\n");
			free(idle_res);
			idle_res = NULL;
		} else
			idleprof_begin(&idle);
	}
	ret = runner_run_progress(&cfg, res, normal ? out : NULL, stderr, ctl, &err, fio_disks_begin, dk, dk->prog);
	if (idle_res)
		idleprof_stop(&idle, idle_res);
	fio_eta_stop(&dk->eta);
	atomic_store(&fw.done, true);
	if (watching) {
		ctl_wake(ctl);
		pthread_join(watch_tid, NULL);
	}
	fio_status_stop(&dk->status);	/* status-interval: after the watcher, before the report */
	if (ctl_stopped_run(ctl))
		fio_watch_print(&fw);
	if (ret < 0) {
		if (iops_err_isset(&err))
			fprintf(stderr, "%s\n", err.msg);
		status = ctl_stopped_run(ctl) ? 128 : 1;
		goto release;
	}
	if (dk->begun && dk->nr_paths)
		diskstats_end(&dk->ds, disks, DISKSTATS_MAX, &nr_disks);

	for (unsigned j = 0; j < cfg.nr_jobs; j++)
		shown[j] = res[j]->not_run ? NULL : res[j];
	if (report_print_idle(out, &cfg, shown, cfg.nr_jobs, disks, nr_disks, idle_res) < 0) {
		fprintf(stderr, "fio: writing the report failed: %s\n", err_str(errno));
		if (!ret)
			ret = 1;
	} else {
		reported = true;
	}
	if (plot && fio_plot(&cfg, shown, disks, nr_disks, plot, mode) && !ret)
		ret = 1;
	status = ret;
	if (ctl_stopped_run(ctl))
		status = 128 + ret;
	if (status > 255)
		status = 255;
	for (unsigned j = 0; j < cfg.nr_jobs; j++)
		if (res[j]->abandoned) {	/* a job thread is stuck in the kernel: free nothing it uses */
			if (om_file.f)
				(void)(reported ? files_out_commit(&om_file) : (files_out_abort(&om_file), 0));
			else if (out != stdout)
				fclose(out);
			fflush(NULL);
			_exit(status);
		}

release:
	if (om_file.f) {	/* the metrics file replaces the old one only whole, and only with a report */
		int r = reported ? files_out_commit(&om_file) : (files_out_abort(&om_file), 0);

		if (r < 0) {
			fprintf(stderr, "fio: writing '%s' failed: %s\n", cfg.output_path, err_str(-r));
			if (!status)
				status = 1;
		}
	} else if (out && out != stdout) {
		if (fclose(out) != 0) {
			fprintf(stderr, "fio: writing '%s' failed: %s\n", cfg.output_path, err_str(errno));
			if (!status)
				status = 1;
		}
	} else if (fflush(stdout) != 0 && errno != EPIPE) {
		fprintf(stderr, "fio: writing the report failed: %s\n", err_str(errno));
		if (!status)
			status = 1;
	}
	fio_results_free(res, cfg.nr_jobs);
	free(shown);
	free(idle_res);
	if (dk) {
		fio_eta_stop(&dk->eta);
		fio_status_stop(&dk->status);
		free(dk->paths);
		free(dk->prog);
	}
	free(dk);
	fio_config_release(&cfg);
	return status;
}
