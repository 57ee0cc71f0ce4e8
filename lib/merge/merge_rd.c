/* SPDX-License-Identifier: MIT */
/* merge_rd: one job entry of fio's JSON (iops' or fio's, json or json+) back into the struct
 * job / struct job_result the report prints. Exact where the document is: counts, bytes,
 * runtimes, min/max, mean and stdev (as Welford's S), histogram bins; the IO depth and latency
 * maps come back from their percentages (to the nearest I/O); without bins, a histogram is
 * made from the percentiles (approximate). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fio/report/report.h"
#include "fio/report/unified.h"
#include "merge/merge_int.h"

struct rd {
	const struct jsonr *j;
	struct job *job;
	struct merge_extra *x;
	char sec[40];		/* where we are: "read/clat_ns", "" at the job's level */
	char bad[96];		/* what is wrong with the first bad field, "" if none */
};

static void rd_bad(struct rd *r, const char *what)
{
	if (!r->bad[0])
		snprintf(r->bad, sizeof(r->bad), "bad %s%s%s", r->sec, *r->sec && *what ? "/" : "", what);
}

/* Fields read by table: offsets into a struct, and how to store. */
enum { F_U64, F_U32, F_DBL, F_MS, F_SD };	/* F_MS: ms stored as us; F_SD: stdev into lat_stat's S */
struct rd_field {
	const char *key;
	unsigned off;			/* job_result is ~330 KiB: past 16 bits */
	unsigned char type;
};

/* Node n as a number >= 0 (NULL when missing or bad, which names what). */
static const struct jsonr_node *rd_num(struct rd *r, const struct jsonr_node *n, const char *what)
{
	if (n && (n->type != JSONR_NUM || n->num < 0)) {
		rd_bad(r, what);
		return NULL;
	}
	return n;
}

static double rd_nf(struct rd *r, const struct jsonr_node *n, const char *what)
{
	return (n = rd_num(r, n, what)) ? n->num : 0.0;
}

/* Node n as an integer >= 0 (0 when missing). */
static uint64_t rd_nu(struct rd *r, const struct jsonr_node *n, const char *what)
{
	if (!(n = rd_num(r, n, what)))
		return 0;
	if (n->is_int && n->i64 >= 0)
		return (uint64_t)n->i64;
	if (!n->is_int && n->num >= 0.0 && n->num < 18446744073709551616.0 && n->num == (double)(uint64_t)n->num)
		return (uint64_t)n->num;
	rd_bad(r, what);
	return 0;
}

static double rd_f(struct rd *r, const struct jsonr_node *from, const char *path)
{
	return rd_nf(r, jsonr_get(r->j, from, path), path);
}

static uint64_t rd_u(struct rd *r, const struct jsonr_node *from, const char *path)
{
	return rd_nu(r, jsonr_get(r->j, from, path), path);
}

static void rd_fields(struct rd *r, const struct jsonr_node *from, void *base, const struct rd_field *f,
		      unsigned n)
{
	for (; n--; f++) {
		const struct jsonr_node *v = jsonr_get(r->j, from, f->key);
		char *p = (char *)base + f->off;
		struct lat_stat *s = (struct lat_stat *)p;
		uint64_t u;
		double sd;

		if (!v)
			continue;
		if (f->type == F_DBL) {
			*(double *)p = rd_nf(r, v, f->key);
		} else if (f->type == F_SD) {	/* after N: S = stdev^2 (N - 1) */
			sd = rd_nf(r, v, f->key);
			s->m2 = s->n > 1 ? sd * sd * (double)(s->n - 1) : 0.0;
		} else {
			u = rd_nu(r, v, f->key);
			if (f->type == F_U32)
				*(uint32_t *)p = (uint32_t)u;
			else
				*(uint64_t *)p = f->type == F_MS ? u * 1000 : u;
		}
	}
}

#define LS(m)	(unsigned)offsetof(struct lat_stat, m)
static const struct rd_field rd_lat_fields[] = {
	{ "N", LS(n), F_U64 }, { "min", LS(min), F_U64 }, { "max", LS(max), F_U64 },
	{ "mean", LS(mean), F_DBL }, { "stddev", 0, F_SD },
};

