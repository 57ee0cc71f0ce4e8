/* SPDX-License-Identifier: MIT */
/* plot_file: the page's file, written safely. Checked before anything runs (a name ending in
 * .html, or .svg where one chart is wanted; a directory we can write; no file of that name,
 * unless it is a page iops plot wrote, which a new one replaces), then written to a temporary
 * name beside it (O_CREAT|O_EXCL|O_NOFOLLOW) and renamed into place, never over a file that
 * is not iops plot's own: on any failure the temporary file is removed and nothing else has
 * changed. */
#ifndef IOPS_PLOT_FILE_H
#define IOPS_PLOT_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "plot/plot.h"

enum plot_file_fmt { PLOT_FILE_HTML, PLOT_FILE_SVG };

/* Is path a name the page may be written to? *fmt from its suffix (.svg only when allow_svg).
 * 0, or -1 with err ("'x.html' exists and is not a page iops plot wrote: not overwriting it"). */
int plot_file_check(const char *path, bool allow_svg, enum plot_file_fmt *fmt, struct iops_err *err);

/* Writes the built page p to path (the whole page, or its one chart for a .svg name), after
 * the same checks. 0 or -1 with err. */
int plot_file_write(const char *path, const struct plot_page *p, struct iops_err *err);

/* A mode's --plot=FILE.html: the page of the n documents docs[i] (len[i] bytes, named
 * names[i]: a mode's JSON result, logs ...), titled title (NULL: the default), into path.
 * 0 or -1 with err. */
int plot_file_docs(const char *path, const char *title, const char *const *names, const char *const *docs,
		   const size_t *len, unsigned n, struct iops_err *err);

#endif
