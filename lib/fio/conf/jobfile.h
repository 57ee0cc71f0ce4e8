/* SPDX-License-Identifier: MIT */
/* jobfile: fio's INI job files. Loading (comments, sections, include, ${VAR} and $ncpus /
 * $pagesize / $mb_memory keywords with + - * / math) is separate from applying the options,
 * so --showcmd can print a file without validating it. */
#ifndef IOPS_JOBFILE_H
#define IOPS_JOBFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "fio/conf/opt.h"

#define JOBFILE_LINE_MAX	8192	/* longer lines are an error */
#define JOBFILE_INCLUDE_DEPTH	16
#define JOBFILE_MAX_OPTS	100000	/* option lines per file, includes counted */

struct jobfile_opt {
	char *key;
	char *val;		/* NULL for a flag written without '=' */
};

struct jobfile_section {
	char *name;
	struct jobfile_opt *opts;	/* sorted by fio's option priority (stable) */
	unsigned nr_opts, cap_opts;
};

struct jobfile {
	struct jobfile_section *secs;
	unsigned nr_secs, cap_secs;
};

/* Values a job file can refer to; filled from the system by jobfile_keywords_init(). */
struct jobfile_keywords {
	long long ncpus, pagesize, mb_memory;
	/* a job a server received (lib/remote): the file is read from in whatever its path,
	 * and include is refused (it would read the server's own files) */
	bool from_in, no_include;
};

void jobfile_keywords_init(struct jobfile_keywords *kw);

/* Load path ("-" = in, and every path with kw->from_in). Returns 0, or -errno with fio's message in d
 * ("fio: unable to open 'x' job file", "fio: option <size=1m> outside of [] job section"...). */
int jobfile_load(struct jobfile *jf, const char *path, FILE *in, const struct jobfile_keywords *kw,
		 struct opt_diag *d);
void jobfile_release(struct jobfile *jf);

/* True for section names fio treats as global ("global" prefix, 6-character compare). */
bool jobfile_is_global(const char *name);

/* Apply the file: [global*] sections update *global (their options are also appended to
 * global_kv); every other section becomes a copy of *global plus its options, appended to
 * list with file_index set. first_stonewall: mark the file's first job stonewall (fio does
 * this for every job file after the first). only/nr_only: fio's --section=name filter (jobs
 * of other sections are skipped; nr_only 0 = all). Returns 0 or -EINVAL/-ENOMEM/-E2BIG, with fio's
 * messages ("Bad option <x=1>", "fio: job x dropped") in d. */
int jobfile_apply(const struct jobfile *jf, struct opt_job *global, struct job_kv **global_kv,
		  unsigned *nr_global_kv, unsigned *cap_global_kv, struct opt_job_list *list,
		  unsigned file_index, bool first_stonewall, const char *const *only, unsigned nr_only,
		  struct opt_diag *d);

/* Evaluate an integer expression with + - * / and parentheses (what fio hands to bc).
 * 0, -EINVAL (syntax, division by zero) or -ERANGE (overflow). */
int jobfile_eval(const char *expr, long long *out);

/* fio --showcmd: "fio --opt=val ... --name=sec --opt ... " (trailing space) for one file. */
int jobfile_showcmd(const struct jobfile *jf, FILE *out);

#endif
