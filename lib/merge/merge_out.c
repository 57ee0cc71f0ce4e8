/* SPDX-License-Identifier: MIT */
/* merge_out: the merged report. Every job of every input is summed into one `All clients`
 * unit with the report's own group_reporting merge (report_merge_result(): counts, bytes,
 * histograms bucket by bucket, latency stats by Chan's formula, bw/iops samples as fio's
 * pure sums, runtime = the longest, so bandwidth is over the common window), then printed
 * with the report's formatters. Approximate merges (inputs without bins) replace each
 * merged histogram by one made from the count-weighted means of the inputs' percentiles. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/json.h"
#include "fio/report/out_json.h"
#include "fio/report/out_normal.h"
#include "fio/report/out_openmetrics.h"
#include "fio/report/out_terse.h"
#include "fio/report/write.h"
#include "merge/merge_int.h"

#define MG_STATS	((DDIR_NR + 1) * 3)	/* slat, clat, lat of each direction; sync */

struct mg_all {
	struct job job;
	struct job_result res;
	unsigned members;
	double wsum[MG_STATS][JOB_MAX_PERCENTILES], wn[MG_STATS];	/* approximate merges */
};

/* Stat k of r (k / 3: direction, DDIR_NR = sync; k % 3: slat, clat, lat); NULL: none. */
static struct lat_stat *mg_stat(struct job_result *r, unsigned k, struct hist **h)
{
	struct ddir_result *d = &r->ddir[k / 3 < DDIR_NR ? k / 3 : 0];

	if (k / 3 == DDIR_NR) {
		*h = &r->sync_hist;
		return k % 3 == 2 ? &r->sync_lat : NULL;
	}
	*h = k % 3 == 0 ? &d->slat_hist : k % 3 == 1 ? &d->clat_hist : &d->lat_hist;
	return k % 3 == 0 ? &d->slat : k % 3 == 1 ? &d->clat : &d->lat;
}

static void mg_add(struct mg_all *a, const struct job *j, struct job_result *r, bool approx)
{
	const double *pcts;
	unsigned prec, np;

	if (!a->members++) {
		a->job = *j;
		memcpy(a->job.name, "All clients", 12);
		a->job.group_id = 0;
		a->job.opts = NULL;
		a->job.nr_opts = 0;
		a->job.description = NULL;
		a->res = *r;
		a->res.pid = 0;
	} else {
		report_merge_result(&a->res, r);
	}
	a->job.slat_percentiles |= j->slat_percentiles;
	a->job.clat_percentiles |= j->clat_percentiles;
	a->job.lat_percentiles |= j->lat_percentiles;
	np = report_pct_list(&a->job, &pcts, &prec);
	for (unsigned k = 0; approx && k < MG_STATS; k++) {
		struct hist *h;
		struct lat_stat *s = mg_stat(r, k, &h);
		uint64_t v[JOB_MAX_PERCENTILES];

		if (!s || !s->n || hist_percentiles(h, pcts, np, v) != np)
			continue;
		for (unsigned i = 0; i < np; i++)
			a->wsum[k][i] += (double)s->n * (double)v[i];
		a->wn[k] += (double)s->n;
	}
}

/* Approximate: each merged histogram from the count-weighted means of the percentiles. */
static void mg_approx(struct mg_all *a)
{
	const double *pcts;
	unsigned prec, np = report_pct_list(&a->job, &pcts, &prec);

	for (unsigned k = 0; k < MG_STATS; k++) {
		struct hist *h;
		uint64_t v[JOB_MAX_PERCENTILES];

		if (!mg_stat(&a->res, k, &h) || !a->wn[k])
			continue;
		for (unsigned i = 0; i < np; i++)
			v[i] = (uint64_t)(a->wsum[k][i] / a->wn[k] + 0.5);
		merge_hist_synth(h, pcts, v, np);
	}
}

/* ms since the epoch as fio's ctime-like date, or as YYYY-MM-DD HH:MM:SS (iso) */
static void mg_time(char *buf, size_t len, uint64_t ms, bool iso)
{
	struct tm tm;
	time_t t = (time_t)(ms / 1000);

	if (!localtime_r(&t, &tm) || !strftime(buf, len, iso ? "%Y-%m-%d %H:%M:%S" : "%a %b %e %H:%M:%S %Y", &tm))
		buf[0] = '\0';
}

/* The report of one input's jobs (units as the input had them); cfg and mj must outlive rep. */
static int mg_input_report(const struct merge_input *in, struct fio_config *cfg, struct merge_jobs *mj,
			   struct report *rep, struct iops_err *err)
{
	int rc = merge_input_jobs(in, mj, err);

	if (!rc) {
		cfg->jobs = mj->job;
		cfg->nr_jobs = mj->n;
		rc = report_build(rep, cfg, mj->rp, mj->n);
	}
	return rc;
}

