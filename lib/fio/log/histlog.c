/* SPDX-License-Identifier: MIT */
/* histlog: the clat histogram log (fio/log/histlog.h). */
#include "fio/log/histlog.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio/log/iolog.h"
#include "core/err.h"

#define HISTLOG_WBUF_BYTES	(256u * 1024u)

bool histlog_wanted(const struct job *job)
{
	return job->log_prefix[3] != NULL;
}

unsigned histlog_columns(unsigned coarseness)
{
	return HIST_NR >> (coarseness > HISTLOG_MAX_COARSENESS ? HISTLOG_MAX_COARSENESS : coarseness);
}

int histlog_name(char *buf, size_t size, const struct job *job)
{
	const char *p = job->log_prefix[3] && *job->log_prefix[3] ? job->log_prefix[3] : job->name;
	int n;

	if (job->per_job_logs)
		n = snprintf(buf, size, "%s_clat_hist.%u.log", p, job->thread_number);
	else
		n = snprintf(buf, size, "%s_clat_hist.log", p);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int histlog_check(const struct fio_config *cfg, struct iops_err *err)
{
	char path[PATH_MAX];

	for (unsigned j = 0; j < cfg->nr_jobs; j++) {
		int ret;

		if (!histlog_wanted(&cfg->jobs[j]))
			continue;
		if (histlog_name(path, sizeof(path), &cfg->jobs[j])) {
			iops_err_set(err, ENAMETOOLONG, "fio: cannot write log file '%s': file name too long", path);
			return -ENAMETOOLONG;
		}
		ret = iolog_check_path(path, err);
		if (ret)
			return ret;
	}
	return 0;
}

int histlog_init(struct histlog *hl, const struct job *job)
{
	memset(hl, 0, sizeof(*hl));
	hl->msec = job->log_hist_msec;
	hl->epoch_ms = iolog_epoch_ms(job);
	hl->shift = job->log_hist_coarseness > HISTLOG_MAX_COARSENESS ? HISTLOG_MAX_COARSENESS
								       : job->log_hist_coarseness;
	hl->columns = histlog_columns(hl->shift);
	hl->due_ms = hl->msec ? hl->msec : UINT64_MAX;
	hl->prev = calloc(DDIR_NR, sizeof(*hl->prev));
	return hl->prev ? 0 : -ENOMEM;
}

void histlog_release(struct histlog *hl)
{
	struct histlog_chunk *c = hl->head;

	while (c) {
		struct histlog_chunk *next = c->next;

		free(c->v);
		free(c);
		c = next;
	}
	free(hl->prev);
	memset(hl, 0, sizeof(*hl));
}

void histlog_reset(struct histlog *hl)
{
	if (hl->prev)
		memset(hl->prev, 0, DDIR_NR * sizeof(*hl->prev));
	memset(hl->last_ms, 0, sizeof(hl->last_ms));
	hl->due_ms = hl->msec;
}

/* Room for one more entry: its row, or NULL (memory bound reached, or ENOMEM). */
static uint64_t *histlog_row(struct histlog *hl)
{
	size_t row = 3 + (size_t)hl->columns;
	struct histlog_chunk *c = hl->tail;

	if (!c || c->nr == HISTLOG_CHUNK_ENTRIES) {
		size_t bytes = sizeof(*c) + HISTLOG_CHUNK_ENTRIES * row * sizeof(uint64_t);

		if (hl->mem_bytes + bytes > HISTLOG_MEM_MAX_BYTES)
			return NULL;
		c = calloc(1, sizeof(*c));
		if (c)
			c->v = malloc(HISTLOG_CHUNK_ENTRIES * row * sizeof(uint64_t));
		if (!c || !c->v) {
			free(c);
			return NULL;
		}
		hl->mem_bytes += bytes;
		if (hl->tail)
			hl->tail->next = c;
		else
			hl->head = c;
		hl->tail = c;
	}
	return c->v + (size_t)c->nr++ * row;
}

void histlog_tick(struct histlog *hl, const struct hist *const clat[DDIR_NR], const uint64_t bs[DDIR_NR],
		  uint64_t elapsed_ms)
{
	uint64_t due = UINT64_MAX;

	if (!hl->msec)
		return;
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const struct hist *h = clat[d];
		struct hist *p = &hl->prev[d];
		uint64_t *row;

		if (!h)
			continue;
		if (elapsed_ms - hl->last_ms[d] < hl->msec) {
			due = hl->last_ms[d] + hl->msec < due ? hl->last_ms[d] + hl->msec : due;
			continue;
		}
		if (h->total == p->total) {	/* no I/O yet: fio logs at the next completion */
			due = elapsed_ms + HISTLOG_RETRY_MS < due ? elapsed_ms + HISTLOG_RETRY_MS : due;
			continue;
		}
		due = elapsed_ms + hl->msec < due ? elapsed_ms + hl->msec : due;
		hl->last_ms[d] = elapsed_ms;
		row = histlog_row(hl);
		if (!row) {
			hl->nr_dropped++;
			memcpy(p, h, sizeof(*p));
			continue;
		}
		row[0] = elapsed_ms + hl->epoch_ms;
		row[1] = d;
		row[2] = bs[d];
		memset(row + 3, 0, hl->columns * sizeof(uint64_t));
		for (unsigned b = 0; b < HIST_NR; b++)
			row[3 + (b >> hl->shift)] += h->bucket[b] - p->bucket[b];
		memcpy(p, h, sizeof(*p));
	}
	hl->due_ms = due;
}

