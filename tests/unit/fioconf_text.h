/* SPDX-License-Identifier: MIT */
/* Unit-test helper: a fio_config built from job-file text, as the first job file of a run (no
 * implicit stonewall), through jobfile_load, jobfile_apply and fioconf_build. */
#ifndef FIOCONF_TEXT_H
#define FIOCONF_TEXT_H

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio/conf/fioconf.h"
#include "fio/conf/jobfile.h"
#include "fio/conf/opt.h"

/* dry: parsed as under --parse-only (no look at the machine, engine checks left to the start) */
static inline int fioconf_from_text_as(const char *text, struct fio_config *cfg, struct opt_diag *diag, bool dry)
{
	char path[] = "/tmp/check_fioconf_text.XXXXXX";
	int fd = mkstemp(path);
	struct jobfile_keywords kw = { .ncpus = 2, .pagesize = 4096, .mb_memory = 1024 };
	struct jobfile jf;
	struct opt_job global;
	struct opt_job_list list = { 0 };
	struct job_kv *gkv = NULL;
	unsigned ngkv = 0, cgkv = 0;
	int ret;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	memset(cfg, 0, sizeof(*cfg));
	opt_diag_init(diag);
	diag->dry = dry;
	ret = jobfile_load(&jf, path, NULL, &kw, diag);
	unlink(path);
	ck_assert_int_eq(ret, 0);
	opt_job_init(&global);
	ret = jobfile_apply(&jf, &global, &gkv, &ngkv, &cgkv, &list, 0, false, NULL, 0, diag);
	jobfile_release(&jf);
	opt_job_release(&global);
	if (ret) {
		opt_job_list_release(&list);
		opt_kv_free(gkv, ngkv);
		return ret;
	}
	return fioconf_build(cfg, &list, gkv, ngkv, diag);
}

static inline int fioconf_from_text(const char *text, struct fio_config *cfg, struct opt_diag *diag)
{
	return fioconf_from_text_as(text, cfg, diag, false);
}

#endif
