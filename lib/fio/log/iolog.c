/* SPDX-License-Identifier: MIT */
/* iolog: what every log writer shares (fio/log/iolog.h): which logs a job writes and how often it
 * samples them, the files' names, the text line of an entry, and the checked open of a log file.
 * It calls no other part of the logs: the job's sink, the compressed logs, the histogram and
 * trace logs call it. */
#include "fio/log/iolog.h"
#include "fio/log/iolog_int.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const iolog_type_name[IOLOG_NR] = { "bw", "iops", "clat", "slat", "lat" };

/* NULL when the job does not write log t (fio writes no latency logs with gtod_reduce) */
const char *iolog_prefix(const struct job *job, enum iolog_type t)
{
	return t < IOLOG_CLAT ? job->log_prefix[t] : job->gtod_reduce ? NULL : job->log_prefix[2];
}

uint64_t iolog_epoch_ms(const struct job *job)
{
	struct timespec ts;

	if (!job->log_unix_epoch && !job->log_alt_epoch)
		return 0;
	if (clock_gettime((clockid_t)job->log_epoch_clock, &ts) < 0)	/* checked when parsed */
		return 0;
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

bool iolog_job_wants(const struct job *job)
{
	return iolog_prefix(job, IOLOG_BW) || iolog_prefix(job, IOLOG_IOPS) || iolog_prefix(job, IOLOG_LAT);
}

uint64_t iolog_sample_ms(const struct job *job, enum iolog_type t)
{
	if (!iolog_prefix(job, t))
		return IOLOG_SAMPLE_MS;
	if (job->log_avg_msec && (t == IOLOG_BW ? job->bw_avg_time_set : job->iops_avg_time_set))
		return IOLOG_SAMPLE_MS;	/* given explicitly: the sampling keeps it */
	return job->log_avg_msec;
}

/* ---- names and lines ------------------------------------------------------------------- */

int iolog_name(char *buf, size_t size, const struct job *job, enum iolog_type t)
{
	const char *p = iolog_prefix(job, t);
	int n;

	if (!p || !*p)
		p = job->name;
	if (job->per_job_logs)
		n = snprintf(buf, size, "%s_%s.%u.log%s", p, iolog_type_name[t], job->thread_number,
			     job->log_store_zip ? ".fz" : "");
	else
		n = snprintf(buf, size, "%s_%s.log%s", p, iolog_type_name[t], job->log_store_zip ? ".fz" : "");
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int iolog_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

char *iolog_put_u64(char *p, uint64_t v)
{
	char tmp[20];
	unsigned n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *iolog_sep(char *p)
{
	*p++ = ',';
	*p++ = ' ';
	return p;
}

size_t iolog_format(char *buf, const struct iolog_entry *e)
{
	char *p = buf;

	p = iolog_sep(iolog_put_u64(p, e->time_ms));
	p = iolog_sep(iolog_put_u64(p, e->value));
	p = iolog_sep(iolog_put_u64(p, e->ddir & IOLOG_DDIR_MASK));
	p = iolog_sep(iolog_put_u64(p, e->bs));
	if (e->ddir & IOLOG_F_OFFSET)
		p = iolog_sep(iolog_put_u64(p, e->offset));
	if (e->ddir & IOLOG_F_PRIO) {	/* log_prio: the value as 0x%04x */
		static const char hex[] = "0123456789abcdef";

		*p++ = '0';
		*p++ = 'x';
		for (int sh = 12; sh >= 0; sh -= 4)
			*p++ = hex[(e->prio >> sh) & 0xf];
	} else {
		*p++ = (e->prio >> 13) == 1 ? '1' : '0';	/* 1: the real-time class */
	}
	*p++ = '\n';
	return (size_t)(p - buf);
}

/* ---- files ------------------------------------------------------------------------------ */

/* A fio log starts with "<digits>, ", a compressed one with a zlib header. */
static bool iolog_looks_like_log(int fd)
{
	char b[24];
	ssize_t n = pread(fd, b, sizeof(b), 0);
	ssize_t i = 0;

	if (n >= 2 && (unsigned char)b[0] == 0x78 && (((unsigned char)b[0] << 8) | (unsigned char)b[1]) % 31 == 0)
		return true;
	while (i < n && b[i] >= '0' && b[i] <= '9')
		i++;
	return i > 0 && i + 1 < n && b[i] == ',' && b[i + 1] == ' ';
}

/* Open the log file at path (create: for writing, else only to look at it). No symlinks, only
 * a regular file that is empty or already a fio log. Returns the fd, or -errno with *why set
 * when it is iops' own refusal. */
int iolog_open(const char *path, bool create, bool append, const char **why)
{
	int fd = open(path, (create ? O_RDWR | O_CREAT : O_RDONLY) | (append ? O_APPEND : 0) | O_NOFOLLOW |
			    O_CLOEXEC | O_NONBLOCK, 0644);
	struct stat st;

	*why = NULL;
	if (fd < 0) {
		if (errno == ELOOP)
			*why = "it is a symbolic link";
		return -errno;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		*why = "not a regular file";
	else if (st.st_size && !iolog_looks_like_log(fd))
		*why = "it exists and is not a fio log";
	if (*why) {
		close(fd);
		return -EEXIST;
	}
	return fd;
}

int iolog_open_file(const char *path, bool create, bool append, const char **why)
{
	return iolog_open(path, create, append, why);
}

int iolog_check_path(const char *path, struct iops_err *err)
{
	char dir[PATH_MAX];
	const char *why = NULL, *slash;
	int ret = iolog_open(path, false, false, &why);

	if (ret == -ENOENT) {
		/* not there yet: its directory must be */
		slash = strrchr(path, '/');
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
			 slash ? path : ".");
		ret = access(dir, W_OK) < 0 ? -errno : 0;
	}
	if (ret >= 0) {
		if (ret > 0)
			close(ret);
		return 0;
	}
	iops_err_set(err, -ret, "fio: cannot write log file '%s': %s", path, why ? why : err_str(-ret));
	return ret;
}

int iolog_check(const struct fio_config *cfg, struct iops_err *err)
{
	char path[PATH_MAX];

	for (unsigned j = 0; j < cfg->nr_jobs; j++)
		for (unsigned t = 0; t < IOLOG_NR; t++) {
			int ret;

			if (!iolog_prefix(&cfg->jobs[j], (enum iolog_type)t))
				continue;
			if (iolog_name(path, sizeof(path), &cfg->jobs[j], (enum iolog_type)t)) {
				iops_err_set(err, ENAMETOOLONG, "fio: cannot write log file '%s': file name too long",
					     path);
				return -ENAMETOOLONG;
			}
			ret = iolog_check_path(path, err);
			if (ret)
				return ret;
		}
	return 0;
}

/* ---- job.h prefixes ---------------------------------------------------------------------- */

int iolog_prefix_dup(struct job *dst, const struct job *src)
{
	memset(dst->log_prefix, 0, sizeof(dst->log_prefix));
	for (unsigned i = 0; i < JOB_LOG_PREFIXES; i++)
		if (src->log_prefix[i] && !(dst->log_prefix[i] = strdup(src->log_prefix[i]))) {
			iolog_prefix_free(dst);
			return -ENOMEM;
		}
	return 0;
}

void iolog_prefix_free(struct job *j)
{
	for (unsigned i = 0; i < JOB_LOG_PREFIXES; i++) {
		free(j->log_prefix[i]);
		j->log_prefix[i] = NULL;
	}
}
