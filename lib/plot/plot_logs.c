/* SPDX-License-Identifier: MIT */
/* plot_logs: time series of fio's logs, a chart per kind of log (bw, iops, lat, clat, slat,
 * or plain values), a line per log and direction. Lines longer than the chart has pixel
 * columns are drawn as each column's min and max (plot_decim), and the chart says so and how
 * many entries each column holds; the note also gives each log's averaging window. */
#include <stdio.h>
#include <string.h>

#include "plot/plot_int.h"
#include "plot/plot_svg.h"

static const char *const log_dirs[PLOT_LOG_DIRS] = { "read", "write", "trim", "sync" };

static const struct {
	const char *id, *title, *axis;
	const struct plot_unit *unit;
} log_kinds[PLOT_LOG_KINDS] = {
	[PLOT_LOG_BW] = { "log-bw", "Bandwidth over time (bw logs)", "bandwidth", &plot_u_kibs },
	[PLOT_LOG_IOPS] = { "log-iops", "IOPS over time (iops logs)", "IOPS", &plot_u_iops },
	[PLOT_LOG_LAT] = { "log-lat", "Total latency over time (lat logs)", "lat", &plot_u_ns },
	[PLOT_LOG_CLAT] = { "log-clat", "Completion latency over time (clat logs)", "clat", &plot_u_ns },
	[PLOT_LOG_SLAT] = { "log-slat", "Submission latency over time (slat logs)", "slat", &plot_u_ns },
	[PLOT_LOG_VALUE] = { "log-value", "Log values over time", "value", &plot_u_none },
};

/* The note's part about one log: "avg_bw.1.log: 40 entries, windows of 100 ms". */
static void plot_logs_note(struct plot_chart *c, const struct plot_input *in)
{
	const struct plot_log *l = &in->u.log;
	size_t n = 0;

	for (int d = 0; d < PLOT_LOG_DIRS; d++)
		n += l->dir[d].n;
	if (!n)
		plot_chart_note_add(c, "%s: no entries", in->name);
	else if (l->per_io)
		plot_chart_note_add(c, "%s: %zu entries, one per I/O (no log_avg_msec)", in->name, n);
	else if (l->window_ms > 0)
		plot_chart_note_add(c, "%s: %zu entries, averaged over windows of %.4g ms (log_avg_msec; the "
				    "largest value instead with log_max_value)", in->name, n, l->window_ms);
	else
		plot_chart_note_add(c, "%s: %zu entries, averaged over windows (log_avg_msec)", in->name, n);
	if (l->epoch)
		plot_chart_note_add(c, "%s: times since the epoch (log_unix_epoch), shown from its first entry, "
				    "%.0f ms", in->name, l->t0_ms);
}

static void plot_logs_kind(struct plot_page *p, enum plot_log_kind k)
{
	struct plot_chart *c = plot_page_chart(p, PLOT_CHART_XY, log_kinds[k].id, log_kinds[k].title);
	size_t most = 0;

	if (!c)
		return;
	plot_axis_init(&c->x, PLOT_LIN, &plot_u_elapsed_ms, "time");
	plot_axis_init(&c->y, PLOT_LIN, log_kinds[k].unit, log_kinds[k].axis);
	c->y.zero = true;
	plot_chart_note(c, "one line per log and direction");
	for (unsigned i = 0; i < p->nr_in; i++) {
		const struct plot_input *in = &p->in[i];

		if (in->kind != PLOT_IN_LOG || in->u.log.kind != k)
			continue;
		plot_logs_note(c, in);
		for (int d = 0; d < PLOT_LOG_DIRS; d++) {
			const struct plot_log_dir *ld = &in->u.log.dir[d];
			char name[512];
			struct plot_series *s;

			if (!ld->n)
				continue;
			plot_num_fmt(name, sizeof(name), "%s %s", in->label, log_dirs[d]);
			if (!(s = plot_chart_series(c, name, PLOT_S_LINE | PLOT_S_AUTOMARK | PLOT_S_DECIMATE)))
				return;
			for (size_t e = 0; e < ld->n; e++)
				plot_series_point(c, s, ld->t[e], ld->v[e]);
			most = ld->n > most ? ld->n : most;
		}
	}
	if (most > PLOT_SVG_COLS)
		plot_chart_note_add(c, "lines with more entries than the chart's %u pixel columns are drawn as each "
				    "column's lowest and highest entry (min/max decimation); a column's point tells "
				    "how many entries it holds and their range", PLOT_SVG_COLS);
}

int plot_logs_charts(struct plot_page *p)
{
	for (int k = 0; k < PLOT_LOG_KINDS; k++)
		for (unsigned i = 0; i < p->nr_in; i++)
			if (p->in[i].kind == PLOT_IN_LOG && p->in[i].u.log.kind == (enum plot_log_kind)k) {
				plot_logs_kind(p, (enum plot_log_kind)k);
				break;
			}
	return 0;
}
