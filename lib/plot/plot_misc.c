/* SPDX-License-Identifier: MIT */
/* plot_misc: the charts of sweeps and suite runs, grouped bars whose error bars span the
 * samples (a sweep's runs of one step, a suite's iterations):
 * - a sweep: IOPS, bandwidth, mean latency and clat p99 per rw x bs, a category per block
 *   size and a series per rw (side by side: a category per step, a series per input);
 * - a suite: a chart per unit of its figures (bandwidth, latency, IOPS, the file tree's rates
 *   and times), a bar per figure (a series per input when there are several). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_int.h"

#define NAME_LEN	512

/* mean, min and max of v[0..n), and the list "a, b, c" of them into list */
struct plot_samples {
	double mean, lo, hi;
	unsigned n;
	char list[1024];
};

static void plot_samples_add(struct plot_samples *s, double v, const char *tag)
{
	char a[PLOT_NUM_LEN];
	size_t at = strlen(s->list);

	if (!s->n++) {
		s->lo = s->hi = s->mean = v;
	} else {
		s->lo = fmin(s->lo, v);
		s->hi = fmax(s->hi, v);
		s->mean += (v - s->mean) / s->n;
	}
	if (at + 1 < sizeof(s->list) &&
	    snprintf(s->list + at, sizeof(s->list) - at, "%s%s%s", at ? ", " : "", plot_num_raw(a, sizeof(a), v), tag) >=
		    (int)(sizeof(s->list) - at))
		snprintf(s->list + sizeof(s->list) - 5, 5, "...");
}

/* The bar of samples s: "NAME: V UNIT (HUMAN)", or with several "NAME: mean V UNIT (HUMAN) over
 * N WHAT: a, b, c; min A, max B"; an error bar from min to max. */
static void plot_samples_bar(struct plot_chart *c, const char *cat, const char *ser, const char *name,
			     const struct plot_samples *s, const struct plot_unit *u, const char *what)
{
	char a[PLOT_NUM_LEN], h[PLOT_NUM_LEN], l[PLOT_NUM_LEN], m[PLOT_NUM_LEN];
	struct plot_bar *b;

	plot_num_raw(a, sizeof(a), s->mean);
	plot_num_human(h, sizeof(h), s->mean, u);
	if (s->n < 2) {
		plot_chart_bar(c, cat, ser, name, s->mean, "%s: %s %s (%s)", name, a, u->raw, h);
		return;
	}
	b = plot_chart_bar(c, cat, ser, name, s->mean, "%s: mean %s %s (%s) over %u %s: %s; min %s, max %s", name, a,
			   u->raw, h, s->n, what, s->list, plot_num_raw(l, sizeof(l), s->lo), plot_num_raw(m, sizeof(m), s->hi));
	if (b) {
		b->whisker = true;
		b->lo = s->lo;
		b->hi = s->hi;
	}
}

enum sweep_fig { SW_IOPS, SW_BW, SW_LAT, SW_P99, SW_FIGS };

static const struct {
	const char *id, *title, *axis;
	const struct plot_unit *unit;
} sweep_figs[SW_FIGS] = {
	{ "sweep-iops", "Sweep: IOPS per rw and block size", "IOPS", &plot_u_iops },
	{ "sweep-bw", "Sweep: bandwidth per rw and block size", "bandwidth", &plot_u_bytes_s },
	{ "sweep-lat", "Sweep: mean total latency per rw and block size", "lat mean", &plot_u_us },
	{ "sweep-p99", "Sweep: completion latency p99 per rw and block size", "clat p99", &plot_u_us },
};

static double plot_sweep_value(const struct plot_step *st, enum sweep_fig f)
{
	return f == SW_IOPS ? st->iops : f == SW_BW ? st->bw_bytes : f == SW_LAT ? st->lat_mean_us : st->clat_p99_us;
}

/* Every step (rw, bs) of one sweep input into c: its samples' mean and range. */
static void plot_sweep_input(const struct plot_page *p, struct plot_chart *c, const struct plot_input *in,
			     enum sweep_fig f)
{
	const struct plot_sweep *sw = &in->u.sweep;
	bool *done = calloc(sw->nr_steps, sizeof(*done));
	char pre[NAME_LEN];

