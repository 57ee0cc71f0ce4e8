/* SPDX-License-Identifier: MIT */
/* eta: fio's status line. The expected lines are real fio 3.33 lines (eta.c's
 * output on a development machine), rebuilt from the values they show. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "fio/progress/eta.h"

struct line_vec {
	unsigned nr_running, nr_files;
	const char *states;
	uint64_t elapsed_s, eta_s;
	bool pct_unknown;
	uint64_t rate_kib[DDIR_NR], iops[DDIR_NR];
	size_t prev_len;
	const char *want;
};

static const struct line_vec line_vectors[] = {
	/* first seconds: no bracket part */
	{ 1, 1, "r", 2, ETA_UNKNOWN, false, { 0 }, { 0 }, 0, "Jobs: 1 (f=1)" },
	{ 2, 0, "//", 1, ETA_UNKNOWN, true, { 0 }, { 0 }, 0, "Jobs: 2 (f=0)" },
	/* fio --rw=randread --runtime=4 --time_based (psync, 64m file) */
	{ 1, 1, "r", 3, 1, false, { 58265, 0, 0 }, { 14600, 0, 0 }, 0,
	  "Jobs: 1 (f=1): [r(1)][75.0%][r=56.9MiB/s][r=14.6k IOPS][eta 00m:01s]" },
	{ 1, 1, "r", 3, 2, false, { 37580, 0, 0 }, { 9405, 0, 0 }, 13,
	  "Jobs: 1 (f=1): [r(1)][60.0%][r=36.7MiB/s][r=9405 IOPS][eta 00m:02s]" },
	{ 1, 1, "r", 5, 0, false, { 55808, 0, 0 }, { 13900, 0, 0 }, 0,
	  "Jobs: 1 (f=1): [r(1)][100.0%][r=54.5MiB/s][r=13.9k IOPS][eta 00m:00s]" },
	/* rw=randrw numjobs=2 ramp_time=2: ramp, then one job out of ramp */
	{ 2, 0, "//", 3, 5, true, { 0 }, { 0 }, 13, "Jobs: 2 (f=0): [/(2)][-.-%][eta 00m:05s]" },
	{ 2, 1, "m/", 3, 5, false, { 5519, 5758, 0 }, { 1379, 1439, 0 }, 40,
	  "Jobs: 2 (f=1): [m(1),/(1)][37.5%][r=5519KiB/s,w=5758KiB/s][r=1379,w=1439 IOPS][eta 00m:05s]" },
	/* shorter than the previous line: padded with spaces to its length */
	{ 2, 2, "mm", 4, 4, false, { 6578ull * 1024, 6573ull * 1024, 0 }, { 1684000, 1683000, 0 }, 91,
	  "Jobs: 2 (f=2): [m(2)][50.0%][r=6578MiB/s,w=6573MiB/s][r=1684k,w=1683k IOPS][eta 00m:04s]   " },
	{ 1, 1, "Em", 8, 0, false, { 5744ull * 1024, 5741ull * 1024, 0 }, { 1470000, 1470000, 0 }, 0,
	  "Jobs: 1 (f=1): [E(1),m(1)][100.0%][r=5744MiB/s,w=5741MiB/s][r=1470k,w=1470k IOPS][eta 00m:00s]" },
	/* a rate with zero IOPS still shows both brackets; a direction with nothing is left out */
	{ 1, 1, "r", 3, 4, false, { 1, 0, 0 }, { 0, 0, 0 }, 0,
	  "Jobs: 1 (f=1): [r(1)][42.9%][r=1KiB/s][r=0 IOPS][eta 00m:04s]" },
	{ 1, 1, "w", 3, 4, false, { 0, 296ull * 1024, 0 }, { 0, 75800, 0 }, 0,
	  "Jobs: 1 (f=1): [w(1)][42.9%][w=296MiB/s][w=75.8k IOPS][eta 00m:04s]" },
	{ 1, 1, "d", 3, 4, false, { 0, 0, 8 }, { 0, 0, 2 }, 0,
	  "Jobs: 1 (f=1): [d(1)][42.9%][t=8KiB/s][t=2 IOPS][eta 00m:04s]" },
	/* nothing running any more: no bracket part even with an eta */
	{ 0, 0, "_", 9, 0, false, { 0 }, { 0 }, 5, "Jobs: 0 (f=0)" },
	/* long ETA */
	{ 1, 1, "R", 3, 3600, false, { 0 }, { 0 }, 0, "Jobs: 1 (f=1): [R(1)][0.1%][eta 01h:00m:00s]" },
	{ 1, 1, "R", 3, 90061, false, { 0 }, { 0 }, 0, "Jobs: 1 (f=1): [R(1)][0.0%][eta 01d:01h:01m:01s]" },
};

