/* SPDX-License-Identifier: MIT */
/* plot_out: the modes' --plot; see plot_out.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "merge/merge.h"
#include "plot/plot_file.h"
#include "plot_out.h"

int plot_out_take(const char *mode, int *argc, char **argv, const char **path)
{
	enum plot_file_fmt fmt;
	struct iops_err err = { 0 };
	int k = 1;

	*path = NULL;
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {	/* the rest is not ours */
			while (i < *argc)
				argv[k++] = argv[i++];
			break;
		}
		if (strncmp(a, "--plot=", 7) && strcmp(a, "--plot")) {
			argv[k++] = argv[i];
			continue;
		}
		if (!a[6] && i + 1 >= *argc) {
			fprintf(stderr, "iops %s: --plot needs a file name (--plot=FILE.html)\n", mode);
			return -1;
		}
		*path = a[6] ? a + 7 : argv[++i];
	}
	*argc = k;
	argv[k] = NULL;
	if (*path && plot_file_check(*path, false, &fmt, &err) < 0) {
		fprintf(stderr, "iops %s: --plot: %s\n", mode, err.msg);
		return -1;
	}
	return 0;
}

int plot_out_write(const char *mode, const char *path, const char *title, const char *name, const char *doc,
		   size_t len)
{
	struct iops_err err = { 0 };

	if (plot_file_docs(path, title, &name, &doc, &len, 1, &err) == 0)
		return 0;
	fprintf(stderr, "iops %s: --plot: %s\n", mode, err.msg);
	return 1;
}

int plot_out_stream_open(const char *mode, struct plot_out_stream *s)
{
	s->buf = NULL;
	s->len = 0;
	if ((s->f = open_memstream(&s->buf, &s->len)))
		return 0;
	fprintf(stderr, "iops %s: --plot: %s\n", mode, err_str(errno));
	return 1;
}

int plot_out_stream_write(const char *mode, struct plot_out_stream *s, const char *path, const char *title,
			  const char *name)
{
	int rc;

	if (fclose(s->f) != 0 || !s->buf) {
		fprintf(stderr, "iops %s: --plot: out of memory\n", mode);
		free(s->buf);
		return 1;
	}
	rc = plot_out_write(mode, path, title, name, s->buf, s->len);
	free(s->buf);
	s->buf = NULL;
	return rc;
}

struct plot_out_tee {
	FILE *to;
	struct plot_out_stream *s;
};

static ssize_t plot_out_tee_write(void *cookie, const char *buf, size_t n)
{
	struct plot_out_tee *t = cookie;

	fwrite(buf, 1, n, t->to);	/* the output as before: its errors as before (none checked) */
	fflush(t->to);
	fwrite(buf, 1, n, t->s->f);
	return (ssize_t)n;
}

static int plot_out_tee_close(void *cookie)
{
	free(cookie);
	return 0;
}

int plot_out_tee(const char *mode, struct plot_out_stream *s, FILE *to, FILE **tee)
{
	cookie_io_functions_t io = { .write = plot_out_tee_write, .close = plot_out_tee_close };
	struct plot_out_tee *t;

	if (plot_out_stream_open(mode, s))
		return 1;
	if ((t = malloc(sizeof(*t)))) {
		t->to = to;
		t->s = s;
	}
	if (!t || !(*tee = fopencookie(t, "w", io))) {
		fprintf(stderr, "iops %s: --plot: out of memory\n", mode);
		free(t);
		fclose(s->f);
		free(s->buf);
		return 1;
	}
	setvbuf(*tee, NULL, _IOLBF, 0);
	return 0;
}

int plot_out_merge(const char *mode, const char *path, const char *title, const struct merge *m)
{
	struct plot_out_stream s;
	struct iops_err err = { 0 };

	if (plot_out_stream_open(mode, &s))
		return 1;
	if (merge_write(m, s.f, MERGE_JSONPLUS, 0, &err) < 0) {
		fprintf(stderr, "iops %s: --plot: %s\n", mode, err.msg);
		fclose(s.f);
		free(s.buf);
		return 1;
	}
	return plot_out_stream_write(mode, &s, path, title, mode);
}
