/* SPDX-License-Identifier: MIT */
/* plot_fio: the charts of fio results (jobs, client_stats, quick's steps):
 * - IOPS and bandwidth bars: a category per job (per client, and All clients), a series per
 *   direction; side by side, a category per job and direction and a series per input. Error
 *   bars span the bw/iops samples' min and max (fio's 500 ms samples) where there are two;
 * - latency percentiles, a chart per kind (clat, lat, slat) with any: x is the percentile on
 *   the scale of 1 - p, y the latency; the JSON's percentiles as points, and with json+ the
 *   curve the histogram bins make (fio reads its percentiles off those bins);
 * - json+ histograms, a chart per kind: each bin's share of the direction's I/Os. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_int.h"

#define NAME_LEN	512

void plot_fio_job_label(const struct plot_job *j, char *buf, size_t len)
{
	if (j->all_clients || !j->host)
		plot_num_fmt(buf, len, "%s", j->name);
	else if (j->port)
		plot_num_fmt(buf, len, "%s:%.0f %s", j->host, j->port, j->name);
	else
		plot_num_fmt(buf, len, "%s %s", j->host, j->name);
}

/* The series name of job j's direction d: "[LABEL ]JOB DIR"; its category (bars): "[LABEL
 * ]JOB", or side by side "JOB DIR". */
static void plot_fio_names(const struct plot_page *p, const struct plot_input *in, const struct plot_job *j, int d,
			   char *name, char *cat, size_t len)
{
	char pre[NAME_LEN], job[NAME_LEN];

	plot_fio_job_label(j, job, sizeof(job));
	plot_page_prefix(p, in, pre, sizeof(pre));
	plot_num_fmt(name, len, "%s%s %s", pre, job, plot_dir_names[d]);
	if (p->layout == PLOT_SIDE_BY_SIDE)
		plot_num_fmt(cat, len, "%s %s", job, plot_dir_names[d]);
	else
		plot_num_fmt(cat, len, "%s%s", pre, job);
}

/* A walk over every direction that did I/O, of every job of every fio input. */
struct plot_fio_it {
	unsigned i, u;
	int d;			/* -1 before the first */
	const struct plot_input *in;
	const struct plot_job *j;
	const struct plot_dir *dr;
};

#define PLOT_FIO_EACH(p, it) for (struct plot_fio_it it = { 0, 0, -1, NULL, NULL, NULL }; plot_fio_next(p, &it); )

static bool plot_fio_next(const struct plot_page *p, struct plot_fio_it *it)
{
	for (;;) {
		if (++it->d == PLOT_DIRS) {
			it->d = 0;
			it->u++;
		}
		while (it->i < p->nr_in && (p->in[it->i].kind != PLOT_IN_FIO || it->u >= p->in[it->i].u.fio.nr_jobs)) {
			it->i++;
			it->u = 0;
			it->d = 0;
		}
		if (it->i >= p->nr_in)
			return false;
		it->in = &p->in[it->i];
		it->j = &it->in->u.fio.job[it->u];
		it->dr = &it->j->dir[it->d];
		if (it->dr->present)
			return true;
	}
}

static unsigned plot_fio_nr_dirs(const struct plot_page *p)
{
	unsigned n = 0;

	PLOT_FIO_EACH(p, it)
		n++;
	return n;
}

static void plot_fio_bar(const struct plot_page *p, struct plot_chart *c, const struct plot_input *in,
			 const struct plot_job *j, int d, bool iops)
{
	const struct plot_dir *dr = &j->dir[d];
	const struct plot_unit *u = iops ? &plot_u_iops : &plot_u_bytes_s;
	double v = iops ? dr->iops : dr->bw_bytes, n = iops ? dr->iops_samples : dr->bw_samples;
	double lo = iops ? dr->iops_min : dr->bw_min * 1024, hi = iops ? dr->iops_max : dr->bw_max * 1024;
	char name[NAME_LEN], cat[NAME_LEN], a[PLOT_NUM_LEN], h[PLOT_NUM_LEN], l[PLOT_NUM_LEN], m[PLOT_NUM_LEN];
	bool whisker = n >= 2 && hi >= lo && hi > 0;
	struct plot_bar *b;

	plot_fio_names(p, in, j, d, name, cat, sizeof(name));
	plot_num_raw(a, sizeof(a), v);
	plot_num_human(h, sizeof(h), v, u);
	if (whisker)
		b = plot_chart_bar(c, cat, p->layout == PLOT_SIDE_BY_SIDE ? in->label : plot_dir_names[d], name, v,
				   "%s: %s %s (%s); %.0f samples: min %s, max %s %s", name, a, u->raw, h, n,
				   plot_num_raw(l, sizeof(l), lo), plot_num_raw(m, sizeof(m), hi), u->raw);
	else
		b = plot_chart_bar(c, cat, p->layout == PLOT_SIDE_BY_SIDE ? in->label : plot_dir_names[d], name, v,
				   "%s: %s %s (%s)", name, a, u->raw, h);
	if (b && whisker) {
		b->whisker = true;
		b->lo = lo;
		b->hi = hi;
	}
}

