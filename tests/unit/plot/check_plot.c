/* SPDX-License-Identifier: MIT */
/* plot: the page. Each real input kind makes the charts it should; a stream of documents is
 * one input each; what is no result is refused with its name and leaves the page as it was;
 * charts are selected by id; an SVG holds one chart; the written page carries each point's
 * exact value (the JSON's p99, a log's entries), escapes what it quotes, stays bounded for a
 * long log (decimated), and holds no script and no link to anything outside. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"
#include "plot_fixture.h"

static struct plot_page *page_of(const char *const *files, unsigned n, enum plot_layout layout)
{
	struct plot_page *p = plot_page_new();
	struct iops_err err = { 0 };

	ck_assert_ptr_nonnull(p);
	plot_page_layout(p, layout);
	for (unsigned i = 0; i < n; i++) {
		size_t len;
		char *text = plot_fixture(files[i], &len);

		ck_assert_msg(plot_page_add(p, files[i], text, len, &err) == 0, "%s: %s", files[i], err.msg);
		free(text);
	}
	ck_assert_msg(plot_page_build(p, &err) == 0, "%s", err.msg);
	return p;
}

/* The page as text (free() it). */
static char *html_of(const struct plot_page *p, size_t *len)
{
	struct iops_err err = { 0 };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(plot_page_write_html(p, f, &err) == 0, "%s", err.msg);
	fclose(f);
	return buf;
}

static void ids_are(const struct plot_page *p, const char *want)
{
	char got[512] = "";

	for (unsigned i = 0; i < plot_page_nr_charts(p); i++) {
		strcat(got, i ? " " : "");
		strcat(got, plot_page_chart_id(p, i));
	}
	ck_assert_str_eq(got, want);
}

static const struct {
	const char *file, *charts;
} kinds[] = {
	{ "fio_plus.json", "fio-iops fio-bw lat-clat hist-clat" },
	{ "iops_plus.json", "fio-iops fio-bw lat-clat hist-clat" },
	{ "fio_plain.json", "fio-iops fio-bw lat-clat" },
	{ "fio_client.json", "fio-iops fio-bw lat-clat" },
	{ "iops_merged.json", "fio-iops fio-bw lat-clat hist-clat" },
	{ "quick.json", "fio-iops fio-bw lat-clat lat-lat" },
	{ "sweep.json", "sweep-iops sweep-bw sweep-lat sweep-p99" },
	{ "suite.txt", "suite-bw suite-lat suite-iops suite-rates suite-times" },
	{ "fw_bw.1.log", "log-bw" }, { "fw_iops.1.log", "log-iops" }, { "io_clat.1.log", "log-clat" },
	{ "fw_slat.1.log", "log-slat" },
};

START_TEST(test_kinds)
{
	struct plot_page *p = page_of(&kinds[_i].file, 1, PLOT_BY_JOB);
	size_t len;
	char *html = html_of(p, &len);

	ids_are(p, kinds[_i].charts);
	ck_assert(strstr(html, "<!DOCTYPE html>\n<!-- generator: iops plot ") == html);
	ck_assert_ptr_null(strstr(html, "<script"));
	ck_assert_ptr_null(strstr(html, " src="));
	ck_assert_ptr_null(strstr(html, "href=\"http"));
	ck_assert(strstr(html, "prefers-color-scheme: dark"));
	ck_assert(strstr(html, "data-series=\"") || strstr(html, ">no data</text>"));
	free(html);
	plot_page_free(p);
}
END_TEST

/* Logs of every kind together: a chart per kind, the logs' card. */
START_TEST(test_logs_together)
{
	static const char *const files[] = { "fw_bw.1.log", "iw_bw.1.log", "fw_clat.1.log", "iw_clat.1.log",
					     "fw_lat.1.log", "fw_iops.1.log", "fw_slat.1.log", "fo_bw.1.log" };
	struct plot_page *p = page_of(files, 8, PLOT_BY_JOB);
	size_t len;
	char *html = html_of(p, &len);

	ids_are(p, "log-bw log-iops log-lat log-clat log-slat");
	ck_assert(strstr(html, "data-series=\"fw.1 read\"") && strstr(html, "data-series=\"iw.1 write\""));
	ck_assert(strstr(html, "data-series=\"fo.1 read\""));
	ck_assert(strstr(html, "fw_slat.1.log: no entries"));
	ck_assert(strstr(html, "one per I/O (no log_avg_msec)"));
	/* a log's entries read back exactly: fio's first read window of fw_bw.1.log */
	ck_assert(strstr(html, "fw.1 read: time 144 ms: 25055 KiB/s ("));
	free(html);
	plot_page_free(p);
}
END_TEST

