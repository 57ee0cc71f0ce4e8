/* SPDX-License-Identifier: MIT */
/* plot_rd_fio: real results read back: fio 3.33's json and json+ (its job lines on stdout
 * before the document), iops' json+, fio's client_stats, iops merge's client_stats with
 * bins, quick's JSON; every figure compared with the document itself (core/jsonr); and the
 * layouts refused. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonr.h"
#include "plot/plot_rd_fio.h"
#include "plot_fixture.h"

/* The fixture's (first) document, parsed twice: into f, and as a plain tree for comparison. */
static void load(const char *name, struct plot_fio *f, struct jsonr *ref)
{
	struct iops_err err = { 0 };
	struct jsonr j;
	size_t len, pos = 0, dlen;
	char *text = plot_fixture(name, &len);
	const char *doc = jsonr_next_doc(text, len, &pos, &dlen);

	ck_assert(doc != NULL);
	ck_assert_int_eq(jsonr_parse(&j, doc, dlen, &err), 0);
	ck_assert_int_eq(jsonr_parse(ref, doc, dlen, &err), 0);
	ck_assert(plot_rd_fio_is(&j));
	ck_assert_msg(plot_rd_fio(f, &j, name, &err) == 0, "%s: %s", name, err.msg);
	ck_assert_ptr_null(j.nodes);	/* moved */
	free(text);
}

/* Every direction of every job agrees with the document: figures, percentiles (keys and
 * values, sorted), bins (each count, and their total is N). */
static void same(const struct plot_fio *f, const struct jsonr *ref, const char *list)
{
	const struct jsonr_node *jobs = jsonr_get(ref, NULL, list);

	ck_assert_uint_eq(f->nr_jobs, jobs->count);
	for (unsigned u = 0; u < f->nr_jobs; u++) {
		const struct jsonr_node *jn = jsonr_child(ref, jobs, u);

		ck_assert_str_eq(f->job[u].name, jsonr_str(ref, jn, "jobname"));
		for (int d = 0; d < 3; d++) {
			const struct jsonr_node *dn = jsonr_get(ref, jn, plot_dir_names[d]);
			const struct plot_dir *dr = &f->job[u].dir[d];
			double v;

			ck_assert(jsonr_num(ref, dn, "iops", &v) && v == dr->iops);
			ck_assert(jsonr_num(ref, dn, "bw_bytes", &v) && v == dr->bw_bytes);
			ck_assert(jsonr_num(ref, dn, "total_ios", &v) && v == dr->total_ios);
			ck_assert(dr->present == (v > 0));
			for (int k = 0; k < PLOT_LAT_KINDS; k++) {
				static const char *const keys[] = { "slat_ns", "clat_ns", "lat_ns" };
				const struct jsonr_node *ln = jsonr_get(ref, dn, keys[k]);
				const struct jsonr_node *pct = ln ? jsonr_get(ref, ln, "percentile") : NULL;
				const struct jsonr_node *bins = ln ? jsonr_get(ref, ln, "bins") : NULL;
				const struct plot_lat *l = &dr->lat[k];
				double total = 0;

				ck_assert_uint_eq(l->nr_pct, pct ? pct->count : 0);
				for (unsigned q = 0; q < l->nr_pct; q++) {
					ck_assert(jsonr_num(ref, pct, l->pct_key[q], &v) && v == l->pct_v[q]);
					ck_assert(!q || l->pct[q] > l->pct[q - 1]);
				}
				ck_assert_uint_eq(l->nr_bins, bins ? bins->count : 0);
				for (size_t b = 0; b < l->nr_bins; b++) {
					char key[32];

					snprintf(key, sizeof(key), "%.0f", l->bin_v[b]);
					ck_assert(jsonr_num(ref, bins, key, &v) && v == l->bin_n[b]);
					ck_assert(!b || l->bin_v[b] > l->bin_v[b - 1]);
					total += l->bin_n[b];
				}
				if (l->nr_bins) {
					ck_assert(jsonr_num(ref, ln, "N", &v) && v == total && l->bins_total == total);
				}
			}
		}
	}
}

