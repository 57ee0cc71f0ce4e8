/* SPDX-License-Identifier: MIT */
/* fio_help: --cmdhelp, --enghelp and the parse diagnostics of fio's command line, printed
 * (cmd/fio_args.c calls them). */
#ifndef IOPS_FIO_HELP_H
#define IOPS_FIO_HELP_H

#include "fio/conf/opt.h"

/* Print d's lines in order, each on its stream (stdout or stderr, stdout flushed before
 * every stderr line, as fio's log_info/log_err interleave), then empty d. */
void fio_help_flush_diag(struct opt_diag *d);

/* fio --cmdhelp[=name]: every listed option with its help line (name NULL, "" or "all"),
 * one option in full, or "No such command" with the closest match. fio exits 0 after it. */
void fio_help_cmdhelp(const char *name);

/* fio --enghelp[=engine[,cmd]]: the engine list, or "has no options" (iops engines take
 * none). Returns the exit status (0 for the list, 1 otherwise, as fio). */
int fio_help_enghelp(const char *val);

#endif
