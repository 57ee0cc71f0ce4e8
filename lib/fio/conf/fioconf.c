/* SPDX-License-Identifier: MIT */
#include "fio/conf/fioconf.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "fio/offset/dist.h"
#include "fio/conf/opt_apply.h"
#include "fio/conf/opt_rate.h"
#include "fio/ioprio.h"
#include "fio/log/iolog.h"
#include "fio/log/iolog_replay.h"
#include "fio/offset/offgen_zone.h"
#include "fio/data/verify.h"

#define PATH_BYTES 4096
#define FIOCONF_MAX_TOTAL_FILES 4194304	/* file names over all jobs: bounds the name tables */


static void free_names(char **names, unsigned nr)
{
	if (!names)
		return;
	for (unsigned i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

int fioconf_split_names(const char *list, char ***out, unsigned max)
{
	char **names = NULL;
	unsigned nr = 0, cap = 0;
	const char *p = list;
	char buf[PATH_BYTES];
	size_t len = 0;

	for (;; p++) {
		if (*p == '\\' && p[1] == ':') {
			if (len + 1 >= sizeof(buf))
				goto too_long;
			buf[len++] = ':';
			p++;
			continue;
		}
		if (*p == ':' || *p == '\0') {
			if (len) {
				char *name;

				if (nr >= max) {
					free_names(names, nr);
					return -E2BIG;
				}
				if (nr == cap) {
					unsigned ncap = cap ? cap * 2 : 4;
					char **n = realloc(names, ncap * sizeof(*n));

					if (!n)
						goto nomem;
					names = n;
					cap = ncap;
				}
				buf[len] = '\0';
				name = strdup(buf);
				if (!name)
					goto nomem;
				names[nr++] = name;
				len = 0;
			}
			if (*p == '\0')
				break;
			continue;
		}
		if (len + 1 >= sizeof(buf))
			goto too_long;
		buf[len++] = *p;
	}
	if (!nr) {
		free(names);
		return -EINVAL;
	}
	*out = names;
	return (int)nr;

too_long:
	free_names(names, nr);
	return -ENAMETOOLONG;
nomem:
	free_names(names, nr);
	return -ENOMEM;
}

int fioconf_format_name(const char *fmt, const char *jobname, unsigned jobnum, unsigned filenum,
			char *out, size_t n)
{
	size_t len = 0;

	while (*fmt) {
		char num[16];
		const char *rep = NULL;
		size_t skip = 1, rl;

		if (!strncmp(fmt, "$jobname", 8)) {
			rep = jobname;
			skip = 8;
		} else if (!strncmp(fmt, "$jobnum", 7)) {
			if ((size_t)snprintf(num, sizeof(num), "%u", jobnum) >= sizeof(num))
				return -ENAMETOOLONG;	/* cannot happen: 10 digits fit */
			rep = num;
			skip = 7;
		} else if (!strncmp(fmt, "$filenum", 8)) {
			if ((size_t)snprintf(num, sizeof(num), "%u", filenum) >= sizeof(num))
				return -ENAMETOOLONG;	/* cannot happen: 10 digits fit */
			rep = num;
			skip = 8;
		} else if (!strncmp(fmt, "$clientuid", 10)) {
			return -EINVAL;
		}
		if (rep) {
			rl = strlen(rep);
		} else {
			rep = fmt;
			rl = 1;
		}
		if (len + rl >= n)
			return -ENAMETOOLONG;
		memcpy(out + len, rep, rl);
		len += rl;
		fmt += skip;
	}
	out[len] = '\0';
	return 0;
}

static int join_path(const char *dir, const char *name, char *out, size_t n)
{
	int len;

	if (!dir || !*dir || name[0] == '/')
		len = snprintf(out, n, "%s", name);
	else if (dir[strlen(dir) - 1] == '/')
		len = snprintf(out, n, "%s%s", dir, name);
	else
		len = snprintf(out, n, "%s/%s", dir, name);
	return len < 0 || (size_t)len >= n ? -ENAMETOOLONG : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Derived fields and checks on one job (before cloning). */
static int derive(struct opt_job *oj, struct opt_diag *d)
{
	struct job *j = &oj->j;

	switch (j->rw) {
	case RW_READ:
		j->rw_has_read = true;
		break;
	case RW_WRITE:
		j->rw_has_write = true;
		break;
	case RW_RANDREAD:
		j->rw_has_read = j->rw_random = true;
		break;
	case RW_RANDWRITE:
		j->rw_has_write = j->rw_random = true;
		break;
	case RW_RW:
		j->rw_has_read = j->rw_has_write = true;
		break;
	case RW_RANDRW:
		j->rw_has_read = j->rw_has_write = j->rw_random = true;
		break;
	default:	/* trim: the trim directions */
		j->rw_has_trim = true;
		j->rw_has_write = j->rw == RW_TRIMWRITE || j->rw == RW_RANDTRIMWRITE;
		j->rw_random = j->rw == RW_RANDTRIM || j->rw == RW_RANDTRIMWRITE;
		break;
	}
	if (!j->rw_random)
		j->percentage_random = 0;

	j->batch_ready = !oj->batch_submit_set && !oj->complete_max_set;
	if (j->iodepth_batch_submit == 0 || j->iodepth_batch_submit > j->iodepth)
		j->iodepth_batch_submit = j->iodepth;
	if (j->iodepth_batch_complete_min > j->iodepth)
		j->iodepth_batch_complete_min = j->iodepth;
	if (!oj->complete_max_set) {
		j->iodepth_batch_complete_max = j->iodepth_batch_complete_min ? j->iodepth_batch_complete_min : 1;
	} else {
		if (j->iodepth_batch_complete_max > j->iodepth)
			j->iodepth_batch_complete_max = j->iodepth;
		if (j->iodepth_batch_complete_max < j->iodepth_batch_complete_min)
			j->iodepth_batch_complete_max = j->iodepth_batch_complete_min;	/* fio runs it */
		if (j->iodepth_batch_complete_max == 0)
			j->iodepth_batch_complete_max = 1;
	}
	if (!oj->iodepth_low_set || j->iodepth_low == 0 || j->iodepth_low > j->iodepth)
		j->iodepth_low = j->iodepth;

	if (j->loops == 0)
		j->loops = 1;	/* fio: loops=0 runs once */
	if (j->pre_read)
		j->invalidate = false;	/* fio: pre-reading and then dropping the pages makes no sense */
	if (j->gtod_reduce)
		j->disable_clat = j->disable_slat = j->disable_lat = j->disable_bw = true;

	if (j->nr_percentiles > 1)
		qsort(j->percentiles, j->nr_percentiles, sizeof(j->percentiles[0]), cmp_double);

	if (opt_apply_engine_derive(oj, d))	/* the engine's own requirements (cpuio, net...) */
		return -EINVAL;
	if (j->time_based && j->runtime_ns == 0) {
		opt_diag_add(d, false, "fio: time_based requires a runtime/timeout setting");
		j->time_based = false;
	}

	if (j->bssplit) {	/* dist: bssplit sets the sizes, whatever bs says */
		struct dist_bssplit *bss = calloc(DDIR_NR, sizeof(*bss));
		bool present[DDIR_NR];

		if (!bss)
			return -ENOMEM;
		if (!dist_bssplit_parse(j->bssplit, j->bssplit_kb_base == 1000 ? 1000 : 1024, bss, present, NULL))
			for (int i = 0; i < DDIR_NR; i++)
				if (present[i]) {
					j->bs_min[i] = bss[i].bs_min;
					j->bs_max[i] = bss[i].bs_max;
				}
		free(bss);
	}
	if (verify_fixup(j, d))	/* verify */
		return -EINVAL;
	if (j->dedupe_pct && j->dedupe_working_set && j->dedupe_ws_pct > 100 - j->dedupe_pct) {
		opt_diag_add(d, false, "fio: impossible to reach expected dedupe percentage %u since %u percentage "
			     "of size is reserved to dedupe working set (those are unique pages)", j->dedupe_pct,
			     j->dedupe_ws_pct);
		return -EINVAL;
	}
	if (offgen_zone_fixup(j, d))	/* zone */
		return -EINVAL;
	if (ioprio_check(j, d))	/* cmdprio */
		return -EINVAL;
	if (opt_apply_lat_derive(oj, d))	/* fill_device */
		return -EINVAL;

	if (j->size && !j->size_pct && !d->dry) {	/* fio checks it when the job starts */
		uint64_t min_bs = UINT64_MAX;

		for (int i = 0; i < DDIR_NR; i++)
			if ((i == DDIR_READ && j->rw_has_read) || (i == DDIR_WRITE && j->rw_has_write) ||
			    (i == DDIR_TRIM && j->rw_has_trim))
				if (j->bs_min[i] < min_bs)
					min_bs = j->bs_min[i];
		if (min_bs != UINT64_MAX && j->size < min_bs) {
			opt_diag_add(d, false, "fio: size too small, must not be less than minimum block size: "
				     "%llu < %llu", (unsigned long long)j->size, (unsigned long long)min_bs);
			return -EINVAL;
		}
	}
	{	/* the last clone's region must end at a file offset Linux has (off_t) */
		uint64_t end;

		if (__builtin_mul_overflow(j->offset_increment, (uint64_t)j->numjobs - 1, &end) ||
		    __builtin_add_overflow(end, j->offset, &end) ||
		    __builtin_add_overflow(end, j->size > j->filesize_max ? j->size : j->filesize_max, &end) ||
		    end > INT64_MAX) {
			opt_diag_add(d, false, "fio: offset=%llu plus size=%llu is past the largest file offset",
				     (unsigned long long)j->offset, (unsigned long long)j->size);
			return -EINVAL;
		}
	}
	if (oj->filename && !strcmp(oj->filename, "-")) {
		opt_diag_add(d, false, "fio: filename=- (stdin/stdout) is not supported by iops");
		return -EINVAL;
	}
	return 0;
}

/* "Z:\dir", "\\.\PhysicalDrive1": Windows paths from copied command lines. */
static bool is_windows_path(const char *p)
{
	if (((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':' &&
	    (p[2] == '\\' || p[2] == '\0'))
		return true;
	return p[0] == '\\';	/* \\.\ device paths, or the tail of an unescaped "Z:\" */
}

static int check_windows(const char *what, char **names, unsigned nr, struct opt_diag *d)
{
	for (unsigned i = 0; i < nr; i++)
		if (is_windows_path(names[i])) {
			opt_diag_add(d, false, "fio: %s '%s' is a Windows path; iops runs on Linux "
				     "(use a Linux path such as /iops/data)", what, names[i]);
			return -EINVAL;
		}
	return 0;
}

/* opendir: the regular files below dir, depth first in readdir order (symbolic links and
 * other kinds skipped), as fio adds them; appended to *names. Only looks. */
static int opendir_walk(const char *dir, char ***names, unsigned *nr, unsigned *cap, unsigned depth,
			struct opt_diag *d)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!dp) {
		opt_diag_add(d, false, "fio: opendir(%s) failed: %s", dir, err_str(errno));
		return -EINVAL;
	}
	while (!ret && (de = readdir(dp))) {
		char path[PATH_BYTES];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (join_path(dir, de->d_name, path, sizeof(path)) || lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth < 64)	/* iops bound: no deeper trees */
				ret = opendir_walk(path, names, nr, cap, depth + 1, d);
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		if (*nr >= JOB_MAX_FILES) {
			opt_diag_add(d, false, "fio: too many files below opendir=%s (max %d)", dir, JOB_MAX_FILES);
			ret = -E2BIG;
			break;
		}
		if (*nr == *cap) {
			unsigned c = *cap ? *cap * 2 : 16;
			char **n = realloc(*names, c * sizeof(*n));

			if (!n) {
				ret = -ENOMEM;
				break;
			}
			*names = n;
			*cap = c;
		}
		(*names)[*nr] = strdup(path);
		if (!(*names)[*nr]) {
			ret = -ENOMEM;
			break;
		}
		(*nr)++;
	}
	closedir(dp);
	return ret;
}

/* opendir's files, then the given (or no) names: fio adds the directory's first. */
static int opendir_files(const struct opt_job *oj, struct job *j, char **given, unsigned nr_given,
			 struct opt_diag *d)
{
	char **names = NULL;
	unsigned nr = 0, cap = 0;
	int ret = opendir_walk(oj->opendir, &names, &nr, &cap, 0, d);

	if (!ret && oj->nrfiles_set && nr > oj->nrfiles)
		while (nr > oj->nrfiles)	/* fio stops at nrfiles when it is given */
			free(names[--nr]);
	if (!ret && nr + nr_given == 0) {
		opt_diag_add(d, false, "fio: no regular file below opendir=%s", oj->opendir);
		ret = -EINVAL;
	}
	if (!ret && nr_given) {
		char **n = realloc(names, (nr + nr_given) * sizeof(*n));

		if (!n) {
			ret = -ENOMEM;
		} else {
			names = n;
			for (unsigned i = 0; i < nr_given; i++)
				names[nr++] = given[i];
			free(given);
			given = NULL;
			nr_given = 0;
		}
	}
	free_names(given, nr_given);
	if (ret) {
		free_names(names, nr);
		return ret;
	}
	j->filenames = names;
	j->nr_files = nr;
	j->filenames_generated = false;
	return 0;
}

/* Resolve the file names of clone `subjob` of oj into j (which is that clone). */
static int resolve_files(const struct opt_job *oj, struct job *j, char **dirs, unsigned nr_dirs,
			 struct opt_diag *d)
{
	const char *dir = nr_dirs ? dirs[j->subjob % nr_dirs] : NULL;
	char path[PATH_BYTES];
	char name[PATH_BYTES];
	char **names = NULL;
	unsigned nr = 0;
	int ret;

	if (oj->filename) {
		char **given;

		ret = fioconf_split_names(oj->filename, &given, JOB_MAX_FILES);
		if (ret < 0) {
			if (ret == -E2BIG)
				opt_diag_add(d, false, "fio: too many files in filename= (max %d)", JOB_MAX_FILES);
			else if (ret == -EINVAL && oj->filename[0] && !oj->filename[strspn(oj->filename, ":")])
				opt_diag_add(d, false, "fio: filename=%s names no file (fio 3.33 runs the job without a "
					     "file: no I/O, an empty report)", oj->filename);
			else if (ret != -ENOMEM)
				opt_diag_add(d, false, "fio: failed parsing filename=%s", oj->filename);
			return ret;
		}
		nr = (unsigned)ret;
		ret = check_windows("filename", given, nr, d);
		if (ret) {
			free_names(given, nr);
			return ret;
		}
		for (unsigned i = 0; i < nr; i++) {
			char *full;

			if (join_path(dir, given[i], path, sizeof(path))) {
				opt_diag_add(d, false, "fio: file name too long: %.64s...", given[i]);
				free_names(given, nr);
				return -ENAMETOOLONG;
			}
			full = strdup(path);
			if (!full) {
				free_names(given, nr);
				return -ENOMEM;
			}
			free(given[i]);
			given[i] = full;
		}
		if (oj->opendir)
			return opendir_files(oj, j, given, nr, d);
		names = given;
		j->filenames_generated = false;
	} else if (oj->opendir) {
		return opendir_files(oj, j, NULL, 0, d);
	} else {
		const char *fmt = oj->filename_format ? oj->filename_format : "$jobname.$jobnum.$filenum";

		nr = oj->nrfiles ? oj->nrfiles : 1;
		names = calloc(nr, sizeof(*names));
		if (!names)
			return -ENOMEM;
		for (unsigned f = 0; f < nr; f++) {
			ret = fioconf_format_name(fmt, j->name, j->subjob, f, name, sizeof(name));
			if (ret == -EINVAL) {
				opt_diag_add(d, false, "fio: $clientuid in filename_format is not supported by iops");
				free_names(names, nr);
				return ret;
			}
			if (ret || join_path(dir, name, path, sizeof(path))) {
				opt_diag_add(d, false, "fio: file name too long: %.64s...", name);
				free_names(names, nr);
				return -ENAMETOOLONG;
			}
			names[f] = strdup(path);
			if (!names[f]) {
				free_names(names, nr);
				return -ENOMEM;
			}
		}
		j->filenames_generated = true;
	}
	j->filenames = names;
	j->nr_files = nr;
	return 0;
}

/* openfiles and unlink_each_loop where iops cannot honour them (once the files are known). */
static int check_file_options(const struct job *j, struct opt_diag *d)
{
	if (j->open_files && j->open_files < j->nr_files && (j->verify || j->read_iolog)) {
		opt_diag_add(d, false, "fio: %s: openfiles=%u below the job's %u files together with %s is not "
			     "supported by iops", j->name, j->open_files, j->nr_files, j->verify ? "verify" : "read_iolog");
		return -EINVAL;
	}
	if (j->unlink_each_loop && j->rw_has_read && j->loops > 1) {
		opt_diag_add(d, false, "fio: %s: unlink_each_loop with a job that reads is refused: from the second "
			     "loop on there is no file to read (fio fails with ENOENT)", j->name);
		return -EINVAL;
	}
	return 0;
}

/* iolog: read the clone's log now, before anything touches the volume (iolog_replay.h). */
static int fioconf_replay_plan(struct job *j, struct opt_diag *d)
{
	struct iops_err err = { 0 };
	int ret;

	if (j->write_iolog) {	/* fio replays without writing a log */
		if (j->subjob == 0)
			opt_diag_add(d, false, "fio: read iolog overrides write_iolog");
		free(j->write_iolog);
		j->write_iolog = NULL;
	}
	ret = iolog_replay_plan(j, &err);

	if (iops_err_isset(&err))	/* the error, or a warning */
		opt_diag_add(d, false, "%s", err.msg);
	return ret;
}

/* iodepth not given: a blktrace replays at the depth it was traced at, as in fio. */
static void fioconf_replay_depth(struct job *j, const struct opt_job *oj)
{
	j->iodepth = j->replay_depth;
	if (!oj->iodepth_low_set || j->iodepth_low > j->iodepth)
		j->iodepth_low = j->iodepth;
	if (!oj->batch_submit_set || j->iodepth_batch_submit > j->iodepth)
		j->iodepth_batch_submit = j->iodepth;
	if (j->iodepth_batch_complete_min > j->iodepth)
		j->iodepth_batch_complete_min = j->iodepth;
	if (j->iodepth_batch_complete_max > j->iodepth)
		j->iodepth_batch_complete_max = j->iodepth;
}

static void job_release(struct job *j)
{
	free(j->description);
	j->description = NULL;
	free(j->bssplit);	/* dist */
	free(j->random_distribution);
	j->bssplit = j->random_distribution = NULL;
	iolog_prefix_free(j);	/* logs */
	iolog_replay_free(j);	/* iolog */
	free_names(j->filenames, j->nr_files);
	j->filenames = NULL;
	j->nr_files = 0;
	opt_kv_free(j->opts, j->nr_opts);
	j->opts = NULL;
	j->nr_opts = 0;
}

void fio_config_release(struct fio_config *cfg)
{
	if (!cfg)
		return;
	for (unsigned i = 0; i < cfg->nr_jobs; i++)
		job_release(&cfg->jobs[i]);
	free(cfg->jobs);
	cfg->jobs = NULL;
	cfg->nr_jobs = 0;
	cfg->nr_groups = 0;
	opt_kv_free(cfg->global_opts, cfg->nr_global_opts);
	cfg->global_opts = NULL;
	cfg->nr_global_opts = 0;
	free(cfg->output_path);
	cfg->output_path = NULL;
}

static int copy_kv(const struct opt_job *oj, struct job *j)
{
	unsigned cap = 0;

	j->opts = NULL;
	j->nr_opts = 0;
	for (unsigned i = 0; i < oj->nr_kv; i++)
		if (opt_kv_add(&j->opts, &j->nr_opts, &cap, oj->kv[i].key, oj->kv[i].value))
			return -ENOMEM;
	return 0;
}

int fioconf_build(struct fio_config *cfg, struct opt_job_list *list, struct job_kv *global_kv,
		  unsigned nr_global_kv, struct opt_diag *d)
{
	struct job *jobs = NULL;
	uint64_t total = 0;
	unsigned n = 0, group = 0, group_jobs = 0, segment = 0;
	double mem = 0;	/* bytes of I/O buffers: iodepth x largest block, every job */
	uint64_t bs = 0;
	int ret;

	for (unsigned i = 0; i < list->nr; i++) {
		const struct job *j = &list->v[i].j;

		ret = derive(&list->v[i], d);
		if (!ret && !cfg->parse_only)	/* rate: fio's checks run when jobs are set up */
			ret = opt_rate_check(&list->v[i].j, d);
		if (!ret && !cfg->parse_only && j->numa_bad[0]) {	/* fio's callbacks: not --parse-only */
			const char *nl = strchr(j->numa_bad, '\n');

			opt_diag_add(d, false, "%.*s", (int)(nl ? nl - j->numa_bad : (long)strlen(j->numa_bad)),
				     j->numa_bad);
			opt_diag_add(d, false, "fio: numa_parse_nodestring failed");
			if (nl)
				opt_diag_add(d, false, "%s", nl + 1);
			ret = -EINVAL;
		}
		if (ret)
			goto fail;
		total += j->numjobs;
		for (int k = 0; k < DDIR_NR; k++)	/* the runner's bound is per job: this one is the run's */
			bs = j->bs_max[k] > bs ? j->bs_max[k] : bs;
		mem += (double)bs * (j->iodepth ? j->iodepth : 1) * j->numjobs;
		bs = 0;
	}
	if (mem > (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE)) {	/* fio: OOM */
		opt_diag_add(d, false, "fio: the jobs' I/O buffers (%.0f MiB) exceed this machine's memory",
			     mem / 1048576);
		ret = -EINVAL;
		goto fail;
	}
	{
		uint64_t nr_names = 0;

		for (unsigned i = 0; i < list->nr; i++) {
			const struct opt_job *oj = &list->v[i];
			unsigned per_job = oj->filename ? 1 : (oj->nrfiles ? oj->nrfiles : 1);

			if (oj->filename)	/* a list: count its names (bounded by JOB_MAX_FILES) */
				for (const char *c = oj->filename; *c; c++)
					per_job += *c == ':' && (c == oj->filename || c[-1] != '\\');
			nr_names += (uint64_t)per_job * oj->j.numjobs;
		}
		if (nr_names > FIOCONF_MAX_TOTAL_FILES) {
			opt_diag_add(d, false, "fio: too many files in total: %llu (iops supports at most %d)",
				     (unsigned long long)nr_names, FIOCONF_MAX_TOTAL_FILES);
			ret = -E2BIG;
			goto fail;
		}
	}
	if (total > JOB_MAX_JOBS) {
		opt_diag_add(d, false, "fio: too many jobs: %llu (iops supports at most %d)",
			     (unsigned long long)total, JOB_MAX_JOBS);
		ret = -E2BIG;
		goto fail;
	}
	/* resolve wait_for names against the jobs defined before */
	for (unsigned i = 0; i < list->nr; i++) {
		struct opt_job *oj = &list->v[i];
		bool found = false;

		if (!oj->wait_for_name)
			continue;
		for (unsigned k = 0; k < i; k++)
			if (!strcmp(list->v[k].j.name, oj->wait_for_name))
				found = true;
		if (!found) {	/* fio 3.33 rejects the job, and with it the run */
			opt_diag_add(d, false, "%s: waitee job %s unknown.", oj->j.name, oj->wait_for_name);
			ret = -EINVAL;
			goto fail;
		}
	}
	if (total) {
		jobs = calloc((size_t)total, sizeof(*jobs));
		if (!jobs) {
			ret = -ENOMEM;
			goto fail;
		}
	}
	for (unsigned i = 0; i < list->nr; i++) {
		struct opt_job *oj = &list->v[i];
		char **dirs = NULL;
		int nr_dirs = 0;
		unsigned first_index = n;

		if (oj->directory) {
			nr_dirs = fioconf_split_names(oj->directory, &dirs, JOB_MAX_FILES);
			if (nr_dirs < 0) {
				ret = nr_dirs;
				if (ret != -ENOMEM)
					opt_diag_add(d, false, "fio: failed parsing directory=%s", oj->directory);
				goto fail_jobs;
			}
			ret = check_windows("directory", dirs, (unsigned)nr_dirs, d);
			if (ret) {
				free_names(dirs, (unsigned)nr_dirs);
				goto fail_jobs;
			}
		}
		if ((oj->j.stonewall || oj->j.new_group) && group_jobs) {
			group++;
			group_jobs = 0;
		}
		if (oj->j.stonewall && n > 0)
			segment++;	/* exitall: exit_what=stonewall ends the jobs of one segment */
		for (unsigned k = 0; k < oj->j.numjobs; k++) {
			struct job *j = &jobs[n];

			*j = oj->j;
			j->description = NULL;
			j->bssplit = j->random_distribution = NULL;	/* dist */
			memset(j->log_prefix, 0, sizeof(j->log_prefix));	/* logs: duplicated below */
			j->write_iolog = j->read_iolog = j->replay_log = j->replay_redirect = NULL;	/* iolog */
			j->merge_blktrace_file = j->merge_blktrace_scalars = j->merge_blktrace_iters = NULL;
			j->filenames = NULL;
			j->opts = NULL;
			j->nr_files = j->nr_opts = 0;
			j->group_id = group;
			j->segment = segment;
			j->job_index = n;
			j->thread_number = n + 1;
			j->subjob = k;
			j->numjobs = oj->j.numjobs;
			if (k) {
				j->stonewall = false;
				j->new_group = false;
			}
			j->wait_for = -1;
			if (oj->wait_for_name)
				for (unsigned q = 0; q < first_index; q++)
					if (!strcmp(jobs[q].name, oj->wait_for_name)) {
						j->wait_for = (int)q;
						break;
					}
			n++;
			if ((oj->j.description && !(j->description = strdup(oj->j.description))) ||
			    (oj->j.bssplit && !(j->bssplit = strdup(oj->j.bssplit))) ||	/* dist */
			    (oj->j.random_distribution &&
			     !(j->random_distribution = strdup(oj->j.random_distribution)))) {
				ret = -ENOMEM;
				free_names(dirs, (unsigned)nr_dirs);
				goto fail_jobs;
			}
			ret = resolve_files(oj, j, dirs, (unsigned)nr_dirs, d);
			if (!ret)
				ret = copy_kv(oj, j);
			if (!ret)
				ret = iolog_prefix_dup(j, &oj->j);	/* logs */
			if (!ret)
				ret = iolog_replay_dup(j, &oj->j);	/* iolog */
			if (!ret && !j->read_iolog &&
			    (j->merge_blktrace_file || j->merge_blktrace_scalars || j->merge_blktrace_iters)) {
				opt_diag_add(d, false, "fio: %s: merge_blktrace_* needs read_iolog (the traces to merge)",
					     j->name);	/* iolog: fio ignores them */
				ret = -EINVAL;
			}
			if (!ret && j->read_iolog && !cfg->parse_only)
				ret = fioconf_replay_plan(j, d);	/* iolog: the log's files and sizes */
			if (!ret && j->replay_depth && !oj->iodepth_set)
				fioconf_replay_depth(j, oj);	/* iolog: a blktrace's own depth */
			if (!ret)
				ret = check_file_options(j, d);
			if (ret) {
				free_names(dirs, (unsigned)nr_dirs);
				goto fail_jobs;
			}
			group_jobs++;
		}
		free_names(dirs, (unsigned)nr_dirs);
	}
	cfg->jobs = jobs;
	cfg->nr_jobs = n;
	cfg->nr_groups = n ? group + 1 : 0;
	cfg->global_opts = global_kv;
	cfg->nr_global_opts = nr_global_kv;
	if (n)
		cfg->kb_base_global = jobs[0].kb_base;
	opt_job_list_release(list);
	return 0;

fail_jobs:
	for (unsigned i = 0; i < n; i++)
		job_release(&jobs[i]);
	free(jobs);
fail:
	opt_kv_free(global_kv, nr_global_kv);
	opt_job_list_release(list);
	return ret;
}
