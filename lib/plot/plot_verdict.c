/* plot_verdict: iops compare's verdicts on a page (plot_page_verdicts() in plot.h): read from
 * the comparison's own JSON document (`iops compare --output-format=json`), one bar chart per
 * figure at the top of the page. A category per job and direction, a bar per compared input:
 * its change against the baseline in percent, an error bar of +- the threshold the noise was
 * judged with, and the whole verdict in the bar's <title>. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonr.h"
#include "plot/plot_int.h"

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
	rc = plot_verdict_charts(p, &j, base_name);
	jsonr_free(&j);
	if (rc < 0)
		iops_err_set(err, -rc, "out of memory");
	return rc < 0 ? -1 : 0;
}
