/* SPDX-License-Identifier: MIT */
/* compare_rd: one document of an input into compare entries (see compare_int.h). fio's JSON
 * (iops' or fio's, json or json+), fio's client_stats and iops quick's document (whose "jobs"
 * are fio's entries) give one entry per job entry; a sweep document one per step. Each
 * direction keeps its figures and what the run itself says of their noise: the per-window
 * samples of IOPS and bandwidth, the latency's N and stddev, and the intervals of its
 * percentiles (from the json+ bins when there are some, else from the percentile list). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "compare/noise.h"
#include "core/jsonr.h"

#define COMPARE_MAX_ENTRIES	(1u << 18)	/* a sweep's largest: 16 rw x 16 bs x 1000 samples */
#define COMPARE_CURVE_MAX	4096	/* points of one latency distribution (fio: 1856 bins) */

const char *const compare_dir_names[COMPARE_DIRS] = { "read", "write", "trim", "mixed", "all" };
const char *const compare_kind_names[4] = { "fio", "client_stats", "quick", "sweep" };

/* the percentiles judged, as fio's JSON keys them */
static const char *const compare_pct_keys[3] = { "50.000000", "99.000000", "99.900000" };
static const double compare_pcts[3] = { 50.0, 99.0, 99.9 };

struct rd {
	const struct jsonr *j;
	const struct compare_opts *o;
	char who[COMPARE_KEY_MAX + 16];	/* "job 'x'" or "step 'randread 4k'" */
	char bad[96];			/* the first bad field, "" if none */
};

static void rd_bad(struct rd *r, const char *sec, const char *what)
{
	if (!r->bad[0])
		snprintf(r->bad, sizeof(r->bad), "bad %s%s%s", sec, *sec ? "/" : "", what);
}

/* A number >= 0 at path below n: true and *v, false when missing; a bad value is named. */
static bool rd_num(struct rd *r, const struct jsonr_node *n, const char *sec, const char *path, double *v)
{
	const struct jsonr_node *x = jsonr_get(r->j, n, path);

	if (!x)
		return false;
	if (x->type != JSONR_NUM || !(x->num >= 0) || !isfinite(x->num)) {
		rd_bad(r, sec, path);
		return false;
	}
	*v = x->num;
	return true;
}

static struct compare_entry *rd_new_entry(struct compare_input *in, struct iops_err *err)
{
	struct compare_entry *e;

	if (in->nr_ent == in->cap_ent) {
		unsigned cap = in->cap_ent ? in->cap_ent * 2 : 16;

		if (cap > COMPARE_MAX_ENTRIES || !(e = realloc(in->ent, (size_t)cap * sizeof(*e)))) {
			iops_err_set(err, ENOMEM, cap > COMPARE_MAX_ENTRIES ? "more than %u jobs or steps" :
				     "out of memory", COMPARE_MAX_ENTRIES);
			return NULL;
		}
		in->ent = e;
		in->cap_ent = cap;
	}
	e = &in->ent[in->nr_ent];
	memset(e, 0, sizeof(*e));
	compare_wl_init(&e->wl);
	for (unsigned d = 0; d < COMPARE_DIRS; d++) {
		e->dir[d].lat_se = -1;
		e->dir[d].win_rse[0] = e->dir[d].win_rse[1] = -1;
		for (unsigned p = 0; p < 3; p++)
			e->dir[d].pct_half[p] = -1;
	}
	return e;
}

/* The per-window samples of one figure (fio's bw_* or iops_* of a direction): the relative
 * standard error of their mean. An entry for k jobs (group_reporting, All clients) holds fio's
 * pure sums: k jobs' samples counted together, means added, S added, so the stddev fio prints
 * is about one job's; the sum over k jobs taken as independent has k times its variance, over
 * samples / k windows. */
static void rd_windows(struct rd *r, const struct jsonr_node *dn, const char *sec, const char *pfx,
		       const char *dev, unsigned k, double *rse, double *df)
{
	char p[3][32];
	double n = 0, mean = 0, sd = 0;
	bool got[3];

	snprintf(p[0], sizeof(p[0]), "%s_samples", pfx);
	snprintf(p[1], sizeof(p[1]), "%s_mean", pfx);
	snprintf(p[2], sizeof(p[2]), "%s_%s", pfx, dev);

	for (unsigned i = 0; i < 3; i++)	/* all three read, so that a bad one is named */
		got[i] = rd_num(r, dn, sec, p[i], i == 0 ? &n : i == 1 ? &mean : &sd);
	if (!got[0] || !got[1] || !got[2])
		return;
	if (n < 2.0 * k || !(mean > 0))
		return;
	*rse = sd * k / (sqrt(n) * mean);
	*df = n / k - 1.0;
}

