/* SPDX-License-Identifier: MIT */
#include "fio_eta.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "fio/progress/eta.h"
#include "core/num2str.h"

bool fio_eta_wanted(const struct fio_config *cfg, bool report_to_stdout)
{
	bool normal = (cfg->output_format & OUT_NORMAL) != 0 || cfg->output_format == 0;

	if (cfg->eta == ETA_NEVER)
		return false;
	if (!normal && report_to_stdout)
		return false;
	return cfg->eta == ETA_ALWAYS || isatty(STDOUT_FILENO);
}

static uint64_t fio_eta_secs_up(uint64_t ns)
{
	return (ns + CLOCK_NS_PER_SEC - 1) / CLOCK_NS_PER_SEC;
}

static uint64_t fio_eta_since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

const char *fio_eta_line(struct fio_eta *e, uint64_t now_ns)
{
	const struct fio_config *cfg = e->cfg;
	const struct job *first = cfg->nr_jobs ? &cfg->jobs[0] : NULL;
	uint64_t sum_bytes[DDIR_NR] = { 0 }, sum_ios[DDIR_NR] = { 0 };
	uint64_t disp_ms = fio_eta_since(now_ns, e->last_ns) / CLOCK_NS_PER_MS;
	unsigned nr_ramp = 0, nr_io = 0;
	struct eta_status st;

	memset(&st, 0, sizeof(st));
	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		const struct job *job = &cfg->jobs[j];
		struct runner_progress *p = &e->prog[j];
		char c = (char)atomic_load_explicit(&p->state, memory_order_relaxed);
		struct eta_job ej = { 0 };

		if (!c)
			c = ETA_ST_PENDING;
		e->states[j] = c;
		for (int d = 0; d < DDIR_NR; d++) {
			uint64_t b = atomic_load_explicit(&p->io_bytes[d], memory_order_relaxed);
			uint64_t n = atomic_load_explicit(&p->ios[d], memory_order_relaxed);
			uint64_t *pb = &e->prev_bytes[(size_t)j * DDIR_NR + (size_t)d];
			uint64_t *pn = &e->prev_ios[(size_t)j * DDIR_NR + (size_t)d];

			/* ramp I/O is not shown; counters restart from 0 when the ramp ends; a job
			 * that ended since the previous line still counts its last bytes (as fio) */
			if (c != ETA_ST_RAMP) {
				sum_bytes[d] += b >= *pb ? b - *pb : b;
				sum_ios[d] += n >= *pn ? n - *pn : n;
			}
			*pb = b;
			*pn = n;
			ej.bytes_done += b;
		}
		if (eta_char_running(c)) {
			nr_io++;
			st.nr_files += job->nr_files ? job->nr_files : 1;
			for (int d = 0; d < 2; d++) {	/* rate: configured ranges, data directions in use */
				if (!(d == DDIR_READ ? job->rw_has_read : job->rw_has_write))
					continue;
				st.rate_min_bps += job->rate_min_bps[d];
				st.rate_max_bps += job->rate_bps[d];
				st.rate_min_iops += job->rate_iops_min[d];
				st.rate_max_iops += job->rate_iops[d];
			}
		} else if (c == ETA_ST_RAMP) {
			nr_ramp++;
		}
		ej.state = c;
		ej.time_based = job->time_based;
		ej.runtime_s = job->runtime_ns / CLOCK_NS_PER_SEC;
		ej.ramp_s = job->ramp_time_ns / CLOCK_NS_PER_SEC;
		ej.startdelay_s = job->startdelay_ns / CLOCK_NS_PER_SEC;
		ej.bytes_total = atomic_load_explicit(&p->bytes_total, memory_order_relaxed);
		ej.elapsed_s = fio_eta_secs_up(fio_eta_since(now_ns, atomic_load_explicit(&p->epoch_ns,
											  memory_order_relaxed)));
		ej.ramp_elapsed_s = fio_eta_since(now_ns, atomic_load_explicit(&p->start_ns, memory_order_relaxed)) /
				    CLOCK_NS_PER_SEC;
		e->job_eta_s[j] = eta_job_secs(&ej);
	}
	st.nr_running = nr_io + nr_ramp;
	st.states = e->states;
	st.nr_jobs = cfg->nr_jobs;
	st.elapsed_s = fio_eta_secs_up(fio_eta_since(now_ns, e->genesis_ns));
	st.eta_s = eta_total_secs(e->job_eta_s, cfg->nr_jobs, st.elapsed_s);
	st.pct_unknown = nr_io == 0;
	for (int d = 0; d < DDIR_NR; d++) {
		if (disp_ms) {
			st.rate_kib[d] = sum_bytes[d] * 1000 / disp_ms / 1024;
			st.iops[d] = sum_ios[d] * 1000 / disp_ms;
		}
	}
	st.pow2 = !first || first->kb_base != 1000;
	st.unit = num2str_rate_unit(first ? first->unit_base : 0);
	st.sig_figs = first ? first->sig_figs : 4;	/* rate */
	e->last_ns = now_ns;
	e->prev_len = eta_format(e->line, e->line_cap, &st, e->prev_len);
	return e->line;
}