static void plot_fio_bars(struct plot_page *p, bool iops)
{
	struct plot_chart *c = plot_page_chart(p, PLOT_CHART_BARS, iops ? "fio-iops" : "fio-bw",
					       iops ? "IOPS per job and direction" : "Bandwidth per job and direction");
	bool whiskers = false;

	if (!c)
		return;
	plot_axis_init(&c->y, PLOT_LIN, iops ? &plot_u_iops : &plot_u_bytes_s, iops ? "IOPS" : "bandwidth");
	PLOT_FIO_EACH(p, it)
		plot_fio_bar(p, c, it.in, it.j, it.d, iops);
	for (unsigned i = 0; i < c->nr_bars; i++)
		whiskers |= c->bar[i].whisker;
	if (whiskers)
		plot_chart_note(c, "error bars: the lowest and highest of fio's %s samples (%s, every 500 ms "
				"unless the job set them otherwise)", iops ? "IOPS" : "bandwidth",
				iops ? "iops_min, iops_max" : "bw_min, bw_max");
}

/* The percentiles' values: does any need a log scale (more than 20 x from lowest to highest)? */
static bool plot_fio_lat_wide(const struct plot_page *p, int k, bool bins)
{
	double lo = INFINITY, hi = 0;

	PLOT_FIO_EACH(p, it) {
		const struct plot_lat *l = &it.dr->lat[k];

		for (unsigned q = 0; q < l->nr_pct; q++)
			if (l->pct_v[q] > 0) {
				lo = fmin(lo, l->pct_v[q]);
				hi = fmax(hi, l->pct_v[q]);
			}
		for (size_t b = 0; bins && b < l->nr_bins; b++)
			if (l->bin_v[b] > 0) {
				lo = fmin(lo, l->bin_v[b]);
				hi = fmax(hi, l->bin_v[b]);
			}
	}
	return hi > 20 * lo;
}

static void plot_fio_curve(const struct plot_page *p, struct plot_chart *c, const struct plot_input *in,
			   const struct plot_job *j, int d, int k, bool *bins)
{
	const struct plot_lat *l = &j->dir[d].lat[k];
	char name[NAME_LEN], cat[NAME_LEN], v[PLOT_NUM_LEN], h[PLOT_NUM_LEN];
	unsigned style = PLOT_S_LINE | PLOT_S_DOTS | (j->all_clients ? PLOT_S_BOLD : 0);
	struct plot_series *s;
	double cum = 0;

	if (!l->nr_pct && !l->nr_bins)
		return;
	plot_fio_names(p, in, j, d, name, cat, sizeof(name));
	if (!(s = plot_chart_series(c, name, style | (l->nr_bins ? PLOT_S_STEP : 0))))
		return;
	for (size_t b = 0; b < l->nr_bins && l->bins_total > 0; b++) {	/* the steps of the bins */
		plot_series_point(c, s, cum / l->bins_total * 100, l->bin_v[b]);
		cum += l->bin_n[b];
		plot_series_point(c, s, cum / l->bins_total * 100, l->bin_v[b]);
	}
	*bins |= l->nr_bins > 0;
	for (unsigned q = 0; q < l->nr_pct; q++) {
		if (!l->nr_bins)
			plot_series_point(c, s, l->pct[q], l->pct_v[q]);
		plot_series_mark(c, s, l->pct[q], l->pct_v[q], "%s: p%s = %s ns (%s)", name, l->pct_key[q],
				 plot_num_raw(v, sizeof(v), l->pct_v[q]), plot_num_human(h, sizeof(h), l->pct_v[q], &plot_u_ns));
	}
}

