/* Unit tests of the libaio engine (lib/engine/engine_libaio.c) under seccomp filters: init
 * when io_setup is denied or fails with EAGAIN, and io_submit refusing a batch. */
#include <check.h>
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>

#include "engine/engine.h"
#include "engine_seccomp.h"

START_TEST(test_libaio_blocked_by_seccomp)
{
	char msg[512];
	int code = init_under_seccomp("libaio", SYS_io_setup, ENOSYS, msg, sizeof(msg));

	ck_assert_int_eq(code, ENOSYS);
	ck_assert_msg(strstr(msg, "libaio is not available here") && strstr(msg, "--ioengine=psync"),
		      "%s", msg);
}
END_TEST

START_TEST(test_libaio_io_setup_eagain)
{
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
	engine_seccomp_submit_pressure("libaio", EAGAIN);
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
	suite_add_tcase(s, tc);
	return s;
}