static int rd_cmp_pt(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The percentiles of one latency kind (lat_ns or clat_ns): values, and the half-widths of their
 * intervals from the bins (exact) or from the percentile list with the min and max at its ends. */
static void rd_pcts(struct rd *r, const struct jsonr_node *ln, const char *sec, struct compare_dir *d)
{
	const struct jsonr_node *pl = jsonr_get(r->j, ln, "percentile"), *bins = jsonr_get(r->j, ln, "bins");
	const struct jsonr_node *src = bins && bins->type == JSONR_OBJ && bins->count ? bins : pl;
	double n = 0, total = 0, (*pt)[2], *fr, *va, v;
	unsigned np = 0;

	for (unsigned i = 0; i < 3; i++)
		if (rd_num(r, pl, sec, compare_pct_keys[i], &v)) {
			d->has[COMPARE_P50 + i] = true;
			d->val[COMPARE_P50 + i] = v;
		}
	if (!rd_num(r, ln, sec, "N", &n) || !(n > 0) || !src || src->type != JSONR_OBJ || !src->count ||
	    src->count > COMPARE_CURVE_MAX)
		return;
	pt = calloc(src->count + 2u, sizeof(*pt));
	fr = calloc(src->count + 2u, sizeof(*fr));
	va = calloc(src->count + 2u, sizeof(*va));
	if (!pt || !fr || !va)
		goto free_all;
	if (src != bins && rd_num(r, ln, sec, "min", &v)) {	/* the list: from 0 (min) to 1 (max) */
		pt[np][0] = 0.0;
		pt[np++][1] = v;
	}
	for (uint32_t k = src->first; k; k = r->j->nodes[k].next) {
		const struct jsonr_node *x = &r->j->nodes[k];
		char *end;
		double key = strtod(x->key, &end);

		if (*end || !(key >= 0) || x->type != JSONR_NUM || !(x->num >= 0)) {
			rd_bad(r, sec, src == bins ? "bins" : "percentile");
			goto free_all;
		}
		pt[np][0] = src == bins ? key : key / 100.0;
		pt[np++][1] = x->num;
	}
	if (src != bins && rd_num(r, ln, sec, "max", &v)) {
		pt[np][0] = 1.0;
		pt[np++][1] = v;
	}
	qsort(pt, np, sizeof(*pt), rd_cmp_pt);
	for (unsigned i = 0; i < np; i++) {	/* bins: (value, count) -> (cumulative fraction, value) */
		total += pt[i][1];
		fr[i] = src == bins ? total : pt[i][0];
		va[i] = src == bins ? pt[i][0] : pt[i][1];
	}
	for (unsigned i = 0; src == bins && i < np; i++)
		fr[i] = total > 0 ? fr[i] / total : 1.0;
	{
		struct noise_curve c = { fr, va, np, src == bins };

		for (unsigned i = 0; i < 3; i++) {
			double lo, hi;

			if (!d->has[COMPARE_P50 + i])
				continue;
			noise_pct_interval(n, compare_pcts[i], r->o->conf, &lo, &hi);
			d->pct_half[i] = (noise_curve_at(&c, hi) - noise_curve_at(&c, lo)) / 2.0;
		}
		d->pct_exact = src == bins;
	}
free_all:
	free(pt);
	free(fr);
	free(va);
}

/* One direction of a fio job entry. k: the jobs the entry stands for. */
static void rd_dir(struct rd *r, const struct jsonr_node *dn, const char *sec, unsigned k, struct compare_dir *d)
{
	const struct jsonr_node *ln;
	double ios = 0, n = 0, sd = 0;

	if (!rd_num(r, dn, sec, "total_ios", &ios) || !(ios > 0))
		return;
	d->present = true;
	d->has[COMPARE_IOPS] = rd_num(r, dn, sec, "iops", &d->val[COMPARE_IOPS]);
	d->has[COMPARE_BW] = rd_num(r, dn, sec, "bw_bytes", &d->val[COMPARE_BW]);
	if (!d->has[COMPARE_IOPS] || !d->has[COMPARE_BW])
		rd_bad(r, sec, d->has[COMPARE_IOPS] ? "bw_bytes" : "iops");
	if (rd_num(r, dn, sec, "lat_ns/N", &n) && n > 0 && rd_num(r, dn, sec, "lat_ns/mean", &d->val[COMPARE_MEAN])) {
		d->has[COMPARE_MEAN] = true;
		if (rd_num(r, dn, sec, "lat_ns/stddev", &sd))
			d->lat_se = sd / sqrt(n);
	}
	rd_windows(r, dn, sec, "iops", "stddev", k, &d->win_rse[0], &d->win_df[0]);
	rd_windows(r, dn, sec, "bw", "dev", k, &d->win_rse[1], &d->win_df[1]);
	/* the percentiles fio printed: of the total latency with lat_percentiles, else clat's */
	ln = jsonr_get(r->j, dn, "lat_ns/percentile") ? jsonr_get(r->j, dn, "lat_ns") : jsonr_get(r->j, dn, "clat_ns");
	if (ln && jsonr_get(r->j, ln, "percentile")) {
		snprintf(d->pct_kind, sizeof(d->pct_kind), "%s", ln == jsonr_get(r->j, dn, "lat_ns") ? "lat" : "clat");
		rd_pcts(r, ln, sec, d);
	}
}

/* A workload value into wl; one too long is named in r->bad. */
static void rd_wl(struct rd *r, struct compare_wl *wl, const char *key, const char *value)
{
	if (compare_wl_set(wl, key, value) < 0 && !r->bad[0])
		snprintf(r->bad, sizeof(r->bad), "%.40s's value is over %d characters", key, COMPARE_WL_MAX - 1);
}

/* The options of an object ("global options", "job options") into the workload. */
static void rd_opts(struct rd *r, const struct jsonr_node *o, struct compare_wl *wl)
{
	if (!o || o->type != JSONR_OBJ)
		return;
	for (uint32_t k = o->first; k; k = r->j->nodes[k].next)
		if (r->j->nodes[k].type == JSONR_STR)
			rd_wl(r, wl, r->j->nodes[k].key, r->j->nodes[k].str);
}

static bool rd_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The jobs entry i of list stands for: numjobs over the entries of its name (and host), as in
 * lib/merge (numjobs=4 is four entries of one job, or one group_reporting entry of four); fio's
 * All clients entry: the sum over the others. */
static unsigned rd_members(struct rd *r, const struct jsonr_node *list, const struct jsonr_node *e,
			   const struct compare_wl *wl)
{
	const char *name = jsonr_str(r->j, e, "jobname"), *host = jsonr_str(r->j, e, "hostname");
	unsigned same = 0, sum = 0;
	long nj = strtol(wl->norm[COMPARE_WL_NUMJOBS], NULL, 10);

	for (uint32_t k = list->first; k; k = r->j->nodes[k].next) {
		const struct jsonr_node *x = &r->j->nodes[k];

		if (name && !strcmp(name, "All clients") && x != e) {
			struct compare_wl w;

			compare_wl_init(&w);
			rd_opts(r, jsonr_get(r->j, NULL, "global options"), &w);
			rd_opts(r, jsonr_get(r->j, x, "job options"), &w);
			sum += rd_members(r, list, x, &w);
		}
		same += rd_same(jsonr_str(r->j, x, "jobname"), name) && rd_same(jsonr_str(r->j, x, "hostname"), host);
	}
	if (name && !strcmp(name, "All clients"))
		return sum ? sum : 1;
	return nj > same && same && nj < (1 << 20) ? (unsigned)(nj / same) : 1;
}

static int rd_jobs(struct compare_input *in, struct rd *r, const struct jsonr_node *list, unsigned doc,
		   struct iops_err *err)
{
	unsigned first = in->nr_ent, idx = 0;

	for (uint32_t k = list->first; k; k = r->j->nodes[k].next, idx++) {
		const struct jsonr_node *e = &r->j->nodes[k];
		const char *name = jsonr_str(r->j, e, "jobname"), *host = jsonr_str(r->j, e, "hostname");
		struct compare_entry *ce;
		unsigned occ = 1, kj;

		if (e->type != JSONR_OBJ || !name) {
			iops_err_set(err, EINVAL, "entry %u of the jobs has no jobname", idx + 1);
			return -1;
		}
		for (unsigned i = first; i < in->nr_ent; i++)	/* the k-th job of this name */
			occ += !strncmp(in->ent[i].key, name, strlen(name)) &&
			       (!in->ent[i].key[strlen(name)] || !strncmp(in->ent[i].key + strlen(name), " #", 2));
		if (strlen(name) > COMPARE_NAME_MAX || (host && strlen(host) >= COMPARE_HOST_MAX)) {
			iops_err_set(err, ENAMETOOLONG, "entry %u of the jobs: its %s is over %d characters", idx + 1,
				     strlen(name) > COMPARE_NAME_MAX ? "jobname" : "hostname",
				     strlen(name) > COMPARE_NAME_MAX ? COMPARE_NAME_MAX : COMPARE_HOST_MAX - 1);
			return -1;
		}
		if (!(ce = rd_new_entry(in, err)))
			return -1;
		/* (both fit: the name is at most COMPARE_NAME_MAX, " #k" at most 12 more) */
		snprintf(ce->key, sizeof(ce->key), occ > 1 ? "%s #%u" : "%s", name, occ);
		memcpy(ce->host, host ? host : "", host ? strlen(host) + 1 : 1);
		snprintf(r->who, sizeof(r->who), "job '%s'", ce->key);
		ce->doc = doc;
		rd_opts(r, jsonr_get(r->j, NULL, "global options"), &ce->wl);
		rd_opts(r, jsonr_get(r->j, e, "job options"), &ce->wl);
		kj = rd_members(r, list, e, &ce->wl);
		snprintf(ce->wl.raw[COMPARE_WL_GROUP], COMPARE_WL_MAX, "%s", kj > 1 ? "1" : "");
		snprintf(ce->wl.norm[COMPARE_WL_GROUP], COMPARE_WL_MAX, "%d", kj > 1);
		for (unsigned d = 0; d < COMPARE_ALL; d++) {
			const struct jsonr_node *dn = jsonr_get(r->j, e, compare_dir_names[d]);

			if (dn && dn->type == JSONR_OBJ)
				rd_dir(r, dn, compare_dir_names[d], kj, &ce->dir[d]);
		}
		if (r->bad[0]) {
			iops_err_set(err, EINVAL, "%s: %s", r->who, r->bad);
			return -1;
		}
		in->nr_ent++;
	}
	return 0;
}

/* A sweep document's steps (iops sweep --output-format=json): both directions together. */
static int rd_sweep(struct compare_input *in, struct rd *r, const struct jsonr_node *list, unsigned doc,
		    struct iops_err *err)
{
	static const struct {
		const char *key;
		enum compare_wl_field f;
	} wl_keys[] = {
		{ "ioengine", COMPARE_WL_ENGINE }, { "iodepth", COMPARE_WL_IODEPTH },
		{ "numjobs", COMPARE_WL_NUMJOBS }, { "size", COMPARE_WL_SIZE }, { "direct", COMPARE_WL_DIRECT },
	};
	unsigned idx = 0;

	for (uint32_t k = list->first; k; k = r->j->nodes[k].next, idx++) {
		const struct jsonr_node *s = &r->j->nodes[k];
		const char *rw = jsonr_str(r->j, s, "rw"), *bs = jsonr_str(r->j, s, "bs");
		struct compare_entry *ce;
		struct compare_dir *d;
		double v = 0, ios = 0, numjobs = 1;
		unsigned kj;

		if (s->type != JSONR_OBJ || !rw || !bs) {
			iops_err_set(err, EINVAL, "step %u has no rw and bs", idx + 1);
			return -1;
		}
		if (strlen(rw) >= COMPARE_WL_MAX || strlen(bs) >= COMPARE_WL_MAX) {	/* then the key fits */
			iops_err_set(err, ENAMETOOLONG, "step %u: its rw or bs is over %d characters", idx + 1,
				     COMPARE_WL_MAX - 1);
			return -1;
		}
		if (rd_num(r, s, "", "stopped", &v) && v > 0)
			continue;	/* cut short by a stop: not a measurement of the step */
		if (!(ce = rd_new_entry(in, err)))
			return -1;
		snprintf(ce->key, sizeof(ce->key), "%s %s", rw, bs);
		snprintf(r->who, sizeof(r->who), "step %u ('%s')", idx + 1, ce->key);
		ce->doc = doc;
		rd_wl(r, &ce->wl, "rw", rw);
		rd_wl(r, &ce->wl, "bs", bs);
		for (unsigned w = 0; w < sizeof(wl_keys) / sizeof(wl_keys[0]); w++) {
			const char *val = jsonr_str(r->j, s, wl_keys[w].key);

			if (val)
				rd_wl(r, &ce->wl, wl_keys[w].key, val);
			else	/* an older sweep document: not said, not compared */
				ce->wl.known[wl_keys[w].f] = false;
		}
		ce->wl.known[COMPARE_WL_GROUP] = false;	/* every step is one group */
		numjobs = strtod(ce->wl.norm[COMPARE_WL_NUMJOBS], NULL);
		kj = ce->wl.known[COMPARE_WL_NUMJOBS] && numjobs >= 1 && numjobs < 1 << 20 ? (unsigned)numjobs : 1;
		d = &ce->dir[COMPARE_ALL];
		d->has[COMPARE_IOPS] = rd_num(r, s, "", "iops", &d->val[COMPARE_IOPS]);
		d->has[COMPARE_BW] = rd_num(r, s, "", "bw_bytes", &d->val[COMPARE_BW]);
		d->present = d->has[COMPARE_IOPS] && d->val[COMPARE_IOPS] > 0;
		if (rd_num(r, s, "", "lat_mean_us", &v) && v > 0) {
			d->has[COMPARE_MEAN] = true;
			d->val[COMPARE_MEAN] = v * 1e3;
			if (rd_num(r, s, "", "total_ios", &ios) && ios > 0 && rd_num(r, s, "", "lat_stddev_us", &v))
				d->lat_se = v * 1e3 / sqrt(ios);
		}
		for (unsigned p = 0; p < 3; p++) {
			static const char *const keys[3] = { "clat_p50_us", "clat_p99_us", "clat_p999_us" };

			if (rd_num(r, s, "", keys[p], &v) && v > 0) {
				d->has[COMPARE_P50 + p] = true;
				d->val[COMPARE_P50 + p] = v * 1e3;
				snprintf(d->pct_kind, sizeof(d->pct_kind), "clat");
			}
		}
		rd_windows(r, s, "", "iops", "stddev", kj, &d->win_rse[0], &d->win_df[0]);
		rd_windows(r, s, "", "bw", "dev", kj, &d->win_rse[1], &d->win_df[1]);
		if (r->bad[0]) {
			iops_err_set(err, EINVAL, "%s: %s", r->who, r->bad);
			return -1;
		}
		in->nr_ent++;
	}
	return 0;
}

int compare_rd_doc(struct compare_input *in, const char *text, size_t len, unsigned doc,
		   const struct compare_opts *o, struct iops_err *err)
{
	struct jsonr j;
	struct rd r = { .j = &j, .o = o };
	const struct jsonr_node *list, *s0;
	char why[sizeof(err->msg)];
	enum compare_kind kind;
	const char *mode;
	unsigned before = in->nr_ent;
	int rc;

	if (jsonr_parse(&j, text, len, err) < 0) {
		memcpy(why, err->msg, sizeof(why));
		iops_err_set(err, EINVAL, "not a JSON document (%s)", why);
		return -1;
	}
	mode = jsonr_str(&j, NULL, "mode");
	if ((list = jsonr_get(&j, NULL, "jobs")) && (jsonr_str(&j, NULL, "fio version") || (mode && !strcmp(mode, "quick"))))
		kind = jsonr_str(&j, NULL, "fio version") ? COMPARE_K_FIO : COMPARE_K_QUICK;
	else if ((list = jsonr_get(&j, NULL, "client_stats")))
		kind = COMPARE_K_CLIENT;
	else if ((list = jsonr_get(&j, NULL, "steps")) && (s0 = jsonr_child(&j, list, 0)) && jsonr_str(&j, s0, "rw"))
		kind = COMPARE_K_SWEEP;
	else
		list = NULL, kind = COMPARE_K_FIO;
	if (!list || list->type != JSONR_ARR) {
		iops_err_set(err, EINVAL, "not a result iops compare reads (fio's JSON, client_stats, "
			     "an iops quick or sweep document)");
		jsonr_free(&j);
		return -1;
	}
	if (doc > 0 && kind != in->kind) {
		iops_err_set(err, EINVAL, "document %u is %s output, the first %s: one kind per input", doc + 1,
			     compare_kind_names[kind], compare_kind_names[in->kind]);
		jsonr_free(&j);
		return -1;
	}
	in->kind = kind;
	rc = kind == COMPARE_K_SWEEP ? rd_sweep(in, &r, list, doc, err) : rd_jobs(in, &r, list, doc, err);
	if (!rc && in->nr_ent == before) {
		iops_err_set(err, EINVAL, "no %s in the document", kind == COMPARE_K_SWEEP ? "step" : "jobs");
		rc = -1;
	}
	if (rc)
		in->nr_ent = before;
	jsonr_free(&j);
	return rc;
}