void merge_hist_synth(struct hist *h, const double *p, const uint64_t *v, unsigned n)
{
	uint64_t cum = 0;

	memset(h, 0, sizeof(*h));
	for (unsigned k = 0; k < n; k++) {
		/* the running count must reach p% of the total at v[k]'s bucket, and not before */
		long double need = (long double)p[k] / 100.0L * (long double)MERGE_HIST_SYNTH;
		uint64_t c = (uint64_t)need;

		c += (long double)c < need;
		if (c > cum) {
			h->bucket[hist_idx(v[k])] += c - cum;
			cum = c;
		}
	}
	if (n) {
		h->bucket[hist_idx(v[n - 1])] += MERGE_HIST_SYNTH - cum;
		h->total = MERGE_HIST_SYNTH;
	}
}

/* "bins": {"<bucket value ns>": count, ...}, which must add up to the stat's N. */
static void rd_bins(struct rd *r, const struct jsonr_node *b, struct hist *h, uint64_t n)
{
	if (b->type != JSONR_OBJ) {
		rd_bad(r, "bins");
		return;
	}
	for (uint32_t k = b->first; k; k = r->j->nodes[k].next) {
		const struct jsonr_node *c = &r->j->nodes[k];
		char *end;
		uint64_t v, cnt;
		unsigned i;

		errno = 0;
		v = strtoull(c->key, &end, 10);
		i = hist_idx(v);
		cnt = rd_nu(r, c, "bins");
		if (*c->key < '0' || *c->key > '9' || *end || errno || hist_idx_to_val(i) != v ||
		    __builtin_add_overflow(h->bucket[i], cnt, &h->bucket[i]) ||
		    __builtin_add_overflow(h->total, cnt, &h->total)) {
			rd_bad(r, "bins");
			return;
		}
	}
	if (h->total != n)
		rd_bad(r, "bins (they do not add up to N)");
}

/* "percentile": {"99.000000": ns, ...}: ascending, at most fio's 20; the decimals the keys
 * need give the precision. Returns the count. */
static unsigned rd_pcts(struct rd *r, const struct jsonr_node *p, double *pct, uint64_t *val,
			unsigned *prec)
{
	unsigned n = 0;

	*prec = 0;
	if (p->type != JSONR_OBJ || p->count > JOB_MAX_PERCENTILES) {
		rd_bad(r, "percentile");
		return 0;
	}
	for (uint32_t k = p->first; k; k = r->j->nodes[k].next, n++) {
		const struct jsonr_node *c = &r->j->nodes[k];
		const char *dot = strchr(c->key, '.');
		char *end;
		size_t d = dot ? strlen(dot + 1) : 0;

		pct[n] = strtod(c->key, &end);
		val[n] = rd_nu(r, c, "percentile");
		if (*end || end == c->key || !(pct[n] > 0 && pct[n] <= 100) || (n && pct[n] <= pct[n - 1])) {
			rd_bad(r, "percentile");
			return 0;
		}
		while (d && dot[d] == '0')
			d--;
		if (d > *prec)
			*prec = d > 6 ? 6 : (unsigned)d;
	}
	return n;
}

/* slat_ns / clat_ns / lat_ns: the stat, its bins (json+) or its percentiles (json). */
static void rd_lat(struct rd *r, const struct jsonr_node *sec, const char *key, struct lat_stat *s,
		   struct hist *h, bool *pct_on)
{
	const struct jsonr_node *n = jsonr_get(r->j, sec, key), *p, *b;
	double pct[JOB_MAX_PERCENTILES];
	uint64_t val[JOB_MAX_PERCENTILES];
	size_t len = strlen(r->sec);
	unsigned np, prec;

	if (!n)
		return;
	snprintf(r->sec + len, sizeof(r->sec) - len, "/%s", key);
	if (n->type != JSONR_OBJ)
		rd_bad(r, "");
	rd_fields(r, n, s, rd_lat_fields, 5);
	p = jsonr_get(r->j, n, "percentile");
	b = jsonr_get(r->j, n, "bins");
	if (b)
		rd_bins(r, b, h, s->n);
	if (p && (np = rd_pcts(r, p, pct, val, &prec)) > 0) {
		*pct_on = true;
		if (!r->job->nr_percentiles) {
			memcpy(r->job->percentiles, pct, np * sizeof(pct[0]));
			r->job->nr_percentiles = np;
			r->job->percentile_precision = prec;
		}
		if (!b) {
			merge_hist_synth(h, pct, val, np);
			r->x->approx = true;
		}
	}
	r->sec[len] = '\0';
}

