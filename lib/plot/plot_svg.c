/* SPDX-License-Identifier: MIT */
/* plot_svg: escaping, style, frame, axes and legend of every chart; see plot_svg.h. */
#include <stdint.h>
#include <string.h>

#include "plot/plot_svg.h"

#define LEGEND_X0	PLOT_SVG_X0
#define LEGEND_W	(PLOT_SVG_W - PLOT_SVG_X0 - 8)
#define LEGEND_ROW	18
#define LEGEND_CUT	40	/* characters of a legend entry; its tooltip has the whole name */

void plot_svg_esc(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if (*p < 0x20 && *p != '\t' && *p != '\n')
				fputs("\xef\xbf\xbd", out);
			else
				fputc(*p, out);
		}
	}
}

void plot_svg_esc_cut(FILE *out, const char *s, unsigned max)
{
	unsigned chars = 0;
	size_t i = 0, cut = 0;

	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && ++chars == max)
			cut = i;	/* where the ellipsis goes if there is more */
	if (chars <= max) {
		plot_svg_esc(out, s);
		return;
	}
	for (i = 0; i < cut; i++) {
		char one[2] = { s[i], 0 };

		plot_svg_esc(out, one);
	}
	fputs("\xe2\x80\xa6", out);	/* … */
}

void plot_svg_style(FILE *out)
{
	/* Okabe and Ito's palette; the light scheme trades their yellow (too pale on white) for
	 * black, the dark one their deep blue (too dark on black) for yellow. */
	fputs(":root{--bg:#ffffff;--fg:#1d1d1f;--mute:#5f6368;--grid:#e3e3e3;--axis:#8a8a8a;--card:#f5f6f7;"
	      "--c0:#0072B2;--c1:#E69F00;--c2:#009E73;--c3:#D55E00;--c4:#CC79A7;--c5:#56B4E9;--c6:#000000;--c7:#8c8c8c}\n"
	      "@media (prefers-color-scheme: dark){:root{--bg:#16181b;--fg:#e8eaed;--mute:#a8adb3;--grid:#34373c;"
	      "--axis:#7d8288;--card:#202328;"
	      "--c0:#56B4E9;--c1:#E69F00;--c2:#009E73;--c3:#D55E00;--c4:#CC79A7;--c5:#F0E442;--c6:#ffffff;--c7:#9aa0a6}}\n"
	      "svg.chart{background:var(--bg);color:var(--fg);max-width:100%;height:auto;"
	      "font-family:system-ui,-apple-system,'Segoe UI',sans-serif}\n"
	      "svg.chart text{fill:var(--fg);font-size:12px}\n"
	      "svg.chart .ttl{font-size:15px;font-weight:600}\n"
	      "svg.chart .lbl,svg.chart .tick{fill:var(--mute)}\n"
	      "svg.chart .grid{stroke:var(--grid);stroke-width:1}\n"
	      "svg.chart .frame{stroke:var(--axis);stroke-width:1;fill:none}\n"
	      ".s0{--c:var(--c0)}.s1{--c:var(--c1)}.s2{--c:var(--c2)}.s3{--c:var(--c3)}"
	      ".s4{--c:var(--c4)}.s5{--c:var(--c5)}.s6{--c:var(--c6)}.s7{--c:var(--c7)}\n"
	      "svg.chart .s polyline,svg.chart .s .key{fill:none;stroke:var(--c);stroke-width:1.6;"
	      "stroke-linejoin:round}\n"
	      "svg.chart .s.b polyline,svg.chart .s.b .key{stroke-width:3}\n"
	      ".d1 polyline,.d1 .key{stroke-dasharray:7 3}.d2 polyline,.d2 .key{stroke-dasharray:2 3}"
	      ".d3 polyline,.d3 .key{stroke-dasharray:9 3 2 3}\n"
	      "svg.chart .s .dot{fill:var(--c);stroke:var(--bg);stroke-width:.8}\n"
	      "svg.chart .s .pt{fill:var(--c);fill-opacity:0}\n"
	      "svg.chart .s .pt:hover,svg.chart .s .dot:hover{fill-opacity:1;stroke:var(--fg)}\n"
	      "svg.chart .s rect.bar{fill:var(--c);fill-opacity:.85}\n"
	      "svg.chart .s:hover rect.bar{fill-opacity:1;stroke:var(--fg)}\n"
	      "svg.chart .s rect.sw{fill:var(--c)}\n"
	      "svg.chart .err{stroke:var(--fg);stroke-width:1.2;fill:none}\n"
	      "svg.chart .val{font-size:10px;fill:var(--mute)}\n"
	      "svg.chart .empty{fill:var(--mute);font-style:italic}\n", out);
}

