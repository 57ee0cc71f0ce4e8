/* SPDX-License-Identifier: MIT */
/* plot_rd_fio: fio JSON / json+ / client_stats / quick results; see plot_rd_fio.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_rd_fio.h"

#define PLOT_BINS_MAX	(1u << 20)	/* fio's histograms have 1856 buckets per direction */

const char *const plot_dir_names[PLOT_DIRS] = { "read", "write", "trim", "mixed" };
const char *const plot_lat_names[PLOT_LAT_KINDS] = { "slat", "clat", "lat" };
static const char *const lat_keys[PLOT_LAT_KINDS] = { "slat_ns", "clat_ns", "lat_ns" };

static const struct jsonr_node *plot_rd_fio_units(const struct jsonr *j, enum plot_fio_kind *kind)
{
	const struct jsonr_node *n = jsonr_get(j, NULL, "client_stats");
	const char *mode = jsonr_str(j, NULL, "mode");

	if (n && n->type == JSONR_ARR) {
		*kind = PLOT_FIO_CLIENTS;
		return n;
	}
	n = jsonr_get(j, NULL, "jobs");
	*kind = mode && !strcmp(mode, "quick") ? PLOT_FIO_QUICK : PLOT_FIO_JOBS;
	return n && n->type == JSONR_ARR ? n : NULL;
}

bool plot_rd_fio_is(const struct jsonr *j)
{
	enum plot_fio_kind k;

	return j->nodes[0].type == JSONR_OBJ && plot_rd_fio_units(j, &k);
}

static double plot_rd_num(const struct jsonr *j, const struct jsonr_node *from, const char *path)
{
	double v = 0;

	return jsonr_num(j, from, path, &v) ? v : 0;
}

/* Sorted insertion: percentile lists are short, bins arrive in order from both writers. */
static void plot_rd_pct_add(struct plot_lat *l, double p, double v, const char *key)
{
	unsigned i = l->nr_pct;

	if (i >= PLOT_PCTS_MAX)
		return;
	while (i && l->pct[i - 1] > p) {
		l->pct[i] = l->pct[i - 1];
		l->pct_v[i] = l->pct_v[i - 1];
		l->pct_key[i] = l->pct_key[i - 1];
		i--;
	}
	l->pct[i] = p;
	l->pct_v[i] = v;
	l->pct_key[i] = key;
	l->nr_pct++;
}

static int plot_rd_bins(const struct jsonr *j, const struct jsonr_node *bins, struct plot_lat *l, const char *name,
			struct iops_err *err)
{
	size_t k = 0;
	bool sorted = true;