/* The JSON's p99 is the plotted p99, in the point's tooltip. */
START_TEST(test_p99_reads_back)
{
	static const char *const f = "fio_plus.json";
	struct plot_page *p = page_of(&f, 1, PLOT_BY_JOB);
	size_t len;
	char *html = html_of(p, &len);

	ck_assert(strstr(html, "<title>p read: p99.000000 = 3653632 ns (3654 usec)</title>"));
	ck_assert(strstr(html, "data-series=\"p read\""));
	free(html);
	plot_page_free(p);
}
END_TEST

/* Client runs: a bar per client and All clients, the curves of each. */
START_TEST(test_clients)
{
	static const char *const f = "fio_client.json";
	struct plot_page *p = page_of(&f, 1, PLOT_BY_JOB);
	size_t len;
	char *html = html_of(p, &len);

	ck_assert(strstr(html, "data-series=\"127.0.0.1:8766 randread read\" data-category=\"127.0.0.1:8766 randread\""));
	ck_assert(strstr(html, "data-series=\"All clients read\" data-category=\"All clients\""));
	ck_assert(strstr(html, "<title>All clients read: 65869.130869 IOPS ("));
	free(html);
	plot_page_free(p);
}
END_TEST

/* Side by side: a category per job and direction, a bar per input (the compare layout). */
START_TEST(test_side_by_side)
{
	static const char *const files[] = { "fio_plus.json", "iops_plus.json" };
	struct plot_page *p = page_of(files, 2, PLOT_SIDE_BY_SIDE);
	size_t len;
	char *html = html_of(p, &len);

	ck_assert(strstr(html, "data-series=\"fio_plus.json p read\" data-category=\"p read\""));
	ck_assert(strstr(html, "data-series=\"iops_plus.json p read\" data-category=\"p read\""));
	ck_assert(strstr(html, "data-series=\"iops_plus.json p write\">\n<polyline"));
	free(html);
	plot_page_free(p);
}
END_TEST

START_TEST(test_side_by_side_api)
{
	static const char *const names[] = { "A", "B" };
	struct iops_err err = { 0 };
	const char *docs[2];
	size_t len[2], olen;
	char *out = NULL, *t1 = plot_fixture("sweep.json", &len[0]), *t2 = plot_fixture("sweep.json", &len[1]);
	FILE *f = open_memstream(&out, &olen);

	docs[0] = t1;
	docs[1] = t2;
	ck_assert_int_eq(plot_side_by_side(f, "compare", names, docs, len, 2, &err), 0);
	fclose(f);
	ck_assert(strstr(out, "<title>compare</title>"));
	ck_assert(strstr(out, "data-series=\"A randread 4k\" data-category=\"randread 4k\""));
	ck_assert(strstr(out, "data-series=\"B randread 4k\" data-category=\"randread 4k\""));
	free(out);
	out = NULL;
	f = open_memstream(&out, &olen);
	docs[1] = "nothing";
	len[1] = 7;
	ck_assert_int_eq(plot_side_by_side(f, NULL, names, docs, len, 2, &err), -1);
	ck_assert(strstr(err.msg, "B: not a result"));
	fclose(f);
	ck_assert_uint_eq(olen, 0);
	free(out);
	free(t1);
	free(t2);
}
END_TEST

/* Several documents in one input (fio's messages, kubectl logs of two pods). */
START_TEST(test_stream)
{
	struct plot_page *p = plot_page_new();
	struct iops_err err = { 0 };
	size_t len, hl;
	char *doc = plot_fixture("fio_plus.json", &len), *text = malloc(2 * len + 64), *html;

	len = (size_t)snprintf(text, 2 * len + 64, "pod-a says hi\n%s\nfio: terminating on signal 15\n%s", doc, doc);
	ck_assert_int_eq(plot_page_add(p, "pods.log", text, len, &err), 0);
	ck_assert_int_eq(plot_page_build(p, &err), 0);
	html = html_of(p, &hl);
	ck_assert(strstr(html, "data-input=\"pods.log:1\"") && strstr(html, "data-input=\"pods.log:2\""));
	ck_assert(strstr(html, "data-series=\"pods.log:2 p write\""));
	free(html);
	free(text);
	free(doc);
	plot_page_free(p);
}
END_TEST

