/* SPDX-License-Identifier: MIT */
/* opt_apply_proc: memory and process options: mem / iomem, iomem_align, hugepage-size, lockmem,
 * nice, uid, gid, cgroup, cgroup_nodelete, cgroup_weight, ioscheduler, exec_prerun and
 * exec_postrun (job.h's struct job_proc; used by fio/run/iomem.c and fio/run/runner_proc.c), and
 * profile, which iops refuses with its reason. */
#include "fio/conf/opt_apply.h"
#include "fio/optval.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/parse.h"

#define PROC_ID_MAX	4294967294ll	/* uid / gid: (uid_t)-1 means "no change" to the kernel */

const struct opt_choice opt_apply_mem_choices[] = {
	{ .word = "malloc", .help = "Buffers from the heap", .value = MEM_MALLOC },
	{ .word = "shm", .help = "Buffers in a System V shared memory segment", .value = MEM_SHM },
	{ .word = "shmhuge", .help = "A shared memory segment of huge pages", .value = MEM_SHMHUGE },
	{ .word = "mmap", .help = "An anonymous mapping, or a shared one of :FILE", .value = MEM_MMAP },
	{ .word = "mmapshared", .help = "A shared anonymous mapping", .value = MEM_MMAPSHARED },
	{ .word = "mmaphuge", .help = "A mapping of huge pages (:FILE on hugetlbfs)", .value = MEM_MMAPHUGE },
	{ .word = NULL },
};

/* Copy val into a fixed field of cap bytes: "fio: NAME is too long (N bytes, max M)". */
static int proc_copy(const struct opt_def *od, const char *val, struct opt_diag *d, char *dst, size_t cap)
{
	size_t n = val ? strlen(val) : 0;

	if (!n) {
		opt_diag_add(d, false, "fio: %s needs a value", od->name);
		return -EINVAL;
	}
	if (n >= cap) {
		opt_diag_add(d, false, "fio: %s is too long (%zu bytes, max %zu)", od->name, n, cap - 1);
		return -EINVAL;
	}
	memcpy(dst, val, n + 1);
	return 0;
}

