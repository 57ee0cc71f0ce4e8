/* SPDX-License-Identifier: MIT */
/* iolog_int: what iolog.c (names, lines, files) gives iolog_sink.c (windows, ring, writer
 * thread) beyond iolog.h; no one else includes it. */
#ifndef IOPS_IOLOG_INT_H
#define IOPS_IOLOG_INT_H

#include <stdbool.h>

#include "fio/log/iolog.h"

/* The prefix of log t, NULL when the job does not write it. */
const char *iolog_prefix(const struct job *job, enum iolog_type t);

/* Open a log file (create: for writing, else to look at it); only a regular file that is empty
 * or a fio log. The fd, or -errno with *why set when it is iops' own refusal. */
int iolog_open(const char *path, bool create, bool append, const char **why);

#endif