size_t histlog_format(char *buf, size_t n, const uint64_t *entry, unsigned columns)
{
	char *p = buf;

	if (n < (3 + (size_t)columns) * 22 + 1)
		return 0;
	for (unsigned i = 0; i < 3 + columns; i++) {
		if (i) {
			*p++ = ',';
			*p++ = ' ';
		}
		p = iolog_put_u64(p, entry[i]);
	}
	*p++ = '\n';
	return (size_t)(p - buf);
}

int histlog_write(const struct histlog *hl, const struct job *job, FILE *diag)
{
	char path[PATH_MAX];
	const char *why = NULL;
	size_t row = 3 + (size_t)hl->columns, line = row * 22 + 1, used = 0;
	char *wbuf = NULL;
	int fd, ret = 0;

	if (histlog_name(path, sizeof(path), job)) {
		fprintf(diag, "fio: cannot write log file '%s': file name too long\n", path);
		return -ENAMETOOLONG;
	}
	wbuf = malloc(HISTLOG_WBUF_BYTES > line ? HISTLOG_WBUF_BYTES : line);
	if (!wbuf) {
		fprintf(diag, "fio: cannot write log file '%s': %s\n", path, err_str(ENOMEM));
		return -ENOMEM;
	}
	fd = iolog_open_file(path, true, !job->per_job_logs, &why);
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	if (job->per_job_logs && ftruncate(fd, 0) < 0)
		ret = -errno;
	for (const struct histlog_chunk *c = hl->head; c && !ret; c = c->next)
		for (unsigned i = 0; i < c->nr && !ret; i++) {
			if (HISTLOG_WBUF_BYTES - used < line) {
				ret = iolog_write_all(fd, wbuf, used);
				used = 0;
			}
			used += histlog_format(wbuf + used, line, c->v + i * row, hl->columns);
		}
	if (!ret)
		ret = iolog_write_all(fd, wbuf, used);
	if (close(fd) < 0 && !ret)
		ret = -errno;
out:
	if (ret)
		fprintf(diag, "fio: cannot write log file '%s': %s\n", path, why ? why : err_str(-ret));
	else if (hl->nr_dropped)
		fprintf(diag, "fio: log file '%s': %llu entries dropped (job over %llu MiB of log memory)\n", path,
			(unsigned long long)hl->nr_dropped, HISTLOG_MEM_MAX_BYTES >> 20);
	free(wbuf);
	return ret;
}
