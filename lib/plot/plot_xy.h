/* SPDX-License-Identifier: MIT */
/* plot_xy: draws an XY chart (lines, points, percentile curves, histograms, time series).
 *
 * Each series is one <g data-series="NAME">: a <polyline> for its line (min/max per pixel
 * column once it has more points than columns, PLOT_S_DECIMATE), and a <circle> per mark
 * whose <title> holds the point's exact value: explicit marks as the builder worded them,
 * automatic ones as "NAME: TITLE X UNIT: Y UNIT (HUMAN)", or, for a decimated column,
 * "NAME: TITLE X0 to X1 UNIT: N entries, min A, max B UNIT (HUMAN to HUMAN)". */
#ifndef IOPS_PLOT_XY_H
#define IOPS_PLOT_XY_H

#include <stdbool.h>
#include <stdio.h>

#include "plot/plot_chart.h"

/* The whole <svg> of c. Returns 0 or -ENOMEM. */
int plot_xy_svg(FILE *out, const struct plot_chart *c, bool standalone);

#endif
