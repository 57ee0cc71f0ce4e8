/* SPDX-License-Identifier: MIT */
/* Unit tests of the memory and process options (lib/fio/conf/opt_apply_proc.c): values into
 * job.proc, fio's defaults, the bounds, and the values refused with their line. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt_apply_fixture.h"

START_TEST(test_defaults)
{
	struct fio_config cfg;
	const struct job_proc *p;

	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=null\nsize=1m\n", &cfg, diag), 0);
	p = &cfg.jobs[0].proc;
	ck_assert_uint_eq(p->mem, MEM_MALLOC);
	ck_assert_str_eq(p->mem_path, "");
	ck_assert_uint_eq(p->mem_align, 0);
	ck_assert_uint_eq(p->hugepage_bytes, 2u << 20);
	ck_assert_uint_eq(p->lockmem_bytes, 0);
	ck_assert_int_eq(p->nice, 0);
	ck_assert(!p->uid_set && !p->gid_set && !p->cgroup_nodelete);
	ck_assert_uint_eq(p->cgroup_weight, 0);
	ck_assert_str_eq(p->cgroup, "");
	ck_assert_str_eq(p->ioscheduler, "");
	ck_assert_str_eq(p->exec_prerun, "");
	ck_assert_str_eq(p->exec_postrun, "");
	fio_config_release(&cfg);
}
END_TEST

static const struct { const char *text; uint8_t mem; const char *path; } mem_cases[] = {
	{ "mem=malloc", MEM_MALLOC, "" },
	{ "iomem=shm", MEM_SHM, "" },
	{ "mem=shmhuge", MEM_SHMHUGE, "" },
	{ "mem=mmap", MEM_MMAP, "" },
	{ "mem=mmapshared", MEM_MMAPSHARED, "" },
	{ "mem=mmaphuge", MEM_MMAPHUGE, "" },
	{ "mem=mmap:/tmp/x", MEM_MMAP, "/tmp/x" },
	{ "mem=mmap:a:b", MEM_MMAP, "a:b" },	/* the first ':' splits */
	{ "mem=mmaphuge:/mnt/huge/f", MEM_MMAPHUGE, "/mnt/huge/f" },
	{ "mem=mmap:/tmp/x\nmem=shm", MEM_SHM, "" },	/* a later value replaces the file too */
};

START_TEST(test_mem)
{
	char text[256];
	struct fio_config cfg;

	snprintf(text, sizeof(text), "[a]\nioengine=null\nsize=1m\n%s\n", mem_cases[_i].text);
	ck_assert_int_eq(fioconf_from_text(text, &cfg, diag), 0);
	ck_assert_uint_eq(cfg.jobs[0].proc.mem, mem_cases[_i].mem);
	ck_assert_str_eq(cfg.jobs[0].proc.mem_path, mem_cases[_i].path);
	fio_config_release(&cfg);
}
END_TEST