static void *fio_eta_main(void *arg)
{
	struct fio_eta *e = arg;
	uint64_t next = e->last_ns + e->interval_ns;

	pthread_mutex_lock(&e->lock);
	while (!e->done) {
		struct timespec ts;
		uint64_t now = clock_now_ns();

		if (now < next) {
			clock_ns_to_timespec(next, &ts);
			pthread_cond_timedwait(&e->wake, &e->lock, &ts);
			continue;
		}
		next += e->interval_ns;
		if (next <= now)
			next = now + e->interval_ns;
		{
			const char *line = fio_eta_line(e, now);
			bool nl = e->newline_ns && now - e->last_newline_ns >= e->newline_ns;

			if (nl)
				e->last_newline_ns = now;
			/* fio ends a line with '\r'; every eta-newline interval with "\r\n" */
			fputs(line, e->out);
			fputs(nl ? "\r\n" : "\r", e->out);
			if (nl)
				e->prev_len = 0;
			fflush(e->out);
			e->printed = true;
		}
	}
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

static void fio_eta_free(struct fio_eta *e)
{
	free(e->prev_bytes);
	free(e->prev_ios);
	free(e->job_eta_s);
	free(e->states);
	free(e->line);
	e->prev_bytes = e->prev_ios = e->job_eta_s = NULL;
	e->states = e->line = NULL;
}

int fio_eta_start(struct fio_eta *e, const struct fio_config *cfg, struct runner_progress *prog,
		  uint64_t genesis_ns, FILE *out)
{
	size_t n = cfg->nr_jobs ? cfg->nr_jobs : 1;
	int r;

	memset(e, 0, sizeof(*e));
	e->cfg = cfg;
	e->prog = prog;
	e->out = out;
	e->genesis_ns = genesis_ns;
	e->interval_ns = cfg->eta_interval_ns ? cfg->eta_interval_ns : ETA_INTERVAL_NS;
	if (e->interval_ns > UINT64_MAX / 4)	/* next = now + interval never wraps */
		e->interval_ns = UINT64_MAX / 4;
	e->newline_ns = cfg->eta_newline_ns;
	/* the run string needs at most "c(N)," (N <= JOB_MAX_JOBS) per job */
	e->line_cap = n * 12 + 512;
	e->prev_bytes = calloc(n * DDIR_NR, sizeof(*e->prev_bytes));
	e->prev_ios = calloc(n * DDIR_NR, sizeof(*e->prev_ios));
	e->job_eta_s = calloc(n, sizeof(*e->job_eta_s));
	e->states = calloc(n, 1);
	e->line = calloc(e->line_cap, 1);
	if (!e->prev_bytes || !e->prev_ios || !e->job_eta_s || !e->states || !e->line) {
		fio_eta_free(e);
		return -ENOMEM;
	}
	e->last_ns = e->last_newline_ns = clock_now_ns();
	r = clock_lock_init(&e->lock, &e->wake);
	if (r) {
		fio_eta_free(e);
		return r;
	}
	r = pthread_create(&e->tid, NULL, fio_eta_main, e);
	if (r)
		goto destroy_lock;
	e->started = true;
	return 0;

destroy_lock:
	clock_lock_destroy(&e->lock, &e->wake);
	fio_eta_free(e);
	return -r;
}

void fio_eta_stop(struct fio_eta *e)
{
	if (!e->started)
		return;
	pthread_mutex_lock(&e->lock);
	e->done = true;
	pthread_cond_signal(&e->wake);
	pthread_mutex_unlock(&e->lock);
	pthread_join(e->tid, NULL);
	clock_lock_destroy(&e->lock, &e->wake);
	fio_eta_free(e);
	e->started = false;
}
