/* SPDX-License-Identifier: MIT */
/* plot_xy: XY charts as SVG; see plot_xy.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "plot/plot_decim.h"
#include "plot/plot_svg.h"
#include "plot/plot_xy.h"

struct plot_range {
	double lo, hi;
	bool any;
};

static void plot_range_add(struct plot_range *r, const struct plot_axis *a, double v)
{
	if (isnan(v) || isinf(v) || (a->scale == PLOT_LOG && v <= 0) || (a->scale == PLOT_PCT && v >= 100))
		return;
	if (!r->any) {
		r->lo = r->hi = v;
		r->any = true;
		return;
	}
	r->lo = v < r->lo ? v : r->lo;
	r->hi = v > r->hi ? v : r->hi;
}

/* The data's ranges; false when the chart has no point at all. */
static bool plot_xy_fit(const struct plot_chart *c, struct plot_axis *x, struct plot_axis *y)
{
	struct plot_range rx = { 0 }, ry = { 0 };

	for (unsigned i = 0; i < c->nr_ser; i++) {
		const struct plot_series *s = &c->ser[i];

		for (size_t k = 0; k < s->n; k++) {
			plot_range_add(&rx, x, s->x[k]);
			plot_range_add(&ry, y, s->y[k]);
		}
		for (size_t k = 0; k < s->nm; k++) {
			plot_range_add(&rx, x, s->mx[k]);
			plot_range_add(&ry, y, s->my[k]);
		}
	}
	plot_axis_fit(x, rx.lo, rx.hi);
	plot_axis_fit(y, ry.lo, ry.hi);
	return rx.any && ry.any;
}

static void plot_xy_point(FILE *out, const struct plot_frame *f, const struct plot_axis *x,
			  const struct plot_axis *y, double vx, double vy)
{
	fprintf(out, "%.1f,%.1f ", plot_svg_px(f, x, vx), plot_svg_py(f, y, vy));
}

static void plot_xy_circle(FILE *out, const struct plot_frame *f, const struct plot_axis *x,
			   const struct plot_axis *y, double vx, double vy, bool dot)
{
	fprintf(out, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"><title>", dot ? "dot" : "pt",
		plot_svg_px(f, x, vx), plot_svg_py(f, y, vy), dot ? "2.6" : "4");
}

/* "NAME: time 1500 ms: 74432 KiB/s (72.69MiB/s)" */
static void plot_xy_auto_title(FILE *out, const struct plot_series *s, const struct plot_axis *x,
			       const struct plot_axis *y, size_t k)
{
	char a[PLOT_NUM_LEN], b[PLOT_NUM_LEN], h[PLOT_NUM_LEN];

	plot_svg_esc(out, s->name);
	fprintf(out, ": %s %s %s: %s %s (", x->title, plot_num_raw(a, sizeof(a), s->x[k]), x->unit->raw,
		plot_num_raw(b, sizeof(b), s->y[k]), y->unit->raw);
	plot_svg_esc(out, plot_num_human(h, sizeof(h), s->y[k], y->unit));
	fputs(")", out);
}

static void plot_xy_col_title(FILE *out, const struct plot_series *s, const struct plot_axis *x,
			      const struct plot_axis *y, const struct plot_decim_col *col)
{
	char a[PLOT_NUM_LEN], b[PLOT_NUM_LEN], h[PLOT_NUM_LEN];

	plot_svg_esc(out, s->name);
	fprintf(out, ": %s %s to ", x->title, plot_num_raw(a, sizeof(a), col->x0));
	fprintf(out, "%s %s: %zu entries, min ", plot_num_raw(a, sizeof(a), col->x1), x->unit->raw, col->n);
	fprintf(out, "%s, max %s %s (", plot_num_raw(a, sizeof(a), col->ymin), plot_num_raw(b, sizeof(b), col->ymax),
		y->unit->raw);
	plot_svg_esc(out, plot_num_human(h, sizeof(h), col->ymin, y->unit));
	fputs(" to ", out);
	plot_svg_esc(out, plot_num_human(h, sizeof(h), col->ymax, y->unit));
	fputs(")", out);
}