START_TEST(test_values)
{
	struct fio_config cfg;
	const struct job_proc *p;

	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=null\nsize=1m\niomem_align=512\nhugepage-size=1g\n"
					   "lockmem=16m\nnice=-20\nuid=65534\ngid=0\ncgroup=a//b/\ncgroup_nodelete=1\n"
					   "cgroup_weight=1000\nioscheduler=mq-deadline\nexec_prerun=echo a && id\n"
					   "exec_postrun=true\n", &cfg, diag), 0);
	p = &cfg.jobs[0].proc;
	ck_assert_uint_eq(p->mem_align, 512);
	ck_assert_uint_eq(p->hugepage_bytes, 1u << 30);
	ck_assert_uint_eq(p->lockmem_bytes, 16u << 20);
	ck_assert_int_eq(p->nice, -20);
	ck_assert(p->uid_set && p->gid_set && p->cgroup_nodelete);
	ck_assert_uint_eq(p->uid, 65534);
	ck_assert_uint_eq(p->gid, 0);
	ck_assert_str_eq(p->cgroup, "a/b");	/* as written: a//b/ */
	ck_assert_uint_eq(p->cgroup_weight, 1000);
	ck_assert_str_eq(p->ioscheduler, "mq-deadline");
	ck_assert_str_eq(p->exec_prerun, "echo a && id");
	ck_assert_str_eq(p->exec_postrun, "true");
	fio_config_release(&cfg);

	/* the edges that are still taken */
	ck_assert_int_eq(fioconf_from_text("[a]\nioengine=null\nsize=1m\nnice=19\nuid=4294967294\n"
					   "cgroup_weight=100\niomem_align=1g\nhugepage-size=0\nlockmem=0\n",
					   &cfg, diag), 0);
	p = &cfg.jobs[0].proc;
	ck_assert_int_eq(p->nice, 19);
	ck_assert_uint_eq(p->uid, 4294967294u);
	ck_assert_uint_eq(p->cgroup_weight, 100);
	ck_assert_uint_eq(p->mem_align, 1u << 30);
	ck_assert_uint_eq(p->hugepage_bytes, 0);
	fio_config_release(&cfg);
}
END_TEST

