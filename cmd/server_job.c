/* SPDX-License-Identifier: MIT */
/* server_job: one job of a session (server.h). Parsed as fio mode parses a command line, the
 * job files from the frame; checked against the served directory (lib/remote/jobcheck.c);
 * the paths it may create told to the server first; laid out, then READY and the client's GO
 * (the start barrier: runner_run_progress()'s after_layout hook); reported in the client's
 * text formats (REPORT) and as json+ with job_start (RESULT) for the client's merge. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "fio/job.h"
#include "fio/report/write.h"
#include "fio/run/runner.h"
#include "fio_args.h"
#include "fio_run.h"
#include "remote/jobcheck.h"
#include "server.h"
#include "sys/diskstats.h"

struct sj_run {
	struct session *s;
	struct fio_config *cfg;
	struct diskstats ds;
	const char **paths;
	unsigned nr_paths;
	int quit[2];		/* ends the watcher */
	pthread_t watch;
	bool watching;
};

static void sj_stop(struct session *s)
{
	ctl_stop(s->ctl, SIGTERM);
}

/* While the jobs run: a BYE stops them (the report still goes out), the end of the
 * connection stops them and the session. */
static void *sj_watch(void *arg)
{
	struct sj_run *r = arg;
	struct pollfd p[2] = { { r->s->fd, POLLIN, 0 }, { r->quit[0], POLLIN, 0 } };
	struct iops_err err = { 0 };
	struct proto_frame fr;

	while (poll(p, 2, -1) < 0 && errno == EINTR)
		;
	if (p[1].revents)
		return NULL;
	if (proto_recv(r->s->fd, &fr, 5000, &err) == 0) {
		if (fr.type == PROTO_BYE)
			r->s->bye = true;
		else
			r->s->lost = true;	/* nothing else is expected now */
		free(fr.data);
	} else {
		r->s->lost = true;
	}
	sj_stop(r->s);
	return NULL;
}

/* Disk statistics over the files of the jobs that run on a real engine, as fio mode. */
static void sj_disks(struct sj_run *r, const bool *runs)
{
	const struct fio_config *cfg = r->cfg;
	unsigned total = 0;

	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		total += cfg->jobs[j].filenames ? cfg->jobs[j].nr_files : 0;
	if (!total || !(r->paths = calloc(total, sizeof(*r->paths))))
		return;
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct engine_ops *ops = engine_find(cfg->jobs[j].ioengine);

		if (!runs[j] || !cfg->jobs[j].filenames || !ops || (ops->flags & ENGINE_F_DISKLESS))
			continue;
		for (unsigned f = 0; f < cfg->jobs[j].nr_files; f++)
			r->paths[r->nr_paths++] = cfg->jobs[j].filenames[f];
	}
	if (r->nr_paths && diskstats_begin(&r->ds, r->paths, r->nr_paths) < 0)
		r->nr_paths = 0;
}

/* The files are laid out: READY, then wait for GO (the start barrier). */
static void sj_after_layout(void *arg, const bool *runs)
{
	struct sj_run *r = arg;
	struct session *s = r->s;
	struct iops_err err = { 0 };
	struct proto_frame fr;

	session_sync(s);
	if (session_send(s, PROTO_READY, NULL, 0) || proto_recv(s->fd, &fr, SERVER_GO_MS, &err)) {
		s->lost = true;
		sj_stop(s);
		return;
	}
	free(fr.data);
	if (fr.type != PROTO_GO) {
		s->bye = fr.type == PROTO_BYE;
		s->lost = !s->bye;
		sj_stop(s);
		return;
	}
	sj_disks(r, runs);
	r->watching = pipe(r->quit) == 0 && pthread_create(&r->watch, NULL, sj_watch, r) == 0;
}

/* Tell the server each path a job may create (and each missing directory on the way), so
 * that it removes them when the session ends, however it ends. */
static void sj_record(struct session *s, const struct fio_config *cfg)
{
	const char *root = s->sc->conf.root;
	char abs[PATH_MAX];
	struct stat st;

	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		for (unsigned f = 0; cfg->jobs[j].filenames && f < cfg->jobs[j].nr_files; f++) {
			size_t n;

			if (!confine_fold(root, cfg->jobs[j].filenames[f], abs, sizeof(abs)) || lstat(abs, &st) == 0)
				continue;
			/* missing directories from the top down, then the file */
			for (n = strlen(root) + 1; n < strlen(abs); n++) {
				if (abs[n] != '/')
					continue;
				abs[n] = '\0';
				if (lstat(abs, &st) < 0)
					dprintf(s->cleanup_fd, "D %s\n", abs);
				abs[n] = '/';
			}
			dprintf(s->cleanup_fd, "F %s\n", abs);
		}
}

/* The report of res in formats fmt into a malloc'd buffer. 0 or -errno. */
static int sj_report(struct fio_config *cfg, struct job_result **shown, unsigned fmt,
		     const struct disk_result *disks, unsigned nr_disks, char **buf, size_t *len)
{
	unsigned saved = cfg->output_format;
	FILE *m = open_memstream(buf, len);
	int ret;

	if (!m)
		return -errno;
	cfg->output_format = fmt;
	ret = report_print(m, cfg, shown, cfg->nr_jobs, disks, nr_disks);
	cfg->output_format = saved;
	if (fclose(m) && !ret)
		ret = -EIO;
	return ret;
}