START_TEST(test_line_vectors)
{
	const struct line_vec *v = &line_vectors[_i];
	struct eta_status st;
	char buf[512];
	size_t n;

	memset(&st, 0, sizeof(st));
	st.nr_running = v->nr_running;
	st.nr_files = v->nr_files;
	st.states = v->states;
	st.nr_jobs = (unsigned)strlen(v->states);
	st.elapsed_s = v->elapsed_s;
	st.eta_s = v->eta_s;
	st.pct_unknown = v->pct_unknown;
	memcpy(st.rate_kib, v->rate_kib, sizeof(st.rate_kib));
	memcpy(st.iops, v->iops, sizeof(st.iops));
	st.pow2 = true;
	st.unit = N2S_BYTEPERSEC;
	n = eta_format(buf, sizeof(buf), &st, v->prev_len);
	ck_assert_str_eq(buf, v->want);
	/* the returned length is the unpadded one */
	ck_assert_uint_le(n, strlen(v->want));
	ck_assert_uint_eq(strlen(buf), n > v->prev_len ? n : v->prev_len);
}
END_TEST

START_TEST(test_bits_and_kb_base)
{
	struct eta_status st = { .nr_running = 1, .nr_files = 1, .states = "r", .nr_jobs = 1, .elapsed_s = 3,
				 .eta_s = 1, .rate_kib = { 58265, 0, 0 }, .iops = { 14600, 0, 0 },
				 .pow2 = true, .unit = N2S_BITPERSEC };
	char buf[256];

	eta_format(buf, sizeof(buf), &st, 0);
	ck_assert_str_eq(buf, "Jobs: 1 (f=1): [r(1)][75.0%][r=455Mibit/s][r=14.6k IOPS][eta 00m:01s]");
	/* kb_base=1000: fio still passes KiB with base 1024, so the value is read as k units */
	st.unit = N2S_BYTEPERSEC;
	st.pow2 = false;
	eta_format(buf, sizeof(buf), &st, 0);
	ck_assert_str_eq(buf, "Jobs: 1 (f=1): [r(1)][75.0%][r=58.3MB/s][r=14.6k IOPS][eta 00m:01s]");
}
END_TEST

START_TEST(test_truncation)
{
	struct eta_status st = { .nr_running = 1, .nr_files = 1, .states = "r", .nr_jobs = 1, .elapsed_s = 3,
				 .eta_s = 1, .pow2 = true, .unit = N2S_BYTEPERSEC };
	char buf[10];
	size_t n;

	n = eta_format(buf, sizeof(buf), &st, 40);
	ck_assert_uint_eq(n, 9);
	ck_assert_str_eq(buf, "Jobs: 1 (");
	ck_assert_uint_eq(eta_format(buf, 0, &st, 0), 0);
}
END_TEST

START_TEST(test_eta_to_str)
{
	static const struct { uint64_t s; const char *want; } v[] = {
		{ 0, "00m:00s" }, { 1, "00m:01s" }, { 59, "00m:59s" }, { 60, "01m:00s" }, { 3599, "59m:59s" },
		{ 3600, "01h:00m:00s" }, { 86399, "23h:59m:59s" }, { 86400, "01d:00h:00m:00s" },
		{ 90061, "01d:01h:01m:01s" }, { 100 * 86400ull, "100d:00h:00m:00s" }, { ETA_UNKNOWN, "--" },
	};
	char buf[48], small[4];

	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		ck_assert_uint_eq(eta_to_str(buf, sizeof(buf), v[i].s), strlen(v[i].want));
		ck_assert_str_eq(buf, v[i].want);
	}
	ck_assert_uint_eq(eta_to_str(small, sizeof(small), 61), 3);
	ck_assert_str_eq(small, "01m");
	ck_assert_uint_eq(eta_to_str(small, 0, 61), 0);
}
END_TEST

START_TEST(test_run_str)
{
	static const struct { const char *states; const char *want; } v[] = {
		{ "", "" }, { "r", "r(1)" }, { "rrW", "r(2),W(1)" }, { "RRRRRRRRRRWWWWWWWWWW", "R(10),W(10)" },
		{ "_X_", "_(1),X(1),_(1)" }, { "_M", "_(1),M(1)" }, { "P/fE", "P(1),/(1),f(1),E(1)" },
	};
	char buf[64];
	char many[1000];

	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		ck_assert_uint_eq(eta_run_str(buf, sizeof(buf), v[i].states, (unsigned)strlen(v[i].states)),
				  strlen(v[i].want));
		ck_assert_str_eq(buf, v[i].want);
	}
	memset(many, 'r', sizeof(many));
	ck_assert_uint_eq(eta_run_str(buf, sizeof(buf), many, 1000), strlen("r(1000)"));
	ck_assert_str_eq(buf, "r(1000)");
	/* too small a buffer: cut, terminated, needed length returned */
	ck_assert_uint_eq(eta_run_str(buf, 5, "rrW", 3), 9);
	ck_assert_str_eq(buf, "r(2)");
	/* a state never set shows as P */
	ck_assert_uint_eq(eta_run_str(buf, sizeof(buf), "\0r", 2), 9);
	ck_assert_str_eq(buf, "P(1),r(1)");
}
END_TEST

