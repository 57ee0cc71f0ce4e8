/* SPDX-License-Identifier: MIT */
/* fio_args: fio's command line, with the printing side (--help, --version, --cmdhelp,
 * --showcmd, parse errors in fio's words and streams; --cmdhelp, --enghelp and the streams
 * of the messages are in cmd/fio_help.c). */
#ifndef IOPS_FIO_ARGS_H
#define IOPS_FIO_ARGS_H

#include <stddef.h>

#include "fio/job.h"

/* Parse argv (argv[0] == "fio") into cfg. Handles and PRINTS --help/-h, --version,
 * --cmdhelp[=opt], --showcmd, parse errors (fio's exact messages and streams), warnings
 * such as "fio: time_based requires a runtime/timeout setting". Returns 0 when the caller
 * should go on and run cfg (cfg->parse_only set: caller stops after validation), or
 * returns 1 with *exit_status set when the caller must exit now (help printed, error...).
 * Creates nothing on disk. On return 1 cfg holds nothing to release (it is safe to call
 * fio_config_release on it anyway). */
int fio_args_parse(int argc, char **argv, struct fio_config *cfg, int *exit_status);

/* A job file a server received from its client (cmd/server_job.c). */
struct fio_args_file {
	const char *name;
	const char *data;
	size_t len;
};

/* fio_args_parse() for a job a server received: the job files argv names are read from mem
 * (a name it does not hold: fio's "unable to open" message), never from the disk, and
 * include is refused in them. mem NULL: fio_args_parse(). */
int fio_args_parse_mem(int argc, char **argv, const struct fio_args_file *mem, unsigned nr_mem,
		       struct fio_config *cfg, int *exit_status);

#endif
