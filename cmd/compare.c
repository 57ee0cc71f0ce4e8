/* SPDX-License-Identifier: MIT */
/* compare mode: `iops compare [options] BASELINE OTHER...`, results of the same workloads
 * side by side (lib/compare). Every input is read whole and checked, the jobs matched and the
 * workloads checked, before anything is printed: a bad input is one line on stderr, exit 1,
 * nothing on stdout. Exit 1 too when --fail-on finds a figure worse beyond noise by more than
 * its limit (the comparison is printed then). --plot=FILE.html (checked before anything is
 * read) draws the inputs side by side and the verdicts on one page (lib/plot). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/compare.h"
#include "core/err.h"
#include "modes.h"
#include "plot/plot.h"
#include "plot/plot_file.h"
#include "plot_out.h"
#include "slurp.h"

#define COMPARE_INPUT_MAX	(1u << 30)	/* bytes of one input */

static void compare_usage(FILE *out)
{
	fputs("Usage: iops compare [options] BASELINE OTHER... (files, or - for standard input)\n"
	      "Results of the same workloads side by side: fio JSON/json+ (iops' or fio's), client_stats\n"
	      "(iops merge), iops quick or sweep JSON; an input with several documents holds repeated runs.\n"
	      "Per job and direction: iops, bw, mean, p50, p99, p99.9, the change against BASELINE and a\n"
	      "verdict (better, worse, within noise) from the runs' own noise.\n"
	      "  --fail-on=LIMITS     exit 1 when a figure is worse beyond noise by more than its limit:\n"
	      "                       10% (every figure) or iops:5%,p99:20% (those figures)\n"
	      "  --band=LIMITS        single runs: a figure's run-to-run allowance [iops:2%,bw:2%,mean:5%,\n"
	      "                       p50:5%,p99:10%,p99.9:20%]\n"
	      "  --floor=PCT          no change under PCT is called [1%]\n"
	      "  --confidence=PCT     of the tests, 50 to 99.99 [99]\n"
	      "  --output-format=F    normal or json [normal]\n"
	      "  --plot=FILE.html     also draw the inputs side by side and the verdicts (iops plot)\n", out);
}

static int compare_pct_opt(const char *v, double lo, double hi, double *out)
{
	char *end;
	double x = strtod(v, &end);

	if (end != v && *end == '%')
		end++;
	if (end == v || *end || v[0] < '0' || v[0] > '9' || !(x >= lo && x <= hi))
		return -1;
	*out = x;
	return 0;
}

static int compare_opt(const char *a, struct compare_opts *o, enum compare_fmt *fmt, struct iops_err *err)
{
	const char *eq = strchr(a, '='), *v = eq ? eq + 1 : "";
	size_t klen = eq ? (size_t)(eq - a) : strlen(a);
	double x;

	if (klen == 9 && !strncmp(a, "--fail-on", klen))
		return compare_limits_parse(v, o->fail_on_pct, "--fail-on", err);
	if (klen == 6 && !strncmp(a, "--band", klen))
		return compare_limits_parse(v, o->band_pct, "--band", err);
	if (klen == 7 && !strncmp(a, "--floor", klen)) {
		if (compare_pct_opt(v, 0, 1000, &o->floor_pct) < 0)
			goto bad;
		return 0;
	}
	if (klen == 12 && !strncmp(a, "--confidence", klen)) {
		if (compare_pct_opt(v, 50, 99.99, &x) < 0)
			goto bad;
		o->conf = x / 100.0;
		return 0;
	}
	if (klen == 15 && !strncmp(a, "--output-format", klen)) {
		if (strcmp(v, "normal") && strcmp(v, "json"))
			goto bad;
		*fmt = strcmp(v, "json") ? COMPARE_OUT_NORMAL : COMPARE_OUT_JSON;
		return 0;
	}
	iops_err_set(err, EINVAL, "unknown option '%s' (see 'iops compare --help')", a);
	return -EINVAL;
bad:
	iops_err_set(err, EINVAL, "bad value '%s' for %.*s (see 'iops compare --help')", v, (int)klen, a);
	return -EINVAL;
}

/* The inputs' texts, kept for --plot. */
struct compare_texts {
	const char *name[COMPARE_MAX_INPUTS + 1];
	char *buf[COMPARE_MAX_INPUTS + 1];
	size_t len[COMPARE_MAX_INPUTS + 1];
	unsigned n;
};

