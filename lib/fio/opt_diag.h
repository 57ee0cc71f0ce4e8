/* SPDX-License-Identifier: MIT */
/* opt_diag: the lines for the user that parsing and checking a job collect (fio's words,
 * stream and line); only cmd/ prints them. Every folder's parser and fixup fills one. */
#ifndef IOPS_OPT_DIAG_H
#define IOPS_OPT_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#define OPT_DIAG_LINES	40
#define OPT_DIAG_LEN	320
#define OPT_DIAG_TAIL	8	/* the last lines kept when more come than fit */

/* Lines for the user, in order; to_stdout mirrors fio's log_info (stdout) vs log_err. */
struct opt_diag {
	unsigned nr;
	bool overflow;			/* lines were dropped (before the last OPT_DIAG_TAIL) */
	bool to_stdout[OPT_DIAG_LINES];
	char line[OPT_DIAG_LINES][OPT_DIAG_LEN];
	FILE *debug;			/* --debug=parse lines go here at once; NULL = off */
	bool dry;			/* --parse-only: as fio's options then, no look at the
					 * machine (a directory= that must exist) */
};

void opt_diag_init(struct opt_diag *d);
void opt_diag_add(struct opt_diag *d, bool to_stdout, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A --debug=parse line (fio's "parse    <tid> ..."), when d->debug is set. */
void opt_diag_debug(struct opt_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
