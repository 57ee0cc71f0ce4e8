/* SPDX-License-Identifier: MIT */
/* plot_out: --plot=FILE.html of the modes (quick, the presets, suite, sweep, merge, and a
 * client run's): the option taken out of the mode's arguments and checked before anything
 * runs, then the page written at the end from the mode's own result document (its JSON, or
 * a suite's output), through lib/plot. */
#ifndef IOPS_PLOT_OUT_H
#define IOPS_PLOT_OUT_H

#include <stddef.h>
#include <stdio.h>

struct merge;

/* Takes --plot=FILE (or --plot FILE) out of argv[1..*argc) (argv stays NULL-terminated);
 * *path is NULL without one. The file is checked as the page's (a .html name, a writable
 * directory, no file of that name that is not an iops plot page). 0, or -1 with the error
 * printed as "iops MODE: --plot: ...". */
int plot_out_take(const char *mode, int *argc, char **argv, const char **path);

/* The page of one document (name labels it) into path. 0, or 1 with the error printed. */
int plot_out_write(const char *mode, const char *path, const char *title, const char *name, const char *doc,
		   size_t len);

/* A memory stream for a mode to write its result document into (open_memstream); NULL with
 * the error printed. plot_out_stream_write() closes it, plots it and frees it. */
struct plot_out_stream {
	FILE *f;
	char *buf;
	size_t len;
};
int plot_out_stream_open(const char *mode, struct plot_out_stream *s);
int plot_out_stream_write(const char *mode, struct plot_out_stream *s, const char *path, const char *title,
			  const char *name);

/* A stream that writes to `to` (flushed at each line, as the mode's output was) and into
 * the memory stream s opened here: a mode whose result is its text output (the suite). 0,
 * or 1 with the error printed. fclose(*tee), then plot_out_stream_write(s). */
int plot_out_tee(const char *mode, struct plot_out_stream *s, FILE *to, FILE **tee);

/* A merge's page (iops merge, a client run's All clients): its json+ document (json when
 * the inputs had no bins) plotted, each input's jobs beside All clients. 0 or 1 (printed). */
int plot_out_merge(const char *mode, const char *path, const char *title, const struct merge *m);

#endif