static int compare_input(struct compare *c, struct compare_texts *t, const char *path, struct iops_err *err)
{
	const char *name = strcmp(path, "-") ? path : "stdin";
	char *buf = NULL;
	size_t len;
	int rc = slurp_path(path, COMPARE_INPUT_MAX, &buf, &len);

	if (rc < 0) {
		iops_err_set(err, -rc, "%s: %s", name, rc == -EFBIG ? "over 1 GiB" : err_str(-rc));
		free(buf);
		return -1;
	}
	rc = compare_add(c, name, buf, len, err);
	if (rc < 0 || t->n > COMPARE_MAX_INPUTS) {	/* compare_add() refuses one too many */
		free(buf);
		return rc;
	}
	t->name[t->n] = name;
	t->len[t->n] = len;
	t->buf[t->n++] = buf;
	return 0;
}

/* --plot: the inputs side by side, the verdicts (the JSON report's) on top. 0 or 1 (printed). */
static int compare_plot(const struct compare *c, const struct compare_texts *t, const char *path)
{
	struct iops_err err = { 0 };
	struct plot_out_stream s = { 0 };
	struct plot_page *p = NULL;
	char title[512] = "iops compare";
	int rc = -1, r;

	for (unsigned i = 0, at = 12; i < t->n; i++) {
		r = snprintf(title + at, sizeof(title) - at, "%s%s", i ? ", " : ": ", t->name[i]);
		if (r < 0 || (size_t)r >= sizeof(title) - at) {
			title[12] = '\0';	/* too long to name them all: the page's cards name them */
			break;
		}
		at += (unsigned)r;
	}
	if (plot_out_stream_open("compare", &s))
		return 1;
	if ((r = compare_write(c, s.f, COMPARE_OUT_JSON)) < 0 || fclose(s.f) != 0 || !s.buf) {
		iops_err_set(&err, r < 0 ? -r : ENOMEM, "%s", err_str(r < 0 ? -r : ENOMEM));
		if (r < 0)
			fclose(s.f);
	} else if ((p = plot_page_docs(title, PLOT_SIDE_BY_SIDE, t->name, (const char *const *)t->buf, t->len, t->n,
				       &err)) &&
		   plot_page_verdicts(p, s.buf, s.len, &err) == 0) {
		rc = plot_file_write(path, p, &err);
	}
	plot_page_free(p);
	free(s.buf);
	if (rc < 0)
		fprintf(stderr, "iops compare: --plot: %s\n", err.msg);
	return rc < 0;
}

int compare_main(int argc, char **argv, struct ctl *ctl)
{
	struct compare_opts o;
	struct iops_err err = { 0 };
	enum compare_fmt fmt = COMPARE_OUT_NORMAL;
	struct compare *c = NULL;
	struct compare_texts t = { .n = 0 };
	const char *plot;
	int rc = 1, r;

	(void)ctl;
	compare_opts_init(&o);
	if (plot_out_take("compare", &argc, argv, &plot) < 0)
		return 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			compare_usage(stdout);
			return 0;
		}
		if (argv[i][0] == '-' && argv[i][1] && compare_opt(argv[i], &o, &fmt, &err) < 0)
			goto fail;
	}
	if (!(c = compare_new(&o))) {
		iops_err_set(&err, ENOMEM, "out of memory");
		goto fail;
	}
	for (int i = 1; i < argc; i++)
		if ((argv[i][0] != '-' || !argv[i][1]) && compare_input(c, &t, argv[i], &err) < 0)
			goto fail;
	if (compare_run(c, stderr, &err) < 0)
		goto fail;
	if ((r = compare_write(c, stdout, fmt)) < 0) {
		iops_err_set(&err, -r, "cannot write the comparison: %s", err_str(-r));
		goto fail;
	}
	rc = plot ? compare_plot(c, &t, plot) : 0;
	if (compare_failures(c)) {
		fprintf(stderr, "iops compare: %u figure%s worse beyond noise by more than --fail-on's limit\n",
			compare_failures(c), compare_failures(c) > 1 ? "s" : "");
		rc = 1;
	}
	goto free_c;
fail:
	fprintf(stderr, "iops compare: %s\n", err.msg);
free_c:
	compare_free(c);
	for (unsigned i = 0; i < t.n; i++)
		free(t.buf[i]);
	return rc;
}
