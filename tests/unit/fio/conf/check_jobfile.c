/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio/conf/jobfile.h"

static char dir[64];
static struct opt_diag *diag;
static struct jobfile_keywords kw = { .ncpus = 4, .pagesize = 4096, .mb_memory = 2048 };

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_jobfile.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	diag = malloc(sizeof(*diag));
	opt_diag_init(diag);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(diag);
}

static const char *write_file(const char *name, const char *text)
{
	static char path[4][256];
	static int slot;
	char *p = path[slot++ % 4];
	FILE *f;

	snprintf(p, 256, "%s/%s", dir, name);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return p;
}

static int load(struct jobfile *jf, const char *text)
{
	opt_diag_init(diag);
	return jobfile_load(jf, write_file("job.fio", text), NULL, &kw, diag);
}

START_TEST(test_sections_comments)
{
	struct jobfile jf;

	ck_assert_int_eq(load(&jf, "; header comment\n# another\n\n[global]\n  bs = 4k   ; trailing\n"
			      "time_based\n[job1]\nsize=1m # cut\n  [job2]\nrw=randread\n"), 0);
	ck_assert_uint_eq(jf.nr_secs, 3);
	ck_assert_str_eq(jf.secs[0].name, "global");
	ck_assert_uint_eq(jf.secs[0].nr_opts, 2);
	ck_assert_str_eq(jf.secs[0].opts[0].key, "bs");
	ck_assert_str_eq(jf.secs[0].opts[0].val, " 4k");	/* fio keeps the blank: 4 bytes */
	ck_assert_str_eq(jf.secs[0].opts[1].key, "time_based");
	ck_assert_ptr_null(jf.secs[0].opts[1].val);
	ck_assert_str_eq(jf.secs[1].name, "job1");
	ck_assert_str_eq(jf.secs[1].opts[0].val, "1m");
	ck_assert_str_eq(jf.secs[2].name, "job2");
	jobfile_release(&jf);
}
END_TEST

START_TEST(test_missing_bracket)
{
	struct jobfile jf;

	static const char *const bad[] = { "[j2\n", "[j2\nsize=1m\n", "[]\n", "[\n", "[j] x\n", "[ok]\n[j\n" };

	/* fio drops the last character of the section line ("[j2" is job "j"): iops refuses */
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(load(&jf, bad[i]) == -EINVAL, "%s", bad[i]);
		ck_assert_uint_eq(diag->nr, 1);
		ck_assert_ptr_nonnull(strstr(diag->line[0], "fio: bad section header '["));
	}
	ck_assert_int_eq(load(&jf, "[ok] ; c\n[j2]\n"), 0);
	ck_assert_str_eq(jf.secs[0].name, "ok");
	ck_assert_str_eq(jf.secs[1].name, "j2");
	jobfile_release(&jf);
}
END_TEST

START_TEST(test_outside_section)
{
	struct jobfile jf;

	ck_assert_int_eq(load(&jf, "size=1m\n[j]\n"), -EINVAL);
	ck_assert_uint_eq(diag->nr, 1);
	ck_assert_str_eq(diag->line[0], "fio: option <size=1m> outside of [] job section");
}
END_TEST

START_TEST(test_unable_to_open)
{
	struct jobfile jf;

	opt_diag_init(diag);
	ck_assert_int_eq(jobfile_load(&jf, "/nonexistent/x.fio", NULL, &kw, diag), -ENOENT);
	ck_assert_str_eq(diag->line[0], "fio: unable to open '/nonexistent/x.fio' job file");
}
END_TEST

START_TEST(test_priority_sort)
{
	struct jobfile jf;

	ck_assert_int_eq(load(&jf, "[j]\nfilename=f\nhipri_x=1\nbs=4k\nkb_base=1000\nsize=1m\n"), 0);
	ck_assert_str_eq(jf.secs[0].opts[0].key, "kb_base");
	ck_assert_str_eq(jf.secs[0].opts[1].key, "bs");
	ck_assert_str_eq(jf.secs[0].opts[2].key, "size");
	ck_assert_str_eq(jf.secs[0].opts[3].key, "filename");
	ck_assert_str_eq(jf.secs[0].opts[4].key, "hipri_x");	/* unknown last */
	jobfile_release(&jf);
}
END_TEST

