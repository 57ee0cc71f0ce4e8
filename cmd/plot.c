/* SPDX-License-Identifier: MIT */
/* plot mode: `iops plot INPUT... -o OUT.html` (lib/plot). The output is checked first (its
 * name, its directory, no file there that is not an iops plot page), then every input read
 * whole and told apart by its content; any input that is no result, or missing, is one line
 * on stderr, exit 1, and no file. Nothing is printed on success (--list prints the charts'
 * ids instead of writing a page). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "modes.h"
#include "plot/plot.h"
#include "plot/plot_file.h"
#include "slurp.h"

struct plot_args {
	const char *out, *charts, *title;
	bool list, side, help;
	const char *inputs[PLOT_INPUTS_MAX];
	unsigned nr_inputs;
};

static void plot_usage(FILE *out)
{
	fputs("Usage: iops plot INPUT... -o OUT.html [--chart=IDS] [--title=TEXT] [--side-by-side]\n"
	      "       iops plot INPUT... -o OUT.svg --chart=ID        (one chart, an SVG file)\n"
	      "       iops plot INPUT... --list                       (the charts' ids, no file)\n"
	      "Draws results as one self-contained HTML page (inline SVG, no script, light and dark).\n"
	      "INPUT, told apart by its content ('-': standard input):\n"
	      "  fio JSON or json+ (iops' or fio's; client_stats of a client run or iops merge),\n"
	      "  iops quick/sweep --output-format=json, iops suite's output,\n"
	      "  bw/iops/lat/clat/slat logs (NAME_bw.N.log ...: the name says what a log holds).\n"
	      "  -o, --output=FILE    the page (.html), or one chart (.svg); an existing file is\n"
	      "                       replaced only if iops plot wrote it\n"
	      "  --chart=IDS          only these charts (ids or prefixes, commas between: lat,fio-iops)\n"
	      "  --title=TEXT         the page's heading\n"
	      "  --side-by-side       results of the same workloads overlaid: bars per job and\n"
	      "                       direction, a bar per input\n", out);
}

static int plot_args_parse(int argc, char **argv, struct plot_args *a, struct iops_err *err)
{
	memset(a, 0, sizeof(*a));
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			a->help = true;
			return 0;
		}
		if (!strcmp(s, "-o") || !strcmp(s, "--output")) {
			if (++i >= argc) {
				iops_err_set(err, EINVAL, "%s needs a file name", s);
				return -1;
			}
			a->out = argv[i];
		} else if (!strncmp(s, "--output=", 9)) {
			a->out = s + 9;
		} else if (!strncmp(s, "-o", 2) && s[2]) {
			a->out = s + 2;
		} else if (!strncmp(s, "--chart=", 8)) {
			a->charts = s + 8;
		} else if (!strncmp(s, "--title=", 8)) {
			a->title = s + 8;
		} else if (!strcmp(s, "--list")) {
			a->list = true;
		} else if (!strcmp(s, "--side-by-side")) {
			a->side = true;
		} else if (s[0] == '-' && s[1]) {
			iops_err_set(err, EINVAL, "unknown option '%s' (see 'iops plot --help')", s);
			return -1;
		} else if (a->nr_inputs == PLOT_INPUTS_MAX) {
			iops_err_set(err, E2BIG, "more than %u inputs", PLOT_INPUTS_MAX);
			return -1;
		} else {
			a->inputs[a->nr_inputs++] = s;
		}
	}
	if (!a->nr_inputs) {
		iops_err_set(err, EINVAL, "no input: name the results or logs to plot (see 'iops plot --help')");
		return -1;
	}
	if (!a->out && !a->list) {
		iops_err_set(err, EINVAL, "no output: -o FILE.html (or --list for the charts' ids)");
		return -1;
	}
	if (a->charts && !a->charts[0]) {
		iops_err_set(err, EINVAL, "--chart= names no chart");
		return -1;
	}
	return 0;
}

static int plot_read_inputs(struct plot_page *p, const struct plot_args *a, struct iops_err *err)
{
	for (unsigned i = 0; i < a->nr_inputs; i++) {
		const char *name = strcmp(a->inputs[i], "-") ? a->inputs[i] : "stdin";
		char *buf;
		size_t len;
		int rc = slurp_path(a->inputs[i], PLOT_INPUT_MAX, &buf, &len);

		if (rc < 0) {
			iops_err_set(err, -rc, "%s: %s", name, rc == -EFBIG ? "over 1 GiB" : err_str(-rc));
			free(buf);
			return -1;
		}
		rc = plot_page_add(p, name, buf, len, err);
		free(buf);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int plot_main(int argc, char **argv, struct ctl *ctl)
{
	struct plot_args *a = malloc(sizeof(*a));
	struct plot_page *p = NULL;
	struct iops_err err = { 0 };
	enum plot_file_fmt fmt;
	int rc = 1;

	(void)ctl;	/* a page takes well under a second: a stop waits for it */
	if (!a || !(p = plot_page_new())) {
		fputs("iops plot: out of memory\n", stderr);
		goto free_all;
	}
	if (plot_args_parse(argc, argv, a, &err) < 0)
		goto fail;
	if (a->help) {
		plot_usage(stdout);
		rc = 0;
		goto free_all;
	}
	if (a->out && plot_file_check(a->out, true, &fmt, &err) < 0)
		goto fail;
	if ((a->title && plot_page_title(p, a->title) < 0)) {
		iops_err_set(&err, ENOMEM, "out of memory");
		goto fail;
	}
	plot_page_layout(p, a->side ? PLOT_SIDE_BY_SIDE : PLOT_BY_JOB);
	if (plot_read_inputs(p, a, &err) < 0 || plot_page_build(p, &err) < 0 ||
	    (a->charts && plot_page_select(p, a->charts, &err) < 0))
		goto fail;
	if (a->list) {
		for (unsigned i = 0; i < plot_page_nr_charts(p); i++)
			printf("%s\n", plot_page_chart_id(p, i));
		rc = fflush(stdout) ? 1 : 0;
		goto free_all;
	}
	if (plot_file_write(a->out, p, &err) == 0) {
		rc = 0;
		goto free_all;
	}
fail:
	fprintf(stderr, "iops plot: %s\n", err.msg);
free_all:
	plot_page_free(p);
	free(a);
	return rc;
}
