/* SPDX-License-Identifier: MIT */
/* plot_bars: grouped bars as SVG; see plot_bars.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_bars.h"
#include "plot/plot_svg.h"

#define CAT_CUT		32	/* characters of a category label (the bars' titles have it whole) */
#define VALUES_MAX	32	/* bars up to which each shows its value above it */
#define BAR_W_MAX	90

static size_t plot_bars_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n > CAT_CUT ? CAT_CUT : n;
}

/* The categories' labels below the frame; the height they take. */
static double plot_bars_cats(FILE *out, const struct plot_chart *c, const struct plot_frame *f, bool draw)
{
	double cw = (f->x1 - f->x0) / (c->nr_cats ? c->nr_cats : 1);
	size_t longest = 0;
	bool rotate;

	for (unsigned i = 0; i < c->nr_cats; i++) {
		size_t n = plot_bars_chars(c->cats[i]);

		longest = n > longest ? n : longest;
	}
	rotate = (double)longest * PLOT_SVG_CHAR_W > cw - 6;
	for (unsigned i = 0; draw && i < c->nr_cats; i++) {
		double cx = f->x0 + cw * (i + 0.5);

		if (rotate)
			fprintf(out, "<text class=\"tick\" transform=\"translate(%.1f %.1f) rotate(-30)\" "
				"text-anchor=\"end\">", cx + 4, f->y1 + 14);
		else
			fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", cx, f->y1 + 16);
		plot_svg_esc_cut(out, c->cats[i], CAT_CUT);
		fputs("</text>\n", out);
	}
	return rotate ? 20 + (double)longest * PLOT_SVG_CHAR_W * 0.5 : 24;
}

/* Bar b's slot in its category (the series present there, in order) and how many there are. */
static unsigned plot_bars_slot(const struct plot_chart *c, const struct plot_bar *b, unsigned *slots)
{
	unsigned slot = 0;

	*slots = 0;
	for (unsigned i = 0; i < c->nr_bars; i++)
		if (c->bar[i].cat == b->cat) {
			++*slots;
			slot += c->bar[i].ser < b->ser;
		}
	return slot;
}

/* A short label of v (shown units): 1222, 52.1, 0.844. */
static void plot_bars_value(FILE *out, double v)
{
	double a = fabs(v);

	fprintf(out, a >= 100 || a == 0 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", v);
}

static void plot_bars_one(FILE *out, const struct plot_chart *c, const struct plot_frame *f,
			  const struct plot_axis *y, const struct plot_bar *b, unsigned most, bool values)
{
	unsigned slots, slot = plot_bars_slot(c, b, &slots);
	double cw = (f->x1 - f->x0) / c->nr_cats, bw = fmin(cw * 0.8 / most, BAR_W_MAX);
	double bx = f->x0 + cw * b->cat + (cw - bw * slots) / 2 + bw * slot, top = plot_svg_py(f, y, b->v);
	double zero = plot_svg_py(f, y, 0);

	fputs("<g class=\"", out);
	plot_svg_series_class(out, b->ser, false);
	fputs("\" data-series=\"", out);
	plot_svg_esc(out, b->name);
	fputs("\" data-category=\"", out);
	plot_svg_esc(out, c->cats[b->cat]);
	fputs("\"><title>", out);
	plot_svg_esc(out, b->title);
	fprintf(out, "</title><rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
		bx + 1, fmin(top, zero), bw > 3 ? bw - 2 : bw, fabs(zero - top));
	if (b->whisker) {
		double mx = bx + bw / 2, lo = plot_svg_py(f, y, b->lo), hi = plot_svg_py(f, y, b->hi);
		double cap = bw / 4 > 6 ? 6 : bw / 4;

		fprintf(out, "<path class=\"err\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\"/>", mx, lo, hi,
			mx - cap, lo, mx + cap, mx - cap, hi, mx + cap);
		top = fmin(top, hi);
	}
	if (values) {
		fprintf(out, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", bx + bw / 2, top - 4);
		plot_bars_value(out, b->v / y->div);
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
}

int plot_bars_svg(FILE *out, const struct plot_chart *c, bool standalone)
{
	struct plot_axis y = c->y;
	struct plot_frame f = { PLOT_SVG_X0, PLOT_SVG_X1, PLOT_SVG_Y0, PLOT_SVG_Y0 + PLOT_SVG_PLOT_H };
	unsigned *colours = calloc(c->nr_sers ? c->nr_sers : 1, sizeof(*colours));
	double hi = 0, lo = 0, legend_y;
	unsigned most = 1;
	bool legend = c->nr_sers > 1 || (c->nr_sers == 1 && c->sers[0][0]);

	if (!colours)
		return -ENOMEM;
	for (unsigned i = 0; i < c->nr_sers; i++)
		colours[i] = i;
	for (unsigned i = 0; i < c->nr_bars; i++) {
		const struct plot_bar *b = &c->bar[i];
		double top = b->whisker && b->hi > b->v ? b->hi : b->v;

		hi = top > hi ? top : hi;
		lo = b->v < lo ? b->v : lo;
	}
	y.zero = true;
	plot_axis_fit(&y, lo, hi);
	legend_y = f.y1 + plot_bars_cats(out, c, &f, false) + 8;
	plot_svg_begin(out, c, legend_y + (legend ? plot_svg_legend_height((const char *const *)c->sers, c->nr_sers) : 0) + 6,
		       standalone);
	plot_svg_axes(out, &f, NULL, &y);
	if (!c->nr_bars)
		fprintf(out, "<text class=\"empty\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n",
			(f.x0 + f.x1) / 2, (f.y0 + f.y1) / 2);
	plot_bars_cats(out, c, &f, true);
	for (unsigned i = 0; i < c->nr_bars; i++) {
		unsigned slots;

		plot_bars_slot(c, &c->bar[i], &slots);
		most = slots > most ? slots : most;
	}
	for (unsigned i = 0; i < c->nr_bars; i++)
		plot_bars_one(out, c, &f, &y, &c->bar[i], most, c->nr_bars <= VALUES_MAX);
	if (legend)
		plot_svg_legend(out, legend_y, (const char *const *)c->sers, colours, NULL, c->nr_sers);
	plot_svg_end(out);
	free(colours);
	return 0;
}