/* A percentage map (IO depths, latency buckets) back to counts of total. */
static void rd_map(struct rd *r, const struct jsonr_node *e, const char *key, uint64_t *dst,
		   unsigned nr, uint64_t total)
{
	const struct jsonr_node *m = jsonr_get(r->j, e, key);
	unsigned i = 0;

	if (!m)
		return;
	if (m->type != JSONR_OBJ || m->count > nr) {
		rd_bad(r, key);
		return;
	}
	for (uint32_t k = m->first; k; k = r->j->nodes[k].next) {
		double pct = rd_nf(r, &r->j->nodes[k], key);

		if (!(pct >= 0.0 && pct <= 100.0)) {	/* a share of total (NaN fails too) */
			rd_bad(r, key);
			return;
		}
		double v = pct / 100.0 * (double)total + 0.5;

		dst[i++] = v < (double)total ? (uint64_t)v : total;	/* (double)total may round up */
	}
}

#define DR(m)	(unsigned)offsetof(struct ddir_result, m)
static const struct rd_field rd_ddir_fields[] = {
	{ "io_bytes", DR(io_bytes), F_U64 }, { "total_ios", DR(total_ios), F_U64 },
	{ "short_ios", DR(short_ios), F_U64 }, { "drop_ios", DR(drop_ios), F_U64 },
	{ "runtime", DR(runtime_us), F_MS },
	{ "bw_samples", DR(bw_kib.n), F_U64 }, { "bw_min", DR(bw_kib.min), F_U64 },
	{ "bw_max", DR(bw_kib.max), F_U64 }, { "bw_mean", DR(bw_kib.mean), F_DBL },
	{ "bw_dev", DR(bw_kib), F_SD },
	{ "iops_samples", DR(iops.n), F_U64 }, { "iops_min", DR(iops.min), F_U64 },
	{ "iops_max", DR(iops.max), F_U64 }, { "iops_mean", DR(iops.mean), F_DBL },
	{ "iops_stddev", DR(iops), F_SD },
};

/* One direction (read, write, trim, or unified_rw_reporting's mixed); returns its runtime (ms). */
static uint64_t rd_ddir(struct rd *r, const struct jsonr_node *n, const char *name,
			struct ddir_result *d)
{
	snprintf(r->sec, sizeof(r->sec), "%s", name);
	if (n->type != JSONR_OBJ)
		rd_bad(r, "");
	rd_fields(r, n, d, rd_ddir_fields, sizeof(rd_ddir_fields) / sizeof(rd_ddir_fields[0]));
	d->issued_ios = d->total_ios;
	rd_lat(r, n, "slat_ns", &d->slat, &d->slat_hist, &r->job->slat_percentiles);
	rd_lat(r, n, "clat_ns", &d->clat, &d->clat_hist, &r->job->clat_percentiles);
	rd_lat(r, n, "lat_ns", &d->lat, &d->lat_hist, &r->job->lat_percentiles);
	r->sec[0] = '\0';
	return d->runtime_us / 1000;
}

static void rd_opts(struct rd *r, const struct jsonr_node *o)
{
	struct job *job = r->job;

	if (!o || o->type != JSONR_OBJ || !(job->opts = calloc(o->count + 1u, sizeof(*job->opts))))
		return;
	for (uint32_t k = o->first; k; k = r->j->nodes[k].next) {
		const struct jsonr_node *c = &r->j->nodes[k];

		if (c->type == JSONR_STR) {	/* the job's strings stay in the document */
			job->opts[job->nr_opts].key = (char *)c->key;
			job->opts[job->nr_opts++].value = (char *)c->str;
		}
	}
}

