/* SPDX-License-Identifier: MIT */
/* quick mode: the quick suite (lib/suite/quick.h has the plan). Validates and plans everything
 * first (options, directory, free space, a name no file has), then runs the six steps as fio
 * command lines through fio_run, one after the other, and prints the summary. The test file is
 * removed at the end, on error and on a stop (SIGINT/SIGTERM through ctl): the partial summary
 * is printed then. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/err.h"
#include "files.h"
#include "fio/file/target.h"
#include "fio_run.h"
#include "modes.h"
#include "plot_out.h"
#include "suite_sys.h"
#include "suite/quick.h"

struct quick_live {
	struct fio_run *run;
	unsigned step;
	atomic_bool done;
	FILE *out;
};

/* Every 500 ms: the step, its elapsed time, and the rate over the last 500 ms. */
static void *quick_live_main(void *arg)
{
	struct quick_live *l = arg;
	uint64_t t0 = clock_now_ns(), last_b = 0, last_n = 0;

	while (!atomic_load(&l->done)) {
		struct timespec ts = { 0, 500000000L };
		uint64_t b = 0, n = 0;

		nanosleep(&ts, NULL);
		for (unsigned j = 0; j < l->run->cfg.nr_jobs; j++)
			for (int d = 0; d < DDIR_NR; d++) {
				b += atomic_load_explicit(&l->run->prog[j].io_bytes[d], memory_order_relaxed);
				n += atomic_load_explicit(&l->run->prog[j].ios[d], memory_order_relaxed);
			}
		fprintf(l->out, "\r[%u/%u] %s %.1fs: %.1f MiB/s %llu IOPS\033[K", l->step + 1, QUICK_STEPS,
			quick_steps[l->step].name, (double)(clock_now_ns() - t0) / 1e9,
			b >= last_b ? (double)(b - last_b) * 2 / (double)SUITE_MIB : 0.0,
			n >= last_n ? (unsigned long long)(n - last_n) * 2 : 0ull);
		fflush(l->out);
		last_b = b;
		last_n = n;
	}
	fputs("\r\033[K", l->out);
	return NULL;
}

struct quick_state {
	struct quick_plan plan;
	char path[4096];
	bool created;
	struct fio_run runs[QUICK_STEPS];
	struct suite_argv cmd[QUICK_STEPS];
	struct suite_figures fig[QUICK_STEPS];
	const struct report *rep[QUICK_STEPS];
};

/* Step 1 laid the file out: it is ours (it did not exist at plan time; the runner creates
 * with O_EXCL and marks what it makes). */
static void quick_after_layout(void *arg, const bool *runs)
{
	struct quick_state *s = arg;

	(void)runs;
	s->created = true;
}

/* The file exists, did not at plan time, and carries iops' layout mark: step 1 made it
 * before it stopped. */
static bool quick_made_by_us(const char *path)
{
	char v[32];
	ssize_t n = lgetxattr(path, TARGET_XATTR, v, sizeof(v));

	return n > 0;
}

