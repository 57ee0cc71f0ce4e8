/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ioping/ioping_out.h"

struct sink {
	char *buf;
	size_t len;
	FILE *f;
};

static void sink_open(struct sink *s)
{
	s->buf = NULL;
	s->len = 0;
	s->f = open_memstream(&s->buf, &s->len);
	ck_assert_ptr_nonnull(s->f);
}

static const char *sink_close(struct sink *s)
{
	fclose(s->f);
	return s->buf;
}

static void summary_of(struct ioping_summary *s, uint64_t valid, double sum, int64_t min,
		       int64_t max, double mdev, uint64_t count, uint64_t load_ns, uint64_t size)
{
	memset(s, 0, sizeof(*s));
	s->nr_valid = valid;
	s->nr_count = count;
	s->sum_ns = sum;
	s->min_ns = min;
	s->max_ns = max;
	s->avg_ns = valid ? sum / (double)valid : 0;
	s->mdev_ns = mdev;
	s->iops = valid ? 1e9 * (double)valid / sum : 0;
	s->bytes_per_s = s->iops * (double)size;
	s->valid_bytes = valid * size;
	s->count_bytes = count * size;
	s->load_ns = load_ns;
	s->load_iops = 1e9 * (double)count / (double)load_ns;
	s->load_bytes_per_s = s->load_iops * (double)size;
}

START_TEST(test_raw_line)
{
	struct ioping_summary s;
	char line[256];

	summary_of(&s, 3, 181260, 58597, 63405, 2128, 4, 312075, 4096);
	ck_assert_int_gt(ioping_out_raw(line, sizeof(line), &s), 0);
	ck_assert_str_eq(line, "3 181260 16551 67792122 58597 60420 63405 2128 4 312075\n");
	summary_of(&s, 0, 0, 0, 0, 0, 1, 67901, 4096);
	ioping_out_raw(line, sizeof(line), &s);
	ck_assert_str_eq(line, "0 0 0 0 0 0 0 0 1 67901\n");
	ck_assert_int_lt(ioping_out_raw(line, 8, &s), 0);
}
END_TEST

START_TEST(test_text_lines)
{
	struct ioping_out out;
	struct ioping_summary s;
	struct timespec now = { 0, 0 };
	struct sink k;
	const char *txt;

	sink_open(&k);
	ioping_out_init(&out, k.f, IOPING_OUT_TEXT, "/tmp", "ext4", "/dev/vda", 270553174016ull);
	ioping_out_request(&out, 1, 4096, 61300, false, IOPING_NOTICE_WARMUP, true, &now);
	ioping_out_request(&out, 2, 4096, 44100, true, IOPING_NOTICE_NONE, false, &now);
	ioping_out_request(&out, 3, 0, 31500, false, IOPING_NOTICE_EAGAIN, true, &now);
	ioping_out_burst_end(&out);
	summary_of(&s, 19, 860600, 39500, 86020, 10700, 20, 1010000, 4096);
	s.nr_too_fast = 5;
	s.nr_too_slow = 1;
	ioping_out_final(&out, &s, &now);
	txt = sink_close(&k);
	ck_assert_str_eq(txt,
		"4 KiB <<< /tmp (ext4 /dev/vda 252.0 GiB): request=1 time=61.3 us (warmup)\n"
		"4 KiB >>> /tmp (ext4 /dev/vda 252.0 GiB): request=2 time=44.1 us\n"
		"0 B <<< /tmp (ext4 /dev/vda 252.0 GiB): request=3 time=31.5 us (EAGAIN)\n"
		"\n"
		"\n"
		"--- /tmp (ext4 /dev/vda 252.0 GiB) ioping statistics ---\n"
		"19 requests completed in 860.6 us, 76 KiB read, 22.1 k iops, 86.2 MiB/s\n"
		"5 too fast, 1 too slow, generated 20 requests in 1.01 ms, 80 KiB, 19.8 k iops, 77.4 MiB/s\n"
		"min/avg/max/mdev = 39.5 us / 45.3 us / 86.0 us / 10.7 us\n");
	free(k.buf);
}
END_TEST

START_TEST(test_quiet_periods_and_devices)
{
	struct ioping_out out;
	struct ioping_summary s;
	struct timespec now = { 0, 0 };
	struct sink k;
	const char *txt;

	sink_open(&k);
	ioping_out_init(&out, k.f, IOPING_OUT_TEXT, "/dev/zero", "character", "device", 0);
	out.quiet = true;
	out.periods = true;
	summary_of(&s, 0, 0, 0, 0, 0, 0, 1000, 4096);
	ioping_out_request(&out, 1, 4096, 311, false, IOPING_NOTICE_WARMUP, true, &now);
	ioping_out_burst_end(&out);
	ioping_out_final(&out, &s, &now);	/* quiet + periods: no summary */
	txt = sink_close(&k);
	ck_assert_str_eq(txt, "");
	free(k.buf);

	sink_open(&k);
	ioping_out_init(&out, k.f, IOPING_OUT_TEXT, "/dev/null", "character", "device", 0);
	out.done_word = "";
	summary_of(&s, 0, 0, 0, 0, 0, 0, 1000, 4096);
	ioping_out_final(&out, &s, &now);
	txt = sink_close(&k);
	ck_assert_str_eq(txt,
		"\n--- /dev/null (character device 0 B) ioping statistics ---\n"
		"0 requests completed in 0 ns, 0 B, 0 iops, 0 B/s\n"
		"generated 0 requests in 1 us, 0 B, 0 iops, 0 B/s\n"
		"min/avg/max/mdev = 0 ns / 0 ns / 0 ns / 0 ns\n");
	free(k.buf);
}
END_TEST

