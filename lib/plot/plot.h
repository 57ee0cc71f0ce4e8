/* SPDX-License-Identifier: MIT */
/* plot: pictures of results, as one self-contained HTML page (or one chart as an SVG file).
 *
 * Inputs are texts, told apart by their content: fio JSON or json+ results (iops' or the real
 * fio's `jobs`; a client run's or `iops merge`'s `client_stats`), `iops quick
 * --output-format=json`, `iops sweep --output-format=json`, an `iops suite` run's output, and
 * fio's bw/iops/lat/clat/slat logs (iops' or fio's; the file's name says which value a log
 * holds). The page has a header card per result (what ran, when, the headline numbers) and
 * the charts their kinds call for: latency percentile curves and json+ histograms, bars per
 * job, client or sweep step, time series of logs. Every plotted series is an element with
 * data-series="NAME", and every point carries its exact value in a <title>.
 *
 * Use: plot_page_new(), plot_page_add() per input, plot_page_build(), then write the page
 * (plot_page_write_html(), or plot_file_write() in plot_file.h for a file). Several results
 * of the same workloads side by side (iops compare --plot): plot_side_by_side(). */
#ifndef IOPS_PLOT_H
#define IOPS_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/err.h"

#define PLOT_INPUTS_MAX	256	/* inputs of one page (a document of a stream is one) */
#define PLOT_INPUT_MAX	(1u << 30)	/* bytes of one input */

struct plot_page;

enum plot_layout {
	PLOT_BY_JOB,		/* bars: a category per job (client, step), a series per direction */
	PLOT_SIDE_BY_SIDE,	/* bars: a category per job and direction, a series per input */
};

struct plot_page *plot_page_new(void);
void plot_page_free(struct plot_page *p);

/* The page's heading (default: "iops plot: " and the inputs' names). */
int plot_page_title(struct plot_page *p, const char *title);
void plot_page_layout(struct plot_page *p, enum plot_layout layout);

/* Adds an input: text[0..len) named name (a file name, or a mode's "quick", "merge"; it
 * labels the input's series when the page has several inputs, and tells what a log holds).
 * A text with several JSON documents (lines between them skipped, as `iops merge` reads a
 * stream) adds each, labelled NAME:1, NAME:2 ... 0, or -1 with err set ("NAME: ...": not a
 * result of any kind, a broken one, too many inputs) and the page as it was. */
int plot_page_add(struct plot_page *p, const char *name, const char *text, size_t len, struct iops_err *err);

/* Makes the charts of every input added (once, after the last add). 0 or -1 with err. */
int plot_page_build(struct plot_page *p, struct iops_err *err);

/* The charts built, by id ("lat-clat", "fio-iops", "log-bw", "sweep-p99" ...). */
unsigned plot_page_nr_charts(const struct plot_page *p);
const char *plot_page_chart_id(const struct plot_page *p, unsigned i);

/* Keeps only the charts named in ids, a comma-separated list of ids or id prefixes ("lat"
 * keeps lat-clat and lat-lat). -1 with err naming what matches no chart, and the ids there
 * are, when any word of the list matches none. */
int plot_page_select(struct plot_page *p, const char *ids, struct iops_err *err);

/* The whole page. 0, or -1 with err (out of memory, a write error). */
int plot_page_write_html(const struct plot_page *p, FILE *out, struct iops_err *err);
/* The page's only chart as a standalone SVG document; -1 with err when there is not exactly
 * one (the error lists the ids). */
int plot_page_write_svg(const struct plot_page *p, FILE *out, struct iops_err *err);

/* A built page of the n texts docs[i] (len[i] bytes, named names[i]) in layout, titled
 * title (NULL: the default); NULL with err set when one is no result, or out of memory. */
struct plot_page *plot_page_docs(const char *title, enum plot_layout layout, const char *const *names,
				 const char *const *docs, const size_t *len, unsigned n, struct iops_err *err);

/* Side by side: the n results docs[i] (len[i] bytes, named names[i]: fio JSON or json+,
 * quick, sweep or suite output, merged client_stats) overlaid on one HTML page written to
 * out: bars grouped by job (or step, or figure) and direction, a bar per input; latency
 * curves of every input in the same charts, series named "NAME job direction". 0, or -1
 * with err (an input that is no result, out of memory, a write error). */
int plot_side_by_side(FILE *out, const char *title, const char *const *names, const char *const *docs,
		      const size_t *len, unsigned n, struct iops_err *err);

/* iops compare's verdicts on the built page p: doc[0..len) is the comparison's JSON document
 * (`iops compare --output-format=json`); a bar chart per figure ("verdict-iops" ...
 * "verdict-p99.9") goes before the page's other charts: a category per job and direction, a
 * bar per compared input with its change against the baseline in percent and an error bar of
 * +- the threshold, its <title> "INPUT JOB DIR FIGURE: VALUE UNIT against BASE UNIT of
 * BASELINE, change C %, threshold T % (NOISE): VERDICT" with the exact numbers. 0, or -1 with
 * err (not such a document, out of memory). */
int plot_page_verdicts(struct plot_page *p, const char *doc, size_t len, struct iops_err *err);

#endif
