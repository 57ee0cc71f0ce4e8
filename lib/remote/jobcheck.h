/* SPDX-License-Identifier: MIT */
/* jobcheck: what a server lets a job it received do (docs/many-clients.md, "Security").
 *
 * Every path the parsed job names (its files, read_iolog, replay_redirect, merge_blktrace_file,
 * mmap's file) must pass confine_path(); what would run programs, open connections, change
 * the system or leave files behind on the server is refused: exec_prerun/exec_postrun, the
 * exec and net engines, cgroup, ioscheduler, uid/gid, --output, write_iolog and the bw, iops,
 * lat and hist logs; read_iolog and merge_blktrace_file too, before parsing (jobcheck_text()). verify_state_save is turned off (its file would stay behind). */
#ifndef IOPS_REMOTE_JOBCHECK_H
#define IOPS_REMOTE_JOBCHECK_H

#include "core/err.h"
#include "fio/job.h"
#include "remote/confine.h"

/* 0, or -EPERM with err set: the first refusal, naming the job and the option. */
int jobcheck_config(const struct confine *c, struct fio_config *cfg, struct iops_err *err);

/* A command-line argument a server refuses before parsing (--output=, --inflate-log=, the
 * client/server options, and those of jobcheck_text()): true when arg names one. */
bool jobcheck_arg_refused(const char *arg);

/* A received job file, before parsing: read_iolog and merge_blktrace_file (or a prefix of
 * them fio would take) are refused, for they are read while the job is parsed, where no
 * check has been made yet. 0, or -EPERM with err set. */
int jobcheck_text(const char *text, size_t len, struct iops_err *err);

#endif
