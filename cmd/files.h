/* SPDX-License-Identifier: MIT */
/* files: an output file written whole or not at all (--output of the modes that write result
 * documents; their inputs are read by slurp.h): into a new temporary
 * file beside it (created O_CREAT|O_EXCL), renamed over the name at the end, so that a reader
 * (node_exporter's textfile collector, a CI step) never sees half a file; on failure or
 * interruption the temporary file is removed. */
#ifndef IOPS_FILES_H
#define IOPS_FILES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct files_out {
	FILE *f;
	char path[PATH_MAX];		/* the name asked for */
	char tmp[PATH_MAX];		/* the temporary file beside it, "" once renamed or removed */
};

/* Create the temporary file for path (".NAME.iops-XXXXXX" in path's directory, mode 0666
 * less the umask, as fopen would make it). 0, or -errno (nothing created). */
int files_out_open(struct files_out *o, const char *path);
/* Flush, fsync and rename the temporary file to the name. 0, or -errno: the temporary file is
 * removed then, the name untouched. */
int files_out_commit(struct files_out *o);
/* Close and remove the temporary file (nothing written reaches the name). */
void files_out_abort(struct files_out *o);

#endif
