/* SPDX-License-Identifier: MIT */
/* plot_svg: what every chart's SVG shares: escaping, the style (light and dark colour schemes,
 * the palette), the frame with its grid, ticks and axis labels, and the legend. The SVG is
 * also well-formed XML (xmllint), so that a page reads back with any XML parser.
 *
 * Geometry is in the viewBox's units (one unit is a CSS pixel at the natural size): charts
 * are PLOT_SVG_W wide, the plotting area spans PLOT_SVG_X0..PLOT_SVG_X1, whose width in units
 * is also the number of pixel columns the decimation keeps. */
#ifndef IOPS_PLOT_SVG_H
#define IOPS_PLOT_SVG_H

#include <stdbool.h>
#include <stdio.h>

#include "plot/plot_axis.h"
#include "plot/plot_chart.h"

#define PLOT_SVG_W	820
#define PLOT_SVG_X0	78
#define PLOT_SVG_X1	790
#define PLOT_SVG_COLS	(PLOT_SVG_X1 - PLOT_SVG_X0)
#define PLOT_SVG_Y0	44	/* the plotting area's top */
#define PLOT_SVG_PLOT_H	260	/* and its height */
#define PLOT_SVG_CHAR_W	6.6	/* an estimate of one character's width at 12px */

struct plot_frame {
	double x0, x1, y0, y1;	/* y0 top, y1 bottom */
};

/* s with &, <, >, " and ' escaped (text and attribute values alike); bytes below 0x20 other
 * than tab and newline become U+FFFD, which XML 1.0 cannot carry. */
void plot_svg_esc(FILE *out, const char *s);
/* The same, cut to at most max characters (UTF-8 aware) with an ellipsis. */
void plot_svg_esc_cut(FILE *out, const char *s, unsigned max);

/* The style sheet (without the <style> tags): colour schemes, palette, chart classes. */
void plot_svg_style(FILE *out);

/* <svg ...> with the chart's id, its accessible name, and (standalone: a file of its own) the
 * namespace, a generator comment and the style; then the title line. */
void plot_svg_begin(FILE *out, const struct plot_chart *c, double height, bool standalone);
void plot_svg_end(FILE *out);

/* The frame's grid lines, tick labels and the axis' label; x == NULL: no x axis (bars draw
 * their categories themselves). */
void plot_svg_axes(FILE *out, const struct plot_frame *f, const struct plot_axis *x, const struct plot_axis *y);

/* Screen coordinates of a value along an axis of the frame. */
double plot_svg_px(const struct plot_frame *f, const struct plot_axis *x, double v);
double plot_svg_py(const struct plot_frame *f, const struct plot_axis *y, double v);

/* The legend from y down, items of the series named names[] (colours: their index); the
 * height it takes. (n, a function of the caller's layout: plot_svg_legend_height().) */
double plot_svg_legend_height(const char *const *names, unsigned n);
void plot_svg_legend(FILE *out, double y, const char *const *names, const unsigned *colours,
		     const unsigned *bold, unsigned n);

/* The class list of series colour k: "s s3" and, past the palette, a dash "d1". */
void plot_svg_series_class(FILE *out, unsigned k, bool bold);

#endif
