/* SPDX-License-Identifier: MIT */
/* iolog_sink: where a job's log samples go (fio/log/iolog.h): into the open windows, then
 * as entries into the job's log rings, which its writer thread empties into the files. */
#include "fio/log/iolog.h"
#include "fio/log/iolog_int.h"
#include "fio/log/logzip.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IOLOG_WBUF_BYTES	(64u << 10)	/* the writer's text buffer, and the copy buffer */

/* ---- writing ------------------------------------------------------------------------------ */

/* Writer: one block to l's file, as text or as one zlib stream. 0 or -errno. */
static int iolog_sink_block(struct iolog_job *lj, struct iolog *l, const struct iolog_entry *e, uint32_t n)
{
	size_t used = 0;
	int ret;

	if (l->zip) {
		const unsigned char *z;
		size_t zlen;

		ret = logzip_block(l->zip, e, n, &z, &zlen);
		return ret ? ret : iolog_write_all(l->fd, (const char *)z, zlen);
	}
	for (uint32_t i = 0; i < n; i++) {
		if (IOLOG_WBUF_BYTES - used < IOLOG_LINE_MAX) {
			ret = iolog_write_all(l->fd, lj->wbuf, used);
			if (ret)
				return ret;
			used = 0;
		}
		used += iolog_format(lj->wbuf + used, &e[i]);
	}
	return iolog_write_all(l->fd, lj->wbuf, used);
}

static void *iolog_writer(void *arg)
{
	struct iolog_job *lj = arg;

	pthread_mutex_lock(&lj->mu);
	for (;;) {
		struct iolog *l = NULL;
		uint32_t idx;

		for (unsigned t = 0; t < IOLOG_NR && !l; t++)
			if (lj->log[t].on && lj->log[t].consumed < lj->log[t].produced)
				l = &lj->log[t];
		if (!l) {
			if (lj->closing)
				break;
			pthread_cond_wait(&lj->work, &lj->mu);
			continue;
		}
		idx = (uint32_t)(l->consumed % IOLOG_RING);
		pthread_mutex_unlock(&lj->mu);
		if (!l->err)	/* after an error the blocks are only emptied: the job never waits */
			l->err = iolog_sink_block(lj, l, l->ring + (size_t)idx * l->cap, l->blk_nr[idx]);
		pthread_mutex_lock(&lj->mu);
		l->consumed++;
		pthread_cond_signal(&lj->room);
	}
	pthread_mutex_unlock(&lj->mu);
	return NULL;
}

/* Job thread: hand l's full block to the writer and take the next free one (waits while the
 * writer is a whole ring behind). */
static void iolog_sink_handoff(struct iolog_job *lj, struct iolog *l)
{
	bool stalled = false;

	pthread_mutex_lock(&lj->mu);
	l->blk_nr[l->produced % IOLOG_RING] = l->cur_nr;
	l->produced++;
	pthread_cond_signal(&lj->work);
	while (l->produced - l->consumed >= IOLOG_RING) {
		stalled = true;
		pthread_cond_wait(&lj->room, &lj->mu);
	}
	lj->nr_stalls += stalled;
	pthread_mutex_unlock(&lj->mu);
	l->cur = l->ring + (size_t)(l->produced % IOLOG_RING) * l->cap;
	l->cur_nr = 0;
}

/* Job thread, at the end: hand the partial blocks over, stop and join the writer. */
static void iolog_sink_close(struct iolog_job *lj)
{
	if (!lj->writer_on)
		return;
	for (unsigned t = 0; t < IOLOG_NR; t++)
		if (lj->log[t].on && lj->log[t].cur_nr)
			iolog_sink_handoff(lj, &lj->log[t]);
	pthread_mutex_lock(&lj->mu);
	lj->closing = true;
	pthread_cond_signal(&lj->work);
	pthread_mutex_unlock(&lj->mu);
	pthread_join(lj->writer, NULL);
	lj->writer_on = false;
}

/* ---- entries ------------------------------------------------------------------------------ */

static inline void iolog_push(struct iolog_job *lj, struct iolog *l, const struct iolog_entry *e)
{
	if (__builtin_expect(l->cur_nr == l->cap, 0))
		iolog_sink_handoff(lj, l);
	l->cur[l->cur_nr] = *e;
	l->cur[l->cur_nr++].time_ms += lj->epoch_ms;
	l->nr_entries++;
}