static const struct {
	const char *text, *why;
} bad[] = {
	{ "hello\n", "x: not a result iops can plot" },
	{ "", "x: empty" },
	{ "{\"a\": 1}", "no fio, quick or sweep result" },
	{ "{\"jobs\": [", "x: not a result iops can plot: " },
	{ "{\"jobs\": []}", "without any job" },
	{ "1, 2, 0, 0, 0\nbad\n", "x:2: not a fio log line" },
	{ "Configuration:\n", "without any figure" },
	{ "\x89PNG\r\n\x1a\n\0\0", "not a result" },
};

START_TEST(test_bad)
{
	struct plot_page *p = plot_page_new();
	struct iops_err err = { 0 };
	size_t len;
	char *ok = plot_fixture("fw_bw.1.log", &len);
	size_t blen = _i == 7 ? 10 : strlen(bad[_i].text);

	ck_assert_int_eq(plot_page_add(p, "fw_bw.1.log", ok, len, &err), 0);
	ck_assert_int_eq(plot_page_add(p, "x", bad[_i].text, blen, &err), -1);
	ck_assert_msg(strstr(err.msg, bad[_i].why), "%s", err.msg);
	ck_assert_int_eq(plot_page_build(p, &err), 0);
	ids_are(p, "log-bw");	/* the page as it was */
	free(ok);
	plot_page_free(p);
}
END_TEST

START_TEST(test_bad_in_stream)
{
	struct plot_page *p = plot_page_new();
	struct iops_err err = { 0 };
	size_t len;
	char *doc = plot_fixture("fio_plus.json", &len), *text = malloc(len + 64);

	len = (size_t)snprintf(text, len + 64, "%s\n{\"jobs\": []}\n", doc);
	ck_assert_int_eq(plot_page_add(p, "s", text, len, &err), -1);
	ck_assert(strstr(err.msg, "s:2: a fio result without any job"));
	ck_assert_int_eq(plot_page_build(p, &err), -1);	/* nothing was added */
	ck_assert(strstr(err.msg, "no input"));
	free(text);
	free(doc);
	plot_page_free(p);
}
END_TEST