START_TEST(test_env_and_keywords)
{
	struct jobfile jf;

	setenv("CHECK_JOBFILE_BS", "16k", 1);
	unsetenv("CHECK_JOBFILE_UNSET");
	ck_assert_int_eq(load(&jf, "[j]\nbs=${CHECK_JOBFILE_BS}\ndescription=a${CHECK_JOBFILE_UNSET}b\n"
			      "numjobs=2*$ncpus\nsize=$mb_memory/4\niodepth=$ncpus\n"
			      "filename=/a/b-c\nio_size=($pagesize+4)*2\n"), 0);
	ck_assert_str_eq(jf.secs[0].opts[0].val, "16k");
	ck_assert_str_eq(jf.secs[0].opts[1].val, "ab");
	ck_assert_str_eq(jf.secs[0].opts[2].val, "8");
	ck_assert_str_eq(jf.secs[0].opts[3].val, "512");
	ck_assert_str_eq(jf.secs[0].opts[4].val, "4");
	ck_assert_str_eq(jf.secs[0].opts[5].val, "8200");	/* io_size sorted before filename */
	ck_assert_str_eq(jf.secs[0].opts[6].val, "/a/b-c");	/* no keyword: no math */
	jobfile_release(&jf);
}
END_TEST

START_TEST(test_keyword_math_errors)
{
	struct jobfile jf;

	ck_assert_int_eq(load(&jf, "[j]\nnumjobs=$ncpus/0\n"), -EINVAL);
	ck_assert_str_eq(diag->line[0], "fio: failed parsing numjobs=$ncpus/0");
}
END_TEST

struct eval_case {
	const char *expr;
	int ret;
	long long v;
};