static void plot_fio_lat(struct plot_page *p, int k)
{
	static const char *const titles[PLOT_LAT_KINDS] = {
		"Submission latency (slat) percentiles", "Completion latency (clat) percentiles",
		"Total latency (lat) percentiles",
	};
	char id[32];
	struct plot_chart *c;
	bool bins = false;

	plot_num_fmt(id, sizeof(id), "lat-%s", plot_lat_names[k]);
	if (!(c = plot_page_chart(p, PLOT_CHART_XY, id, titles[k])))
		return;
	plot_axis_init(&c->x, PLOT_PCT, &plot_u_pct, "percentile");
	plot_axis_init(&c->y, plot_fio_lat_wide(p, k, true) ? PLOT_LOG : PLOT_LIN, &plot_u_ns, plot_lat_names[k]);
	PLOT_FIO_EACH(p, it)
		plot_fio_curve(p, c, it.in, it.j, it.d, k, &bins);
	plot_chart_note(c, "points: the percentiles of the JSON");
	if (bins)
		plot_chart_note_add(c, "lines: the json+ histogram's bins (fio reads its percentiles off them: "
				    "the value at p is that of the first bin holding p of the I/Os); the last bin "
				    "ends at the axis' right edge");
	else
		plot_chart_note_add(c, "plain JSON: the listed percentiles only (json+ adds the whole curve)");
}

static void plot_fio_hist_series(const struct plot_page *p, struct plot_chart *c, const struct plot_input *in,
				 const struct plot_job *j, int d, int k)
{
	const struct plot_lat *l = &j->dir[d].lat[k];
	char name[NAME_LEN], cat[NAME_LEN], v[PLOT_NUM_LEN], h[PLOT_NUM_LEN], n[PLOT_NUM_LEN], t[PLOT_NUM_LEN];
	struct plot_series *s;

	if (!l->nr_bins || !(l->bins_total > 0))
		return;
	plot_fio_names(p, in, j, d, name, cat, sizeof(name));
	if (!(s = plot_chart_series(c, name, PLOT_S_LINE | (j->all_clients ? PLOT_S_BOLD : 0))))
		return;
	plot_num_raw(t, sizeof(t), l->bins_total);
	for (size_t b = 0; b < l->nr_bins; b++) {
		double share = l->bin_n[b] / l->bins_total * 100;

		plot_series_point(c, s, l->bin_v[b], share);
		plot_series_mark(c, s, l->bin_v[b], share, "%s: bin %s ns (%s): %s of %s I/Os, %.4g %%", name,
				 plot_num_raw(v, sizeof(v), l->bin_v[b]), plot_num_human(h, sizeof(h), l->bin_v[b], &plot_u_ns),
				 plot_num_raw(n, sizeof(n), l->bin_n[b]), t, share);
	}
}

static void plot_fio_hist(struct plot_page *p, int k)
{
	static const char *const titles[PLOT_LAT_KINDS] = {
		"Submission latency (slat) histogram", "Completion latency (clat) histogram",
		"Total latency (lat) histogram",
	};
	char id[32];
	struct plot_chart *c;

	plot_num_fmt(id, sizeof(id), "hist-%s", plot_lat_names[k]);
	if (!(c = plot_page_chart(p, PLOT_CHART_XY, id, titles[k])))
		return;
	plot_axis_init(&c->x, PLOT_LOG, &plot_u_ns, plot_lat_names[k]);
	plot_axis_init(&c->y, PLOT_LIN, &plot_u_pct, "share of the I/Os (%)");
	PLOT_FIO_EACH(p, it)
		plot_fio_hist_series(p, c, it.in, it.j, it.d, k);
	plot_chart_note(c, "each point is a bin of fio's latency histogram (json+ bins: 64 per power of two, "
			"an exact count each), as a share of its direction's I/Os");
}

/* Does any direction of any fio input have percentiles (or bins, when bins) of kind k? */
static bool plot_fio_has(const struct plot_page *p, int k, bool bins)
{
	PLOT_FIO_EACH(p, it)
		if (bins ? it.dr->lat[k].nr_bins : it.dr->lat[k].nr_pct + it.dr->lat[k].nr_bins)
			return true;
	return false;
}

int plot_fio_charts(struct plot_page *p)
{
	static const int order[] = { PLOT_CLAT, PLOT_LAT, PLOT_SLAT };

	if (!plot_page_count(p, PLOT_IN_FIO))
		return 0;
	if (plot_fio_nr_dirs(p) >= 2) {	/* one bar alone says what the card says */
		plot_fio_bars(p, true);
		plot_fio_bars(p, false);
	}
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (plot_fio_has(p, order[i], false))
			plot_fio_lat(p, order[i]);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (plot_fio_has(p, order[i], true))
			plot_fio_hist(p, order[i]);
	return 0;
}
