/* SPDX-License-Identifier: MIT */
/* Unit tests of the libaio engine (lib/engine/engine_libaio.c) under seccomp filters: init
 * when io_setup is denied or fails with EAGAIN, and io_submit refusing a batch; its options
 * (nowait, userspace_reap). */
#include <check.h>
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine_seccomp.h"
#include "unit_probe.h"

START_TEST(test_libaio_blocked_by_seccomp)
{
	UNIT_NEED(unit_have_seccomp(why_));
	char msg[512];
	int code = init_under_seccomp("libaio", SYS_io_setup, ENOSYS, msg, sizeof(msg));

	ck_assert_int_eq(code, ENOSYS);
	ck_assert_msg(strstr(msg, "libaio is not available here") && strstr(msg, "--ioengine=psync"),
		      "%s", msg);
}
END_TEST

START_TEST(test_libaio_io_setup_eagain)
{
	UNIT_NEED(unit_have_seccomp(why_));
	char msg[512];
	int code = init_under_seccomp("libaio", SYS_io_setup, EAGAIN, msg, sizeof(msg));

	ck_assert_int_eq(code, EAGAIN);
	ck_assert_msg(strstr(msg, "io engine libaio init failed") &&
		      strstr(msg, "Perhaps try reducing io depth?"), "%s", msg);
}
END_TEST

/* io_submit refuses batches of 2 with EAGAIN: the engine retries, then fails that request. */
START_TEST(test_libaio_submit_pressure)
{
	UNIT_NEED(unit_have_seccomp(why_));
	if (rig_engine_missing("libaio"))
		return;
	engine_seccomp_submit_pressure("libaio", EAGAIN);
}
END_TEST

/* nowait: an AIO read of an empty pipe fails with what the kernel answers a raw iocb with
 * RWF_NOWAIT (EAGAIN; without the flag io_submit would block until data comes); with data there
 * it reads. userspace_reap changes nothing. */
START_TEST(test_libaio_nowait)
{
	const struct engine_ops *ops = engine_find("libaio");
	struct engine_opts eo = { 0 };
	struct engine_cfg cfg = { .depth = 1, .opts = &eo };
	struct iops_err err = { 0 };
	struct io_req req, *out[1];
	struct timespec ts = { 1, 0 };
	char buf[16];
	void *ctx = NULL;
	long long want = 0;
	int p[2];

	if (rig_engine_missing("libaio"))
		return;
	ck_assert_int_eq(pipe(p), 0);
	if (!unit_need(probe_aio_read(p[0], RWF_NOWAIT, &want), "libaio: an iocb with RWF_NOWAIT")) {
		close(p[0]);
		close(p[1]);
		return;
	}
	engine_opts_defaults(&eo);
	eo.aio.nowait = true;
	eo.aio.userspace_reap = _i;
	ck_assert_int_eq(ops->init(&cfg, &ctx, &err), 0);
	memset(&req, 0, sizeof(req));
	ck_assert_int_eq(ops->prep(ctx, &req), 0);
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			ck_assert_int_eq(write(p[1], "0123456789abcdef", 16), 16);
		set_req(&req, IO_READ, p[0], buf, sizeof(buf), 0);
		ck_assert_int_eq(ops->queue(ctx, &req), ENGINE_QUEUED);
		ck_assert_int_eq(ops->commit(ctx), 1);
		ck_assert_int_eq(ops->reap(ctx, 1, 1, &ts, out), 1);
		ck_assert_int_eq(req.result, pass ? 16 : want);
	}
	ops->cleanup(ctx);
	close(p[0]);
	close(p[1]);
}
END_TEST

Suite *engine_libaio_suite(void);

Suite *engine_libaio_suite(void)
{
	Suite *s = suite_create("engine_libaio");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_libaio_blocked_by_seccomp);
	tcase_add_test(tc, test_libaio_io_setup_eagain);
	tcase_add_test(tc, test_libaio_submit_pressure);
	tcase_add_loop_test(tc, test_libaio_nowait, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
