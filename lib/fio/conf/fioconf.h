/* SPDX-License-Identifier: MIT */
/* fioconf: turn parsed jobs (struct opt_job_list) into the validated, read-only
 * struct fio_config: numjobs clones, reporting groups, file names, derived fields.
 * Validation only: no file is touched. */
#ifndef IOPS_FIOCONF_H
#define IOPS_FIOCONF_H

#include "fio/job.h"
#include "fio/conf/opt.h"

/* Build cfg->jobs / nr_jobs / nr_groups / global_opts from list (whose contents are taken:
 * the list is left empty) and global_kv (taken too). Other cfg fields are left alone.
 * Returns 0, or -EINVAL / -ENOMEM / -E2BIG with fio-style messages in d. Warnings (e.g.
 * "fio: time_based requires a runtime/timeout setting") are added to d on success too. */
int fioconf_build(struct fio_config *cfg, struct opt_job_list *list, struct job_kv *global_kv,
		  unsigned nr_global_kv, struct opt_diag *d);

/* Split a filename= list on ':' ("\:" is a literal colon). Returns the number of names put in
 * out (malloc'd, caller frees each and the array) or -EINVAL/-ENOMEM/-E2BIG (> max). */
int fioconf_split_names(const char *list, char ***out, unsigned max);

/* Expand a filename_format: $jobname, $jobnum, $filenum. 0 or -ENAMETOOLONG/-EINVAL. */
int fioconf_format_name(const char *fmt, const char *jobname, unsigned jobnum, unsigned filenum,
			char *out, size_t n);

void fio_config_release(struct fio_config *cfg);

#endif
