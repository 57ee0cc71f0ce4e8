/* SPDX-License-Identifier: MIT */
/* plot_chart: what one chart shows, before it is drawn. An XY chart holds series (a line, and
 * marks that carry each point's value in a tooltip); a bar chart holds bars by category and
 * series, each with an optional error bar. Builders (plot_fio.c, plot_logs.c, plot_misc.c)
 * fill charts; plot_xy.c and plot_bars.c draw them. A chart owns its strings and arrays.
 *
 * Out of memory is sticky: every adder becomes a no-op once an allocation failed, and
 * plot_chart_ok() tells at the end (json_writer's error style), so builders stay readable. */
#ifndef IOPS_PLOT_CHART_H
#define IOPS_PLOT_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "plot/plot_axis.h"

#define PLOT_COLOURS	8	/* the palette's size (Okabe and Ito's colour-blind-safe set) */

enum plot_chart_kind { PLOT_CHART_XY, PLOT_CHART_BARS };

/* series style bits */
enum {
	PLOT_S_LINE = 1,	/* draw x[]/y[] as a polyline */
	PLOT_S_AUTOMARK = 2,	/* marks from the line's own points (each point, or per pixel
				 * column once decimated), titled at drawing time */
	PLOT_S_DOTS = 4,	/* marks visible (else they show on hover only) */
	PLOT_S_DECIMATE = 8,	/* more points than pixel columns: min/max per column */
	PLOT_S_BOLD = 16,	/* an aggregate (All clients): a wider line */
	PLOT_S_STEP = 32,	/* the line is a step function (tooltip words) */
};

struct plot_series {
	char *name;		/* data-series and legend */
	unsigned style;		/* PLOT_S_* */
	unsigned colour;	/* palette index; series past PLOT_COLOURS get dashes too */
	size_t n, cap;		/* the line */
	double *x, *y;
	size_t nm, mcap;	/* explicit marks with their tooltips */
	double *mx, *my;
	char **mtitle;
};

struct plot_bar {
	unsigned cat, ser;	/* indices into cats[] and sers[] */
	char *name;		/* data-series */
	double v;
	bool whisker;		/* an error bar from lo to hi */
	double lo, hi;
	char *title;		/* the tooltip, whole */
};

struct plot_chart {
	char id[64];		/* unique in its page: "lat-clat", "ts-bw" */
	char *title;
	char *note;		/* under the chart: windows, decimation, what error bars are */
	enum plot_chart_kind kind;
	struct plot_axis x, y;	/* bars: y only */
	struct plot_series *ser;
	unsigned nr_ser, ser_cap;
	char **cats, **sers;	/* bars */
	unsigned nr_cats, nr_sers, cats_cap, sers_cap;
	struct plot_bar *bar;
	unsigned nr_bars, bars_cap;
	bool oom;
};

/* A new chart, NULL when out of memory. The axes are plot_axis_init()ed by the caller. */
struct plot_chart *plot_chart_new(enum plot_chart_kind kind, const char *id, const char *title);
void plot_chart_free(struct plot_chart *c);
bool plot_chart_ok(const struct plot_chart *c);

/* printf-style: replaces the note (or appends "; ..." with plot_chart_note_add()). */
void plot_chart_note(struct plot_chart *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void plot_chart_note_add(struct plot_chart *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A new series (colour: the next one), NULL when out of memory (then c->oom). */
struct plot_series *plot_chart_series(struct plot_chart *c, const char *name, unsigned style);
void plot_series_point(struct plot_chart *c, struct plot_series *s, double x, double y);
/* A mark with its tooltip, printf-style. */
void plot_series_mark(struct plot_chart *c, struct plot_series *s, double x, double y, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Bars: the category and series are found by name, or added in order of first use. Returns
 * the bar (NULL when out of memory); its title is printf-style. */
struct plot_bar *plot_chart_bar(struct plot_chart *c, const char *cat, const char *ser, const char *name,
				double v, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Room for one more element of sz bytes in the array *arr (a pointer to the array's pointer:
 * capacity *cap, n used), doubling it. 0, or -ENOMEM with the array as it was. */
int plot_chart_grow(void *arr, size_t *cap, size_t n, size_t sz);

/* A malloc()ed printf-style string, NULL when out of memory. */
char *plot_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
