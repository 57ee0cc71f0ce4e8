/* SPDX-License-Identifier: MIT */
/* plot_verdict: iops compare's JSON document as verdict charts on a built page. The charts come
 * first, one per figure; each compared input's bar carries the exact value, baseline, change,
 * threshold and verdict in its <title> and +- the threshold as an error bar; a card before
 * the inputs' holds them as a table; a row without a figure has no bar and no table row; what is not a compare document is refused and leaves the page as it was. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"
#include "plot_fixture.h"

#define FIG(name, unit, base, val, chg, thr, noise, verdict)                                          \
	"\"" name "\":{\"unit\":\"" unit "\",\"runs_baseline\":1,\"baseline\":" base ",\"against\":[{"  \
	"\"input\":\"B\",\"runs\":1,\"value\":" val ",\"verdict\":\"" verdict "\",\"change_pct\":" chg \
	",\"threshold_pct\":" thr ",\"noise\":\"" noise "\",\"fails\":0}]}"

static const char doc[] =
	"{\"iops version\":\"x\",\"mode\":\"compare\",\"inputs\":[{\"name\":\"A\",\"baseline\":1},"
	"{\"name\":\"B\",\"baseline\":0}],\"rows\":[{\"job\":\"p\",\"direction\":\"read\",\"figures\":{"
	FIG("iops", "ops/s", "1000.000000", "500.500000", "-49.950000", "2.000000", "band", "worse") ","
	FIG("bw", "bytes/s", "4096000.000000", "2050048.000000", "-49.950000", "2.000000", "band", "worse") ","
	FIG("mean", "ns", "3308.100000", "4469.000000", "35.092000", "0.000000", "floor", "worse") ","
	FIG("p50", "ns", "211.000000", "211.000000", "0.000000", "5.300000", "order", "within noise") ","
	FIG("p99", "ns", "964.000000", "860.000000", "-10.788382", "48.400000", "order", "within noise") ","
	FIG("p99.9", "ns", "1416.000000", "7776.000000", "449.152542", "105.500000", "order", "worse")
	"}},{\"step\":\"no job name\",\"direction\":\"read\",\"figures\":{}}]}";

static struct plot_page *base_page(void)
{
	static const char *const names[] = { "A", "B" };
	struct iops_err err = { 0 };
	const char *docs[2];
	size_t len[2];
	char *t = plot_fixture("fio_plus.json", &len[0]);
	struct plot_page *p;

	docs[0] = docs[1] = t;
	len[1] = len[0];
	p = plot_page_docs("t", PLOT_SIDE_BY_SIDE, names, docs, len, 2, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	free(t);
	return p;
}

static char *html_of(const struct plot_page *p)
{
	struct iops_err err = { 0 };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(plot_page_write_html(p, f, &err) == 0, "%s", err.msg);
	fclose(f);
	return buf;
}

START_TEST(test_charts_first)
{
	struct plot_page *p = base_page();
	struct iops_err err = { 0 };
	unsigned before = plot_page_nr_charts(p);
	char *html;

	ck_assert_int_eq(plot_page_verdicts(p, doc, strlen(doc), &err), 0);
	ck_assert_uint_eq(plot_page_nr_charts(p), before + 6);
	ck_assert_str_eq(plot_page_chart_id(p, 0), "verdict-iops");
	ck_assert_str_eq(plot_page_chart_id(p, 5), "verdict-p99.9");
	ck_assert_str_eq(plot_page_chart_id(p, 6), "fio-iops");
	html = html_of(p);
	ck_assert(strstr(html, "data-series=\"B\" data-category=\"p read\"><title>B p read iops: 500.5 ops/s against "
			       "1000 ops/s of A, change -49.95 %, threshold 2 % (band): worse</title>"));
	ck_assert(strstr(html, "<title>B p read p99: 860 ns against 964 ns of A, change -10.788382 %, threshold "
			       "48.4 % (order): within noise</title>"));
	ck_assert(strstr(html, "<title>B p read p99.9: 7776 ns against 1416 ns of A, change 449.152542 %, "
			       "threshold 105.5 % (order): worse</title>"));
	ck_assert(strstr(html, "class=\"err\""));	/* the threshold's error bars */
	ck_assert(strstr(html, "<main>\n<section class=\"card\" data-input=\"verdicts\"><h2>Verdicts against A</h2>"));
	ck_assert(strstr(html, "<tr><td>p</td><td>read</td><td>iops</td><td>B</td><td class=\"n\">1000 IOPS</td>"
			       "<td class=\"n\">500.5 IOPS</td><td class=\"n\">-50.0 %</td><td class=\"n\">2.0 % band</td>"
			       "<td><b>worse</b></td></tr>"));
	ck_assert(strstr(html, "<td>p50</td><td>B</td><td class=\"n\">211 nsec</td><td class=\"n\">211 nsec</td>"
			       "<td class=\"n\">+0.0 %</td><td class=\"n\">5.3 % order</td><td>within noise</td></tr>"));
	ck_assert(!strstr(html, "no job name"));		/* a row without figures: no bar */
	free(html);
	plot_page_free(p);
}
END_TEST

static const struct {
	const char *doc, *msg;
} bad[] = {
	{ "", "" },
	{ "{\"mode\":\"compare\"", "" },
	{ "{\"mode\":\"merge\",\"inputs\":[{\"name\":\"A\",\"baseline\":1}],\"rows\":[]}", "not an iops compare document" },
	{ "{\"inputs\":[{\"name\":\"A\",\"baseline\":1}],\"rows\":[]}", "not an iops compare document" },
	{ "{\"mode\":\"compare\",\"inputs\":[{\"name\":\"A\",\"baseline\":0}],\"rows\":[]}", "not an iops compare document" },
	{ "{\"mode\":\"compare\",\"inputs\":{},\"rows\":[]}", "not an iops compare document" },
	{ "[1,2]", "not an iops compare document" },
};

START_TEST(test_bad)
{
	struct plot_page *p = base_page();
	struct iops_err err = { 0 };
	unsigned before = plot_page_nr_charts(p);

	ck_assert_int_eq(plot_page_verdicts(p, bad[_i].doc, strlen(bad[_i].doc), &err), -1);
	ck_assert(err.msg[0]);
	ck_assert_msg(!bad[_i].msg[0] || !strcmp(err.msg, bad[_i].msg), "%s", err.msg);
	ck_assert_uint_eq(plot_page_nr_charts(p), before);
	plot_page_free(p);
}
END_TEST

/* No rows: the six charts, empty ("no data"), still first. */
START_TEST(test_empty)
{
	static const char none[] = "{\"mode\":\"compare\",\"inputs\":[{\"name\":\"A\",\"baseline\":1}],\"rows\":[]}";
	struct plot_page *p = base_page();
	struct iops_err err = { 0 };
	char *html;

	ck_assert_int_eq(plot_page_verdicts(p, none, strlen(none), &err), 0);
	ck_assert_str_eq(plot_page_chart_id(p, 0), "verdict-iops");
	html = html_of(p);
	ck_assert(strstr(html, ">no data</text>"));
	free(html);
	plot_page_free(p);
}
END_TEST

Suite *plot_verdict_suite(void)
{
	Suite *s = suite_create("plot_verdict");
	TCase *t = tcase_create("core");

	tcase_add_test(t, test_charts_first);
	tcase_add_loop_test(t, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(t, test_empty);
	suite_add_tcase(s, t);
	return s;
}
