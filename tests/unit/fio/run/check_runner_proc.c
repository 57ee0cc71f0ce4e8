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

START_TEST(test_huge)
{
	FILE *f = fopen("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "r");
	unsigned long n = 0;
	char msg[512];

	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\nmem=shmhuge\nhugepage-size=3000\n", msg, sizeof(msg)),
			 -EINVAL);
	ck_assert_str_eq(msg, "fio: a: hugepage-size=3000 is not a power of 2 of at least 4096");
	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\nmem=mmaphuge\nhugepage-size=0\n", msg, sizeof(msg)),
			 -EINVAL);
	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\nmem=mmaphuge:/tmp/x\n", msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "fio: a: mem=mmaphuge:/tmp/x is not on a hugetlbfs mount");
	if (f) {
		if (fscanf(f, "%lu", &n) != 1)
			n = 0;
		fclose(f);
	}
	if (n)	/* this machine has huge pages: nothing to refuse */
		return;
	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\nmem=shmhuge\n", msg, sizeof(msg)), -ENOMEM);
	ck_assert_str_eq(msg, "fio: no huge pages available, do you need to allocate some? See HOWTO.");
	ck_assert_int_eq(check_text("[a]\nioengine=null\nsize=1m\nmem=mmaphuge\nhugepage-size=1g\n", msg, sizeof(msg)),
			 -ENOMEM);
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