	if (!done) {
		c->oom = true;
		return;
	}
	plot_page_prefix(p, in, pre, sizeof(pre));
	for (unsigned i = 0; i < sw->nr_steps; i++) {
		const struct plot_step *st = &sw->step[i];
		struct plot_samples s = { 0 };
		char name[NAME_LEN], cat[NAME_LEN], ser[NAME_LEN];

		if (done[i])
			continue;
		for (unsigned k = i; k < sw->nr_steps; k++)
			if (!done[k] && !strcmp(sw->step[k].rw, st->rw) && !strcmp(sw->step[k].bs, st->bs)) {
				done[k] = true;
				plot_samples_add(&s, plot_sweep_value(&sw->step[k], f), sw->step[k].stopped ? " (stopped)" : "");
			}
		plot_num_fmt(name, sizeof(name), "%s%s %s", pre, st->rw, st->bs);
		if (p->layout == PLOT_SIDE_BY_SIDE) {
			plot_num_fmt(cat, sizeof(cat), "%s %s", st->rw, st->bs);
			plot_num_fmt(ser, sizeof(ser), "%s", in->label);
		} else {
			plot_num_fmt(cat, sizeof(cat), "%s", st->bs);
			plot_num_fmt(ser, sizeof(ser), "%s%s", pre, st->rw);
		}
		plot_samples_bar(c, cat, ser, name, &s, sweep_figs[f].unit, "samples");
	}
	free(done);
}

static void plot_sweep_charts(struct plot_page *p)
{
	for (int f = 0; f < SW_FIGS; f++) {
		struct plot_chart *c = plot_page_chart(p, PLOT_CHART_BARS, sweep_figs[f].id, sweep_figs[f].title);
		bool whiskers = false;

		if (!c)
			return;
		plot_axis_init(&c->y, PLOT_LIN, sweep_figs[f].unit, sweep_figs[f].axis);
		for (unsigned i = 0; i < p->nr_in; i++)
			if (p->in[i].kind == PLOT_IN_SWEEP)
				plot_sweep_input(p, c, &p->in[i], (enum sweep_fig)f);
		for (unsigned i = 0; i < c->nr_bars; i++)
			whiskers |= c->bar[i].whisker;
		if (whiskers)
			plot_chart_note(c, "bars: the mean of a step's samples; error bars: their lowest and highest");
	}
}

static const struct {
	const struct plot_unit *unit;
	const char *id, *title, *axis;
} suite_charts[] = {
	{ &plot_u_mibs, "suite-bw", "Suite: bandwidth", "bandwidth" },
	{ &plot_u_ms_lat, "suite-lat", "Suite: I/O latency", "latency" },
	{ &plot_u_iops, "suite-iops", "Suite: throughput", "IOPS" },
	{ &plot_u_files_s, "suite-rates", "Suite: file tree rates", "rate" },
	{ &plot_u_s, "suite-times", "Suite: file tree times", "time" },
};

static void plot_suite_chart(struct plot_page *p, size_t k)
{
	struct plot_chart *c = NULL;
	bool whiskers = false;

	for (unsigned i = 0; i < p->nr_in; i++) {
		const struct plot_input *in = &p->in[i];
		char pre[NAME_LEN];

		if (in->kind != PLOT_IN_SUITE)
			continue;
		plot_page_prefix(p, in, pre, sizeof(pre));
		for (unsigned f = 0; f < in->u.suite.nr_figs; f++) {
			const struct plot_suite_fig *fg = &in->u.suite.fig[f];
			struct plot_samples s = { 0 };
			char name[NAME_LEN], ser[NAME_LEN], tag[32];

			if (fg->unit != suite_charts[k].unit)
				continue;
			if (!c) {
				if (!(c = plot_page_chart(p, PLOT_CHART_BARS, suite_charts[k].id, suite_charts[k].title)))
					return;
				plot_axis_init(&c->y, PLOT_LIN, suite_charts[k].unit, suite_charts[k].axis);
			}
			for (size_t v = 0; v < fg->nr; v++) {
				plot_num_fmt(tag, sizeof(tag), " (iteration %u)", fg->iter[v]);
				plot_samples_add(&s, fg->v[v], fg->nr > 1 ? tag : "");
			}
			plot_num_fmt(name, sizeof(name), "%s%s", pre, fg->name);
			plot_num_fmt(ser, sizeof(ser), "%.*s", pre[0] ? (int)strlen(pre) - 1 : 0, pre);
			plot_samples_bar(c, fg->name, ser, name, &s, fg->unit, "iterations");
		}
	}
	for (unsigned i = 0; c && i < c->nr_bars; i++)
		whiskers |= c->bar[i].whisker;
	if (whiskers)
		plot_chart_note(c, "bars: the mean of the iterations; error bars: their lowest and highest");
}

int plot_misc_charts(struct plot_page *p)
{
	if (plot_page_count(p, PLOT_IN_SWEEP))
		plot_sweep_charts(p);
	if (plot_page_count(p, PLOT_IN_SUITE))
		for (size_t k = 0; k < sizeof(suite_charts) / sizeof(suite_charts[0]); k++)
			plot_suite_chart(p, k);
	return 0;
}
