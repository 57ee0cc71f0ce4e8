/* SPDX-License-Identifier: MIT */
/* plot_verdict: iops compare's verdicts on a page (plot_page_verdicts() in plot.h): read from
 * the comparison's own JSON document (`iops compare --output-format=json`), one bar chart per
 * figure at the top of the page. A category per job and direction, a bar per compared input:
 * its change against the baseline in percent, an error bar of +- the threshold the noise was
 * judged with, and the whole verdict in the bar's <title>; and a card before the inputs' with
 * the same verdicts as a table (values for people, fio's scaling). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonr.h"
#include "plot/plot_int.h"
#include "plot/plot_svg.h"

static const char *const verdict_figs[] = { "iops", "bw", "mean", "p50", "p99", "p99.9" };
#define VERDICT_FIGS	(sizeof(verdict_figs) / sizeof(verdict_figs[0]))

/* One compared input's bar of one figure of one row. */
static void plot_verdict_bar(struct plot_chart *c, const struct jsonr *j, const struct jsonr_node *fig,
			     const struct jsonr_node *ag, const char *cat, const char *base_name, const char *fname)
{
	char base[PLOT_NUM_LEN], val[PLOT_NUM_LEN], chg[PLOT_NUM_LEN], thr[PLOT_NUM_LEN];
	const char *in = jsonr_str(j, ag, "input"), *verdict = jsonr_str(j, ag, "verdict");
	const char *noise = jsonr_str(j, ag, "noise"), *unit = jsonr_str(j, fig, "unit");
	double b = NAN, v = NAN, ch = NAN, th = NAN;
	struct plot_bar *bar;

	if (!in || !verdict)
		return;
	jsonr_num(j, fig, "baseline", &b);
	jsonr_num(j, ag, "value", &v);
	jsonr_num(j, ag, "change_pct", &ch);
	jsonr_num(j, ag, "threshold_pct", &th);
	bar = plot_chart_bar(c, cat, in, in, isfinite(ch) ? ch : 0,
			     "%s %s %s: %s %s against %s %s of %s, change %s %%, threshold %s %% (%s): %s", in, cat, fname,
			     plot_num_raw(val, sizeof(val), v), unit ? unit : "", plot_num_raw(base, sizeof(base), b),
			     unit ? unit : "", base_name, plot_num_raw(chg, sizeof(chg), ch),
			     plot_num_raw(thr, sizeof(thr), th), noise ? noise : "", verdict);
	if (bar && isfinite(th) && th > 0) {
		bar->whisker = true;
		bar->lo = -th;
		bar->hi = th;
	}
}

/* A figure's unit in the document ("ops/s", "bytes/s", "ns") as the page's. */
static const struct plot_unit *plot_verdict_unit(const char *u)
{
	return !u ? &plot_u_none : !strcmp(u, "ops/s") ? &plot_u_iops : !strcmp(u, "bytes/s") ? &plot_u_bytes_s :
	       !strcmp(u, "ns") ? &plot_u_ns : &plot_u_none;
}

static void plot_verdict_cell(FILE *out, const char *s, bool num)
{
	fputs(num ? "<td class=\"n\">" : "<td>", out);
	plot_svg_esc(out, s ? s : "");
	fputs("</td>", out);
}

/* One table row per job, direction, figure and compared input. */
static void plot_verdict_rows(FILE *out, const struct jsonr *j, const struct jsonr_node *row)
{
	const struct jsonr_node *figs = jsonr_get(j, row, "figures");
	const char *job = jsonr_str(j, row, "job"), *dir = jsonr_str(j, row, "direction");

	if (!job)
		job = jsonr_str(j, row, "step");
	for (uint32_t f = figs && figs->type == JSONR_OBJ ? figs->first : 0; f; f = j->nodes[f].next) {
		const struct jsonr_node *fig = &j->nodes[f], *ag = jsonr_get(j, fig, "against");
		const struct plot_unit *u = plot_verdict_unit(jsonr_str(j, fig, "unit"));
		char a[PLOT_NUM_LEN], b[PLOT_NUM_LEN];
		double base = NAN;

		jsonr_num(j, fig, "baseline", &base);
		for (uint32_t k = ag && ag->type == JSONR_ARR ? ag->first : 0; k; k = j->nodes[k].next) {
			const struct jsonr_node *x = &j->nodes[k];
			const char *verdict = jsonr_str(j, x, "verdict"), *noise = jsonr_str(j, x, "noise");
			double v = NAN, ch = NAN, th = NAN;

			jsonr_num(j, x, "value", &v);
			jsonr_num(j, x, "change_pct", &ch);
			jsonr_num(j, x, "threshold_pct", &th);
			fputs("<tr>", out);
			plot_verdict_cell(out, job, false);
			plot_verdict_cell(out, dir, false);
			plot_verdict_cell(out, fig->key, false);
			plot_verdict_cell(out, jsonr_str(j, x, "input"), false);
			plot_verdict_cell(out, isfinite(base) ? plot_num_human(a, sizeof(a), base, u) : "-", true);
			plot_verdict_cell(out, isfinite(v) ? plot_num_human(b, sizeof(b), v, u) : "-", true);
			plot_num_fmt(a, sizeof(a), "%+.1f %%", ch);
			plot_verdict_cell(out, isfinite(ch) ? a : "-", true);
			plot_num_fmt(b, sizeof(b), "%.1f %% %s", th, noise ? noise : "");
			plot_verdict_cell(out, isfinite(th) ? b : "-", true);
			fputs(verdict && strcmp(verdict, "within noise") && strcmp(verdict, "n/a") ? "<td><b>" : "<td>", out);
			plot_svg_esc(out, verdict ? verdict : jsonr_str(j, x, "why"));
			fputs(verdict && strcmp(verdict, "within noise") && strcmp(verdict, "n/a") ? "</b></td></tr>\n" :
			      "</td></tr>\n", out);
		}
	}
}

