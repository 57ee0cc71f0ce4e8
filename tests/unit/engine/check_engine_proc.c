/* SPDX-License-Identifier: MIT */
/* Unit tests of the engines that do no file I/O: cpuio (engine_cpuio.c: a chunk of CPU per
 * request, no bytes) and exec (engine_exec.c: a program beside the job, its output
 * redirected, stopped with SIGTERM / SIGKILL). */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine_rig.h"

START_TEST(test_cpuio)
{
	struct engine_opts eo = { 0 };
	char note[128] = "";
	struct engine_cfg cfg = { .depth = 1, .opts = &eo, .job_name = "burn", .note = note,
				  .note_cap = sizeof(note) };
	struct iops_err err = { 0 };
	void *ctx = NULL;
	struct rig rig;

	/* cpuload 0 or over 100: refused */
	engine_opts_defaults(&eo);
	ck_assert_int_eq(engine_find("cpuio")->init(&cfg, &ctx, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "cpuload"));
	eo.cpuio.load = 101;
	ck_assert_int_eq(engine_find("cpuio")->init(&cfg, &ctx, &err), -EINVAL);
	for (int mode = ENGINE_CPU_NOOP; mode <= ENGINE_CPU_QSORT; mode++) {
		uint64_t t0;

		eo.cpuio.load = 50;
		eo.cpuio.chunk_ns = 2000000;	/* 2 ms */
		eo.cpuio.mode = (enum engine_cpumode)mode;
		rig_init_cfg(&rig, "cpuio", cfg);
		ck_assert_str_eq(note, mode ? "burn (qsort): ioengine=cpuio, cpuload=50, cpucycle=2000"
					    : "burn (noop): ioengine=cpuio, cpuload=50, cpucycle=2000");
		t0 = now_ns();
		set_req(&rig.reqs[0], IO_READ, -1, NULL, 4096, 0);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_DONE);
		ck_assert_uint_ge(now_ns() - t0, 2000000);	/* burned at least its chunk */
		ck_assert_int_eq(rig.reqs[0].result, 0);
		ck_assert_uint_eq(rig.reqs[0].len, 0);	/* an I/O without bytes */
		rig_release(&rig);
	}
}
END_TEST

static void tmpdir_make(char *dir, size_t cap)
{
	const char *t = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	snprintf(dir, cap, "%s/iops-check-exec-XXXXXX", t);
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static char *slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The program runs with %n and %r expanded, its output in <job>.stdout; without a runtime the
 * job ends with it (a request of 0 out of len bytes), with one it goes on (0-byte requests). */
START_TEST(test_exec_runs_and_redirects)
{
	struct engine_opts eo = { 0 };
	char dir[256], job[300], out[320], text[256], note[1024] = "", want[1024];
	struct engine_cfg cfg = { .depth = 1, .opts = &eo, .job_name = job, .runtime_ns = 7000000000u,
				  .note = note, .note_cap = sizeof(note) };
	struct rig rig;
	unsigned ios = 0;

	engine_opts_defaults(&eo);
	tmpdir_make(dir, sizeof(dir));
	snprintf(job, sizeof(job), "%s/j", dir);
	snprintf(eo.exec.program, sizeof(eo.exec.program), "/bin/echo");
	snprintf(eo.exec.arguments, sizeof(eo.exec.arguments), "a  %%r b%%n %%x");
	rig_init_cfg(&rig, "exec", cfg);
	ck_assert_ptr_nonnull(strstr(note, "j : program=/bin/echo, arguments=a  %r b%n %x\n"));
	/* fio's second line: the command as it runs (%r, %n expanded), and where its output goes */
	snprintf(want, sizeof(want), "j : Saving output of /bin/echo a  7 b%s %%x : stdout=%s.stdout stderr=%s.stderr",
		 job, job, job);
	ck_assert_msg(strstr(note, want) != NULL, "%s", note);
	/* runtime given: every request is an I/O of 0 bytes, even after the program ended */
	for (int i = 0; i < 3; i++) {
		set_req(&rig.reqs[0], IO_READ, -1, NULL, 4096, 0);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_DONE);
		ck_assert_int_eq(rig.reqs[0].result, 0);
		ck_assert_uint_eq(rig.reqs[0].len, 0);
	}
	rig_release(&rig);
	snprintf(out, sizeof(out), "%s.stdout", job);
	snprintf(note, sizeof(note), "a 7 b%s %%x\n", job);	/* %x is left as it is */
	ck_assert_str_eq(slurp(out, text, sizeof(text)), note);
	unlink(out);
	snprintf(out, sizeof(out), "%s.stderr", job);
	ck_assert_str_eq(slurp(out, text, sizeof(text)), "");
	unlink(out);
	/* no runtime: the stream ends with the program; no redirection asked, no files */
	cfg.runtime_ns = 0;
	eo.exec.std_redirect = false;
	snprintf(eo.exec.program, sizeof(eo.exec.program), "true");	/* found on PATH */
	eo.exec.arguments[0] = '\0';
	note[0] = '\0';
	rig_init_cfg(&rig, "exec", cfg);
	ck_assert_msg(strstr(note, "j : Running true ") != NULL, "%s", note);	/* not redirected: fio's line */
	do {
		set_req(&rig.reqs[0], IO_READ, -1, NULL, 4096, 0);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_DONE);
		ck_assert_int_eq(rig.reqs[0].result, 0);
		ck_assert_uint_lt(++ios, 100);
	} while (rig.reqs[0].len == 0);
	ck_assert_uint_eq(rig.reqs[0].len, 4096);
	rig_release(&rig);
	ck_assert_int_eq(access(out, F_OK), -1);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A program that outlives the job gets SIGTERM; one that ignores it, SIGKILL after grace. */