START_TEST(test_select_svg)
{
	static const char *const f = "fio_plus.json";
	struct plot_page *p = page_of(&f, 1, PLOT_BY_JOB);
	struct iops_err err = { 0 };
	char *out = NULL;
	size_t len;
	FILE *m = open_memstream(&out, &len);

	ck_assert_int_eq(plot_page_write_svg(p, m, &err), -1);
	ck_assert(strstr(err.msg, "make 4 (fio-iops, fio-bw, lat-clat, hist-clat)"));
	ck_assert_int_eq(plot_page_select(p, "nope", &err), -1);
	ck_assert(strstr(err.msg, "'nope' names no chart"));
	ids_are(p, "fio-iops fio-bw lat-clat hist-clat");
	ck_assert_int_eq(plot_page_select(p, "lat,fio-bw", &err), 0);
	ids_are(p, "fio-bw lat-clat");
	ck_assert_int_eq(plot_page_select(p, "lat-c", &err), -1);	/* a prefix ends at a '-' */
	ck_assert_int_eq(plot_page_select(p, "lat-clat", &err), 0);
	ck_assert_int_eq(plot_page_write_svg(p, m, &err), 0);
	fclose(m);
	ck_assert(strstr(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- generator: iops plot ") == out);
	ck_assert(strstr(out, "xmlns=\"http://www.w3.org/2000/svg\""));
	ck_assert(strstr(out, "<style>"));
	ck_assert(strstr(out, "p99.000000 = 3653632 ns"));
	free(out);
	plot_page_free(p);
}
END_TEST

/* What a page quotes is escaped: job names, options, file names. */
START_TEST(test_escaping)
{
	static const char doc[] = "{\"jobs\": [{\"jobname\": \"<b>&\\\"'\", \"job options\": {\"x\": \"</code><script>\"},"
				  " \"read\": {\"total_ios\": 2, \"iops\": 1, \"clat_ns\": {\"N\": 2, \"percentile\": "
				  "{\"50.000000\": 10, \"99.000000\": 20}}}, \"write\": {\"total_ios\": 1, \"iops\": 2}}]}";
	struct plot_page *p = plot_page_new();
	struct iops_err err = { 0 };
	size_t len;
	char *html;

	ck_assert_int_eq(plot_page_add(p, "a<&>.json", doc, strlen(doc), &err), 0);
	ck_assert_int_eq(plot_page_build(p, &err), 0);
	html = html_of(p, &len);
	ck_assert_ptr_null(strstr(html, "<b>"));
	ck_assert_ptr_null(strstr(html, "<script"));
	ck_assert(strstr(html, "&lt;b&gt;&amp;&quot;&#39; read"));
	ck_assert(strstr(html, "a&lt;&amp;&gt;.json"));
	ck_assert(strstr(html, "&lt;/code&gt;&lt;script&gt;"));
	free(html);
	plot_page_free(p);
}
END_TEST

/* A long log draws in bounded size: min/max per pixel column, said on the chart. */
START_TEST(test_long_log)
{
	struct plot_page *p = plot_page_new();
	struct iops_err err = { 0 };
	size_t n = 100000, at = 0, len;
	char *text = malloc(n * 32), *html;
	unsigned marks = 0;

	for (size_t i = 0; i < n; i++)
		at += (size_t)snprintf(text + at, n * 32 - at, "%zu, %zu, 0, 0, 0\n", i + 1, 70000 + (i * 7919) % 5000);
	ck_assert_int_eq(plot_page_add(p, "long_bw.1.log", text, at, &err), 0);
	ck_assert_int_eq(plot_page_build(p, &err), 0);
	html = html_of(p, &len);
	ck_assert_msg(len < 400000, "%zu bytes", len);
	for (const char *s = html; (s = strstr(s, "<circle")); s++)
		marks++;
	ck_assert_msg(marks > 690 && marks <= 712, "%u marks", marks);
	ck_assert(strstr(html, "min/max decimation"));
	ck_assert(strstr(html, "long.1 read: time 1 to "));
	ck_assert(strstr(html, "averaged over windows of 1 ms"));
	free(html);
	free(text);
	plot_page_free(p);
}
END_TEST

START_TEST(test_misuse)
{
	struct plot_page *p = plot_page_new();
	struct iops_err err = { 0 };
	char *out = NULL;
	size_t len;
	FILE *m = open_memstream(&out, &len);

	ck_assert_int_eq(plot_page_build(p, &err), -1);
	ck_assert_int_eq(plot_page_write_html(p, m, &err), -1);	/* not built */
	ck_assert_int_eq(plot_page_add(p, "a_bw.log", "1, 2, 0, 0, 0\n", 14, &err), 0);
	ck_assert_int_eq(plot_page_build(p, &err), 0);
	ck_assert_int_eq(plot_page_add(p, "b_bw.log", "1, 2, 0, 0, 0\n", 14, &err), -1);	/* built already */
	ck_assert_int_eq(plot_page_title(p, "t"), 0);
	ck_assert_int_eq(plot_page_write_html(p, m, &err), 0);
	fclose(m);
	ck_assert(strstr(out, "<h1>t</h1>"));
	free(out);
	plot_page_free(p);
	plot_page_free(NULL);
}
END_TEST

Suite *plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *t = tcase_create("core");

	tcase_set_timeout(t, 30);
	tcase_add_loop_test(t, test_kinds, 0, sizeof(kinds) / sizeof(kinds[0]));
	tcase_add_test(t, test_logs_together);
	tcase_add_test(t, test_p99_reads_back);
	tcase_add_test(t, test_clients);
	tcase_add_test(t, test_side_by_side);
	tcase_add_test(t, test_side_by_side_api);
	tcase_add_test(t, test_stream);
	tcase_add_loop_test(t, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(t, test_bad_in_stream);
	tcase_add_test(t, test_select_svg);
	tcase_add_test(t, test_escaping);
	tcase_add_test(t, test_long_log);
	tcase_add_test(t, test_misuse);
	suite_add_tcase(s, t);
	return s;
}