/* The card of the verdicts, into p->top_card. 0 or -ENOMEM. */
static int plot_verdict_card(struct plot_page *p, const struct jsonr *j, const char *base_name)
{
	const struct jsonr_node *rows = jsonr_get(j, NULL, "rows");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (!out)
		return -ENOMEM;
	fputs("<section class=\"card\" data-input=\"verdicts\"><h2>Verdicts against ", out);
	plot_svg_esc(out, base_name);
	fputs("</h2>\n<table><thead><tr><th>job</th><th>direction</th><th>figure</th><th>input</th><th>baseline</th>"
	      "<th>value</th><th>change</th><th>threshold</th><th>verdict</th></tr></thead><tbody>\n", out);
	for (uint32_t r = rows && rows->type == JSONR_ARR ? rows->first : 0; r; r = j->nodes[r].next)
		plot_verdict_rows(out, j, &j->nodes[r]);
	fputs("</tbody></table>\n</section>\n", out);
	if (fclose(out) != 0 || !buf) {
		free(buf);
		return -ENOMEM;
	}
	free(p->top_card);
	p->top_card = buf;
	return 0;
}

/* The verdict charts, then moved before the page's other charts. */
static int plot_verdict_charts(struct plot_page *p, const struct jsonr *j, const char *base_name)
{
	const struct jsonr_node *rows = jsonr_get(j, NULL, "rows");
	unsigned first = p->nr_charts;

	for (size_t f = 0; f < VERDICT_FIGS; f++) {
		char id[32], title[160], cat[512];
		struct plot_chart *c;

		plot_num_fmt(id, sizeof(id), "verdict-%s", verdict_figs[f]);
		plot_num_fmt(title, sizeof(title), "Compare: %s, change against %.80s", verdict_figs[f], base_name);
		if (!(c = plot_page_chart(p, PLOT_CHART_BARS, id, title)))
			return -ENOMEM;
		plot_axis_init(&c->y, PLOT_LIN, &plot_u_pct, "change");
		for (uint32_t r = rows ? rows->first : 0; r; r = j->nodes[r].next) {
			const struct jsonr_node *row = &j->nodes[r], *fig = jsonr_get(j, row, "figures");
			const char *job = jsonr_str(j, row, "job"), *dir = jsonr_str(j, row, "direction");
			const struct jsonr_node *ag;

			for (fig = fig ? jsonr_child(j, fig, 0) : NULL; fig && strcmp(fig->key, verdict_figs[f]);)
				fig = fig->next ? &j->nodes[fig->next] : NULL;
			if (!fig || !job || !dir || !(ag = jsonr_get(j, fig, "against")) || ag->type != JSONR_ARR)
				continue;
			plot_num_fmt(cat, sizeof(cat), "%s %s", job, dir);
			for (uint32_t a = ag->first; a; a = j->nodes[a].next)
				plot_verdict_bar(c, j, fig, &j->nodes[a], cat, base_name, verdict_figs[f]);
		}
		plot_chart_note(c, "bars: the change against the baseline; error bars: +- the threshold the noise "
			       "was judged with; each bar's tooltip: the values, the change, the threshold, the verdict");
		if (!plot_chart_ok(c))
			return -ENOMEM;
	}
	for (unsigned k = first; k < p->nr_charts; k++) {	/* to the top, in their order */
		struct plot_chart *c = p->chart[k];

		memmove(p->chart + (k - first) + 1, p->chart + (k - first), first * sizeof(*p->chart));
		p->chart[k - first] = c;
	}
	return 0;
}

int plot_page_verdicts(struct plot_page *p, const char *doc, size_t len, struct iops_err *err)
{
	struct jsonr j;
	const struct jsonr_node *in;
	const char *mode, *base_name = NULL;
	int rc;

	if (jsonr_parse(&j, doc, len, err) < 0)
		return -1;
	mode = jsonr_str(&j, NULL, "mode");
	in = jsonr_get(&j, NULL, "inputs");
	for (uint32_t k = in && in->type == JSONR_ARR ? in->first : 0; k && !base_name; k = j.nodes[k].next) {
		double b = 0;

		if (jsonr_num(&j, &j.nodes[k], "baseline", &b) && b != 0)
			base_name = jsonr_str(&j, &j.nodes[k], "name");
	}
	if (!mode || strcmp(mode, "compare") || !base_name) {
		iops_err_set(err, EINVAL, "not an iops compare document");
		jsonr_free(&j);
		return -1;
	}
	rc = plot_verdict_card(p, &j, base_name);
	if (!rc)
		rc = plot_verdict_charts(p, &j, base_name);
	jsonr_free(&j);
	if (rc < 0)
		iops_err_set(err, -rc, "out of memory");
	return rc < 0 ? -1 : 0;
}
