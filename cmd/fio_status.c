/* SPDX-License-Identifier: MIT */
#include "fio_status.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "fio/report/report.h"
#include "fio/report/write.h"

#define FIO_STATUS_SNAP_TIMEOUT_NS	250000000ull	/* a job blocked longer keeps its last copy */

static void fio_status_report(struct fio_status *s)
{
	struct disk_result disks[DISKSTATS_MAX];
	unsigned nr_disks = 0, fmt = s->cfg->output_format & ~(unsigned)OUT_OPENMETRICS;
	struct report rep;

	if (s->cfg->output_format && !fmt)	/* the metrics are the final result's only: one exposition */
		return;
	runner_snapshot(s->prog, s->res, s->cfg->nr_jobs, FIO_STATUS_SNAP_TIMEOUT_NS, s->shown);
	if (s->ds)
		diskstats_end((struct diskstats *)s->ds, disks, DISKSTATS_MAX, &nr_disks);
	if (report_build(&rep, s->cfg, s->shown, s->cfg->nr_jobs) < 0)
		return;	/* out of memory: skip this one, the run goes on */
	rep.disks = disks;
	rep.nr_disks = nr_disks;
	(void)report_write_formats(s->out, &rep, fmt);	/* a write error shows again in the final report */
	report_release(&rep);
}

static void *fio_status_main(void *arg)
{
	struct fio_status *s = arg;
	uint64_t next = UINT64_MAX;

	if (s->interval_ns) {
		uint64_t now = clock_now_ns(), k = (now - s->genesis_ns) / s->interval_ns + 1;

		next = s->genesis_ns + k * s->interval_ns;	/* ticks counted from fio's start */
	}
	pthread_mutex_lock(&s->lock);
	while (!s->done) {
		uint64_t now = clock_now_ns();

		if (!s->requested && now < next) {
			struct timespec ts;

			clock_ns_to_timespec(next, &ts);
			pthread_cond_timedwait(&s->wake, &s->lock, &ts);
			continue;
		}
		if (now >= next) {
			next += s->interval_ns;
			if (next <= now)
				next = now + s->interval_ns;
		}
		s->requested = false;
		pthread_mutex_unlock(&s->lock);
		fio_status_report(s);
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int fio_status_start(struct fio_status *s, const struct fio_config *cfg,
		     struct runner_progress *prog, struct job_result *const *res,
		     const struct diskstats *ds, uint64_t genesis_ns, FILE *out)
{
	int r;

	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->prog = prog;
	s->res = res;
	s->ds = ds;
	s->out = out;
	s->genesis_ns = genesis_ns;
	s->interval_ns = cfg->status_interval_ns;
	if (s->interval_ns > UINT64_MAX / 4)	/* next + interval never wraps */
		s->interval_ns = UINT64_MAX / 4;
	s->snaps = calloc(cfg->nr_jobs ? cfg->nr_jobs : 1, sizeof(*s->snaps));
	s->shown = calloc(cfg->nr_jobs ? cfg->nr_jobs : 1, sizeof(*s->shown));
	if (!s->snaps || !s->shown) {
		r = ENOMEM;
		goto free_bufs;
	}
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		s->snaps[j].job = &cfg->jobs[j];	/* a job not started yet reports nothing done */
		prog[j].snap = &s->snaps[j];
	}
	r = -clock_lock_init(&s->lock, &s->wake);
	if (r)
		goto unhook;
	r = pthread_create(&s->tid, NULL, fio_status_main, s);
	if (r)
		goto destroy_lock;
	atomic_store(&s->started, true);
	return 0;

destroy_lock:
	clock_lock_destroy(&s->lock, &s->wake);
unhook:
	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		prog[j].snap = NULL;
free_bufs:
	free(s->snaps);
	free(s->shown);
	s->snaps = NULL;
	s->shown = NULL;
	return -r;
}

void fio_status_request(struct fio_status *s)
{
	if (!atomic_load(&s->started))
		return;
	pthread_mutex_lock(&s->lock);
	s->requested = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

void fio_status_stop(struct fio_status *s)
{
	if (!atomic_load(&s->started))
		return;
	pthread_mutex_lock(&s->lock);
	s->done = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->tid, NULL);
	clock_lock_destroy(&s->lock, &s->wake);
	for (unsigned j = 0; j < s->cfg->nr_jobs; j++)
		s->prog[j].snap = NULL;
	free(s->snaps);
	free(s->shown);
	s->snaps = NULL;
	s->shown = NULL;
	atomic_store(&s->started, false);
}
