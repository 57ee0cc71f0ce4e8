/* SPDX-License-Identifier: MIT */
/* plot_axis: an axis' range, scale and ticks. Linear axes step in 1-2-5 multiples of a power
 * of ten on the shown unit (fio's scaling: plot_num_scale()); logarithmic axes tick at the
 * decades, with the 2s and 5s between them while they span at most three decades; the
 * percentile axis maps p to -log10(1 - p/100), so 90, 99, 99.9, 99.99 are equally spaced and
 * the tail is as wide as the body. */
#ifndef IOPS_PLOT_AXIS_H
#define IOPS_PLOT_AXIS_H

#include <stdbool.h>
#include <stddef.h>

#include "plot/plot_num.h"

#define PLOT_TICKS_MAX	40
#define PLOT_PCT_DECADES_MAX	8	/* p99.999999: the most a percentile axis shows */

enum plot_scale { PLOT_LIN, PLOT_LOG, PLOT_PCT };

struct plot_axis {
	enum plot_scale scale;
	const struct plot_unit *unit;	/* of the raw values */
	const char *title;		/* "latency", "time" */
	bool zero;			/* linear: the range includes 0 (bars start there) */
	/* plot_axis_fit() sets the rest */
	double lo, hi;			/* the axis' ends, raw units (percent axis: percentiles) */
	double div;			/* raw units per shown unit */
	const char *shown;		/* the shown unit ("usec", "MiB/s") */
	double step;			/* linear: the tick step, shown units */
	unsigned nr_ticks;
	double tick[PLOT_TICKS_MAX];	/* raw units, ascending */
};

void plot_axis_init(struct plot_axis *a, enum plot_scale scale, const struct plot_unit *u, const char *title);

/* Fits the axis around the data's [lo, hi] (raw units; a logarithmic axis ignores values
 * <= 0, a percentile axis takes percentiles in [0, 100)). Empty or flat data get a range of
 * their own (0..1, or the value's decade). */
void plot_axis_fit(struct plot_axis *a, double lo, double hi);

/* Where v falls along the axis: 0 at lo, 1 at hi (clamped to [0, 1]). */
double plot_axis_pos(const struct plot_axis *a, double v);

/* "latency (usec)", "percentile", "IOPS" */
char *plot_axis_label(const struct plot_axis *a, char *buf, size_t len);

/* Tick i's label in shown units ("0.5", "100", "99.99"). */
char *plot_axis_tick_text(const struct plot_axis *a, unsigned i, char *buf, size_t len);

/* The smallest 1, 2 or 5 x 10^k at or above raw (raw > 0). */
double plot_axis_nice(double raw);

/* The percentile axis' coordinate of p: -log10(1 - p/100), at most PLOT_PCT_DECADES_MAX. */
double plot_axis_pct_x(double p);

#endif
