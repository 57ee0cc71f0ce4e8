/* SPDX-License-Identifier: MIT */
/* plot_rd_log: fio's bw/iops/lat logs; see plot_rd_log.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_chart.h"
#include "plot/plot_rd_log.h"

#define EPOCH_MS	100000000000.0	/* a time past this (1973) is since the epoch */
#define LINE_SHOW	40		/* characters of a bad line quoted in the error */
#define SPACING_MAX	1024		/* entries whose spacing tells a log's window */

const char *const plot_log_kind_names[PLOT_LOG_KINDS] = { "bw", "iops", "lat", "clat", "slat", "value" };

struct plot_rd_line {
	uint64_t f[6];
	unsigned n;
};

/* One unsigned field: decimal, or 0x-hexadecimal (the priority of log_prio). */
static bool plot_rd_field(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	unsigned base = 10, digits = 0;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (*v = 0; s < end; s++, digits++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f'))
			d = (unsigned)((*s | 0x20) - 'a' + 10);
		else
			break;
		if (*v > (UINT64_MAX - d) / base)
			return false;
		*v = *v * base + d;
	}
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	*p = s;
	return digits > 0;
}

/* "t, v, d, bs[, offset][, prio]": 4 to 6 fields. */
static bool plot_rd_line_parse(const char *s, const char *end, struct plot_rd_line *ln)
{
	for (ln->n = 0; ln->n < 6; ) {
		if (!plot_rd_field(&s, end, &ln->f[ln->n++]))
			return false;
		if (s == end)
			break;
		if (*s++ != ',')
			return false;
	}
	return s == end && ln->n >= 4 && ln->f[2] < PLOT_LOG_DIRS;
}

bool plot_rd_log_is(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);
	struct plot_rd_line ln;

	return len && plot_rd_line_parse(text, nl ? nl : text + len, &ln);
}

void plot_rd_log_name(const char *path, enum plot_log_kind *kind, char *label, size_t len)
{
	const char *base = strrchr(path, '/'), *dot, *us;
	size_t blen;

	base = base ? base + 1 : path;
	blen = strlen(base);
	*kind = PLOT_LOG_VALUE;
	plot_num_fmt(label, len, "%s", base);
	if (blen < 5 || strcmp(base + blen - 4, ".log"))
		return;
	/* NAME_KIND.log or NAME_KIND.N.log */
	dot = base + blen - 4;
	{
		const char *d = dot;

		while (d > base && d[-1] >= '0' && d[-1] <= '9')
			d--;
		if (d > base && d < dot && d[-1] == '.')
			dot = d - 1;
	}
	for (us = dot; us > base && us[-1] != '_'; us--)
		;
	if (us == base)
		return;
	for (int k = 0; k < PLOT_LOG_VALUE; k++)
		if ((size_t)(dot - us) == strlen(plot_log_kind_names[k]) && !strncmp(us, plot_log_kind_names[k], (size_t)(dot - us))) {
			*kind = (enum plot_log_kind)k;
			/* the label: NAME, and .N when the name has it */
			plot_num_fmt(label, len, "%.*s%.*s", (int)(us - 1 - base), base, (int)(base + blen - 4 - dot), dot);
			return;
		}
}

static int plot_rd_push(struct plot_log_dir *d, double t, double v)
{
	size_t cap = d->cap;

	if (plot_chart_grow(&d->t, &cap, d->n, sizeof(double)) < 0 || plot_chart_grow(&d->v, &d->cap, d->n, sizeof(double)) < 0)
		return -ENOMEM;
	d->t[d->n] = t;
	d->v[d->n++] = v;
	return 0;
}

static int plot_rd_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median spacing of the first SPACING_MAX entries (the last window of a run is cut
 * short, and a window with no I/O leaves a gap: neither moves the median). */
static double plot_rd_log_spacing(const struct plot_log_dir *d)
{
	double gaps[SPACING_MAX];
	size_t n = d->n - 1 < SPACING_MAX ? d->n - 1 : SPACING_MAX;

	for (size_t i = 0; i < n; i++)
		gaps[i] = d->t[i + 1] - d->t[i];
	qsort(gaps, n, sizeof(gaps[0]), plot_rd_cmp);
	return n % 2 ? gaps[n / 2] : (gaps[n / 2 - 1] + gaps[n / 2]) / 2;
}

static void plot_rd_log_finish(struct plot_log *l, double tmin)
{
	size_t most = 0;
	int dm = 0;

	if (tmin > EPOCH_MS) {	/* log_unix_epoch / log_alternate_epoch */
		l->epoch = true;
		l->t0_ms = tmin;
		for (int d = 0; d < PLOT_LOG_DIRS; d++)
			for (size_t i = 0; i < l->dir[d].n; i++)
				l->dir[d].t[i] -= tmin;
	}
	for (int d = 0; d < PLOT_LOG_DIRS; d++)
		if (l->dir[d].n > most) {
			most = l->dir[d].n;
			dm = d;
		}
	if (!l->per_io && most >= 2)	/* the windows' spacing, from the busiest direction */
		l->window_ms = plot_rd_log_spacing(&l->dir[dm]);
	else if (!l->per_io && most == 1 && !l->epoch)
		l->window_ms = l->dir[dm].t[0];	/* the first window ends at log_avg_msec */
}

int plot_rd_log(struct plot_log *l, const char *name, const char *text, size_t len, struct iops_err *err)
{
	const char *p = text, *end = text + len;
	double tmin = 0;

	memset(l, 0, sizeof(*l));
	plot_rd_log_name(name, &l->kind, l->label, sizeof(l->label));
	if (!len && l->kind == PLOT_LOG_VALUE) {
		iops_err_set(err, EINVAL, "%s: empty, and not named as a fio log (NAME_bw.N.log ...)", name);
		return -EINVAL;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		struct plot_rd_line ln;

		l->lines++;
		if (le == p || (le - p == 1 && *p == '\r')) {	/* empty lines are skipped */
			p = le + 1;
			continue;
		}
		if (!plot_rd_line_parse(p, le, &ln) || (l->cols && ln.n != l->cols)) {
			int show = (int)(le - p > LINE_SHOW ? LINE_SHOW : le - p);

			iops_err_set(err, EINVAL, "%s:%zu: not a fio log line (time, value, direction, block size"
				     "[, offset][, priority]): '%.*s%s'", name, l->lines, show, p, le - p > LINE_SHOW ? "..." : "");
			plot_rd_log_free(l);
			return -EINVAL;
		}
		l->cols = ln.n;
		l->per_io |= ln.f[3] != 0;
		if (l->lines == 1 || (double)ln.f[0] < tmin)
			tmin = (double)ln.f[0];
		if (plot_rd_push(&l->dir[ln.f[2]], (double)ln.f[0], (double)ln.f[1]) < 0) {
			iops_err_set(err, ENOMEM, "%s: out of memory at line %zu", name, l->lines);
			plot_rd_log_free(l);
			return -ENOMEM;
		}
		p = le + 1;
	}
	plot_rd_log_finish(l, tmin);
	return 0;
}

void plot_rd_log_free(struct plot_log *l)
{
	for (int d = 0; d < PLOT_LOG_DIRS; d++) {
		free(l->dir[d].t);
		free(l->dir[d].v);
	}
	memset(l->dir, 0, sizeof(l->dir));
}
