/* SPDX-License-Identifier: MIT */
/* out_openmetrics: the report model as OpenMetrics; see out_openmetrics.h and docs/metrics.md.
 *
 * Families, in this order (labels host, step, jobname, jobnum on all but iops_info; direction on
 * the I/O ones; kind = lat, clat or slat on the latencies):
 *   iops_info                          gauge    version, fio_compat
 *   iops_report_timestamp_seconds      gauge    when the report was made (JSON timestamp_ms)
 *   iops_job_error                     gauge    errno of the job's first error, 0 if none
 *   iops_job_runtime_seconds           gauge    job_runtime
 *   iops_cpu_utilization_ratio         gauge    usr_cpu, sys_cpu over 100 (mode user, system)
 *   iops_io_bytes_total                counter  io_bytes
 *   iops_ios_total                     counter  total_ios
 *   iops_runtime_seconds               gauge    the direction's runtime
 *   iops_bandwidth_bytes_per_second    gauge    bw_bytes
 *   iops_operations_per_second         gauge    iops
 *   iops_latency_seconds               summary  the percentiles fio prints, _count N, _sum mean x N
 *   iops_latency_histogram_seconds     histogram json+'s bins, cumulated at fio's latency
 *                                       distribution bounds (2 ns ... 2 s), +Inf = N
 * A direction appears when it did I/O, a latency kind when it has samples (N > 0). */
#include "fio/report/out_openmetrics.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/openmetrics.h"
#include "fio/report/unified.h"

#define OM_LABELS	6	/* host, step, job, jobnum, direction, kind */

/* The histogram's bounds: fio's latency distribution (lat (nsec/usec/msec) lines), in ns. */
static const uint64_t om_bounds_ns[] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750,
	1000, 2000, 4000, 10000, 20000, 50000, 100000, 250000, 500000, 750000,
	1000000, 2000000, 4000000, 10000000, 20000000, 50000000, 100000000, 250000000, 500000000, 750000000,
	1000000000, 2000000000,
};
#define OM_BOUNDS	(sizeof(om_bounds_ns) / sizeof(om_bounds_ns[0]))

static const char *const om_kinds[3] = { "slat", "clat", "lat" };

struct om_ctx {
	struct openmetrics w;
	const struct out_om_unit *units;
	unsigned n;
	bool hist;
	char jobnum[16];
	struct openmetrics_label l[OM_LABELS];
};

/* The labels of unit i (direction and kind NULL: left out); returns their number. */
static unsigned om_labels(struct om_ctx *c, unsigned i, const char *dir, const char *kind)
{
	const struct out_om_unit *x = &c->units[i];
	unsigned num = 0;

	for (const struct report_unit *u = x->rep->units; u < x->u; u++)
		num += !strcmp(u->job->name, x->u->job->name);
	snprintf(c->jobnum, sizeof(c->jobnum), "%u", num);
	c->l[0] = (struct openmetrics_label){ "host", x->host };
	c->l[1] = (struct openmetrics_label){ "step", x->step };
	c->l[2] = (struct openmetrics_label){ "jobname", x->u->job->name };
	c->l[3] = (struct openmetrics_label){ "jobnum", c->jobnum };
	c->l[4] = (struct openmetrics_label){ "direction", dir };
	c->l[5] = (struct openmetrics_label){ "kind", kind };
	return OM_LABELS;
}

/* The directions a unit shows (as out_json: mixed only, or the three and mixed with both). */
static unsigned om_dirs(const struct report_unit *u, unsigned *dirs)
{
	unsigned n = 0;

	for (unsigned d = 0; d < (u->unified == UNIFIED_MIXED ? 1u : DDIR_NR); d++)
		if (report_ios(unified_ddir(u, d)))
			dirs[n++] = d;
	if (u->mixed && report_ios(u->mixed))
		dirs[n++] = UNIFIED_DDIR;
	return n;
}

struct om_fam {
	const char *name, *unit, *help;
	enum openmetrics_type type;
};

static void om_family(struct om_ctx *c, const struct om_fam *f)
{
	openmetrics_family(&c->w, f->name, f->type, f->unit, f->help);
}

enum om_unit_fig { OM_TIMESTAMP, OM_ERROR, OM_JOB_RUNTIME, OM_CPU, OM_UNIT_NR };

static const struct om_fam om_unit_fams[OM_UNIT_NR] = {
	{ "iops_report_timestamp_seconds", "seconds", "When the report was made, since the epoch", OPENMETRICS_GAUGE },
	{ "iops_job_error", NULL, "errno of the job's first error, 0 when none", OPENMETRICS_GAUGE },
	{ "iops_job_runtime_seconds", "seconds", "The job's run time (fio's job_runtime)", OPENMETRICS_GAUGE },
	{ "iops_cpu_utilization_ratio", "ratio", "CPU time over the job's run time, user and system", OPENMETRICS_GAUGE },
};