/* Terse: a line per input's unit (PER_INPUT), then the All clients line (version 3). */
static int mg_terse(const struct merge *m, FILE *out, const struct report *all, int per_input,
		    struct iops_err *err)
{
	int rc = 0;

	for (unsigned i = 0; per_input && i < m->nr_in && !rc; i++) {
		struct fio_config cfg = { 0 };
		struct merge_jobs mj;
		struct report rep;

		rc = mg_input_report(&m->in[i], &cfg, &mj, &rep, err);
		for (unsigned u = 0; !rc && u < rep.nr_units; u++)
			out_terse_unit(out, &rep, &rep.units[u], 3);
		if (!rc)
			report_release(&rep);
		merge_jobs_release(&mj);
	}
	if (!rc)
		out_terse_unit(out, all, &all->units[0], 3);
	if (rc && !iops_err_isset(err))
		iops_err_set(err, -rc, "%s", rc == -ENOMEM ? "out of memory" : "cannot write the report");
	return rc ? -1 : 0;
}

/* One document: client_stats holds each input's units (hostname, port) and All clients. */
static int mg_json(const struct merge *m, FILE *out, const struct report *all, bool plus,
		   uint64_t ts, struct iops_err *err)
{
	const struct jsonr_node *g = jsonr_get(&m->in[0].doc, NULL, "global options");
	struct json_writer w;
	char when[64];
	int rc = 0;

	mg_time(when, sizeof(when), ts, false);
	json_init(&w, out);
	json_begin_object(&w, NULL);
	json_string(&w, "fio version", "fio-3.33");
	json_uint(&w, "timestamp", ts / 1000);
	json_uint(&w, "timestamp_ms", ts);
	json_string(&w, "time", when);
	if (g && g->type == JSONR_OBJ) {	/* the first input's */
		json_begin_object(&w, "global options");
		for (uint32_t k = g->first; k; k = m->in[0].doc.nodes[k].next)
			json_string(&w, m->in[0].doc.nodes[k].key, m->in[0].doc.nodes[k].str);
		json_end_object(&w);
	}
	json_begin_array(&w, "client_stats");
	for (unsigned i = 0; i < m->nr_in && !rc; i++) {
		const struct merge_input *in = &m->in[i];
		struct fio_config cfg = { 0 };
		struct merge_jobs mj;
		struct report rep;

		rc = mg_input_report(in, &cfg, &mj, &rep, err);
		for (unsigned u = 0; !rc && u < rep.nr_units; u++) {
			const struct merge_extra *x = &mj.x[rep.units[u].job - mj.job];

			rep.units[u].client = REPORT_CLIENT;
			json_begin_object(&w, NULL);
			out_json_unit_fields(&w, &rep, &rep.units[u], plus);
			if (x->started)
				json_uint(&w, "job_start", x->start_ms);
			json_string(&w, "hostname", in->host);
			json_uint(&w, "port", in->port);
			json_end_object(&w);
		}
		if (!rc)
			report_release(&rep);
		merge_jobs_release(&mj);
	}
	json_begin_object(&w, NULL);
	out_json_unit_fields(&w, all, &all->units[0], plus);
	json_uint(&w, "percentiles_approximate", m->approx);
	json_end_object(&w);
	json_end_array(&w);
	json_end_object(&w);
	if (json_finish(&w) < 0 && !rc)
		rc = -EIO;
	if (rc && !iops_err_isset(err))
		iops_err_set(err, -rc, "%s", rc == -ENOMEM ? "out of memory" : "cannot write the report");
	return rc ? -1 : 0;
}

/* OpenMetrics: each input's units, then All clients; the inputs' reports are all built first
 * (the exposition is written family by family, over every unit). */