static const struct { const char *text, *line; } bad_cases[] = {
	{ "mem=bogus", "fio: failed parsing mem=bogus" },
	{ "mem=", "fio: failed parsing mem=" },
	{ "mem=:x", "fio: failed parsing mem=:x" },
	{ "mem=mallocmalloc", "fio: failed parsing mem=mallocmalloc" },
	{ "mem=cudamalloc", "fio: mem=cudamalloc is not supported by iops: it needs CUDA, which this build does not include" },
	/* (mem=shm:/tmp/x, mmapshared:/tmp/x: fio ignores what follows ':' for these, so does iops) */
	{ "mem=mmap:", "fio: mem=mmap:: no file name after ':'" },
	/* fio checks them as the ints -1 and -2147483648 and keeps 32 bits */
	{ "iomem_align=-1", "fio: iomem_align=-1: fio 3.33 reads 18446744073709551615, checks it as the int -1 "
	  "and keeps 4294967295, past its largest, 1073741824: iops refuses it" },
	{ "iomem_align=2g", "fio: iomem_align=2g: fio 3.33 reads 2147483648, checks it as the int -2147483648 and "
	  "keeps 2147483648, past its largest, 1073741824: iops refuses it" },
	{ "iomem_align=x", "fio: failed parsing iomem_align=x" },
	{ "hugepage-size=2g", "fio: hugepage-size=2g: fio 3.33 reads 2147483648, checks it as the int -2147483648 "
	  "and keeps 2147483648, past its largest, 1073741824: iops refuses it" },
	{ "buffer_compress_percentage=4294967295", "fio: buffer_compress_percentage=4294967295: fio 3.33 reads "
	  "4294967295, checks it as the int -1 and keeps 4294967295, past its largest, 100: iops refuses it" },
	{ "cpuload=1t\nioengine=cpuio", "fio: cpuload=1t: fio 3.33 reads 1099511627776, checks it as the int 0 and "
	  "keeps 0, below its least, 1: iops refuses it" },
	{ "lockmem=abc", "fio: failed parsing lockmem=abc" },
	{ "lockmem=99999999999999999999", "fio: failed parsing lockmem=99999999999999999999" },
	{ "nice=20", "nice: max value out of range: 20 (19 max)" },
	{ "nice=-21", "nice: min value out of range: -21 (-20 min)" },
	{ "uid=-1", "uid: max value out of range: 4294967295 (4294967294 max)" },	/* fio's 32 bits: (uid_t)-1 */
	{ "gid=4294967295", "gid: max value out of range: 4294967295 (4294967294 max)" },
	{ "uid=root", "fio: failed parsing uid=root" },
	{ "cgroup_weight=99", "cgroup_weight: min value out of range: 99 (100 min)" },
	{ "cgroup_weight=1001", "cgroup_weight: max value out of range: 1001 (1000 max)" },
	{ "cgroup_nodelete=2", "max value out of range: 2 (1 max)" },
	{ "cgroup=/abs", "fio: cgroup=/abs: give a name below the cgroup mount (no leading '/', no '.' or '..', no empty part)" },
	{ "cgroup=../up", "fio: cgroup=../up: give a name below the cgroup mount (no leading '/', no '.' or '..', no empty part)" },
	{ "cgroup=a/../b", "fio: cgroup=a/../b: give a name below the cgroup mount (no leading '/', no '.' or '..', no empty part)" },
	{ "cgroup=//", "fio: cgroup=//: give a name below the cgroup mount (no leading '/', no '.' or '..', no empty part)" },
	{ "cgroup=.", "fio: cgroup=.: give a name below the cgroup mount (no leading '/', no '.' or '..', no empty part)" },
	{ "cgroup=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	  "fio: cgroup is too long (128 bytes, max 127)" },
	{ "ioscheduler=../x", "fio: ioscheduler=../x: a scheduler name is letters, digits, '-' and '_'" },
	{ "ioscheduler=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "fio: ioscheduler is too long (33 bytes, max 31)" },
	{ "profile=tiobench", "fio: profile=tiobench is not supported by iops: fio 3.33's tiobench ignores its size, block, "
	  "numruns, dir and threads options (write the four jobs in a job file)" },
	{ "profile=act", "fio: profile=act is not supported by iops: it needs its own device, load and latency-check "
	  "machinery (write the jobs in a job file)" },
	{ "profile=foo", "fio: profile 'foo' not found" },
};

START_TEST(test_bad)
{
	char text[512];
	struct fio_config cfg;
	bool found = false;

	snprintf(text, sizeof(text), "[a]\nioengine=null\nsize=1m\n%s\n", bad_cases[_i].text);
	ck_assert_int_ne(fioconf_from_text(text, &cfg, diag), 0);
	ck_assert_uint_ge(diag->nr, 1);
	for (unsigned i = 0; i < diag->nr; i++)
		found = found || !strcmp(diag->line[i], bad_cases[_i].line);
	ck_assert_msg(found, "[%s]: no line [%s]; last [%s]", bad_cases[_i].text, bad_cases[_i].line,
		      diag->line[diag->nr - 1]);
	ck_assert_ptr_null(cfg.jobs);
}
END_TEST

START_TEST(test_long_exec)
{
	char *text = malloc(2048);
	struct fio_config cfg;

	memcpy(text, "[a]\nioengine=null\nsize=1m\nexec_prerun=", 38);
	memset(text + 38, 'x', JOB_EXEC_MAX - 1);
	memcpy(text + 38 + JOB_EXEC_MAX - 1, "\n", 2);
	ck_assert_int_eq(fioconf_from_text(text, &cfg, diag), 0);	/* the longest that fits */
	ck_assert_uint_eq(strlen(cfg.jobs[0].proc.exec_prerun), JOB_EXEC_MAX - 1);
	fio_config_release(&cfg);
	memcpy(text + 38 + JOB_EXEC_MAX - 1, "x\n", 3);
	opt_diag_init(diag);
	ck_assert_int_ne(fioconf_from_text(text, &cfg, diag), 0);
	ck_assert_uint_ge(diag->nr, 1);
	ck_assert_str_eq(diag->line[0], "fio: exec_prerun is too long (512 bytes, max 511)");
	free(text);
}
END_TEST

Suite *opt_apply_proc_suite(void);

Suite *opt_apply_proc_suite(void)
{
	Suite *s = suite_create("opt_apply_proc");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_defaults);
	tcase_add_loop_test(tc, test_mem, 0, sizeof(mem_cases) / sizeof(mem_cases[0]));
	tcase_add_test(tc, test_values);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, test_long_exec);
	suite_add_tcase(s, tc);
	return s;
}