static int quick_plan_make(struct quick_state *s, const struct quick_opts *o, bool json)
{
	struct iops_err err = { 0 };
	struct statvfs vfs;
	uint64_t free_bytes;
	int r;

	if (suite_sys_dir(o->dir, "quick") < 0)
		return -1;
	if (statvfs(o->dir, &vfs) < 0) {
		fprintf(stderr, "iops: quick: cannot read the free space of '%s': %s\n", o->dir, err_str(errno));
		return -1;
	}
	free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	s->plan.dir = o->dir;
	s->plan.runtime_s = o->runtime_s;
	s->plan.numjobs = quick_numjobs(sysconf(_SC_NPROCESSORS_ONLN));
	if (suite_plan_size(free_bytes, o->size, o->size_set, QUICK_SHARE, "quick", o->dir, &s->plan.size,
			    &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	r = quick_probe_direct(o->dir, "quick", &s->plan.direct);
	if (r < 0)
		return -1;
	if (quick_free_name(o->dir, "quick", s->plan.file, sizeof(s->plan.file), s->path, sizeof(s->path)) < 0)
		return -1;
	if (!s->plan.direct)
		fprintf(stderr, "iops: quick: '%s': no O_DIRECT, buffered I/O (--direct=0)\n", o->dir);
	s->plan.psync = suite_sys_need_psync("quick");
	fprintf(json ? stderr : stdout, "iops quick: %s, test file %s (%llu MiB), %u steps of %llu s, %s, %s I/O\n",
		o->dir, s->plan.file, (unsigned long long)(s->plan.size / SUITE_MIB), QUICK_STEPS,
		(unsigned long long)s->plan.runtime_s, s->plan.psync ? "psync" : "libaio",
		s->plan.direct ? "direct" : "buffered");
	fflush(NULL);
	return 0;
}

/* Run step k. Returns 0 to go on, 1 to stop (error or stop request). */
static int quick_step_run(struct quick_state *s, unsigned k, struct ctl *ctl, bool json, bool tty)
{
	struct suite_argv runv;
	struct fio_run *run = &s->runs[k];
	struct quick_live live = { .run = run, .step = k, .out = stdout };
	pthread_t tid;
	bool ticking = false;
	int st = 1, ret;

	if (quick_step_argv(&s->cmd[k], &s->plan, k, false) < 0 || quick_step_argv(&runv, &s->plan, k, true) < 0) {
		fprintf(stderr, "iops: quick: step %u: %s\n", k + 1, err_str(E2BIG));
		return 1;
	}
	if (fio_run_parse(run, runv.argc, runv.argv, &st))
		return 1;
	atomic_init(&live.done, false);
	if (tty && !json)
		ticking = pthread_create(&tid, NULL, quick_live_main, &live) == 0;
	ret = fio_run_go(run, ctl, k == 0 ? quick_after_layout : NULL, s);
	if (ticking) {
		atomic_store(&live.done, true);
		pthread_join(tid, NULL);
	}
	if (run->rep_built) {
		suite_figures_get(&run->rep, quick_steps[k].ddir, &s->fig[k]);
		s->rep[k] = &run->rep;
		quick_step_line(json ? stderr : stdout, k, &s->fig[k]);
		fflush(NULL);
	}
	return ret != 0 || ctl_stopped(ctl);
}

/* The documents of --output-format, in order: normal, json, openmetrics. 0 or -errno. */
static int quick_write(FILE *out, const struct quick_opts *o, struct quick_state *s)
{
	struct utsname un;
	int rc = 0;

	if (o->normal && s->rep[0]) {
		fputc('\n', out);
		quick_summary_print(out, s->fig);
		fputc('\n', out);
		quick_table_print(out, &s->plan, s->fig);
		fputs("\nEquivalent fio command lines:\n", out);
		for (unsigned k = 0; k < QUICK_STEPS; k++)
			if (s->rep[k])
				suite_argv_print(out, &s->cmd[k]);
	}
	if (o->json)
		rc = quick_json_print(out, &s->plan, s->fig, s->rep, s->cmd, o->json_plus);
	if (o->openmetrics && !rc)
		rc = quick_openmetrics_print(out, s->rep, uname(&un) == 0 ? un.nodename : NULL);
	if (!rc && (fflush(out) != 0 || ferror(out)))
		rc = errno ? -errno : -EIO;
	return rc;
}

/* --plot: the page of the same JSON document --output-format=json prints. 0 or 1. */
static int quick_plot(struct quick_state *s, const char *path, const char *dir)
{
	struct plot_out_stream ps;
	char title[4200];

	snprintf(title, sizeof(title), "iops quick: %s", dir);
	if (plot_out_stream_open("quick", &ps))
		return 1;
	if (quick_json_print(ps.f, &s->plan, s->fig, s->rep, s->cmd, false) < 0) {
		fclose(ps.f);
		free(ps.buf);
		fputs("iops quick: --plot: out of memory\n", stderr);
		return 1;
	}
	return plot_out_stream_write("quick", &ps, path, title, "quick");
}

int quick_main(int argc, char **argv, struct ctl *ctl)
{
	struct quick_opts o;
	struct iops_err err = { 0 };
	struct quick_state *s;
	struct files_out of = { 0 };
	bool tty = isatty(STDOUT_FILENO) == 1, failed = false, doc_out;
	const char *plot;
	int status = 0, r;

	if (plot_out_take("quick", &argc, argv, &plot) < 0)
		return 1;
	if (quick_opts_parse(argc, argv, getenv("IOPS_QUICK"), &o, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	if (o.help) {
		quick_usage(stdout);
		return 0;
	}
	/* stdout carries a document: the progress goes to stderr */
	doc_out = !o.output[0] && (o.json || o.openmetrics);
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe must not skip the removal of the file */
	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "iops: quick: out of memory\n");
		return 1;
	}
	if (o.output[0] && (r = files_out_open(&of, o.output)) < 0) {
		fprintf(stderr, "iops: quick: cannot write '%s': %s\n", o.output, err_str(-r));
		free(s);
		return 1;
	}
	if (quick_plan_make(s, &o, doc_out) < 0) {
		files_out_abort(&of);
		free(s);
		return 1;
	}
	for (unsigned k = 0; k < QUICK_STEPS && !failed && !ctl_stopped(ctl); k++)
		failed = quick_step_run(s, k, ctl, doc_out, tty) != 0;
	if (s->created || quick_made_by_us(s->path))
		if (unlink(s->path) < 0 && errno != ENOENT)
			fprintf(stderr, "iops: quick: cannot remove '%s': %s\n", s->path, err_str(errno));
	if (ctl_stopped(ctl)) {
		fprintf(stderr, "iops: quick: stopped by signal %d\n", ctl_signo(ctl));
		status = 128 + ctl_signo(ctl);
	} else if (failed) {
		fprintf(stderr, "iops: quick: a step failed\n");
		status = 1;
	}
	r = quick_write(of.f ? of.f : stdout, &o, s);
	if (of.f)
		r = r < 0 ? (files_out_abort(&of), r) : files_out_commit(&of);
	if (r < 0 && (of.path[0] || r != -EPIPE)) {	/* a reader gone (| head) is not an error */
		fprintf(stderr, "iops: quick: cannot write %s%s%s: %s\n", of.path[0] ? "'" : "the summary",
			of.path, of.path[0] ? "'" : "", err_str(-r));
		status = status ? status : 1;
	}
	if (plot && s->rep[0] && quick_plot(s, plot, o.dir) && !status)
		status = 1;
	for (unsigned k = 0; k < QUICK_STEPS; k++)
		fio_run_release(&s->runs[k]);
	free(s);
	return status;
}