static void om_unit_family(struct om_ctx *c, enum om_unit_fig f)
{
	om_family(c, &om_unit_fams[f]);
	for (unsigned i = 0; i < c->n; i++) {
		const struct report *rep = c->units[i].rep;
		const struct job_result *r = c->units[i].u->res;
		unsigned nl = om_labels(c, i, NULL, NULL);
		double usr, sys;

		switch (f) {
		case OM_TIMESTAMP:
			openmetrics_sample(&c->w, "", c->l, nl, NULL, NULL,
					   (double)((int64_t)rep->now.tv_sec * 1000 + rep->now.tv_nsec / 1000000) / 1000.0);
			break;
		case OM_ERROR:
			openmetrics_sample_u64(&c->w, "", c->l, nl, NULL, NULL, (uint64_t)(r->error < 0 ? -r->error : r->error));
			break;
		case OM_JOB_RUNTIME:
			openmetrics_sample(&c->w, "", c->l, nl, NULL, NULL, (double)r->run_ms / 1000.0);
			break;
		default:
			report_cpu(r, &usr, &sys);
			openmetrics_sample(&c->w, "", c->l, nl, "mode", "user", json_float_value(usr) / 100.0);
			openmetrics_sample(&c->w, "", c->l, nl, "mode", "system", json_float_value(sys) / 100.0);
			break;
		}
	}
}

enum om_dir_fig { OM_IO_BYTES, OM_IOS, OM_RUNTIME, OM_BW, OM_IOPS, OM_DIR_NR };

static const struct om_fam om_dir_fams[OM_DIR_NR] = {
	{ "iops_io_bytes", "bytes", "Bytes transferred (io_bytes)", OPENMETRICS_COUNTER },
	{ "iops_ios", NULL, "I/Os issued (total_ios)", OPENMETRICS_COUNTER },
	{ "iops_runtime_seconds", "seconds", "The direction's run time", OPENMETRICS_GAUGE },
	{ "iops_bandwidth_bytes_per_second", NULL, "Bandwidth over the run (bw_bytes)", OPENMETRICS_GAUGE },
	{ "iops_operations_per_second", NULL, "I/Os per second over the run (iops)", OPENMETRICS_GAUGE },
};

static void om_dir_family(struct om_ctx *c, enum om_dir_fig f)
{
	const char *suffix = om_dir_fams[f].type == OPENMETRICS_COUNTER ? "_total" : "";

	om_family(c, &om_dir_fams[f]);
	for (unsigned i = 0; i < c->n; i++) {
		const struct report_unit *u = c->units[i].u;
		unsigned dirs[DDIR_NR + 1], nd = om_dirs(u, dirs);

		for (unsigned k = 0; k < nd; k++) {
			const struct ddir_result *d = unified_ddir(u, dirs[k]);
			uint64_t runt = report_runtime_ms(d);
			unsigned nl = om_labels(c, i, unified_ddir_name(u, dirs[k]), NULL);

			if (f == OM_IO_BYTES)
				openmetrics_sample_u64(&c->w, suffix, c->l, nl, NULL, NULL, d->io_bytes);
			else if (f == OM_IOS)
				openmetrics_sample_u64(&c->w, suffix, c->l, nl, NULL, NULL, report_ios(d));
			else if (f == OM_RUNTIME)
				openmetrics_sample(&c->w, suffix, c->l, nl, NULL, NULL, (double)runt / 1000.0);
			else if (f == OM_BW)
				openmetrics_sample_u64(&c->w, suffix, c->l, nl, NULL, NULL, report_rate(d->io_bytes, runt));
			else
				openmetrics_sample(&c->w, suffix, c->l, nl, NULL, NULL,
						   json_float_value(runt ? 1000.0 * (double)report_ios(d) / (double)runt : 0.0));
		}
	}
}

/* Latency kind k of a direction: its stats and histogram, and whether fio prints its
 * percentiles (slat_percentiles, clat_percentiles, lat_percentiles of the unit's last job). */
static const struct lat_stat *om_lat(const struct report_unit *u, const struct ddir_result *d, unsigned k,
				     const struct hist **h, bool *pcts)
{
	const struct job *j = u->last;

	*h = k == 0 ? &d->slat_hist : k == 1 ? &d->clat_hist : &d->lat_hist;
	*pcts = k == 0 ? j->slat_percentiles : k == 1 ? j->clat_percentiles : j->lat_percentiles;
	return k == 0 ? &d->slat : k == 1 ? &d->clat : &d->lat;
}

