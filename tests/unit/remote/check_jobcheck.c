/* SPDX-License-Identifier: MIT */
/* jobcheck: what a server refuses in a received job, table-driven from job-file text (each
 * refused option, paths in and out of the served directory), the verify state file turned
 * off, and the command-line arguments refused before parsing. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <string.h>

#include "fioconf_text.h"
#include "remote/jobcheck.h"

static const struct { const char *job; const char *msg; } jobs[] = {	/* msg NULL: allowed */
	{ "[a]\nrw=read\nsize=1m\n", NULL },
	{ "[a]\nrw=read\nsize=1m\nfilename=/tmp/jc-inside/data\n", NULL },
	{ "[a]\nrw=read\nsize=1m\ndirectory=/tmp/jc-inside/sub\n", NULL },
	{ "[a]\nrw=read\nsize=1m\nfilename=/etc/x\n", "job 'a': filename '/etc/x' is outside the served directory" },
	{ "[a]\nrw=read\nsize=1m\nfilename=ok:../x\n", "filename '../x' is outside" },
	{ "[a]\nrw=read\nsize=1m\nioengine=exec\nprogram=/bin/true\n", "ioengine=exec is not allowed on a server" },
	{ "[a]\nrw=write\nsize=1m\nioengine=net\nhostname=127.0.0.1\nport=9\nprotocol=tcp\n", "ioengine=net is not allowed" },
	{ "[a]\nrw=read\nsize=1m\nexec_prerun=true\n", "exec_prerun/exec_postrun is not allowed" },
	{ "[a]\nrw=read\nsize=1m\nexec_postrun=true\n", "exec_prerun/exec_postrun is not allowed" },
	{ "[a]\nrw=read\nsize=1m\ncgroup=x\n", "cgroup is not allowed" },
	{ "[a]\nrw=read\nsize=1m\nuid=0\n", "uid/gid is not allowed" },
	{ "[a]\nrw=read\nsize=1m\nwrite_bw_log=bw\n", "write_bw_log is not allowed" },
	{ "[a]\nrw=read\nsize=1m\nwrite_lat_log=lat\n", "write_lat_log is not allowed" },
	{ "[a]\nrw=read\nsize=1m\nwrite_iolog=trace\n", "write_iolog is not allowed" },
	{ "[a]\nrw=read\nsize=1m\nreplay_redirect=/etc/x\n", "replay_redirect '/etc/x' is outside" },
	{ "[a]\nrw=read\nsize=1m\nmem=mmap:/etc/m\n", "mmap file '/etc/m' is outside" },
	{ "[a]\nrw=read\nsize=1m\nfilename=/dev/null\n", "is a device" },
};

START_TEST(test_jobs)
{
	struct fio_config cfg;
	struct opt_diag diag;
	struct confine c;
	struct iops_err err = { 0 };
	int ret;

	int here = open(".", O_RDONLY | O_DIRECTORY);	/* back there after (CK_FORK=no runs share it) */

	ck_assert_int_ge(here, 0);
	mkdir("/tmp/jc-inside", 0700);
	mkdir("/tmp/jc-inside/sub", 0700);	/* directory= must exist, as in fio 3.33 */
	ck_assert_int_eq(chdir("/tmp/jc-inside"), 0);
	ck_assert_int_eq(confine_init(&c, "/tmp/jc-inside", NULL, &err), 0);
	ck_assert_int_eq(fioconf_from_text(jobs[_i].job, &cfg, &diag), 0);
	ret = jobcheck_config(&c, &cfg, &err);
	if (!jobs[_i].msg) {
		ck_assert_msg(ret == 0, "%s", err.msg);
		ck_assert(!cfg.jobs[0].verify_state_save);	/* would stay behind */
	} else {
		ck_assert_int_eq(ret, -EPERM);
		ck_assert_msg(strstr(err.msg, jobs[_i].msg), "%s", err.msg);
	}
	fio_config_release(&cfg);
	ck_assert_int_eq(fchdir(here), 0);
	close(here);
	rmdir("/tmp/jc-inside/sub");
	rmdir("/tmp/jc-inside");
}
END_TEST

static const struct { const char *arg; bool refused; } args[] = {
	{ "--output=/etc/passwd", true }, { "--output", true }, { "--output-format=json", false },
	{ "--inflate-log=/etc/x", true }, { "--server", true }, { "--server=x", true }, { "--client=h", true },
	{ "--daemonize=p", true }, { "--serverx", false }, { "--name=output", false }, { "output", false },
	{ "-", false }, { "", false }, { "--remote-config=x", true }, { "--read_iolog=/etc/x", true },
	{ "--read_iol=/etc/x", true }, { "--read_iolog_chunked=1", false }, { "--merge_blktrace_f=x", true },
	{ "--read=x", false },
};

static const struct { const char *text; const char *msg; } texts[] = {	/* msg NULL: allowed */
	{ "", NULL }, { "[a]\nrw=read\nread_iolog_chunked=1\n", NULL }, { "[a]\n; read_iolog=x\n", NULL },
	{ "[a]\nread_iolog=/etc/shadow\n", "read_iolog is not allowed on a server" },
	{ "[a]\n  read_iol = /etc/shadow\n", "read_iol is not allowed" },
	{ "[a]\nmerge_blktrace_file=x", "merge_blktrace_file is not allowed" },
	{ "\n\n\tread_iolog\t/x\r\n", "read_iolog is not allowed" },
};

START_TEST(test_text)
{
	struct iops_err err = { 0 };
	int ret = jobcheck_text(texts[_i].text, strlen(texts[_i].text), &err);

	if (!texts[_i].msg) {
		ck_assert_int_eq(ret, 0);
		return;
	}
	ck_assert_int_eq(ret, -EPERM);
	ck_assert_msg(strstr(err.msg, texts[_i].msg), "%s", err.msg);
}
END_TEST

START_TEST(test_args)
{
	ck_assert_msg(jobcheck_arg_refused(args[_i].arg) == args[_i].refused, "%s", args[_i].arg);
}
END_TEST

START_TEST(test_output)
{
	struct fio_config cfg = { 0 };
	struct confine c;
	struct iops_err err = { 0 };

	ck_assert_int_eq(confine_init(&c, "/tmp", NULL, &err), 0);
	cfg.output_path = "x";
	ck_assert_int_eq(jobcheck_config(&c, &cfg, &err), -EPERM);
	ck_assert_ptr_nonnull(strstr(err.msg, "--output is not allowed on a server"));
}
END_TEST

Suite *jobcheck_suite(void)
{
	Suite *s = suite_create("jobcheck");
	TCase *tc = tcase_create("jobcheck");

	tcase_add_loop_test(tc, test_jobs, 0, sizeof(jobs) / sizeof(jobs[0]));
	tcase_add_loop_test(tc, test_args, 0, sizeof(args) / sizeof(args[0]));
	tcase_add_test(tc, test_output);
	tcase_add_loop_test(tc, test_text, 0, sizeof(texts) / sizeof(texts[0]));
	suite_add_tcase(s, tc);
	return s;
}
