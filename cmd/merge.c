/* SPDX-License-Identifier: MIT */
/* merge mode: `iops merge [FILE...|-]`, the exact merge (lib/merge) of fio JSON results
 * written by iops or by fio, offline. Each input is read whole; the JSON documents in it
 * (a '{' starting a line to its matching '}') are its results, the lines around them are
 * skipped, so `-` takes `kubectl logs` of N pods as one stream. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "files.h"
#include "merge/merge.h"
#include "modes.h"
#include "plot_out.h"
#include "slurp.h"

#define MERGE_INPUT_MAX	(1u << 30)	/* bytes of one input */

static void merge_usage(FILE *out)
{
	fputs("Usage: iops merge [--output-format=normal|json|json+|terse|openmetrics] [--output=FILE]\n"
	      "                  [--plot=FILE.html] FILE... | -\n"
	      "Sums fio JSON results (json+ by iops or fio: exact; json: approximate percentiles)\n"
	      "into one All clients report. '-': standard input, documents one after the other.\n"
	      "--output=FILE writes the report to FILE whole (a temporary file renamed).\n"
	      "--plot: also draw each input and All clients as a page of charts (iops plot).\n", out);
}

/* Every document of one input into m; its name labels them (NAME:K when it holds several). */
static int merge_input(struct merge *m, const char *path, struct iops_err *err)
{
	bool std = !strcmp(path, "-");
	const char *name = std ? "stdin" : path, *doc;
	size_t len, pos = 0, dlen, nr = 0, k = 0;
	char *buf = NULL, label[4096];
	int rc = slurp_path(path, MERGE_INPUT_MAX, &buf, &len);

	if (rc < 0) {
		iops_err_set(err, -rc, "%s: %s", name, rc == -EFBIG ? "over 1 GiB" : err_str(-rc));
		goto free_buf;
	}
	while (merge_next_doc(buf, len, &pos, &dlen))
		nr++;
	rc = nr ? 0 : -1;
	if (!nr)
		iops_err_set(err, EINVAL, "%s: no JSON document in it", name);
	for (pos = 0; !rc && (doc = merge_next_doc(buf, len, &pos, &dlen)); ) {
		if (nr > 1)
			snprintf(label, sizeof(label), "%s:%zu", name, ++k);
		rc = merge_add(m, doc, dlen, nr > 1 ? label : name, 0, err);
	}
free_buf:
	free(buf);
	return rc ? -1 : 0;
}

int merge_main(int argc, char **argv, struct ctl *ctl)
{
	struct merge *m = merge_new();
	struct iops_err err = { 0 };
	unsigned fmts = MERGE_NORMAL, nr = 0;
	const char *output = NULL, *plot;
	struct files_out of = { 0 };
	int rc = 1, r;

	(void)ctl;
	if (!m) {
		fputs("iops merge: out of memory\n", stderr);
		return 1;
	}
	if (plot_out_take("merge", &argc, argv, &plot) < 0)
		goto free_m;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			merge_usage(stdout);
			rc = 0;
			goto free_m;
		}
		if (!strncmp(a, "--output-format=", 16)) {
			if (merge_fmts_parse(a + 16, &fmts) < 0) {
				iops_err_set(&err, EINVAL, "bad --output-format '%s' (normal, json, json+, terse, openmetrics)",
					     a + 16);
				goto fail;
			}
		} else if (!strncmp(a, "--output=", 9)) {
			output = a + 9;
			if (!*output) {
				iops_err_set(&err, EINVAL, "--output: a file name is needed");
				goto fail;
			}
		} else if (a[0] == '-' && a[1]) {
			iops_err_set(&err, EINVAL, "unknown option '%s' (see 'iops merge --help')", a);
			goto fail;
		}
	}
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "--output", 8) && (nr++, merge_input(m, argv[i], &err) < 0))
			goto fail;
	if (!nr) {
		iops_err_set(&err, EINVAL, "no input: name the JSON files, or - for standard input");
		goto fail;
	}
	if (output && (r = files_out_open(&of, output)) < 0) {
		iops_err_set(&err, -r, "cannot write %s: %s", output, err_str(-r));
		goto fail;
	}
	if (merge_write(m, of.f ? of.f : stdout, fmts, 1, &err) == 0) {
		if (of.f && (r = files_out_commit(&of)) < 0) {
			iops_err_set(&err, -r, "cannot write %s: %s", output, err_str(-r));
			goto fail;
		}
		rc = plot ? plot_out_merge("merge", plot, "iops merge", m) : 0;
		goto free_m;
	}
fail:
	files_out_abort(&of);
	fprintf(stderr, "iops merge: %s\n", err.msg);
free_m:
	merge_free(m);
	return rc;
}
