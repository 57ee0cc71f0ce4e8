/* SPDX-License-Identifier: MIT */
/* Unit tests of the run's memory and process checks (lib/fio/run/runner_proc.c): what is refused
 * before anything is touched (an existing or shared mem=mmap:FILE, lockmem past the machine's
 * memory, a bad hugepage-size, mmaphuge:FILE off hugetlbfs, huge pages the machine lacks), and
 * that a plain configuration passes and is released. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio/conf/fioconf.h"
#include "fio/conf/opt.h"
#include "fio/run/runner_int.h"
#include "fioconf_text.h"
#include "unit_probe.h"

static struct opt_diag *diag;

static void setup(void)
{
	diag = malloc(sizeof(*diag));
	opt_diag_init(diag);
}

static void teardown(void)
{
	free(diag);
}

/* proc_run_init on text's jobs: its return, the message in msg. */
static int check_text(const char *text, char *msg, size_t cap)
{
	struct fio_config cfg;
	struct iops_err err = { 0 };
	struct proc_run pr;
	int ret;

	ck_assert_int_eq(fioconf_from_text(text, &cfg, diag), 0);
	ret = proc_run_init(&pr, &cfg, &err);
	if (!ret)
		proc_run_finish(&pr, stderr);
	snprintf(msg, cap, "%s", ret ? err.msg : "");
	fio_config_release(&cfg);
	return ret;
}

START_TEST(test_plain_passes)
{
	char msg[512];

	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\n", msg, sizeof(msg)), 0);
	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\nmem=mmap\nlockmem=1m\nnice=1\n"
				    "hugepage-size=3\n", msg, sizeof(msg)), 0);	/* hugepage-size unused */
}
END_TEST

START_TEST(test_mem_files)
{
	char dir[] = "/tmp/check_runner_proc.XXXXXX", text[512], msg[512], want[512];
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(text, sizeof(text), "[a]\nioengine=null\nsize=1m\nmem=mmap:%s/m\n", dir);
	ck_assert_int_eq(check_text(text, msg, sizeof(msg)), 0);	/* it does not exist yet */

	snprintf(text, sizeof(text), "[a]\nioengine=null\nsize=1m\nmem=mmap:%s/m\n[b]\nioengine=null\n"
		 "size=1m\nmem=mmap:%s/m\n", dir, dir);
	ck_assert_int_eq(check_text(text, msg, sizeof(msg)), -EINVAL);
	snprintf(want, sizeof(want), "fio: mem file %s/m is named by jobs a and b; each job needs its own", dir);
	ck_assert_str_eq(msg, want);

	snprintf(want, sizeof(want), "%s/m", dir);
	fd = open(want, O_CREAT | O_WRONLY, 0644);
	close(fd);
	snprintf(text, sizeof(text), "[a]\nioengine=null\nsize=1m\nmem=mmap:%s/m\n", dir);
	ck_assert_int_eq(check_text(text, msg, sizeof(msg)), -EEXIST);
	snprintf(want, sizeof(want), "fio: a: mem file %s/m exists; iops maps only a file it creates (remove it or "
		 "name another)", dir);
	ck_assert_str_eq(msg, want);
	snprintf(want, sizeof(want), "%s/m", dir);
	unlink(want);
	rmdir(dir);
}
END_TEST

START_TEST(test_lockmem_bound)
{
	char msg[512];

	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\nlockmem=1000t\n", msg, sizeof(msg)), -ENOMEM);
	ck_assert_msg(strstr(msg, "fio: a: lockmem=1048576000 MiB is more than this machine can lock (its memory "
				  "less 128 MiB: ") == msg, "%s", msg);
}
END_TEST

/* Huge pages: the refusals of bad sizes and of a file off hugetlbfs everywhere; whether a job
 * that needs huge pages passes depends on the pool the kernel has (sysfs, read here without
 * iops' code): none free, fio's refusal; some free, it passes and the refusal is a counted skip. */
static void huge_case(const char *text, unsigned long kib, const char *refusal)
{
	unsigned long nr = probe_free_hugepages(kib);
	char msg[512];

	if (nr) {
		unit_skip("huge pages: %lu free %lu KiB pages here: the no-huge-pages refusal cannot be shown, the job passes",
			  nr, kib);
		ck_assert_msg(check_text(text, msg, sizeof(msg)) == 0, "%s", msg);
		return;
	}
	ck_assert_int_eq(check_text(text, msg, sizeof(msg)), -ENOMEM);
	if (refusal)
		ck_assert_str_eq(msg, refusal);
}

START_TEST(test_huge)
{
	char msg[512];

	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\nmem=shmhuge\nhugepage-size=3000\n", msg, sizeof(msg)),
			 -EINVAL);
	ck_assert_str_eq(msg, "fio: a: hugepage-size=3000 is not a power of 2 of at least 4096");
	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\nmem=mmaphuge\nhugepage-size=0\n", msg, sizeof(msg)),
			 -EINVAL);
	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\nmem=mmaphuge:/tmp/x\n", msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "fio: a: mem=mmaphuge:/tmp/x is not on a hugetlbfs mount");
	huge_case("[a]\nioengine=null\nsize=1m\nmem=shmhuge\n", 2048,
		  "fio: no huge pages available, do you need to allocate some? See HOWTO.");
	huge_case("[a]\nioengine=null\nsize=1m\nmem=mmaphuge\nhugepage-size=1g\n", 1048576, NULL);
}
END_TEST

Suite *runner_proc_suite(void);

Suite *runner_proc_suite(void)
{
	Suite *s = suite_create("runner_proc");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_plain_passes);
	tcase_add_test(tc, test_mem_files);
	tcase_add_test(tc, test_lockmem_bound);
	tcase_add_test(tc, test_huge);
	suite_add_tcase(s, tc);
	return s;
}
