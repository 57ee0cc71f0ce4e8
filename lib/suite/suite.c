/* SPDX-License-Identifier: MIT */
#include "suite/suite.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

void suite_argv_init(struct suite_argv *a)
{
	memset(a, 0, sizeof(*a));
}

int suite_argv_add(struct suite_argv *a, const char *fmt, ...)
{
	size_t room = sizeof(a->buf) - a->used;
	va_list ap;
	int n;

	if (a->argc >= SUITE_ARGV_MAX || a->overflow) {
		a->overflow = true;
		return -E2BIG;
	}
	va_start(ap, fmt);
	n = vsnprintf(a->buf + a->used, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		a->overflow = true;
		return -E2BIG;
	}
	a->argv[a->argc++] = a->buf + a->used;
	a->argv[a->argc] = NULL;
	a->used += (size_t)n + 1;
	return 0;
}

static bool suite_needs_quotes(const char *s)
{
	if (!*s)
		return true;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./,:+@%", *s))
			return true;
	return false;
}

static void suite_put(char *out, size_t n, size_t *len, const char *s)
{
	for (; *s; s++, (*len)++)
		if (*len + 1 < n)
			out[*len] = *s;
}

size_t suite_argv_line(const struct suite_argv *a, char *out, size_t n)
{
	size_t len = 0;

	for (int i = 0; i < a->argc; i++) {
		const char *s = a->argv[i];
		bool q = suite_needs_quotes(s);

		suite_put(out, n, &len, i ? (q ? " '" : " ") : (q ? "'" : ""));
		for (; *s; s++) {
			char c[2] = { *s, 0 };

			suite_put(out, n, &len, q && *s == '\'' ? "'\\''" : c);
		}
		if (q)
			suite_put(out, n, &len, "'");
	}
	if (n)
		out[len < n ? len : n - 1] = '\0';
	return len;
}

void suite_argv_print(FILE *out, const struct suite_argv *a)
{
	char line[SUITE_LINE_MAX];

	suite_argv_line(a, line, sizeof(line));
	fprintf(out, "%s\n", line);
}

int suite_plan_size(uint64_t free_bytes, uint64_t want, bool explicit_want, unsigned share,
		    const char *who, const char *dir, uint64_t *out, struct iops_err *err)
{
	uint64_t cap = free_bytes / (share ? share : 1);
	uint64_t floor = SUITE_MIN_FILE, size;

	want -= want % SUITE_MIB;
	if (explicit_want && want < floor)
		floor = want;
	size = want < cap ? want : cap;
	size -= size % SUITE_MIB;
	if (!size || size < floor) {
		iops_err_set(err, ENOSPC,
			     "iops: %s: not enough free space in '%s': %llu MiB free, and the test file "
			     "(%llu MiB at least) must stay within 1/%u of it: %llu MiB free needed",
			     who, dir, (unsigned long long)(free_bytes / SUITE_MIB),
			     (unsigned long long)((floor ? floor : SUITE_MIB) / SUITE_MIB), share ? share : 1,
			     (unsigned long long)((floor ? floor : SUITE_MIB) / SUITE_MIB * (share ? share : 1)));
		return -ENOSPC;
	}
	*out = size;
	return 0;
}

unsigned suite_psync_jobs(unsigned depth, unsigned numjobs)
{
	uint64_t n = (uint64_t)(depth ? depth : 1) * (numjobs ? numjobs : 1);

	return n < SUITE_PSYNC_MAX_JOBS ? (unsigned)n : SUITE_PSYNC_MAX_JOBS;
}

int suite_file_name(char *out, size_t n, const char *mode, long pid, unsigned k)
{
	int r = snprintf(out, n, "iops-%s.%ld.%u", mode, pid, k);

	return r < 0 || (size_t)r >= n ? -ENAMETOOLONG : 0;
}

int suite_check_dir(const char *dir, const char *who, struct iops_err *err)
{
	if (!*dir) {
		iops_err_set(err, EINVAL, "iops: %s: the directory name is empty", who);
		return -EINVAL;
	}
	if (strchr(dir, ':')) {
		iops_err_set(err, EINVAL, "iops: %s: '%s': a ':' in the directory (fio's list separator)", who, dir);
		return -EINVAL;
	}
	return 0;
}

void suite_figures_get(const struct report *rep, int ddir, struct suite_figures *f)
{
	static const double pcts[3] = { 50.0, 99.0, 99.9 };
	const struct ddir_result *d;
	const struct hist *h;
	uint64_t v[3] = { 0, 0, 0 };

	memset(f, 0, sizeof(*f));
	if (!rep->nr_units || !rep->nr_groups)
		return;
	d = &rep->units[0].res->ddir[ddir];
	if (!d->io_bytes)
		return;
	f->valid = true;
	f->runtime_ms = report_runtime_ms(d);
	f->bw_bps = (double)rep->groups[rep->units[0].group].agg_bps[ddir];
	f->iops = f->runtime_ms ? (double)report_ios(d) * 1000.0 / (double)f->runtime_ms : 0.0;
	f->lat_mean_ns = d->lat.n ? d->lat.mean : d->clat.mean;
	h = d->lat_hist.total ? &d->lat_hist : &d->clat_hist;
	if (hist_percentiles(h, pcts, 3, v) == 3) {
		f->p50_ns = v[0];
		f->p99_ns = v[1];
		f->p999_ns = v[2];
	}
}