/* Store the window of direction d (if it holds samples) at time t and start a new one. */
static void iolog_close_window(struct iolog_job *lj, struct iolog *l, unsigned d, uint64_t t)
{
	struct iolog_window *w = &l->win[d];

	if (w->n) {
		struct iolog_entry e = { .time_ms = t, .ddir = d | l->flags };

		/* fio rounds the mean half up */
		e.value = lj->log_max ? w->max : (uint64_t)(w->mean + 0.50);
		iolog_push(lj, l, &e);
	}
	w->n = w->max = 0;
	w->mean = 0;
}

void iolog_add(struct iolog_job *lj, enum iolog_type t, uint64_t elapsed_ms, uint64_t value, unsigned ddir,
	       uint64_t bs, uint64_t offset, uint16_t prio)
{
	struct iolog *l = &lj->log[t];
	struct iolog_window *w;
	uint64_t span;

	if (!l->on || ddir >= DDIR_NR)
		return;
	if (!l->avg_ms) {
		struct iolog_entry e = { .time_ms = elapsed_ms, .value = value, .ddir = ddir | l->flags, .prio = prio,
					 .bs = bs, .offset = offset };

		iolog_push(lj, l, &e);
		return;
	}
	w = &l->win[ddir];
	w->n++;
	w->mean += ((double)value - w->mean) / (double)w->n;
	if (value > w->max)
		w->max = value;
	if (elapsed_ms < w->start_ms)
		return;
	span = elapsed_ms - w->start_ms;
	/* a window closes when it is over; the sampled logs (bw, iops) allow 1 ms of slack */
	if (span < l->avg_ms && (l->inline_log || l->avg_ms - span > 1))
		return;
	iolog_close_window(lj, l, ddir, elapsed_ms);
	w->start_ms = elapsed_ms - elapsed_ms % l->avg_ms;
}

void iolog_finish(struct iolog_job *lj, uint64_t elapsed_ms)
{
	for (unsigned t = 0; t < IOLOG_NR; t++) {
		struct iolog *l = &lj->log[t];

		if (l->on && l->avg_ms)
			for (unsigned d = 0; d < DDIR_NR; d++)
				iolog_close_window(lj, l, d, elapsed_ms);
	}
	iolog_sink_close(lj);
}

/* ---- set-up ------------------------------------------------------------------------------- */