static int mg_openmetrics(const struct merge *m, FILE *out, const struct report *all, struct iops_err *err)
{
	struct fio_config *cfg = calloc(m->nr_in, sizeof(*cfg));
	struct merge_jobs *mj = calloc(m->nr_in, sizeof(*mj));
	struct report *rep = calloc(m->nr_in, sizeof(*rep));
	struct out_om_unit *units = NULL;
	unsigned n = 1, built = 0;
	int rc = cfg && mj && rep ? 0 : -ENOMEM;

	for (unsigned i = 0; !rc && i < m->nr_in; i++, built++) {
		if ((rc = merge_input_jobs(&m->in[i], &mj[i], err)) < 0)
			break;
		cfg[i].jobs = mj[i].job;
		cfg[i].nr_jobs = mj[i].n;
		if ((rc = report_build(&rep[i], &cfg[i], mj[i].rp, mj[i].n)) < 0)
			break;
		rep[i].now.tv_sec = (time_t)(m->in[i].ts_ms / 1000);
		rep[i].now.tv_nsec = (long)(m->in[i].ts_ms % 1000) * 1000000;
		for (unsigned u = 0; u < rep[i].nr_units; u++)
			rep[i].units[u].client = REPORT_CLIENT;
		n += rep[i].nr_units;
	}
	if (!rc && !(units = calloc(n, sizeof(*units))))
		rc = -ENOMEM;
	if (!rc) {
		n = 0;
		for (unsigned i = 0; i < m->nr_in; i++)
			for (unsigned u = 0; u < rep[i].nr_units; u++)
				units[n++] = (struct out_om_unit){ &rep[i], &rep[i].units[u], m->in[i].host, NULL };
		units[n++] = (struct out_om_unit){ all, &all->units[0], NULL, NULL };
		rc = out_openmetrics_units(out, units, n, !m->approx);
	}
	for (unsigned i = 0; i < m->nr_in && mj; i++) {
		if (i < built && rep)
			report_release(&rep[i]);
		merge_jobs_release(&mj[i]);
	}
	if (rc && !iops_err_isset(err))
		iops_err_set(err, -rc, "%s", rc == -ENOMEM ? "out of memory" : "cannot write the report");
	free(units);
	free(rep);
	free(mj);
	free(cfg);
	return rc ? -1 : 0;
}

static void mg_normal(const struct merge *m, FILE *out, const struct report *all, int per_input)
{
	for (unsigned i = 0; per_input && i < m->nr_in; i++) {
		const struct merge_input *in = &m->in[i];
		char a[40], b[40];

		mg_time(a, sizeof(a), in->first_ms, true);
		mg_time(b, sizeof(b), in->last_ms, true);
		fprintf(out, "%s: jobs=%u, first completion %s.%03u, last completion %s.%03u%s\n", in->host,
			in->members, a, (unsigned)(in->first_ms % 1000), b, (unsigned)(in->last_ms % 1000),
			in->started ? "" : " (no job_start: the report's time)");
	}
	out_normal_unit(out, all, &all->units[0]);
	if (m->approx)
		fputs("  note         : approximate percentiles (inputs without histogram bins): the "
		      "count-weighted means of the inputs' values\n", out);
}

int merge_write(const struct merge *m, FILE *out, unsigned fmts, int per_input, struct iops_err *err)
{
	struct mg_all *a = calloc(1, sizeof(*a));
	struct fio_config cfg = { 0 };
	struct job_result *rp;
	struct report rep;
	uint64_t ts = 0;
	int rc = -1;

	if (!a || !m->nr_in) {
		iops_err_set(err, a ? EINVAL : ENOMEM, a ? "nothing to merge" : "out of memory");
		goto free_all;
	}
	for (unsigned i = 0; i < m->nr_in; i++) {
		struct merge_jobs mj;

		if (merge_input_jobs(&m->in[i], &mj, err) < 0) {
			merge_jobs_release(&mj);
			goto free_all;
		}
		for (unsigned k = 0; k < mj.n; k++)
			mg_add(a, &mj.job[k], &mj.res[k], m->approx);
		merge_jobs_release(&mj);
		ts = m->in[i].ts_ms > ts ? m->in[i].ts_ms : ts;
	}
	if (m->approx)
		mg_approx(a);
	cfg.jobs = &a->job;
	cfg.nr_jobs = 1;
	rp = &a->res;
	if (report_build(&rep, &cfg, &rp, 1) < 0) {
		iops_err_set(err, ENOMEM, "out of memory");
		goto free_all;
	}
	rep.units[0].members = 0;
	for (unsigned i = 0; i < m->nr_in; i++)
		rep.units[0].members += m->in[i].members;
	rep.units[0].client = REPORT_ALL_CLIENTS;
	rep.now.tv_sec = (time_t)(ts / 1000);
	rep.now.tv_nsec = (long)(ts % 1000) * 1000000;
	rc = 0;
	if ((fmts & MERGE_TERSE) && mg_terse(m, out, &rep, per_input, err) < 0)	/* fio's order: terse, json, normal */
		rc = -1;
	if (!rc && (fmts & (MERGE_JSON | MERGE_JSONPLUS)) &&
	    mg_json(m, out, &rep, (fmts & MERGE_JSONPLUS) && !m->approx, ts, err) < 0)
		rc = -1;
	if (!rc && (fmts & MERGE_NORMAL))
		mg_normal(m, out, &rep, per_input);
	if (!rc && (fmts & MERGE_OPENMETRICS) && mg_openmetrics(m, out, &rep, err) < 0)
		rc = -1;
	report_release(&rep);
	if (!rc && (fflush(out) || ferror(out))) {
		iops_err_set(err, errno ? errno : EIO, "cannot write the report: %s", err_str(errno ? errno : EIO));
		rc = -1;
	}
free_all:
	free(a);
	return rc;
}