START_TEST(test_total_secs)
{
	uint64_t e[3] = { 4, 9, 2 };

	/* the first 3 seconds (rounded up) show no ETA */
	ck_assert_uint_eq(eta_total_secs(e, 3, 0), ETA_UNKNOWN);
	ck_assert_uint_eq(eta_total_secs(e, 3, 2), ETA_UNKNOWN);
	ck_assert_uint_eq(eta_total_secs(e, 3, 3), 9);
	ck_assert_uint_eq(eta_total_secs(e, 1, 30), 4);
	ck_assert_uint_eq(eta_total_secs(e, 0, 30), 0);
}
END_TEST

START_TEST(test_job_secs)
{
	struct eta_job j = { .state = 'r', .time_based = true, .runtime_s = 4, .bytes_total = 64 << 20,
			     .bytes_done = 200ull << 20, .elapsed_s = 3 };

	/* time_based: what is left of the runtime */
	ck_assert_uint_eq(eta_job_secs(&j), 1);
	j.elapsed_s = 6;
	ck_assert_uint_eq(eta_job_secs(&j), 0);
	j.elapsed_s = 0;
	ck_assert_uint_eq(eta_job_secs(&j), 4);
	/* size-bound: from the fraction done */
	j = (struct eta_job){ .state = 'R', .bytes_total = 100, .bytes_done = 25, .elapsed_s = 2 };
	ck_assert_uint_eq(eta_job_secs(&j), 6);
	j.bytes_done = 100;
	ck_assert_uint_eq(eta_job_secs(&j), 0);
	j.bytes_done = 0;
	ck_assert_uint_eq(eta_job_secs(&j), 0);
	/* ... capped by runtime= */
	j = (struct eta_job){ .state = 'w', .runtime_s = 10, .bytes_total = 1000, .bytes_done = 1, .elapsed_s = 4 };
	ck_assert_uint_eq(eta_job_secs(&j), 6);
	/* ramp: ramp left plus the runtime */
	j = (struct eta_job){ .state = '/', .runtime_s = 5, .ramp_s = 2, .ramp_elapsed_s = 2 };
	ck_assert_uint_eq(eta_job_secs(&j), 5);
	j.ramp_elapsed_s = 20;
	ck_assert_uint_eq(eta_job_secs(&j), 0);
	/* not started: startdelay + ramp + runtime, unknown without a runtime */
	j = (struct eta_job){ .state = 'P', .runtime_s = 5, .ramp_s = 2, .startdelay_s = 1 };
	ck_assert_uint_eq(eta_job_secs(&j), 8);
	j.runtime_s = 0;
	ck_assert_uint_eq(eta_job_secs(&j), 0);
	/* ended */
	j = (struct eta_job){ .state = 'E', .runtime_s = 5, .elapsed_s = 1 };
	ck_assert_uint_eq(eta_job_secs(&j), 0);
	j.state = '_';
	ck_assert_uint_eq(eta_job_secs(&j), 0);
}
END_TEST

START_TEST(test_run_char)
{
	static const struct { enum rw_mode rw; bool rnd; unsigned mix; char want; } v[] = {
		{ RW_READ, false, 50, 'R' }, { RW_RANDREAD, true, 50, 'r' }, { RW_WRITE, false, 50, 'W' },
		{ RW_RANDWRITE, true, 50, 'w' }, { RW_RW, false, 50, 'M' }, { RW_RANDRW, true, 50, 'm' },
		{ RW_RANDRW, true, 100, 'r' }, { RW_RW, false, 0, 'W' }, { RW_TRIM, false, 50, 'D' },
		{ RW_RANDTRIM, true, 50, 'd' },
	};
	static struct job job;

	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		job.rw = v[i].rw;
		job.rw_random = v[i].rnd;
		job.rwmixread = v[i].mix;
		ck_assert_int_eq(eta_run_char(&job), v[i].want);
		ck_assert(eta_char_running(v[i].want));
	}
	ck_assert(!eta_char_running('/'));
	ck_assert(!eta_char_running('E'));
	ck_assert(!eta_char_running('P'));
	ck_assert(!eta_char_running(0));
}
END_TEST

Suite *eta_suite(void)
{
	Suite *s = suite_create("eta");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_line_vectors, 0, (int)(sizeof(line_vectors) / sizeof(line_vectors[0])));
	tcase_add_test(tc, test_bits_and_kb_base);
	tcase_add_test(tc, test_truncation);
	tcase_add_test(tc, test_eta_to_str);
	tcase_add_test(tc, test_run_str);
	tcase_add_test(tc, test_total_secs);
	tcase_add_test(tc, test_job_secs);
	tcase_add_test(tc, test_run_char);
	suite_add_tcase(s, tc);
	return s;
}