	if (bins->count > PLOT_BINS_MAX) {
		iops_err_set(err, EINVAL, "%s: %u histogram bins: more than a fio histogram has", name, bins->count);
		return -EINVAL;
	}
	if (!bins->count)
		return 0;
	l->bin_v = malloc(bins->count * sizeof(double));
	l->bin_n = malloc(bins->count * sizeof(double));
	if (!l->bin_v || !l->bin_n) {
		iops_err_set(err, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	for (uint32_t c = bins->first; c; c = j->nodes[c].next) {
		const struct jsonr_node *b = &j->nodes[c];
		char *end;
		double v = strtod(b->key, &end);

		if (end == b->key || *end || v < 0 || b->type != JSONR_NUM || b->num < 0) {
			iops_err_set(err, EINVAL, "%s: histogram bin '%s' is not a latency and a count", name, b->key);
			return -EINVAL;
		}
		sorted = sorted && (!k || v > l->bin_v[k - 1]);
		l->bin_v[k] = v;
		l->bin_n[k++] = b->num;
		l->bins_total += b->num;
	}
	for (size_t a = 1; !sorted && a < k; a++)	/* insertion sort: never needed for fio's files */
		for (size_t b = a; b && l->bin_v[b - 1] > l->bin_v[b]; b--) {
			double t = l->bin_v[b];

			l->bin_v[b] = l->bin_v[b - 1];
			l->bin_v[b - 1] = t;
			t = l->bin_n[b];
			l->bin_n[b] = l->bin_n[b - 1];
			l->bin_n[b - 1] = t;
		}
	l->nr_bins = k;
	return 0;
}

static int plot_rd_lat(const struct jsonr *j, const struct jsonr_node *ln, struct plot_lat *l, const char *name,
		       struct iops_err *err)
{
	const struct jsonr_node *pct = jsonr_get(j, ln, "percentile"), *bins = jsonr_get(j, ln, "bins");

	l->n = plot_rd_num(j, ln, "N");
	l->min = plot_rd_num(j, ln, "min");
	l->max = plot_rd_num(j, ln, "max");
	l->mean = plot_rd_num(j, ln, "mean");
	l->stddev = plot_rd_num(j, ln, "stddev");
	for (uint32_t c = pct && pct->type == JSONR_OBJ ? pct->first : 0; c; c = j->nodes[c].next) {
		const struct jsonr_node *p = &j->nodes[c];
		char *end;
		double pv = strtod(p->key, &end);

		if (end == p->key || *end || !(pv >= 0 && pv <= 100) || p->type != JSONR_NUM) {
			iops_err_set(err, EINVAL, "%s: percentile '%s' is not a percentile and a latency", name, p->key);
			return -EINVAL;
		}
		plot_rd_pct_add(l, pv, p->num, p->key);
	}
	return bins && bins->type == JSONR_OBJ ? plot_rd_bins(j, bins, l, name, err) : 0;
}

static int plot_rd_dir(const struct jsonr *j, const struct jsonr_node *dn, struct plot_dir *d, const char *name,
		       struct iops_err *err)
{
	d->iops = plot_rd_num(j, dn, "iops");
	d->bw_bytes = plot_rd_num(j, dn, "bw_bytes");
	if (!jsonr_get(j, dn, "bw_bytes"))	/* fio before 3.x: bw in KiB/s only */
		d->bw_bytes = plot_rd_num(j, dn, "bw") * 1024;
	d->io_bytes = plot_rd_num(j, dn, "io_bytes");
	d->runtime_ms = plot_rd_num(j, dn, "runtime");
	d->total_ios = plot_rd_num(j, dn, "total_ios");
	d->bw_min = plot_rd_num(j, dn, "bw_min");
	d->bw_max = plot_rd_num(j, dn, "bw_max");
	d->bw_mean = plot_rd_num(j, dn, "bw_mean");
	d->bw_samples = plot_rd_num(j, dn, "bw_samples");
	d->iops_min = plot_rd_num(j, dn, "iops_min");
	d->iops_max = plot_rd_num(j, dn, "iops_max");
	d->iops_mean = plot_rd_num(j, dn, "iops_mean");
	d->iops_samples = plot_rd_num(j, dn, "iops_samples");
	d->present = d->total_ios > 0 || d->io_bytes > 0;
	for (int k = 0; k < PLOT_LAT_KINDS; k++) {
		const struct jsonr_node *ln = jsonr_get(j, dn, lat_keys[k]);

		if (ln && ln->type == JSONR_OBJ && plot_rd_lat(j, ln, &d->lat[k], name, err) < 0)
			return -EINVAL;
	}
	return 0;
}

static int plot_rd_job(const struct jsonr *j, const struct jsonr_node *jn, struct plot_job *job, const char *name,
		       struct iops_err *err)
{
	const struct jsonr_node *o = jsonr_get(j, jn, "job options");
	bool any = false;

	job->name = jsonr_str(j, jn, "jobname");
	if (jn->type != JSONR_OBJ || !job->name) {
		iops_err_set(err, EINVAL, "%s: a job entry without a jobname (not fio's JSON layout)", name);
		return -EINVAL;
	}
	job->host = jsonr_str(j, jn, "hostname");
	job->port = plot_rd_num(j, jn, "port");
	job->all_clients = !strcmp(job->name, "All clients");
	job->error = plot_rd_num(j, jn, "error");
	job->opts = o && o->type == JSONR_OBJ ? o : NULL;
	for (int d = 0; d < PLOT_DIRS; d++) {
		const struct jsonr_node *dn = jsonr_get(j, jn, plot_dir_names[d]);

		if (!dn || dn->type != JSONR_OBJ)
			continue;
		any = true;
		if (plot_rd_dir(j, dn, &job->dir[d], name, err) < 0)
			return -EINVAL;
	}
	if (!any) {
		iops_err_set(err, EINVAL, "%s: job '%s' has no read or write figures (not fio's JSON layout)", name,
			     job->name);
		return -EINVAL;
	}
	return 0;
}

int plot_rd_fio(struct plot_fio *f, struct jsonr *doc, const char *name, struct iops_err *err)
{
	const struct jsonr_node *units;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	f->doc = *doc;
	memset(doc, 0, sizeof(*doc));
	units = plot_rd_fio_units(&f->doc, &f->kind);
	if (!units || !units->count) {
		iops_err_set(err, EINVAL, "%s: a fio result without any job", name);
		rc = -EINVAL;
		goto fail;
	}
	f->version = jsonr_str(&f->doc, NULL, f->kind == PLOT_FIO_QUICK ? "iops version" : "fio version");
	f->time = jsonr_str(&f->doc, NULL, "time");
	f->global = jsonr_get(&f->doc, NULL, "global options");
	if (f->global && f->global->type != JSONR_OBJ)
		f->global = NULL;
	if (!(f->job = calloc(units->count, sizeof(*f->job)))) {
		iops_err_set(err, ENOMEM, "out of memory");
		rc = -ENOMEM;
		goto fail;
	}
	for (uint32_t c = units->first; c; c = f->doc.nodes[c].next)
		if ((rc = plot_rd_job(&f->doc, &f->doc.nodes[c], &f->job[f->nr_jobs++], name, err)) < 0)
			goto fail;
	return 0;
fail:
	plot_rd_fio_free(f);
	return rc;
}

void plot_rd_fio_free(struct plot_fio *f)
{
	for (unsigned u = 0; f->job && u < f->nr_jobs; u++)
		for (int d = 0; d < PLOT_DIRS; d++)
			for (int k = 0; k < PLOT_LAT_KINDS; k++) {
				free(f->job[u].dir[d].lat[k].bin_v);
				free(f->job[u].dir[d].lat[k].bin_n);
			}
	free(f->job);
	jsonr_free(&f->doc);
	memset(f, 0, sizeof(*f));
}

int plot_rd_fio_pct(const struct plot_lat *l, double p)
{
	for (unsigned i = 0; i < l->nr_pct; i++)
		if (fabs(l->pct[i] - p) < 1e-9)
			return (int)i;
	return -1;
}
