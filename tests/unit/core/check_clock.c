/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "unit_skip.h"

#if defined(__x86_64__)
/* The kernel's clocksource (sysfs), read here: "tsc" when it trusts the TSC. */
static bool kernel_clocksource_tsc(void)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	char name[64] = "";
	bool tsc;

	if (f && !fgets(name, sizeof(name), f))
		name[0] = '\0';
	if (f)
		fclose(f);
	tsc = !strcmp(name, "tsc\n");
	if (!tsc)
		unit_skip("clock: the kernel's clocksource is '%.*s', not tsc: the TSC path is not run, the fallback is",
			  (int)strcspn(name, "\n"), name);
	return tsc;
}
#endif

START_TEST(test_clock_matches_monotonic)
{
	struct timespec ts;
	uint64_t a, ref, b;

	a = clock_now_ns();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ref = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	b = clock_now_ns();
	ck_assert_uint_le(a, ref);
	ck_assert_uint_le(ref, b);
}
END_TEST

/* A million reads in a row never go back (what a time per read costs is make bench's
 * business, not a check's: valgrind alone makes each read 50 times slower). */
START_TEST(test_clock_never_back)
{
	uint64_t prev = clock_now_ns(), now, backs = 0;

	for (int i = 0; i < 1000000; i++) {
		now = clock_now_ns();
		backs += now < prev;
		prev = now;
	}
	ck_assert_uint_eq(backs, 0);
}
END_TEST

START_TEST(test_clock_src_tracks_monotonic)
{
	struct clock_src c, m;
	uint64_t a0, b0, a1, b1, da, db;
	struct timespec pause = { .tv_sec = 0, .tv_nsec = 50 * 1000 * 1000 };

	clock_src_init(&c);
	clock_src_init_monotonic(&m);
	ck_assert(!m.tsc);
#if defined(__x86_64__)
	ck_assert(c.tsc == kernel_clocksource_tsc());	/* the TSC exactly where the kernel trusts it */
#else
	ck_assert(!c.tsc);
#endif
	a0 = clock_src_now(&c);
	b0 = clock_now_ns();
	nanosleep(&pause, NULL);
	a1 = clock_src_now(&c);
	b1 = clock_now_ns();
	ck_assert_uint_ge(a1, a0);
	da = a1 - a0;
	db = b1 - b0;
	/* the calibrated TSC agrees with CLOCK_MONOTONIC within 0.5 % (+ read jitter) */
	ck_assert_uint_lt(da > db ? da - db : db - da, db / 200 + 200000);
	/* and sits on the same time base */
	ck_assert_uint_lt(a1 > b1 ? a1 - b1 : b1 - a1, 5000000);
	ck_assert_uint_ge(clock_src_now(&m), b1);
}
END_TEST

Suite *clock_suite(void);
Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_clock_matches_monotonic);
	tcase_add_test(tc, test_clock_never_back);
	tcase_add_test(tc, test_clock_src_tracks_monotonic);
	suite_add_tcase(s, tc);
	return s;
}
