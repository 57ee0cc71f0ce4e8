/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ctl.h"
#include "ioping/ioping_run.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_ioping_run.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	ck_assert_int_eq(rmdir(dir), 0);	/* fails if anything was left behind */
}

struct harness {
	struct ioping_opts o;
	struct ioping_target t;
	struct ioping_rng rng;
	struct ioping_out out;
	struct ioping_run run;
	struct ctl ctl;
	struct iops_err err;
	char *text;
	size_t len;
	FILE *f;
};

static void harness_run(struct harness *h, enum ioping_out_mode mode, bool stop_first)
{
	ck_assert_int_eq(ioping_opts_finish(&h->o, &h->err), 0);
	ck_assert_int_eq(ctl_init(&h->ctl), 0);
	h->f = open_memstream(&h->text, &h->len);
	memset(&h->run, 0, sizeof(h->run));
	h->run.opts = &h->o;
	h->run.target = &h->t;
	h->run.rng = &h->rng;
	h->run.out = &h->out;
	h->run.warn = stderr;
	h->run.ctl = &h->ctl;
	ck_assert_int_eq(ioping_target_plan(&h->t, &h->o, &h->err), 0);
	ck_assert_int_eq(ioping_run_alloc(&h->run, &h->err), 0);
	ioping_rng_seed(&h->rng, 42);
	ioping_rng_fill(&h->rng, h->run.buf, (size_t)h->o.size);
	ck_assert_int_eq(ioping_target_prepare(&h->t, &h->o, &h->rng, h->run.buf, &h->ctl, &h->err), 0);
	if (stop_first)
		ctl_stop(&h->ctl, 2);
	ioping_out_init(&h->out, h->f, mode, h->o.path, h->t.fstype, h->t.device, h->t.device_size);
	h->out.quiet = h->o.quiet;
	h->out.periods = h->o.print_count || h->o.print_interval_ns;
	h->out.done_word = h->o.nr_write ? " written" : " read";
	ck_assert_int_eq(ioping_run_loop(&h->run, &h->err), 0);
	ioping_target_close(&h->t);
	ioping_run_free(&h->run);
	ctl_release(&h->ctl);
	fclose(h->f);
}

static int count_lines(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

START_TEST(test_run_text)
{
	static struct harness h;

	ioping_opts_init(&h.o);
	h.o.path = dir;
	h.o.count = 5;
	h.o.interval_ns = 0;
	harness_run(&h, IOPING_OUT_TEXT, false);
	ck_assert_int_eq(count_lines(h.text, "<<<"), 5);
	ck_assert_int_eq(count_lines(h.text, "(warmup)"), 1);
	ck_assert_ptr_nonnull(strstr(h.text, "request=5 time="));
	ck_assert_ptr_nonnull(strstr(h.text, " ioping statistics ---\n4 requests completed in "));
	ck_assert_ptr_nonnull(strstr(h.text, "\ngenerated 5 requests in "));
	free(h.text);
}
END_TEST

START_TEST(test_run_batch_periods)
{
	static struct harness h;
	unsigned long long f[10];
	char *line, *next;
	int nr = 0;

	ioping_opts_init(&h.o);
	h.o.path = dir;
	h.o.count = 7;
	h.o.interval_ns = 0;
	h.o.print_count = 3;
	h.o.quiet = h.o.batch = true;
	harness_run(&h, IOPING_OUT_BATCH, false);
	for (line = h.text; *line; line = next) {
		char *p = line, *end, *nl = strchr(line, '\n');

		ck_assert_ptr_nonnull(nl);
		*nl = '\0';
		next = nl + 1;

		for (int i = 0; i < 10; i++, p = end) {
			f[i] = strtoull(p, &end, 10);
			ck_assert_ptr_ne(p, end);
		}
		ck_assert_int_eq(*p, '\0');
		nr++;
		if (nr < 3)
			ck_assert_uint_eq(f[0], 3);	/* a period: 3 valid requests */
		else
			ck_assert(f[0] == 6 && f[8] == 7);	/* whole run */
		ck_assert_uint_le(f[4], f[5]);		/* min <= avg <= max */
		ck_assert_uint_le(f[5], f[6]);
	}
	ck_assert_int_eq(nr, 3);
	free(h.text);
}
END_TEST

START_TEST(test_run_json_and_stop)
{
	static struct harness h;

	ioping_opts_init(&h.o);
	h.o.path = dir;
	h.o.json = true;
	h.o.time_fmt = "%FT%T%z";
	harness_run(&h, IOPING_OUT_JSON, true);	/* stopped before the first request */
	ck_assert_ptr_nonnull(strstr(h.text, "[{\n"));
	ck_assert_ptr_nonnull(strstr(h.text, "\"load\": {\n    \"count\": 0,"));
	ck_assert_int_eq(strcmp(h.text + strlen(h.text) - 3, "}]\n"), 0);
	free(h.text);
}
END_TEST

START_TEST(test_run_linear_write)
{
	static struct harness h;

	ioping_opts_init(&h.o);
	h.o.path = dir;
	h.o.count = 4;
	h.o.interval_ns = 0;
	h.o.linear = true;
	h.o.nr_write = 1;
	h.o.size = 4096;
	h.o.work_size = 8192;
	harness_run(&h, IOPING_OUT_TEXT, false);
	ck_assert_int_eq(count_lines(h.text, ">>>"), 4);
	ck_assert_ptr_nonnull(strstr(h.text, "KiB written, "));
	free(h.text);
}
END_TEST

Suite *ioping_run_suite(void)
{
	Suite *s = suite_create("ioping_run");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_run_text);
	tcase_add_test(tc, test_run_batch_periods);
	tcase_add_test(tc, test_run_json_and_stop);
	tcase_add_test(tc, test_run_linear_write);
	suite_add_tcase(s, tc);
	return s;
}
