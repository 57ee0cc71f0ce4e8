/* SPDX-License-Identifier: MIT */
/* plot_int: the page's insides, shared by plot.c (inputs, building, writing), plot_page.c
 * (the chart list), the chart builders (plot_fio.c, plot_logs.c, plot_misc.c) and the HTML
 * writer (plot_html.c). */
#ifndef IOPS_PLOT_INT_H
#define IOPS_PLOT_INT_H

#include "plot/plot.h"
#include "plot/plot_chart.h"
#include "plot/plot_rd_fio.h"
#include "plot/plot_rd_log.h"
#include "plot/plot_rd_suite.h"

enum plot_in_kind { PLOT_IN_FIO, PLOT_IN_LOG, PLOT_IN_SWEEP, PLOT_IN_SUITE };

struct plot_input {
	enum plot_in_kind kind;
	char *label;		/* "fr.json", "stream:2", a log's "avg.1" */
	char *name;		/* the name it was added under */
	union {
		struct plot_fio fio;
		struct plot_log log;
		struct plot_sweep sweep;
		struct plot_suite suite;
	} u;
};

struct plot_page {
	char *title;
	enum plot_layout layout;
	struct plot_input *in;
	unsigned nr_in;
	struct plot_chart **chart;
	unsigned nr_charts, charts_cap;
	bool built;
	char *top_card;		/* a card written before the inputs' (compare's verdicts), or NULL */
};

/* A new chart added to the page, its id made unique ("lat-clat", then "lat-clat-2"); NULL
 * when out of memory. */
struct plot_chart *plot_page_chart(struct plot_page *p, enum plot_chart_kind kind, const char *id,
				   const char *title);

/* The number of inputs of a kind. */
unsigned plot_page_count(const struct plot_page *p, enum plot_in_kind kind);

/* "LABEL " when series need their input's name (several inputs of that kind, or side by
 * side), "" otherwise; into buf. */
const char *plot_page_prefix(const struct plot_page *p, const struct plot_input *in, char *buf, size_t len);

/* The builders: every chart their inputs call for. 0 or -ENOMEM. */
int plot_fio_charts(struct plot_page *p);
int plot_logs_charts(struct plot_page *p);
int plot_misc_charts(struct plot_page *p);

/* A job's label in charts: its name, "HOST:PORT NAME" for a client's, "All clients". */
void plot_fio_job_label(const struct plot_job *j, char *buf, size_t len);

/* The page's HTML: head, cards, figures (each chart through plot_xy/plot_bars). */
int plot_html_write(const struct plot_page *p, FILE *out);
/* One chart's SVG (the kind's renderer). */
int plot_html_chart(FILE *out, const struct plot_chart *c, bool standalone);

#endif
