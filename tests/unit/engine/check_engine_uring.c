/* Unit tests of the io_uring engine (lib/engine/engine_uring.c) under seccomp filters: init
 * when io_uring_setup is denied (Docker's default profile), io_uring_enter refusing a batch,
 * and the READV/WRITEV fallback when the probe is unavailable. */
#include <check.h>
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine_rig.h"
#include "engine_seccomp.h"

START_TEST(test_uring_blocked_by_seccomp)
{
	char msg[512];
	int deny = _i ? ENOSYS : EPERM;
	int code = init_under_seccomp("io_uring", SYS_io_uring_setup, deny, msg, sizeof(msg));

	ck_assert_int_eq(code, deny);
	ck_assert_msg(strstr(msg, "io_uring is not available here") && strstr(msg, "--ioengine=libaio") &&
		      strstr(msg, strerror(deny)) && !strchr(msg, '\n'), "%s", msg);
}
END_TEST

/* io_uring_enter refuses batches of 2 with EBUSY: commit reports it, the context stops. */
START_TEST(test_uring_submit_pressure)
{
	engine_seccomp_submit_pressure("io_uring", EBUSY);
}
END_TEST

/* io_uring without a usable probe (io_uring_register denied) falls back to READV/WRITEV:
 * write a pattern and read it back through that path. Child returns a step number or 0. */
static int uring_vectored_child(int fd)
{
	const struct engine_ops *ops = engine_find("io_uring");
	struct engine_cfg cfg = { .depth = 4 };
	struct iops_err err = { 0 };
	struct io_req reqs[4], *out[4];
	unsigned char *wbuf = NULL, *rbuf = NULL;
	void *ctx = NULL;

	if (seccomp_deny_arg1(SYS_io_uring_register, IORING_REGISTER_PROBE, EINVAL))
		return 1;
	if (posix_memalign((void **)&wbuf, 4096, 4 * BS) || posix_memalign((void **)&rbuf, 4096, 4 * BS))
		return 2;
	for (unsigned b = 0; b < 4; b++)
		fill_block(wbuf + b * BS, b + 11);
	memset(rbuf, 0, 4 * BS);
	if (ops->init(&cfg, &ctx, &err))
		return 3;
	memset(reqs, 0, sizeof(reqs));
	for (unsigned pass = 0; pass < 2; pass++) {
		int got = 0;

		for (unsigned i = 0; i < 4; i++) {
			reqs[i].index = i;
			if (ops->prep(ctx, &reqs[i]) || !reqs[i].engine_data)	/* the iovec */
				return 4;
			set_req(&reqs[i], pass ? IO_READ : IO_WRITE, fd, (pass ? rbuf : wbuf) + i * BS,
				BS, (uint64_t)(3 - i) * BS);
			if (ops->queue(ctx, &reqs[i]) != ENGINE_QUEUED)
				return 5;
		}
		if (ops->commit(ctx) != 4)
			return 6;
		while (got < 4) {
			int n = ops->reap(ctx, 1, 4, NULL, out);

			if (n < 1)
				return 7;
			for (int i = 0; i < n; i++)
				if (out[i]->result != BS)
					return 8;
			got += n;
		}
	}
	if (memcmp(wbuf, rbuf, 4 * BS))
		return 9;
	ops->cleanup(ctx);
	return 0;
}

START_TEST(test_uring_vectored_fallback)
{
	int fd = temp_file(4 * BS, false);
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(uring_vectored_child(fd));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_msg(WEXITSTATUS(status) == 0, "failed at step %d", WEXITSTATUS(status));
	close(fd);
}
END_TEST

Suite *engine_uring_suite(void);

Suite *engine_uring_suite(void)
{
	Suite *s = suite_create("engine_uring");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_uring_blocked_by_seccomp, 0, 2);
	tcase_add_test(tc, test_uring_submit_pressure);
	tcase_add_test(tc, test_uring_vectored_fallback);
	suite_add_tcase(s, tc);
	return s;
}