START_TEST(test_json_layout_and_escaping)
{
	struct ioping_out out;
	struct ioping_summary s;
	struct timespec t1 = { 1795996471, 561898123 }, t2 = { 1795996472, 5000 };
	struct sink k;
	const char *txt;

	setenv("TZ", "UTC", 1);
	tzset();
	sink_open(&k);
	ioping_out_init(&out, k.f, IOPING_OUT_JSON, "/tmp/a\"b\\c\nd\x01\xff", "ext4", "/dev/vda",
			270553174016ull);
	out.time_fmt = "%FT%T%z";
	ioping_out_request(&out, 1, 4096, 137174, false, IOPING_NOTICE_WARMUP, true, &t1);
	summary_of(&s, 0, 0, 0, 0, 0, 1, 300497, 4096);
	ioping_out_final(&out, &s, &t2);
	txt = sink_close(&k);
	ck_assert_str_eq(txt,
		"[{\n"
		"  \"timestamp\": 1795996471.561898,\n"
		"  \"localtime\": \"2026-11-29T23:54:31+0000\",\n"
		"  \"target\": {\n"
		"    \"path\": \"/tmp/a\\\"b\\\\c\\nd\\u0001\\ufffd\",\n"
		"    \"fstype\": \"ext4\",\n"
		"    \"device\": \"/dev/vda\",\n"
		"    \"device_size\": 270553174016\n"
		"  },\n"
		"  \"io\": {\n"
		"    \"request\": 1,\n"
		"    \"operation\": \"read\",\n"
		"    \"size\": 4096,\n"
		"    \"time\": 137174,\n"
		"    \"ignored\": true\n"
		"  }\n"
		"},{\n"
		"  \"timestamp\": 1795996471.561898,\n"	/* the final object reuses the stamp */
		"  \"localtime\": \"2026-11-29T23:54:31+0000\",\n"
		"  \"target\": {\n"
		"    \"path\": \"/tmp/a\\\"b\\\\c\\nd\\u0001\\ufffd\",\n"
		"    \"fstype\": \"ext4\",\n"
		"    \"device\": \"/dev/vda\",\n"
		"    \"device_size\": 270553174016\n"
		"  },\n"
		"  \"stat\": {\n"
		"    \"count\": 0,\n"
		"    \"size\": 0,\n"
		"    \"time\": 0,\n"
		"    \"iops\": 0.000000,\n"
		"    \"bps\": 0,\n"
		"    \"min\": 0,\n"
		"    \"avg\": 0,\n"
		"    \"max\": 0,\n"
		"    \"mdev\": 0\n"
		"  },\n"
		"  \"load\": {\n"
		"    \"count\": 1,\n"
		"    \"size\": 4096,\n"
		"    \"time\": 300497,\n"
		"    \"iops\": 3327.820244,\n"
		"    \"bps\": 13630752\n"
		"  }\n"
		"}]\n");
	free(k.buf);
}
END_TEST

START_TEST(test_json_utf8_kept)
{
	struct sink k;
	const char *txt;

	sink_open(&k);
	ioping_out_json_string(k.f, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc0\xaf \xed\xa0\x80");
	txt = sink_close(&k);
	ck_assert_str_eq(txt, "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \\ufffd\\ufffd "
			      "\\ufffd\\ufffd\\ufffd\"");
	free(k.buf);
}
END_TEST

START_TEST(test_strftime_limit)
{
	struct tm tm = { .tm_year = 126, .tm_mon = 10, .tm_mday = 30 };
	char fmt[256] = "", buf[64];

	for (int i = 0; i < 100; i++)
		memcpy(fmt + 2 * i, "%Y", 3);
	ck_assert_uint_eq(ioping_out_strftime(buf, sizeof(buf), fmt, &tm), 60);	/* whole conversions */
	fmt[30] = '\0';	/* 15 x %Y */
	memcpy(fmt + 30, "abcdefg", 8);
	ck_assert_uint_eq(ioping_out_strftime(buf, sizeof(buf), fmt, &tm), 63);
	ck_assert_str_eq(buf + 60, "abc");
	ck_assert_uint_eq(ioping_out_strftime(buf, sizeof(buf), "", &tm), 0);
	ck_assert_uint_eq(ioping_out_strftime(buf, sizeof(buf), "%-d|%%", &tm), 4);
	ck_assert_str_eq(buf, "30|%");
}
END_TEST

Suite *ioping_out_suite(void)
{
	Suite *s = suite_create("ioping_out");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_raw_line);
	tcase_add_test(tc, test_text_lines);
	tcase_add_test(tc, test_quiet_periods_and_devices);
	tcase_add_test(tc, test_json_layout_and_escaping);
	tcase_add_test(tc, test_json_utf8_kept);
	tcase_add_test(tc, test_strftime_limit);
	suite_add_tcase(s, tc);
	return s;
}