void plot_svg_begin(FILE *out, const struct plot_chart *c, double height, bool standalone)
{
	fprintf(out, "<svg class=\"chart\" id=\"");
	plot_svg_esc(out, c->id);
	fprintf(out, "\" viewBox=\"0 0 %d %.0f\" width=\"%d\" height=\"%.0f\" role=\"img\" aria-labelledby=\"",
		PLOT_SVG_W, height, PLOT_SVG_W, height);
	plot_svg_esc(out, c->id);
	fputs("-t\"", out);
	if (standalone)
		fputs(" xmlns=\"http://www.w3.org/2000/svg\"", out);
	fputs(">\n", out);
	if (standalone) {
		fputs("<style>\n", out);
		plot_svg_style(out);
		fputs("</style>\n", out);
	}
	fputs("<title id=\"", out);
	plot_svg_esc(out, c->id);
	fputs("-t\">", out);
	plot_svg_esc(out, c->title);
	fputs("</title>\n", out);
	fprintf(out, "<text class=\"ttl\" x=\"%d\" y=\"22\">", PLOT_SVG_X0);
	plot_svg_esc(out, c->title);
	fputs("</text>\n", out);
}

void plot_svg_end(FILE *out)
{
	fputs("</svg>\n", out);
}

double plot_svg_px(const struct plot_frame *f, const struct plot_axis *x, double v)
{
	return f->x0 + plot_axis_pos(x, v) * (f->x1 - f->x0);
}

double plot_svg_py(const struct plot_frame *f, const struct plot_axis *y, double v)
{
	return f->y1 - plot_axis_pos(y, v) * (f->y1 - f->y0);
}

void plot_svg_axes(FILE *out, const struct plot_frame *f, const struct plot_axis *x, const struct plot_axis *y)
{
	char buf[PLOT_NUM_LEN * 2];

	fputs("<g class=\"axes\">\n", out);
	for (unsigned i = 0; i < y->nr_ticks; i++) {
		double py = plot_svg_py(f, y, y->tick[i]);

		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			f->x0, f->x1, py, py, f->x0 - 6, py + 4, plot_axis_tick_text(y, i, buf, sizeof(buf)));
	}
	for (unsigned i = 0; x && i < x->nr_ticks; i++) {
		double px = plot_svg_px(f, x, x->tick[i]);

		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			px, px, f->y0, f->y1, px, f->y1 + 16, plot_axis_tick_text(x, i, buf, sizeof(buf)));
	}
	fprintf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		f->x0, f->y0, f->x1 - f->x0, f->y1 - f->y0);
	fprintf(out, "<text class=\"lbl\" transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\">",
		(f->y0 + f->y1) / 2);
	plot_svg_esc(out, plot_axis_label(y, buf, sizeof(buf)));
	fputs("</text>\n", out);
	if (x) {
		fprintf(out, "<text class=\"lbl\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (f->x0 + f->x1) / 2,
			f->y1 + 36);
		plot_svg_esc(out, plot_axis_label(x, buf, sizeof(buf)));
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
}

/* Characters of the longest entry (cut at LEGEND_CUT), and the entries per row. */
static unsigned plot_svg_legend_cols(const char *const *names, unsigned n, double *col_w)
{
	size_t longest = 1;
	unsigned per_row;

	for (unsigned i = 0; i < n; i++) {
		size_t len = 0;

		for (const char *p = names[i]; *p; p++)
			len += ((unsigned char)*p & 0xc0) != 0x80;
		longest = len > longest ? len : longest;
	}
	if (longest > LEGEND_CUT)
		longest = LEGEND_CUT;
	*col_w = 30 + (double)longest * PLOT_SVG_CHAR_W;
	per_row = (unsigned)(LEGEND_W / *col_w);
	return per_row ? per_row : 1;
}

double plot_svg_legend_height(const char *const *names, unsigned n)
{
	double col_w;
	unsigned per_row = plot_svg_legend_cols(names, n, &col_w);

	return n ? (double)((n + per_row - 1) / per_row) * LEGEND_ROW + 6 : 0;
}

void plot_svg_series_class(FILE *out, unsigned k, bool bold)
{
	fprintf(out, "s s%u", k % PLOT_COLOURS);
	if (k >= PLOT_COLOURS)
		fprintf(out, " d%u", (k / PLOT_COLOURS - 1) % 3 + 1);
	if (bold)
		fputs(" b", out);
}

void plot_svg_legend(FILE *out, double y, const char *const *names, const unsigned *colours,
		     const unsigned *bold, unsigned n)
{
	double col_w;
	unsigned per_row = plot_svg_legend_cols(names, n, &col_w);

	if (!n)
		return;
	fputs("<g class=\"legend\">\n", out);
	for (unsigned i = 0; i < n; i++) {
		double lx = LEGEND_X0 + (double)(i % per_row) * col_w, ly = y + (double)(i / per_row) * LEGEND_ROW + 12;

		fputs("<g class=\"", out);
		plot_svg_series_class(out, colours[i], bold && bold[i]);
		fputs("\"><title>", out);
		plot_svg_esc(out, names[i]);
		fprintf(out, "</title><line class=\"key\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<rect class=\"sw\" x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\"/>"
			"<text x=\"%.1f\" y=\"%.1f\">", lx, lx + 20, ly - 4, ly - 4, lx + 7, ly - 7, lx + 26, ly);
		plot_svg_esc_cut(out, names[i], LEGEND_CUT);
		fputs("</text></g>\n", out);
	}
	fputs("</g>\n", out);
}