START_TEST(test_fio_plus)
{
	struct plot_fio f;
	struct jsonr ref;
	int q;

	load("fio_plus.json", &f, &ref);
	ck_assert_int_eq(f.kind, PLOT_FIO_JOBS);
	ck_assert_str_eq(f.version, "fio-3.33");
	ck_assert_ptr_nonnull(f.time);
	same(&f, &ref, "jobs");
	ck_assert(f.job[0].dir[0].present && f.job[0].dir[1].present && !f.job[0].dir[2].present);
	ck_assert(f.job[0].dir[0].lat[PLOT_CLAT].nr_bins > 10);
	q = plot_rd_fio_pct(&f.job[0].dir[0].lat[PLOT_CLAT], 99);
	ck_assert(q >= 0 && f.job[0].dir[0].lat[PLOT_CLAT].pct_v[q] == 3653632);	/* the file's p99 */
	ck_assert_str_eq(f.job[0].dir[0].lat[PLOT_CLAT].pct_key[q], "99.000000");
	ck_assert_ptr_nonnull(f.job[0].opts);
	plot_rd_fio_free(&f);
	jsonr_free(&ref);
}
END_TEST

START_TEST(test_iops_plus)
{
	struct plot_fio f;
	struct jsonr ref;

	load("iops_plus.json", &f, &ref);
	same(&f, &ref, "jobs");
	ck_assert(f.job[0].dir[1].lat[PLOT_CLAT].nr_bins > 10);
	plot_rd_fio_free(&f);
	jsonr_free(&ref);
}
END_TEST

/* fio's plain json after its job lines: percentiles, no bins; two jobs. */
START_TEST(test_fio_plain)
{
	struct plot_fio f;
	struct jsonr ref;

	load("fio_plain.json", &f, &ref);
	same(&f, &ref, "jobs");
	ck_assert_uint_eq(f.nr_jobs, 2);
	ck_assert_str_eq(f.job[1].name, "b");
	ck_assert(f.job[1].dir[0].present && f.job[1].dir[1].present);
	ck_assert_uint_eq(f.job[0].dir[0].lat[PLOT_CLAT].nr_pct, 17);
	ck_assert_uint_eq(f.job[0].dir[0].lat[PLOT_CLAT].nr_bins, 0);
	ck_assert_ptr_null(f.global);	/* options on the command line are the jobs' */
	plot_rd_fio_free(&f);
	jsonr_free(&ref);
}
END_TEST

/* fio 3.33's client_stats: two servers (hostname, port), then All clients. */
START_TEST(test_client)
{
	struct plot_fio f;
	struct jsonr ref;

	load("fio_client.json", &f, &ref);
	ck_assert_int_eq(f.kind, PLOT_FIO_CLIENTS);
	same(&f, &ref, "client_stats");
	ck_assert_uint_eq(f.nr_jobs, 3);
	ck_assert_str_eq(f.job[0].host, "127.0.0.1");
	ck_assert(f.job[0].port == 8766 && f.job[1].port == 8765);
	ck_assert(!f.job[0].all_clients && !f.job[1].all_clients && f.job[2].all_clients);
	ck_assert(f.global && f.global->count == 14);	/* the job file's [global], as fio lists it */
	plot_rd_fio_free(&f);
	jsonr_free(&ref);
}
END_TEST

/* iops merge's json+: each input's job and All clients, whose bins are the inputs' sums. */
START_TEST(test_merged)
{
	struct plot_fio f;
	struct jsonr ref;

	load("iops_merged.json", &f, &ref);
	ck_assert_int_eq(f.kind, PLOT_FIO_CLIENTS);
	same(&f, &ref, "client_stats");
	ck_assert(f.job[2].all_clients);
	for (int d = 0; d < 2; d++)
		ck_assert(f.job[2].dir[d].lat[PLOT_CLAT].bins_total ==
			  f.job[0].dir[d].lat[PLOT_CLAT].bins_total + f.job[1].dir[d].lat[PLOT_CLAT].bins_total);
	plot_rd_fio_free(&f);
	jsonr_free(&ref);
}
END_TEST