/* A file for the job's share of a per_job_logs=0 log: anonymous, in the log's directory. */
static int iolog_tmp_open(const char *path)
{
	char dir[PATH_MAX], name[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd < 0 ? -errno : fd;
	/* no O_TMPFILE on this file system: a unique name, removed at once */
	if (snprintf(name, sizeof(name), "%s.iops-XXXXXX", path) >= (int)sizeof(name))
		return -ENAMETOOLONG;
	fd = mkstemp(name);
	if (fd < 0)
		return -errno;
	unlink(name);
	return fd;
}

static int iolog_log_init(struct iolog *l, const struct job *job, enum iolog_type t,
			  struct iops_err *err)
{
	size_t esz = job->log_offset ? sizeof(struct iolog_entry) : IOLOG_ENTRY_SHORT;
	size_t bytes = job->log_zip_bytes ? job->log_zip_bytes : IOLOG_BLOCK_BYTES;
	char path[PATH_MAX];
	const char *why = NULL;
	int ret;

	if (bytes > IOLOG_BLOCK_MAX)
		bytes = IOLOG_BLOCK_MAX;
	l->cap = bytes / esz ? (uint32_t)(bytes / esz) : 1;
	l->ring = malloc((size_t)IOLOG_RING * l->cap * sizeof(*l->ring));
	if (!l->ring)
		goto no_mem;
	l->cur = l->ring;
	if (job->log_store_zip && !(l->zip = logzip_new((size_t)l->cap * sizeof(*l->ring))))
		goto no_mem;
	ret = iolog_name(path, sizeof(path), job, t);
	if (ret) {
		why = "file name too long";
	} else if (job->per_job_logs) {
		ret = iolog_open(path, true, false, &why);
		if (ret >= 0 && ftruncate(ret, 0) < 0) {
			int e = -errno;

			close(ret);
			ret = e;
		}
	} else {
		ret = iolog_tmp_open(path);
		l->tmp = true;
	}
	if (ret < 0) {
		iops_err_set(err, -ret, "fio: cannot write log file '%s': %s", path, why ? why : err_str(-ret));
		return ret;
	}
	l->fd = ret;
	return 0;
no_mem:
	iops_err_set(err, ENOMEM, "fio: %s: out of memory for its logs", job->name);
	return -ENOMEM;
}

static void iolog_set_cpus(struct iolog_job *lj, const struct job *job)
{
	cpu_set_t set;
	bool any = false;

	CPU_ZERO(&set);
	for (unsigned c = 0; c < 1024 && c < CPU_SETSIZE; c++)
		if (job->log_zip_cpus[c / 64] >> (c % 64) & 1) {
			CPU_SET(c, &set);
			any = true;
		}
	if (any)	/* a CPU set that cannot be applied leaves the writer where it is */
		(void)pthread_setaffinity_np(lj->writer, sizeof(set), &set);
}

int iolog_job_init(struct iolog_job *lj, const struct job *job, struct iops_err *err)
{
	int ret = 0;

	memset(lj, 0, sizeof(*lj));
	for (unsigned t = 0; t < IOLOG_NR; t++)
		lj->log[t].fd = -1;
	lj->log_max = job->log_max_value;
	lj->epoch_ms = iolog_epoch_ms(job);
	pthread_mutex_init(&lj->mu, NULL);
	pthread_cond_init(&lj->work, NULL);
	pthread_cond_init(&lj->room, NULL);
	lj->wbuf = malloc(IOLOG_WBUF_BYTES);
	if (!lj->wbuf) {
		iops_err_set(err, ENOMEM, "fio: %s: out of memory for its logs", job->name);
		return -ENOMEM;
	}
	for (unsigned t = 0; t < IOLOG_NR; t++) {
		struct iolog *l = &lj->log[t];
		uint64_t s;

		if (!iolog_prefix(job, (enum iolog_type)t))
			continue;
		l->on = true;
		l->inline_log = t >= IOLOG_CLAT;
		l->avg_ms = job->log_avg_msec;
		l->flags = (job->log_offset ? IOLOG_F_OFFSET : 0) | (job->log_prio ? IOLOG_F_PRIO : 0);
		s = iolog_sample_ms(job, (enum iolog_type)t);
		if (t <= IOLOG_IOPS && s < l->avg_ms)	/* min(log_avg_msec, sampling window) */
			l->avg_ms = s;
		ret = iolog_log_init(l, job, (enum iolog_type)t, err);
		if (ret)
			return ret;
	}
	ret = -pthread_create(&lj->writer, NULL, iolog_writer, lj);
	if (ret) {
		iops_err_set(err, -ret, "fio: %s: cannot start its log writer: %s", job->name, err_str(-ret));
		return ret;
	}
	lj->writer_on = true;
	iolog_set_cpus(lj, job);
	return 0;
}

void iolog_job_release(struct iolog_job *lj)
{
	iolog_sink_close(lj);
	for (unsigned t = 0; t < IOLOG_NR; t++) {
		struct iolog *l = &lj->log[t];

		if (l->fd >= 0)
			close(l->fd);
		l->fd = -1;
		logzip_free(l->zip);
		l->zip = NULL;
		free(l->ring);
		l->ring = l->cur = NULL;
	}
	free(lj->wbuf);
	lj->wbuf = NULL;
	pthread_cond_destroy(&lj->work);
	pthread_cond_destroy(&lj->room);
	pthread_mutex_destroy(&lj->mu);
}

/* ---- the end ------------------------------------------------------------------------------ */

/* per_job_logs=0: the job's temporary file, appended to the shared log. */
static int iolog_append_tmp(struct iolog *l, const char *path, char *buf, const char **why)
{
	int fd = iolog_open(path, true, true, why), ret = 0;

	if (fd < 0)
		return fd;
	if (lseek(l->fd, 0, SEEK_SET) < 0) {
		ret = -errno;
		goto close_fd;
	}
	for (;;) {
		ssize_t n = read(l->fd, buf, IOLOG_WBUF_BYTES);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		ret = iolog_write_all(fd, buf, (size_t)n);
		if (ret)
			break;
	}
close_fd:
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int iolog_write(struct iolog_job *lj, const struct job *job, FILE *diag)
{
	char path[PATH_MAX];
	int first = 0;

	iolog_sink_close(lj);
	for (unsigned t = 0; t < IOLOG_NR; t++) {
		struct iolog *l = &lj->log[t];
		const char *why = NULL;
		int ret = l->err;

		if (!l->on || l->fd < 0)
			continue;
		if (iolog_name(path, sizeof(path), job, (enum iolog_type)t)) {
			why = "file name too long";
			ret = -ENAMETOOLONG;
		} else if (!ret && l->tmp) {
			ret = iolog_append_tmp(l, path, lj->wbuf, &why);
		}
		if (close(l->fd) < 0 && !ret)
			ret = -errno;
		l->fd = -1;
		if (ret)
			fprintf(diag, "fio: cannot write log file '%s': %s\n", path, why ? why : err_str(-ret));
		if (ret && !first)
			first = ret;
	}
	return first;
}