static const struct eval_case eval_cases[] = {
	{ "1+2*3", 0, 7 },
	{ "(1+2)*3", 0, 9 },
	{ "10/3", 0, 3 },
	{ "-4+10", 0, 6 },
	{ " 2 * ( 3 - 1 ) ", 0, 4 },
	{ "8/2/2", 0, 2 },
	{ "1-2-3", 0, -4 },
	{ "1/0", -EINVAL, 0 },
	{ "1+", -EINVAL, 0 },
	{ "(1", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "9223372036854775807+1", -ERANGE, 0 },
	{ "4611686018427387904*2", -ERANGE, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
};

START_TEST(test_eval)
{
	const struct eval_case *c = &eval_cases[_i];
	long long v = 0;
	int ret = jobfile_eval(c->expr, &v);

	ck_assert_msg(ret == c->ret, "'%s': %d want %d", c->expr, ret, c->ret);
	if (!ret)
		ck_assert_msg(v == c->v, "'%s': %lld want %lld", c->expr, v, c->v);
}
END_TEST

START_TEST(test_include)
{
	struct jobfile jf;
	char sub[128];

	snprintf(sub, sizeof(sub), "%s/sub", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	write_file("sub/inc.fio", "bs=8k\ninclude inc2.fio\n");
	write_file("sub/inc2.fio", "iodepth=4\n");
	opt_diag_init(diag);
	ck_assert_int_eq(jobfile_load(&jf, write_file("sub/main.fio", "[j]\ninclude inc.fio\nsize=1m\n"),
				      NULL, &kw, diag), 0);
	ck_assert_uint_eq(jf.secs[0].nr_opts, 3);
	ck_assert_str_eq(jf.secs[0].opts[0].key, "bs");
	ck_assert_str_eq(jf.secs[0].opts[1].key, "iodepth");
	jobfile_release(&jf);

	write_file("sub/bad.fio", "[newsec]\n");
	opt_diag_init(diag);
	ck_assert_int_ne(jobfile_load(&jf, write_file("sub/main2.fio", "[j]\ninclude bad.fio\n"), NULL,
				      &kw, diag), 0);
	ck_assert_str_eq(diag->line[0], "No new sections in included files");

	write_file("sub/self.fio", "include self.fio\n");
	opt_diag_init(diag);
	ck_assert_int_eq(jobfile_load(&jf, write_file("sub/main3.fio", "[j]\ninclude self.fio\n"), NULL,
				      &kw, diag), -ELOOP);

	opt_diag_init(diag);
	ck_assert_int_eq(jobfile_load(&jf, write_file("sub/main4.fio", "[j]\ninclude nope.fio\n"), NULL,
				      &kw, diag), -ENOENT);
}
END_TEST

START_TEST(test_stdin)
{
	struct jobfile jf;
	FILE *in = fmemopen((void *)"[s]\nsize=4k\n", 12, "r");

	ck_assert_ptr_nonnull(in);
	opt_diag_init(diag);
	ck_assert_int_eq(jobfile_load(&jf, "-", in, &kw, diag), 0);
	ck_assert_str_eq(jf.secs[0].name, "s");
	jobfile_release(&jf);
	fclose(in);
}
END_TEST

static int apply(const char *text, struct opt_job *global, struct opt_job_list *list, bool stonewall)
{
	struct jobfile jf;
	struct job_kv *gkv = NULL;
	unsigned ngkv = 0, cgkv = 0;
	int ret;

	ck_assert_int_eq(load(&jf, text), 0);
	opt_diag_init(diag);
	ret = jobfile_apply(&jf, global, &gkv, &ngkv, &cgkv, list, 1, stonewall, NULL, 0, diag);
	jobfile_release(&jf);
	opt_kv_free(gkv, ngkv);
	return ret;
}

START_TEST(test_apply_globals)
{
	struct opt_job global;
	struct opt_job_list list = { 0 };

	opt_job_init(&global);
	ck_assert_int_eq(apply("[global]\nbs=8k\n[a]\nrw=write\n[global2]\niodepth=4\n[b]\n", &global,
			       &list, true), 0);
	ck_assert_uint_eq(list.nr, 2);
	ck_assert_str_eq(list.v[0].j.name, "a");
	ck_assert_uint_eq(list.v[0].j.bs_min[0], 8192);
	ck_assert_uint_eq(list.v[0].j.iodepth, 1);	/* globals apply to jobs below only */
	ck_assert(list.v[0].j.stonewall);		/* implicit stonewall of a later file */
	ck_assert_uint_eq(list.v[0].nr_kv, 1);		/* globals not repeated in job options */
	ck_assert_uint_eq(list.v[1].j.iodepth, 4);
	ck_assert(!list.v[1].j.stonewall);
	ck_assert_int_eq(list.v[1].j.rw, RW_READ);
	opt_job_list_release(&list);
	opt_job_release(&global);
}
END_TEST

START_TEST(test_apply_errors)
{
	struct opt_job global;
	struct opt_job_list list = { 0 };

	opt_job_init(&global);
	ck_assert_int_eq(apply("[global]\nbogusopt=3\niodept=2\n", &global, &list, false), -EINVAL);
	ck_assert_uint_eq(diag->nr, 4);
	ck_assert_str_eq(diag->line[0], "Bad option <bogusopt=3>");
	ck_assert_str_eq(diag->line[1], "Bad option <iodept=2>");
	ck_assert_str_eq(diag->line[2], "Did you mean iodepth?");
	ck_assert_str_eq(diag->line[3], "fio: job global dropped");

	ck_assert_int_eq(apply("[j]\nrwmixread=150\n", &global, &list, false), -EINVAL);
	ck_assert_str_eq(diag->line[0], "rwmixread: max value out of range: 150 (100 max)");
	ck_assert_str_eq(diag->line[1], "fio: failed parsing rwmixread=150");
	ck_assert_str_eq(diag->line[2], "fio: job j dropped");

	/* what iops refuses is one line, nothing else */
	ck_assert_int_eq(apply("[j]\nbs=4k\nioengine=rbd\nsize=zz\n", &global, &list, false), -EINVAL);
	ck_assert_uint_eq(diag->nr, 1);
	ck_assert_str_eq(diag->line[0],
			 "fio: engine rbd needs librbd, which this build does not include");
	ck_assert_int_eq(apply("[j]\ncmd_type=nvme\n", &global, &list, false), -EINVAL);
	ck_assert_uint_eq(diag->nr, 1);
	ck_assert_int_eq(apply("[j]\nbogus=1\ncmd_type=nvme\n", &global, &list, false), -EINVAL);
	ck_assert_uint_eq(diag->nr, 1);
	ck_assert_str_eq(diag->line[0], "fio: option 'cmd_type' is not supported by iops: it is an option of the "
			 "io_uring_cmd engine (NVMe passthrough on /dev/ng* character devices), which this build does "
			 "not include");
	ck_assert_uint_eq(list.nr, 0);
	opt_job_list_release(&list);
	opt_job_release(&global);
}
END_TEST

START_TEST(test_apply_sections_filter)
{
	struct jobfile jf;
	struct opt_job global;
	struct opt_job_list list = { 0 };
	struct job_kv *gkv = NULL;
	unsigned ngkv = 0, cgkv = 0;
	const char *only[] = { "c", "a" };

	opt_job_init(&global);
	ck_assert_int_eq(load(&jf, "[global]\nbs=8k\n[a]\n[b]\n[c]\n"), 0);
	ck_assert_int_eq(jobfile_apply(&jf, &global, &gkv, &ngkv, &cgkv, &list, 0, false, only, 2, diag), 0);
	ck_assert_uint_eq(list.nr, 2);
	ck_assert_str_eq(list.v[0].j.name, "a");
	ck_assert_str_eq(list.v[1].j.name, "c");
	ck_assert_uint_eq(list.v[1].j.bs_min[0], 8192);	/* globals still apply */
	jobfile_release(&jf);
	opt_kv_free(gkv, ngkv);
	opt_job_list_release(&list);
	opt_job_release(&global);
}
END_TEST

START_TEST(test_showcmd)
{
	struct jobfile jf;
	char buf[512] = { 0 };
	FILE *out = fmemopen(buf, sizeof(buf) - 1, "w");

	ck_assert_int_eq(load(&jf, "[global]\nname=x\nfilename=f\ntimeout=900\ntime_based\n[file1]\n"
			      "description=a b\nsize=10G\n"), 0);
	ck_assert_int_eq(jobfile_showcmd(&jf, out), 0);
	fclose(out);
	ck_assert_str_eq(buf, "fio --name=x --runtime=900 --time_based --filename=f --name=file1 "
			 "--description=\"a b\" --size=10G \n");
	jobfile_release(&jf);
}
END_TEST

Suite *jobfile_suite(void)
{
	Suite *s = suite_create("jobfile");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sections_comments);
	tcase_add_test(tc, test_missing_bracket);
	tcase_add_test(tc, test_outside_section);
	tcase_add_test(tc, test_unable_to_open);
	tcase_add_test(tc, test_priority_sort);
	tcase_add_test(tc, test_env_and_keywords);
	tcase_add_test(tc, test_keyword_math_errors);
	tcase_add_loop_test(tc, test_eval, 0, sizeof(eval_cases) / sizeof(eval_cases[0]));
	tcase_add_test(tc, test_include);
	tcase_add_test(tc, test_stdin);
	tcase_add_test(tc, test_apply_globals);
	tcase_add_test(tc, test_apply_errors);
	tcase_add_test(tc, test_apply_sections_filter);
	tcase_add_test(tc, test_showcmd);
	suite_add_tcase(s, tc);
	return s;
}
