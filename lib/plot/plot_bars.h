/* SPDX-License-Identifier: MIT */
/* plot_bars: draws a grouped bar chart: categories along x, one bar per series in each, an
 * error bar where the bar has one. Each bar is one <g data-series="NAME" data-category="CAT">
 * whose first child, a <title>, holds its exact value (as the builder worded it). */
#ifndef IOPS_PLOT_BARS_H
#define IOPS_PLOT_BARS_H

#include <stdbool.h>
#include <stdio.h>

#include "plot/plot_chart.h"

/* The whole <svg> of c. Returns 0 or -ENOMEM. */
int plot_bars_svg(FILE *out, const struct plot_chart *c, bool standalone);

#endif