START_TEST(test_exec_stops_program)
{
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { .depth = 1, .opts = &eo, .job_name = "j", .runtime_ns = 1000000000u };
	struct rig rig;
	uint64_t t0;
	char dir[256];
	FILE *f;

	engine_opts_defaults(&eo);
	eo.exec.std_redirect = false;
	snprintf(eo.exec.program, sizeof(eo.exec.program), "/bin/sleep");
	snprintf(eo.exec.arguments, sizeof(eo.exec.arguments), "30");
	rig_init_cfg(&rig, "exec", cfg);
	t0 = now_ns();
	rig_release(&rig);
	ck_assert_uint_lt(now_ns() - t0, 5000000000u);	/* SIGTERM ended it at once */
	/* a script that ignores SIGTERM (the ignored disposition survives its exec of sleep) */
	tmpdir_make(dir, sizeof(dir));
	snprintf(eo.exec.program, sizeof(eo.exec.program), "%s/stubborn.sh", dir);
	f = fopen(eo.exec.program, "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\ntrap '' TERM\nexec sleep 30\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(eo.exec.program, 0755), 0);
	eo.exec.arguments[0] = '\0';
	eo.exec.grace_ns = 300000000u;
	rig_init_cfg(&rig, "exec", cfg);
	usleep(300000);	/* let the shell set its trap */
	t0 = now_ns();
	rig_release(&rig);
	unlink(eo.exec.program);
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_uint_ge(now_ns() - t0, 250000000u);	/* waited its grace time... */
	ck_assert_uint_lt(now_ns() - t0, 10000000000u);	/* ...then killed it */
}
END_TEST

START_TEST(test_exec_errors)
{
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { .depth = 1, .opts = &eo, .job_name = "j" };
	struct iops_err err = { 0 };
	void *ctx = NULL;
	int ret;

	engine_opts_defaults(&eo);
	ck_assert_int_eq(engine_find("exec")->init(&cfg, &ctx, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "program="));
	eo.exec.std_redirect = false;
	snprintf(eo.exec.program, sizeof(eo.exec.program), "/nonexistent/iops-program");
	ret = engine_find("exec")->init(&cfg, &ctx, &err);
	if (ret == 0) {	/* a libc that reports exec failures only through the exit status */
		engine_find("exec")->cleanup(ctx);
	} else {
		ck_assert_int_eq(ret, -ENOENT);
		ck_assert_ptr_nonnull(strstr(err.msg, "cannot run /nonexistent/iops-program"));
	}
	/* too many words */
	snprintf(eo.exec.program, sizeof(eo.exec.program), "/bin/true");
	memset(eo.exec.arguments, 0, sizeof(eo.exec.arguments));
	for (int i = 0; i < 400; i++)
		memcpy(eo.exec.arguments + i * 2, "x ", 2);
	ck_assert_int_eq(engine_find("exec")->init(&cfg, &ctx, &err), -E2BIG);
}
END_TEST

Suite *engine_proc_suite(void);

Suite *engine_proc_suite(void)
{
	Suite *s = suite_create("engine_proc");
	TCase *tc = tcase_create("proc");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cpuio);
	tcase_add_test(tc, test_exec_runs_and_redirects);
	tcase_add_test(tc, test_exec_stops_program);
	tcase_add_test(tc, test_exec_errors);
	suite_add_tcase(s, tc);
	return s;
}
