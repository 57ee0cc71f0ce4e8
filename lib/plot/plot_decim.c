/* SPDX-License-Identifier: MIT */
/* plot_decim: min/max per pixel column; see plot_decim.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_decim.h"

size_t plot_decim(const struct plot_axis *ax, const double *x, const double *y, size_t n, unsigned ncols,
		  struct plot_decim_col *out)
{
	size_t k = 0;

	if (!ncols)
		return 0;
	for (unsigned c = 0; c < ncols; c++)
		out[c].n = 0;
	for (size_t i = 0; i < n; i++) {
		struct plot_decim_col *col;
		unsigned c;

		if (isnan(x[i]) || isnan(y[i]))
			continue;
		c = (unsigned)(plot_axis_pos(ax, x[i]) * ncols);
		col = &out[c < ncols ? c : ncols - 1];
		if (!col->n++) {
			col->imin = col->imax = i;
			col->x0 = col->x1 = x[i];
			col->ymin = col->ymax = y[i];
			continue;
		}
		col->x0 = x[i] < col->x0 ? x[i] : col->x0;
		col->x1 = x[i] > col->x1 ? x[i] : col->x1;
		if (y[i] < col->ymin) {
			col->ymin = y[i];
			col->imin = i;
		}
		if (y[i] > col->ymax) {
			col->ymax = y[i];
			col->imax = i;
		}
	}
	for (unsigned c = 0; c < ncols; c++)	/* compact, left to right */
		if (out[c].n)
			out[k++] = out[c];
	return k;
}