static void om_latency(struct om_ctx *c, bool histogram)
{
	if (histogram)
		openmetrics_family(&c->w, "iops_latency_histogram_seconds", OPENMETRICS_HISTOGRAM, "seconds",
				   "Latency distribution (json+ bins) at fio's distribution bounds");
	else
		openmetrics_family(&c->w, "iops_latency_seconds", OPENMETRICS_SUMMARY, "seconds",
				   "Latency: the percentiles fio prints, count and sum (kind lat: total, clat: completion, "
				   "slat: submission)");
	for (unsigned i = 0; i < c->n; i++) {
		const struct report_unit *u = c->units[i].u;
		unsigned dirs[DDIR_NR + 1], nd = om_dirs(u, dirs);

		for (unsigned k = 0; k < nd; k++)
			for (unsigned kind = 0; kind < 3; kind++) {
				const struct ddir_result *d = unified_ddir(u, dirs[k]);
				const struct hist *h;
				bool pcts;
				const struct lat_stat *s = om_lat(u, d, kind, &h, &pcts);
				unsigned nl = om_labels(c, i, unified_ddir_name(u, dirs[k]), om_kinds[kind]);
				double sum = json_float_value(s->mean) * (double)s->n / 1e9;
				char q[40];

				if (!s->n || (histogram && (!pcts || !c->hist)))
					continue;
				if (histogram) {
					uint64_t cum = 0;
					unsigned b = 0;

					for (unsigned idx = 0; idx < HIST_NR; idx++) {
						uint64_t v = hist_idx_to_val(idx);

						for (; b < OM_BOUNDS && v > om_bounds_ns[b]; b++) {
							openmetrics_number(q, sizeof(q), (double)om_bounds_ns[b] / 1e9);
							openmetrics_sample_u64(&c->w, "_bucket", c->l, nl, "le", q, cum);
						}
						cum += h->bucket[idx];
					}
					for (; b < OM_BOUNDS; b++) {
						openmetrics_number(q, sizeof(q), (double)om_bounds_ns[b] / 1e9);
						openmetrics_sample_u64(&c->w, "_bucket", c->l, nl, "le", q, cum);
					}
					openmetrics_sample_u64(&c->w, "_bucket", c->l, nl, "le", "+Inf", cum);
					openmetrics_sample_u64(&c->w, "_count", c->l, nl, NULL, NULL, cum);
				} else {
					if (pcts) {
						const double *pl;
						unsigned prec, np = report_pct_list(u->last, &pl, &prec), len;
						uint64_t vals[JOB_MAX_PERCENTILES];

						len = hist_percentiles(h, pl, np, vals);
						for (unsigned p = 0; p < len; p++) {
							openmetrics_quantile(q, sizeof(q), pl[p]);
							openmetrics_sample(&c->w, "", c->l, nl, "quantile", q, (double)vals[p] / 1e9);
						}
					}
					openmetrics_sample_u64(&c->w, "_count", c->l, nl, NULL, NULL, s->n);
				}
				openmetrics_sample(&c->w, "_sum", c->l, nl, NULL, NULL, sum);
			}
	}
}

int out_openmetrics_units(FILE *out, const struct out_om_unit *units, unsigned n, bool hist)
{
	struct om_ctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return -ENOMEM;
	c->units = units;
	c->n = n;
	c->hist = hist;
	openmetrics_init(&c->w, out);
	openmetrics_family(&c->w, "iops_info", OPENMETRICS_GAUGE, NULL, "The iops build that wrote these metrics");
	openmetrics_sample(&c->w, "", (const struct openmetrics_label[]){ { "version", IOPS_VERSION },
									{ "fio_compat", "fio-3.33" } }, 2, NULL, NULL, 1);
	for (unsigned f = 0; f < OM_UNIT_NR; f++)
		om_unit_family(c, f);
	for (unsigned f = 0; f < OM_DIR_NR; f++)
		om_dir_family(c, f);
	om_latency(c, false);
	om_latency(c, true);
	rc = openmetrics_finish(&c->w);
	free(c);
	return rc;
}

int out_openmetrics_print(FILE *out, const struct report *rep, const char *host)
{
	struct out_om_unit *units = calloc(rep->nr_units ? rep->nr_units : 1, sizeof(*units));
	int rc;

	if (!units)
		return -ENOMEM;
	for (unsigned i = 0; i < rep->nr_units; i++)
		units[i] = (struct out_om_unit){ rep, &rep->units[i], host, NULL };
	rc = out_openmetrics_units(out, units, rep->nr_units, true);
	free(units);
	return rc;
}