#define RS(m)	(unsigned)offsetof(struct job_result, m)
static const struct rd_field rd_res_fields[] = {
	{ "error", RS(error), F_U32 }, { "elapsed", RS(elapsed_s), F_U64 },
	{ "job_runtime", RS(run_ms), F_U64 }, { "ctx", RS(ctx), F_U64 }, { "majf", RS(majf), F_U64 },
	{ "minf", RS(minf), F_U64 }, { "total_err", RS(total_err), F_U64 },
	{ "first_error", RS(first_error), F_U32 },
};
static const struct rd_field rd_maps[] = {	/* type: the map's length */
	{ "iodepth_level", RS(depth_map), DEPTH_MAP_NR }, { "iodepth_submit", RS(submit_map), DEPTH_MAP_NR },
	{ "iodepth_complete", RS(complete_map), DEPTH_MAP_NR }, { "latency_ns", RS(lat_n), LAT_N_NR },
	{ "latency_us", RS(lat_u), LAT_U_NR }, { "latency_ms", RS(lat_m), LAT_M_NR },
};
#define JB(m)	(unsigned)offsetof(struct job, m)
static const struct rd_field rd_job_fields[] = {
	{ "groupid", JB(group_id), F_U32 }, { "latency_depth", JB(iodepth), F_U32 },
	{ "latency_target", JB(lat_target_ns), F_U64 }, { "latency_percentile", JB(lat_pct), F_DBL },
	{ "latency_window", JB(lat_window_ns), F_MS },
};

int merge_rd_job(const struct jsonr *j, const struct jsonr_node *e, struct job *job,
		 struct job_result *res, struct merge_extra *x, struct iops_err *err)
{
	static const char *const dirs[] = { "read", "write", "trim", "mixed" };
	struct rd r = { .j = j, .job = job, .x = x };
	const char *name = jsonr_str(j, e, "jobname");
	const struct jsonr_node *n;
	uint64_t run = 0, total, ms;
	bool sync_pct = false, found = false;

	if (!name || strlen(name) >= JOB_NAME_MAX) {
		iops_err_set(err, EINVAL, "a job entry without a (short enough) \"jobname\"");
		return -1;
	}
	memcpy(job->name, name, strlen(name) + 1);
	job->kb_base = 1024;
	job->sig_figs = 4;
	rd_fields(&r, e, res, rd_res_fields, sizeof(rd_res_fields) / sizeof(rd_res_fields[0]));
	rd_fields(&r, e, job, rd_job_fields, sizeof(rd_job_fields) / sizeof(rd_job_fields[0]));
	if (res->error)
		snprintf(res->verror, sizeof(res->verror), "%s", err_str(res->error));
	res->cont_on_err = jsonr_get(j, e, "total_err") != NULL;	/* continue_on_error */
	for (unsigned d = 0; d < 4; d++) {
		if (!(n = jsonr_get(j, e, dirs[d])))
			continue;
		found = true;
		if (d == 3)	/* unified_rw_reporting=mixed: in read's place */
			job->unified_rw_rep = UNIFIED_MIXED;
		if ((ms = rd_ddir(&r, n, dirs[d], &res->ddir[d % DDIR_NR])) > run)
			run = ms;
	}
	if (!found)
		snprintf(r.bad, sizeof(r.bad), "no \"read\", \"write\" or \"trim\" figures");
	if ((n = jsonr_get(j, e, "sync"))) {
		memcpy(r.sec, "sync", 5);
		res->sync_ios = rd_u(&r, n, "total_ios");
		rd_lat(&r, n, "lat_ns", &res->sync_lat, &res->sync_hist, &sync_pct);
		r.sec[0] = '\0';
	}
	/* cpu: whole ms of usr/sys time, as fio accumulates them */
	res->usr_us = (uint64_t)(rd_f(&r, e, "usr_cpu") * (double)res->run_ms / 100.0 + 0.5) * 1000;
	res->sys_us = (uint64_t)(rd_f(&r, e, "sys_cpu") * (double)res->run_ms / 100.0 + 0.5) * 1000;
	total = report_total_ios(res);
	for (unsigned i = 0; i < 6; i++)
		rd_map(&r, e, rd_maps[i].key, (uint64_t *)((char *)res + rd_maps[i].off), rd_maps[i].type, total);
	for (unsigned i = 0; i < DEPTH_MAP_NR; i++) {	/* the calls: as many as the maps hold */
		res->nr_submit_calls += res->submit_map[i];
		res->nr_complete_calls += res->complete_map[i];
	}
	job->description = (char *)jsonr_str(j, e, "desc");
	rd_opts(&r, jsonr_get(j, e, "job options"));
	if (jsonr_get(j, e, "job_start")) {	/* ms since the epoch (fio 3.36, iops) */
		x->started = true;
		x->start_ms = rd_u(&r, e, "job_start");
		x->end_ms = x->start_ms + (run ? run : res->run_ms);
	}
	if (r.bad[0]) {
		iops_err_set(err, EINVAL, "job '%s': %s", name, r.bad);
		return -1;
	}
	return 0;
}