/* mem=TYPE or mem=mmap:FILE / mmaphuge:FILE. */
APPLY(opt_apply_mem)
{
	/* fio's word (up to the first ',' or ':'); its callback reads a file after the first ':'
	 * for the mmap kinds only (the others ignore what follows) */
	const char *colon = val ? strchr(val, ':') : NULL;
	struct job_proc *p = &oj->j.proc;
	int v = -1;

	if (val && optval_word_match("cudamalloc", val)) {
		opt_diag_add(d, false, "fio: mem=cudamalloc is not supported by iops: it needs CUDA, "
			     "which this build does not include");
		return -EINVAL;
	}
	if (val)
		for (const struct opt_choice *c = od->choices; c->word; c++)
			if (optval_word_match(c->word, val))
				v = c->value;
	if (v < 0) {
		opt_value_choices(d, od);
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	p->mem_path[0] = '\0';
	if (colon && v != MEM_MMAP && v != MEM_MMAPHUGE)
		colon = NULL;
	if (colon) {
		if (!colon[1]) {
			opt_diag_add(d, false, "fio: %s=%s: no file name after ':'", od->name, val);
			return -EINVAL;
		}
		if (strlen(colon + 1) >= sizeof(p->mem_path)) {
			opt_diag_add(d, false, "fio: %s: file name too long (max %zu bytes)", od->name,
				     sizeof(p->mem_path) - 1);
			return -EINVAL;
		}
		memcpy(p->mem_path, colon + 1, strlen(colon + 1) + 1);
	}
	p->mem = (uint8_t)v;
	return 0;
}

APPLY(opt_apply_lockmem)
{
	uint64_t v;

	if (!val || parse_size(val, opt_value_kb_of(oj), &v)) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	oj->j.proc.lockmem_bytes = v;
	return 0;
}

APPLY(opt_apply_nice)
{
	int64_t v;
	int ret = opt_value_get_int(oj, od, val, d, &v);

	if (!ret)
		oj->j.proc.nice = (int)v;
	return ret;
}

/* uid / gid: 0 .. 2^32-2 (fio takes -1 and wraps larger values; iops refuses them) */
APPLY(opt_apply_id)
{
	int64_t v;
	int ret = opt_value_get_int(oj, od, val, d, &v);

	if (ret)
		return ret;
	if (v > PROC_ID_MAX)
		return opt_value_range_failed(d, od, val, true, v, PROC_ID_MAX);
	if (od->name[0] == 'u') {
		oj->j.proc.uid = (uint32_t)v;
		oj->j.proc.uid_set = true;
	} else {
		oj->j.proc.gid = (uint32_t)v;
		oj->j.proc.gid_set = true;
	}
	return 0;
}

/* cgroup=NAME: a directory under the blkio hierarchy; never absolute, never "..". */
APPLY(opt_apply_cgroup)
{
	char *dst = oj->j.proc.cgroup;
	int ret = proc_copy(od, val, d, dst, sizeof(oj->j.proc.cgroup));

	if (ret)
		return ret;
	if (dst[0] != '/') {	/* x/ and a//b name x and a/b, as mkdir(2) reads them (fio takes them) */
		char *w = dst;

		for (const char *r = dst; *r; r++)
			if (*r != '/' || (w > dst && w[-1] != '/'))
				*w++ = *r;
		while (w > dst && w[-1] == '/')
			w--;
		*w = '\0';
	}
	for (const char *c = dst; *c; c = strchr(c, '/') ? strchr(c, '/') + 1 : c + strlen(c)) {
		size_t n = strcspn(c, "/");

		if (n == 0 || (n == 2 && c[0] == '.' && c[1] == '.') || (n == 1 && c[0] == '.')) {
			opt_diag_add(d, false, "fio: cgroup=%s: give a name below the cgroup mount (no leading '/', "
				     "no '.' or '..', no empty part)", val);
			dst[0] = '\0';
			return -EINVAL;
		}
	}
	if (!dst[0] || dst[strlen(dst) - 1] == '/') {
		opt_diag_add(d, false, "fio: cgroup=%s: give a name below the cgroup mount (no leading '/', "
			     "no '.' or '..', no empty part)", val);
		dst[0] = '\0';
		return -EINVAL;
	}
	return 0;
}

/* ioscheduler=NAME: the word the kernel's queue/scheduler file takes. */
APPLY(opt_apply_ioscheduler)
{
	char *dst = oj->j.proc.ioscheduler;
	int ret = proc_copy(od, val, d, dst, sizeof(oj->j.proc.ioscheduler));

	if (ret)
		return ret;
	if (dst[strspn(dst, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")]) {
		opt_diag_add(d, false, "fio: ioscheduler=%s: a scheduler name is letters, digits, '-' and '_'", val);
		dst[0] = '\0';
		return -EINVAL;
	}
	return 0;
}

APPLY(opt_apply_exec_run)
{
	struct job_proc *p = &oj->j.proc;

	return proc_copy(od, val, d, od->name[6] == 'r' ? p->exec_prerun : p->exec_postrun,
			 sizeof(p->exec_prerun));
}

/* profile=: refused, with the reason. */
APPLY(opt_apply_profile)
{
	(void)oj;
	(void)od;
	if (val && !strcmp(val, "tiobench"))
		opt_diag_add(d, false, "fio: profile=tiobench is not supported by iops: fio 3.33's tiobench ignores "
			     "its size, block, numruns, dir and threads options (write the four jobs in a job file)");
	else if (val && !strcmp(val, "act"))
		opt_diag_add(d, false, "fio: profile=act is not supported by iops: it needs its own device, load and "
			     "latency-check machinery (write the jobs in a job file)");
	else
		opt_diag_add(d, false, "fio: profile '%s' not found", val ? val : "");
	return -EINVAL;
}
