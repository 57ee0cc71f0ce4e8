/* SPDX-License-Identifier: MIT */
/* plot_axis: ranges, scales and ticks; see plot_axis.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot/plot_axis.h"

void plot_axis_init(struct plot_axis *a, enum plot_scale scale, const struct plot_unit *u, const char *title)
{
	memset(a, 0, sizeof(*a));
	a->scale = scale;
	a->unit = u;
	a->title = title;
	a->div = 1;
	a->shown = u->raw;
}

double plot_axis_nice(double raw)
{
	double mag, f;

	if (!(raw > 0) || isinf(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	if (f > 1 + 1e-9)
		f = f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10;
	else
		f = 1;
	return f * mag;
}

double plot_axis_pct_x(double p)
{
	double q = 1 - p / 100;

	if (p <= 0)
		return 0;
	if (q <= pow(10, -PLOT_PCT_DECADES_MAX))
		return PLOT_PCT_DECADES_MAX;
	return -log10(q);
}

static void plot_axis_add(struct plot_axis *a, double raw)
{
	if (a->nr_ticks < PLOT_TICKS_MAX)
		a->tick[a->nr_ticks++] = raw;
}

static void plot_axis_fit_lin(struct plot_axis *a, double lo, double hi)
{
	double slo, shi, first, last;

	if (a->zero) {
		lo = lo < 0 ? lo : 0;
		hi = hi > 0 ? hi : 0;
	}
	plot_num_scale(a->unit, fmax(fabs(lo), fabs(hi)), &a->div, &a->shown);
	slo = lo / a->div;
	shi = hi / a->div;
	if (shi - slo <= fabs(shi) * 1e-12) {	/* flat: a range around the value */
		double w = slo ? fabs(slo) / 2 : 1;

		slo = a->zero && slo >= 0 ? 0 : slo - w;
		shi += w;
	}
	a->step = plot_axis_nice((shi - slo) / 5);
	first = floor(slo / a->step + 1e-9) * a->step;
	last = ceil(shi / a->step - 1e-9) * a->step;
	for (double t = first; t <= last + a->step * 1e-6 && a->nr_ticks < PLOT_TICKS_MAX; t += a->step)
		plot_axis_add(a, (fabs(t) < a->step * 1e-9 ? 0 : t) * a->div);
	a->lo = first * a->div;
	a->hi = last * a->div;
}

static void plot_axis_fit_log(struct plot_axis *a, double lo, double hi)
{
	int dlo, dhi;

	if (!(hi > 0))
		hi = 1;
	if (!(lo > 0) || lo > hi)
		lo = hi;
	plot_num_scale(a->unit, hi, &a->div, &a->shown);
	dlo = (int)floor(log10(lo / a->div) + 1e-9);
	dhi = (int)ceil(log10(hi / a->div) - 1e-9);
	if (dhi <= dlo)
		dhi = dlo + 1;
	if (dhi - dlo > PLOT_TICKS_MAX - 1)
		dlo = dhi - (PLOT_TICKS_MAX - 1);
	for (int d = dlo; d <= dhi; d++) {
		double dec = pow(10, d);

		plot_axis_add(a, dec * a->div);
		if (dhi - dlo <= 3 && d < dhi) {
			plot_axis_add(a, 2 * dec * a->div);
			plot_axis_add(a, 5 * dec * a->div);
		}
	}
	a->lo = pow(10, dlo) * a->div;
	a->hi = pow(10, dhi) * a->div;
}

static void plot_axis_fit_pct(struct plot_axis *a, double hi)
{
	int dec = (int)ceil(plot_axis_pct_x(hi) - 1e-9);
	double p = 90;

	if (dec < 2)
		dec = 2;	/* p99 at least */
	a->lo = 0;
	a->hi = 100 * (1 - pow(10, -dec));
	plot_axis_add(a, 0);
	plot_axis_add(a, 50);
	for (int d = 1; d <= dec; d++, p = 100 - (100 - p) / 10)
		plot_axis_add(a, p);
}

void plot_axis_fit(struct plot_axis *a, double lo, double hi)
{
	a->nr_ticks = 0;
	a->div = 1;
	a->shown = a->unit->raw;
	a->step = 0;
	if (isnan(lo) || isinf(lo) || isnan(hi) || isinf(hi) || lo > hi)
		lo = hi = 0;
	if (a->scale == PLOT_LOG)
		plot_axis_fit_log(a, lo, hi);
	else if (a->scale == PLOT_PCT)
		plot_axis_fit_pct(a, hi);
	else
		plot_axis_fit_lin(a, lo, hi);
}

double plot_axis_pos(const struct plot_axis *a, double v)
{
	double r;

	if (a->scale == PLOT_LOG)
		r = v > 0 ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0;
	else if (a->scale == PLOT_PCT)
		r = plot_axis_pct_x(v) / plot_axis_pct_x(a->hi);
	else
		r = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0;
	return isnan(r) ? 0 : r < 0 ? 0 : r > 1 ? 1 : r;
}

char *plot_axis_label(const struct plot_axis *a, char *buf, size_t len)
{
	if (a->scale == PLOT_PCT)
		plot_num_fmt(buf, len, "%s (scale of 1 - p: 90, 99, 99.9 equally spaced)", a->title);
	else if (a->shown && a->shown[0] && strcmp(a->shown, a->title))
		plot_num_fmt(buf, len, "%s (%s%s)", a->title, a->shown, a->scale == PLOT_LOG ? ", log scale" : "");
	else
		plot_num_fmt(buf, len, "%s%s", a->title, a->scale == PLOT_LOG ? " (log scale)" : "");
	return buf;
}

char *plot_axis_tick_text(const struct plot_axis *a, unsigned i, char *buf, size_t len)
{
	double v = i < a->nr_ticks ? a->tick[i] : 0;

	if (a->scale == PLOT_PCT)
		plot_num_fmt(buf, len, "%.10g", v);
	else if (a->scale == PLOT_LOG)
		plot_num_fmt(buf, len, "%.10g", v / a->div);
	else
		plot_num_tick(buf, len, v / a->div, a->step);
	return buf;
}
