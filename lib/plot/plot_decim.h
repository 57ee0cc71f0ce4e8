/* SPDX-License-Identifier: MIT */
/* plot_decim: min/max decimation per pixel column. A series with more points than the chart
 * has pixel columns is drawn as each column's lowest and highest point, in the order they
 * came: the line looks the same (every spike stays), and its size is bounded by the chart's
 * width, not by the log's length (600,000 entries draw as at most 2 x PLOT_SVG_COLS = 1,424 points). */
#ifndef IOPS_PLOT_DECIM_H
#define IOPS_PLOT_DECIM_H

#include <stddef.h>

#include "plot/plot_axis.h"

struct plot_decim_col {
	size_t n;		/* points in the column */
	size_t imin, imax;	/* their lowest and highest (first of equals) */
	double x0, x1;		/* the column's first and last x among them */
	double ymin, ymax;
};

/* The columns of the n points (x[i], y[i]) along axis ax over ncols columns: the non-empty
 * ones, left to right, into out[] (room for ncols). NaN values are skipped. Returns the
 * number written. */
size_t plot_decim(const struct plot_axis *ax, const double *x, const double *y, size_t n, unsigned ncols,
		  struct plot_decim_col *out);

#endif