static int plot_xy_series(FILE *out, const struct plot_frame *f, const struct plot_axis *x,
			  const struct plot_axis *y, const struct plot_series *s, struct plot_decim_col *cols)
{
	bool dots = (s->style & PLOT_S_DOTS) != 0;
	size_t nc = 0;

	fputs("<g class=\"", out);
	plot_svg_series_class(out, s->colour, (s->style & PLOT_S_BOLD) != 0);
	fputs("\" data-series=\"", out);
	plot_svg_esc(out, s->name);
	fputs("\">\n", out);
	if ((s->style & PLOT_S_DECIMATE) && s->n > PLOT_SVG_COLS)
		nc = plot_decim(x, s->x, s->y, s->n, PLOT_SVG_COLS, cols);
	if ((s->style & PLOT_S_LINE) && s->n) {
		fputs("<polyline points=\"", out);
		if (nc) {
			for (size_t c = 0; c < nc; c++) {
				size_t a = cols[c].imin < cols[c].imax ? cols[c].imin : cols[c].imax;
				size_t b = a == cols[c].imin ? cols[c].imax : cols[c].imin;

				plot_xy_point(out, f, x, y, s->x[a], s->y[a]);
				if (b != a)
					plot_xy_point(out, f, x, y, s->x[b], s->y[b]);
			}
		} else {
			for (size_t k = 0; k < s->n; k++)
				plot_xy_point(out, f, x, y, s->x[k], s->y[k]);
		}
		fputs("\"/>\n", out);
	}
	for (size_t k = 0; k < s->nm; k++) {
		plot_xy_circle(out, f, x, y, s->mx[k], s->my[k], dots);
		plot_svg_esc(out, s->mtitle[k]);
		fputs("</title></circle>\n", out);
	}
	if (s->style & PLOT_S_AUTOMARK) {
		for (size_t c = 0; c < nc; c++) {	/* a mark in the middle of each column's span */
			plot_xy_circle(out, f, x, y, (cols[c].x0 + cols[c].x1) / 2, (cols[c].ymin + cols[c].ymax) / 2, dots);
			plot_xy_col_title(out, s, x, y, &cols[c]);
			fputs("</title></circle>\n", out);
		}
		for (size_t k = 0; !nc && k < s->n; k++) {
			plot_xy_circle(out, f, x, y, s->x[k], s->y[k], dots);
			plot_xy_auto_title(out, s, x, y, k);
			fputs("</title></circle>\n", out);
		}
	}
	fputs("</g>\n", out);
	return 0;
}

int plot_xy_svg(FILE *out, const struct plot_chart *c, bool standalone)
{
	struct plot_axis x = c->x, y = c->y;
	struct plot_frame f = { PLOT_SVG_X0, PLOT_SVG_X1, PLOT_SVG_Y0, PLOT_SVG_Y0 + PLOT_SVG_PLOT_H };
	struct plot_decim_col *cols = malloc(PLOT_SVG_COLS * sizeof(*cols));
	const char **names = calloc(c->nr_ser ? c->nr_ser : 1, sizeof(*names));
	unsigned *colours = calloc(c->nr_ser ? c->nr_ser : 1, sizeof(*colours));
	unsigned *bold = calloc(c->nr_ser ? c->nr_ser : 1, sizeof(*bold));
	bool any;
	double legend_y = f.y1 + 50;
	int rc = 0;

	if (!cols || !names || !colours || !bold) {
		rc = -ENOMEM;
		goto free_all;
	}
	for (unsigned i = 0; i < c->nr_ser; i++) {
		names[i] = c->ser[i].name;
		colours[i] = c->ser[i].colour;
		bold[i] = (c->ser[i].style & PLOT_S_BOLD) != 0;
	}
	any = plot_xy_fit(c, &x, &y);
	plot_svg_begin(out, c, legend_y + plot_svg_legend_height(names, c->nr_ser) + 6, standalone);
	plot_svg_axes(out, &f, &x, &y);
	if (!any)
		fprintf(out, "<text class=\"empty\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n",
			(f.x0 + f.x1) / 2, (f.y0 + f.y1) / 2);
	for (unsigned i = 0; i < c->nr_ser && !rc; i++)
		rc = plot_xy_series(out, &f, &x, &y, &c->ser[i], cols);
	plot_svg_legend(out, legend_y, names, colours, bold, c->nr_ser);
	plot_svg_end(out);
free_all:
	free(cols);
	free(names);
	free(colours);
	free(bold);
	return rc;
}