static int sj_done(struct session *s, int status)
{
	uint8_t p[4];

	session_sync(s);
	proto_u32_encode(p, (uint32_t)status);
	return session_send(s, PROTO_DONE, p, 4) || s->lost || s->bye ? -1 : 0;
}

/* Run the parsed job; returns its exit status as fio mode's. */
static int sj_run_cfg(struct session *s, struct fio_config *cfg)
{
	struct sj_run r = { .s = s, .cfg = cfg };
	struct disk_result disks[DISKSTATS_MAX];
	struct job_result **res = fio_results_alloc(cfg), **shown = calloc(cfg->nr_jobs + 1, sizeof(*shown));
	struct runner_progress *prog = calloc(cfg->nr_jobs + 1, sizeof(*prog));
	struct iops_err err = { 0 };
	unsigned nr_disks = 0, text = cfg->output_format & (OUT_NORMAL | OUT_TERSE);
	char *buf = NULL;
	size_t len = 0;
	int ret, status;

	if (!res || !shown || !prog) {
		fprintf(stderr, "fio: out of memory\n");
		status = 1;
		goto release;
	}
	if (cfg->output_format & OUT_NORMAL) {
		report_job_headers(stdout, cfg);
		fio_print_starting(stdout, cfg);
	}
	ret = runner_run_progress(cfg, res, cfg->output_format & OUT_NORMAL ? stdout : NULL, stderr, s->ctl,
				  &err, sj_after_layout, &r, prog);
	if (r.watching) {
		if (write(r.quit[1], "q", 1) != 1)
			sj_stop(s);
		pthread_join(r.watch, NULL);
	}
	if (r.watching || r.quit[0]) {
		close(r.quit[0]);
		close(r.quit[1]);
	}
	if (r.nr_paths)
		diskstats_end(&r.ds, disks, DISKSTATS_MAX, &nr_disks);
	if (ret < 0) {
		if (iops_err_isset(&err))
			fprintf(stderr, "%s\n", err.msg);
		status = ctl_stopped_run(s->ctl) ? 128 : 1;
		goto release;
	}
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		shown[j] = res[j]->not_run ? NULL : res[j];
	if (!s->lost && text && sj_report(cfg, shown, text, disks, nr_disks, &buf, &len) == 0)
		session_send(s, PROTO_REPORT, buf, (uint32_t)len);
	free(buf);
	buf = NULL;
	if (!s->lost && sj_report(cfg, shown, OUT_JSON_PLUS, disks, nr_disks, &buf, &len) == 0)
		session_send(s, PROTO_RESULT, buf, (uint32_t)len);
	free(buf);
	status = ctl_stopped_run(s->ctl) ? 128 + ret : ret;
	if (status > 255)
		status = 255;
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		if (res[j]->abandoned) {	/* a job thread stuck in the kernel: free nothing it uses */
			sj_done(s, status);
			_exit(0);
		}
release:
	fio_results_free(res, cfg->nr_jobs);
	free(shown);
	free(prog);
	free(r.paths);
	return status;
}

int server_job(struct session *s, const struct proto_frame *fr)
{
	struct fio_args_file files[PROTO_JOB_FILES_MAX];
	struct iops_err err = { 0 };
	struct proto_job job;
	struct fio_config cfg;
	char **argv = NULL;
	int status = 1;

	if (proto_job_parse(&job, fr->data, fr->len, &err)) {
		fprintf(stderr, "iops server: bad job frame: %s\n", err.msg);
		proto_job_release(&job);
		sj_done(s, 1);
		return -1;
	}
	argv = calloc(job.nr_args + 2, sizeof(*argv));
	if (!argv) {
		fprintf(stderr, "fio: out of memory\n");
		goto done;
	}
	argv[0] = "fio";
	for (unsigned i = 0; i < job.nr_args; i++) {
		if (jobcheck_arg_refused(job.args[i])) {
			fprintf(stderr, "iops server: option '%s' is not allowed on a server\n", job.args[i]);
			dprintf(s->cleanup_fd, "L refused %s's option '%s'\n", s->peer, job.args[i]);
			goto done;
		}
		argv[i + 1] = job.args[i];
	}
	for (unsigned i = 0; i < job.nr_files; i++) {
		if (jobcheck_text(job.files[i].data, job.files[i].len, &err)) {
			fprintf(stderr, "iops server: refused: job file '%s': %s\n", job.files[i].name, err.msg);
			dprintf(s->cleanup_fd, "L refused %s's job file '%s': %s\n", s->peer, job.files[i].name, err.msg);
			goto done;
		}
		files[i] = (struct fio_args_file){ job.files[i].name, job.files[i].data, job.files[i].len };
	}
	if (fio_args_parse_mem((int)job.nr_args + 1, argv, files, job.nr_files, &cfg, &status))
		goto done;	/* fio's message is on stderr, its status set */
	status = 1;
	if (jobcheck_config(&s->sc->conf, &cfg, &err)) {
		fprintf(stderr, "iops server: refused: %s\n", err.msg);
		dprintf(s->cleanup_fd, "L refused %s's job: %s\n", s->peer, err.msg);
	} else if (cfg.parse_only) {
		status = 0;
	} else {
		cfg.json_job_start = true;
		cfg.eta = ETA_NEVER;
		sj_record(s, &cfg);
		status = sj_run_cfg(s, &cfg);
	}
	fio_config_release(&cfg);
done:
	free(argv);
	proto_job_release(&job);
	return sj_done(s, status);
}