/* quick: six steps, lat_percentiles=1 */
START_TEST(test_quick)
{
	struct plot_fio f;
	struct jsonr ref;

	load("quick.json", &f, &ref);
	ck_assert_int_eq(f.kind, PLOT_FIO_QUICK);
	ck_assert_str_eq(f.version, "0.1.0");
	same(&f, &ref, "jobs");
	ck_assert_uint_eq(f.nr_jobs, 6);
	ck_assert_str_eq(f.job[2].name, "randread-qd1");
	ck_assert(f.job[2].dir[0].lat[PLOT_LAT].nr_pct == 17 && f.job[2].dir[0].present && !f.job[2].dir[1].present);
	plot_rd_fio_free(&f);
	jsonr_free(&ref);
}
END_TEST

static const struct {
	const char *doc, *why;	/* why: NULL when the document is no fio result at all */
} bad[] = {
	{ "{}", NULL }, { "[1]", NULL }, { "{\"jobs\": 3}", NULL }, { "{\"steps\": []}", NULL },
	{ "{\"jobs\": []}", "without any job" }, { "{\"jobs\": [{}]}", "without a jobname" },
	{ "{\"jobs\": [3]}", "without a jobname" },
	{ "{\"jobs\": [{\"jobname\": \"a\"}]}", "no read or write" },
	{ "{\"jobs\": [{\"jobname\": \"a\", \"read\": 1}]}", "no read or write" },
	{ "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"clat_ns\": {\"percentile\": {\"abc\": 1}}}}]}", "percentile 'abc'" },
	{ "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"clat_ns\": {\"percentile\": {\"101\": 1}}}}]}", "percentile '101'" },
	{ "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"clat_ns\": {\"percentile\": {\"99\": \"x\"}}}}]}", "percentile '99'" },
	{ "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"clat_ns\": {\"bins\": {\"100\": -1}}}}]}", "bin '100'" },
	{ "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"clat_ns\": {\"bins\": {\"x\": 1}}}}]}", "bin 'x'" },
	{ "{\"client_stats\": []}", "without any job" },
};

START_TEST(test_bad)
{
	struct iops_err err = { 0 };
	struct plot_fio f;
	struct jsonr j;

	ck_assert_int_eq(jsonr_parse(&j, bad[_i].doc, strlen(bad[_i].doc), &err), 0);
	if (!bad[_i].why) {
		ck_assert_msg(!plot_rd_fio_is(&j), "'%s' taken for a fio result", bad[_i].doc);
		jsonr_free(&j);
		return;
	}
	ck_assert(plot_rd_fio_is(&j));
	ck_assert_int_eq(plot_rd_fio(&f, &j, "in.json", &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "in.json: ") == err.msg && strstr(err.msg, bad[_i].why), "%s", err.msg);
	ck_assert(f.job == NULL && f.doc.nodes == NULL);	/* nothing left to free */
}
END_TEST

/* Bins out of order still make an ascending curve; fio writes them in order, others may not. */
START_TEST(test_bins_unsorted)
{
	static const char doc[] = "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"total_ios\": 6, \"clat_ns\": {\"N\": 6, "
				  "\"bins\": {\"300\": 1, \"100\": 2, \"200\": 3}}}}]}";
	struct iops_err err = { 0 };
	struct plot_fio f;
	struct jsonr j;
	const struct plot_lat *l;

	ck_assert_int_eq(jsonr_parse(&j, doc, strlen(doc), &err), 0);
	ck_assert_int_eq(plot_rd_fio(&f, &j, "x", &err), 0);
	l = &f.job[0].dir[0].lat[PLOT_CLAT];
	ck_assert(l->nr_bins == 3 && l->bin_v[0] == 100 && l->bin_n[0] == 2 && l->bin_v[2] == 300 && l->bins_total == 6);
	ck_assert_int_eq(plot_rd_fio_pct(l, 99), -1);
	plot_rd_fio_free(&f);
}
END_TEST

Suite *plot_rd_fio_suite(void)
{
	Suite *s = suite_create("plot_rd_fio");
	TCase *t = tcase_create("core");

	tcase_add_test(t, test_fio_plus);
	tcase_add_test(t, test_iops_plus);
	tcase_add_test(t, test_fio_plain);
	tcase_add_test(t, test_client);
	tcase_add_test(t, test_merged);
	tcase_add_test(t, test_quick);
	tcase_add_loop_test(t, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(t, test_bins_unsorted);
	suite_add_tcase(s, t);
	return s;
}
