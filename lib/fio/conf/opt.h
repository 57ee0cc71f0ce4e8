/* SPDX-License-Identifier: MIT */
/* opt: the one table of fio options iops knows (supported ones with fio 3.33's defaults,
 * fio options iops refuses by name; fio/conf/opt_table.c), applied to a job under construction. It
 * drives the command line (cmd/fio_args.c), job files (jobfile.c) and --cmdhelp.
 *
 * Messages for the user are collected in a struct opt_diag (stream + line, fio's words);
 * only cmd/ prints them. */
#ifndef IOPS_OPT_H
#define IOPS_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fio/job.h"
#include "fio/opt_diag.h"

#define OPT_VALUE_MAX	(1 << 20)	/* longest option value (filename lists), bytes with NUL */

/* Is line one of iops' one-line refusals ("... is not supported by iops", "fio: engine rbd
 * needs librbd, which this build does not include")? */
bool opt_is_refusal(const char *line);

enum opt_type {
	OPT_T_STR,		/* free text */
	OPT_T_CHOICE,		/* one of a list of words */
	OPT_T_INT,		/* integer, size suffixes allowed (fio's int) */
	OPT_T_SIZE,		/* bytes, size suffixes */
	OPT_T_TIME,		/* time with unit suffix */
	OPT_T_BOOL,		/* 0 or 1, value required */
	OPT_T_FLAG,		/* empty or 0/1 */
	OPT_T_RANGE,		/* one to three ranges (bsrange) */
	OPT_T_FLOAT_LIST,	/* a:b:c */
	OPT_T_UNSUPPORTED,	/* fio has it, iops refuses it */
};

/* One word of a CHOICE option. A NULL word ends a list. */
struct opt_choice {
	const char *word;
	const char *help;		/* --cmdhelp's text for the word, "" or NULL if none */
	int value;
};

struct opt_job;
struct opt_def;

typedef int opt_apply_fn(struct opt_job *oj, const struct opt_def *od, const char *val,
			 struct opt_diag *d);

/* Job files apply a section's options in this order, as fio does: kb_base and a few others
 * first, filename last, options the table does not know after all. */
enum opt_prio { OPT_PRIO_FIRST = -1, OPT_PRIO_NORMAL = 0, OPT_PRIO_LAST = 1 };

#define OPT_NOMAX	0		/* max: no upper bound (--cmdhelp shows -1, as fio) */

/* One fio option (fio/conf/opt_table.c). Every field left out of an entry is 0 or NULL, the
 * common case; an option iops refuses has only its name and reason. */
struct opt_def {
	const char *name;
	const char *alias;		/* fio's other name for it, NULL if none */
	const char *help;		/* --cmdhelp's line (the reason, when unsupported) */
	const char *def;		/* the default as --cmdhelp shows it, NULL: "no default" */
	opt_apply_fn *apply;		/* parses the value into the job; NULL when unsupported */
	int32_t min, max;		/* INT/BOOL/FLAG range (min also RANGE's); max OPT_NOMAX:
					 * none */
	const struct opt_choice *choices;	/* CHOICE only: NULL-terminated */
	size_t field;			/* where opt_apply_uint_field / _bool_field store the value:
					 * its offset in struct opt_job */
	enum opt_type type;
	enum opt_prio prio;		/* order of application in job files */
	bool hidden;			/* accepted but not listed by --cmdhelp (unsupported, threads) */
	bool engine;			/* an engine's option: fio reads these after the job's own */
};

/* The default as --cmdhelp shows it (od->def), NULL = "no default". */
const char *opt_default(const struct opt_def *od);

/* The option's other name (od->alias), NULL if none. */
const char *opt_alias(const struct opt_def *od);

/* A job (or the global section) while options are being applied. */
struct opt_job {
	struct job j;			/* the fields that end up in fio_config */
	char *filename;			/* filename= as given (NULL: generated names) */
	char *directory;		/* NULL = current directory */
	char *opendir;			/* opendir=: every regular file below it (NULL = none) */
	char *filename_format;		/* NULL = $jobname.$jobnum.$filenum */
	char *wait_for_name;
	unsigned nrfiles;
	bool nrfiles_set;		/* nrfiles= given (opendir stops there) */
	bool is_global;
	bool bs_set, ba_set, iodepth_set, iodepth_low_set, batch_submit_set, complete_max_set, rwmix_set;
	bool randseed_set;
	bool runtime_set;
	int rwmix_last;			/* 0 none, 1 rwmixread, 2 rwmixwrite: the later one wins */
	unsigned aio_given;		/* io_uring/libaio/pvsync2 options set (opt_apply_aio.c) */
	unsigned file_index;		/* which job file it came from (0 = command line / first) */
	struct job_kv *kv;		/* options as typed, canonical names */
	unsigned nr_kv, cap_kv;
};

/* Jobs in definition order (before numjobs expansion). */
struct opt_job_list {
	struct opt_job *v;
	unsigned nr, cap;
};

/* Move *oj (ownership) to the end of the list. -E2BIG past JOB_MAX_JOBS, -ENOMEM. */
int opt_job_list_push(struct opt_job_list *l, struct opt_job *oj);
void opt_job_list_release(struct opt_job_list *l);

/* Drop the recorded key=value list (a job copied from the global section starts empty). */
void opt_job_clear_kv(struct opt_job *oj);

/* Number of entries and the table itself (for --cmdhelp and the conformance tests). */
unsigned opt_count(void);
const struct opt_def *opt_at(unsigned i);

/* Exact lookup of a name or alias (case-sensitive, like fio). NULL if unknown. */
const struct opt_def *opt_find(const char *name);

/* getopt_long-style lookup for the command line: exact match, else a unique prefix.
 * Returns NULL when unknown or ambiguous; *nr_matches tells which (0 or >= 2). */
const struct opt_def *opt_find_prefix(const char *name, size_t len, unsigned *nr_matches);

/* fio's closest-name suggestion ("Did you mean iodepth?"), NULL if nothing is close. */
const char *opt_suggest(const char *name);

/* fio's defaults. */
void opt_job_init(struct opt_job *oj);
/* Deep copy (strings and kv duplicated). Returns 0 or -ENOMEM (dst untouched then). */
int opt_job_copy(struct opt_job *dst, const struct opt_job *src);
void opt_job_release(struct opt_job *oj);

/* Apply one option. val is the value (NULL when given without '='). Records key=value in
 * oj->kv. Returns 0, or -EINVAL with fio's message lines in d (the caller adds nothing but
 * the "dropped"-style context). */
int opt_apply(struct opt_job *oj, const struct opt_def *od, const char *val, struct opt_diag *d);

/* Append key=value to a kv list (both duplicated). 0 or -ENOMEM. */
int opt_kv_add(struct job_kv **kv, unsigned *nr, unsigned *cap, const char *key, const char *val);
void opt_kv_free(struct job_kv *kv, unsigned nr);

#endif
