/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fio/offset/dist.h"
#include "fio/offset/offgen.h"
#include "runner_testjob.h"

#define K 1024ull

/* ---- bssplit parser -------------------------------------------------------------------- */

struct bss_case {
	const char *val;
	int ret;			/* 0 or -EINVAL */
	const char *msg;		/* first diag line on error (NULL: only the caller's) */
	bool present[DDIR_NR];
	uint64_t lo[DDIR_NR], hi[DDIR_NR];
	const char *read_table;		/* "bs/perc,..." of the read list after sorting, NULL: skip */
};

static const struct bss_case bss_cases[] = {
	{ "4k/10:64k/50:32k/40", 0, NULL, { 1, 1, 1 }, { 4096, 4096, 4096 }, { 65536, 65536, 65536 },
	  "4096/10,32768/40,65536/50" },
	{ "4k/50:8k", 0, NULL, { 1, 1, 1 }, { 4096, 4096, 4096 }, { 8192, 8192, 8192 }, "4096/50,8192/50" },
	{ "4k:8k:16k", 0, NULL, { 1, 1, 1 }, { 4096, 4096, 4096 }, { 16384, 16384, 16384 },
	  "4096/33,8192/33,16384/33" },
	{ "4k/0:8k/100", 0, NULL, { 1, 1, 1 }, { 4096, 4096, 4096 }, { 8192, 8192, 8192 }, "4096/0,8192/100" },
	{ "8k/10:4k/20", 0, NULL, { 1, 1, 1 }, { 4096, 4096, 4096 }, { 8192, 8192, 8192 }, "8192/10,4096/20" },
	{ "4k/20:8k/10", 0, NULL, { 1, 1, 1 }, { 4096, 4096, 4096 }, { 8192, 8192, 8192 }, "8192/10,4096/20" },
	{ "4k/100:8k", 0, NULL, { 1, 1, 1 }, { 4096, 4096, 4096 }, { 8192, 8192, 8192 }, "8192/0,4096/100" },
	{ "4k/50:", 0, NULL, { 1, 1, 1 }, { 4096, 4096, 4096 }, { 4096, 4096, 4096 }, "4096/50" },
	{ "4k/50::8k", 0, NULL, { 1, 1, 1 }, { 4096, 4096, 4096 }, { 4096, 4096, 4096 }, "4096/50" },
	{ "4k/50:8k/50,16k", 0, NULL, { 1, 1, 1 }, { 4096, 16384, 16384 }, { 8192, 16384, 16384 }, NULL },
	{ "4k/50:8k/50,16k,32k", 0, NULL, { 1, 1, 1 }, { 4096, 16384, 32768 }, { 8192, 16384, 32768 }, NULL },
	{ "4k/50:8k/50,,", 0, NULL, { 1, 0, 0 }, { 4096, 0, 0 }, { 8192, 0, 0 }, NULL },
	/* the directions after a trailing ',' are empty lists at the end of the text, not unset
	 * spans (UBSan: an offset applied to an unset pointer; tests/fuzz fio_args) */
	{ "4k/100,", 0, NULL, { 1, 0, 0 }, { 4096, 0, 0 }, { 4096, 0, 0 }, "4096/100" },
	{ ",8k/100,", 0, NULL, { 0, 1, 0 }, { 0, 8192, 0 }, { 0, 8192, 0 }, NULL },
	{ ",4k/50:8k/50", 0, NULL, { 0, 1, 1 }, { 0, 4096, 4096 }, { 0, 8192, 8192 }, NULL },
	{ ":8k/50", 0, NULL, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, NULL },
	{ "1000/50:3000/50", 0, NULL, { 1, 1, 1 }, { 1000, 1000, 1000 }, { 3000, 3000, 3000 }, NULL },
	{ "4k/60:8k:16k:32k/60", -EINVAL, "fio: bssplit percentages add to more than 100%", { 0 }, { 0 }, { 0 }, NULL },
	/* fio takes these (a total above 100, clamped or with a huge blank share): iops refuses */
	{ "4k/60:8k/60", -EINVAL, "fio: bssplit percentages add to more than 100%", { 0 }, { 0 }, { 0 }, NULL },
	{ "4k/60:8k:16k/60", -EINVAL, "fio: bssplit percentages add to more than 100%", { 0 }, { 0 }, { 0 }, NULL },
	{ "4k/101", -EINVAL, "fio: bssplit percentages add to more than 100%", { 0 }, { 0 }, { 0 }, NULL },
	{ "4k/1000001", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
	{ "4k/50:8k/50,,,", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
	{ "abc/10", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
	{ "/10", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
	{ "0/100", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
	{ "1.5k/100", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
	{ "16e/100", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
	{ "4k/abc", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
	{ "4k/-1", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
	{ "4k/99999999999999999999999", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
	{ "", -EINVAL, "fio: split conversion failed", { 0 }, { 0 }, { 0 }, NULL },
};

START_TEST(test_dist_bssplit_parse)
{
	const struct bss_case *c = &bss_cases[_i];
	struct dist_bssplit *s = calloc(DDIR_NR, sizeof(*s));
	bool present[DDIR_NR];
	struct opt_diag d;
	int ret;

	ck_assert_ptr_nonnull(s);
	opt_diag_init(&d);
	ret = dist_bssplit_parse(c->val, 1024, s, present, &d);
	ck_assert_msg(ret == c->ret, "%s: ret %d", c->val, ret);
	if (ret) {
		ck_assert_uint_ge(d.nr, 1);
		ck_assert_str_eq(d.line[0], c->msg);
	} else {
		ck_assert_uint_eq(d.nr, 0);
		for (int i = 0; i < DDIR_NR; i++) {
			ck_assert_msg(present[i] == c->present[i], "%s: dir %d present", c->val, i);
			if (!present[i])
				continue;
			ck_assert_uint_eq(s[i].bs_min, c->lo[i]);
			ck_assert_uint_eq(s[i].bs_max, c->hi[i]);
		}
		if (c->read_table) {
			char buf[256] = "";
			size_t n = 0;

			for (unsigned k = 0; k < s[0].nr; k++)
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%llu/%u", k ? "," : "",
						      (unsigned long long)s[0].e[k].bs, s[0].e[k].perc);
			ck_assert_str_eq(buf, c->read_table);
		}
	}
	free(s);
}
END_TEST

START_TEST(test_dist_bssplit_max_entries)
{
	struct dist_bssplit *s = calloc(DDIR_NR, sizeof(*s));
	bool present[DDIR_NR];
	struct opt_diag d;
	char val[1024] = "";
	size_t n = 0;

	for (int i = 0; i < 65; i++)
		n += (size_t)snprintf(val + n, sizeof(val) - n, "%s%dk/1", i ? ":" : "", i + 1);
	opt_diag_init(&d);
	ck_assert_int_eq(dist_bssplit_parse(val, 1024, s, present, &d), 0);
	ck_assert_uint_eq(s[0].nr, 64);
	ck_assert_uint_eq(s[0].bs_max, 64 * K);
	ck_assert_uint_eq(d.nr, 3);	/* once per direction, as fio */
	ck_assert_str_eq(d.line[0], "fio: hit max of 64 split entries");
	free(s);
}
END_TEST

/* ---- bssplit picks ---------------------------------------------------------------------- */

static void pick_shares(const char *val, uint64_t room, const uint64_t *sizes, const double *want, unsigned nr)
{
	struct dist_bssplit *s = calloc(DDIR_NR, sizeof(*s));
	struct dist_bs_pick p;
	bool present[DDIR_NR];
	uint64_t hits[8] = { 0 };
	struct frand r;
	const unsigned draws = 100000;

	ck_assert_int_eq(dist_bssplit_parse(val, 1024, s, present, NULL), 0);
	dist_bs_pick_init(&p, &s[0], s[0].bs_min, false);
	frand_init(&r, 42, false);
	for (unsigned i = 0; i < draws; i++) {
		uint64_t bs = dist_bs_pick(&p, &r, room);
		bool found = false;

		for (unsigned k = 0; k < nr; k++)
			if (bs == sizes[k]) {
				hits[k]++;
				found = true;
			}
		ck_assert_msg(found, "%s: unexpected size %llu", val, (unsigned long long)bs);
	}
	for (unsigned k = 0; k < nr; k++) {
		double got = (double)hits[k] / draws;

		ck_assert_msg(fabs(got - want[k]) < 0.01, "%s: %llu share %.3f, want %.3f", val,
			      (unsigned long long)sizes[k], got, want[k]);
	}
	free(s);
}

START_TEST(test_dist_bs_pick_shares)
{
	static const uint64_t a[] = { 4096, 32768, 65536 };
	static const double wa[] = { 0.10, 0.40, 0.50 };
	static const uint64_t b[] = { 4096, 8192 };
	static const double w30[] = { 0.30, 0.70 };	/* sum below 100: the rest to the last one */
	static const double w0[] = { 0.0, 1.0 };	/* blank share of nothing */
	static const double wtail[] = { 1.0, 0.0 };	/* only 4k fits */
	static const uint64_t c[] = { 4096 };
	static const double wc[] = { 1.0 };		/* 6k rounds down to the 4k unit */

	pick_shares("4k/10:64k/50:32k/40", 1 << 20, a, wa, 3);
	pick_shares("4k/30:8k/30", 1 << 20, b, w30, 2);
	pick_shares("4k/0:8k/100", 1 << 20, b, w0, 2);
	pick_shares("4k/50:8k/50", 6000, b, wtail, 2);
	pick_shares("4k/50:6k/50", 1 << 20, c, wc, 1);
}
END_TEST

START_TEST(test_dist_bs_pick_nothing_fits)
{
	struct dist_bssplit *s = calloc(DDIR_NR, sizeof(*s));
	struct dist_bs_pick p;
	bool present[DDIR_NR];
	struct frand r;

	/* 4k has no share: 4k of room fits nothing (fio loops forever; we stop) */
	ck_assert_int_eq(dist_bssplit_parse("4k/0:8k/100", 1024, s, present, NULL), 0);
	dist_bs_pick_init(&p, &s[0], 4096, false);
	frand_init(&r, 1, false);
	ck_assert_uint_eq(dist_bs_pick(&p, &r, 4096), 0);
	ck_assert_uint_eq(dist_bs_pick(&p, &r, 0), 0);
	ck_assert_uint_eq(dist_bs_pick(&p, &r, 8192), 8192);
	/* bs_unaligned keeps 6k */
	ck_assert_int_eq(dist_bssplit_parse("4k/0:6k/100", 1024, s, present, NULL), 0);
	dist_bs_pick_init(&p, &s[0], 4096, true);
	ck_assert_uint_eq(dist_bs_pick(&p, &r, 1 << 20), 6144);
	free(s);
}
END_TEST

/* ---- random_distribution parser ----------------------------------------------------------- */

struct rd_case {
	const char *val;
	int ret;
	const char *msg;
	enum dist_kind kind;
	double param, center;
};

static const struct rd_case rd_cases[] = {
	{ "random", 0, NULL, DIST_RANDOM, 0, -1 },
	{ "zipf", 0, NULL, DIST_ZIPF, 1.1, -1 },
	{ "zipf:1.2", 0, NULL, DIST_ZIPF, 1.2, -1 },
	{ "zipf:0.8:0.25", 0, NULL, DIST_ZIPF, 0.8, 0.25 },
	{ "zipf:1.2:-1", 0, NULL, DIST_ZIPF, 1.2, -1 },
	{ "zipf:1.2:1", 0, NULL, DIST_ZIPF, 1.2, 1 },
	{ "pareto", 0, NULL, DIST_PARETO, 0.2, -1 },
	{ "pareto:0.5", 0, NULL, DIST_PARETO, 0.5, -1 },
	{ "normal", 0, NULL, DIST_NORMAL, 0, -1 },
	{ "normal:10:0.5", 0, NULL, DIST_NORMAL, 10, 0.5 },
	{ "zoned:", 0, NULL, DIST_ZONED, 0, -1 },
	{ "zoned:60/10:30/20:10/70", 0, NULL, DIST_ZONED, 0, -1 },
	/* a missing zone size takes what the others leave (fio's conformance example rand-zones) */
	{ "zoned:50/5:30/15:20/", 0, NULL, DIST_ZONED, 0, -1 },
	{ "zoned:50:50/90", 0, NULL, DIST_ZONED, 0, -1 },
	{ "zoned_abs:50/100k:50/924k", 0, NULL, DIST_ZONED_ABS, 0, -1 },
	{ "zipf:1", -EINVAL, "fio: zipf theta must different than 1.0", 0, 0, 0 },
	{ "zipf:-1", -EINVAL, "fio: zipf theta must not be negative", 0, 0, 0 },	/* fio takes it */
	{ "zipf:-0.5:0.5", -EINVAL, "fio: zipf theta must not be negative", 0, 0, 0 },
	{ "pareto:1", -EINVAL, "fio: pareto input out of range (0 < input < 1.0)", 0, 0, 0 },
	{ "pareto:0", -EINVAL, "fio: pareto input out of range (0 < input < 1.0)", 0, 0, 0 },
	{ "normal:100", -EINVAL, "fio: normal deviation out of range (0 <= input < 100.0)", 0, 0, 0 },
	{ "normal:-5", -EINVAL, "fio: normal deviation out of range (0 <= input < 100.0)", 0, 0, 0 },
	{ "normal:10:50", -EINVAL, "fio: distribution center out of range (0 <= center <= 1.0)", 0, 0, 0 },
	{ "zipf:1.2:-0.5", -EINVAL, "fio: distribution center out of range (0 <= center <= 1.0)", 0, 0, 0 },
	{ "zipf:", -EINVAL, "fio: random postfix parsing failed", 0, 0, 0 },
	{ "zipf:abc", -EINVAL, "fio: random postfix parsing failed", 0, 0, 0 },
	/* fio 3.33 reads a parameter's number and not what follows it; a ',' after the word
	 * leaves the default (optdiff seed 1) */
	{ "zipf:1.2x", 0, NULL, DIST_ZIPF, 1.2, -1 },
	{ "zipf:1.2x:0.5m", 0, NULL, DIST_ZIPF, 1.2, 0.5 },
	{ "pareto:0.5:0.1%", 0, NULL, DIST_PARETO, 0.5, 0.1 },
	{ "zipf: 1.2", 0, NULL, DIST_ZIPF, 1.2, -1 },
	{ "zipf:+1.2", 0, NULL, DIST_ZIPF, 1.2, -1 },
	{ "zipf,", 0, NULL, DIST_ZIPF, 1.1, -1 },
	{ "zipf,1", 0, NULL, DIST_ZIPF, 1.1, -1 },
	{ "zipf,:1.3", 0, NULL, DIST_ZIPF, 1.3, -1 },
	{ "normal,/1", 0, NULL, DIST_NORMAL, 0, -1 },
	{ "zipf:1.2,", -EINVAL, "fio: random postfix parsing failed", 0, 0, 0 },
	{ "zipf:1.2:x", -EINVAL, "fio: random postfix parsing failed", 0, 0, 0 },
	{ "zipf:.", -EINVAL, "fio: random postfix parsing failed", 0, 0, 0 },
	{ "zoned,", -EINVAL, NULL, 0, 0, 0 },
	{ "zoned", -EINVAL, "fio: mismatch in zoned input <zoned>", 0, 0, 0 },
	{ "zoned:50/10", -EINVAL, "fio: access percentage don't add up to 100 for zoned random distribution (got=50)",
	  0, 0, 0 },
	{ "zoned:50/10:60/90", -EINVAL, "fio: zone_split percentages add to more than 100%", 0, 0, 0 },
	{ "zoned:50/10:50/100", -EINVAL, "fio: zone_split percentages add to more than 100%", 0, 0, 0 },
	{ "zoned:/10:100/90", -EINVAL, "fio: split conversion failed", 0, 0, 0 },
	{ "zoned:50.5/10:49.5/90", -EINVAL,	/* an access is read as a size: 50 and 49 */
	  "fio: access percentage don't add up to 100 for zoned random distribution (got=99)", 0, 0, 0 },
	{ "zoned_abs:100/abc", -EINVAL, "fio: split conversion failed", 0, 0, 0 },
	{ "foo", -EINVAL, NULL, 0, 0, 0 },
	{ "Zipf:1.2", -EINVAL, NULL, 0, 0, 0 },
	{ "random:5", -EINVAL, NULL, 0, 0, 0 },
	{ "zipf:1.2,pareto:0.5", -EINVAL, "fio: random postfix parsing failed", 0, 0, 0 },
	{ "", -EINVAL, NULL, 0, 0, 0 },
};

START_TEST(test_dist_rand_parse)
{
	const struct rd_case *c = &rd_cases[_i];
	struct dist_rand *r = calloc(1, sizeof(*r));
	struct opt_diag d;
	int ret;

	opt_diag_init(&d);
	ret = dist_rand_parse(c->val, 1024, r, &d);
	ck_assert_msg(ret == c->ret, "%s: ret %d", c->val, ret);
	if (ret) {
		if (c->msg) {
			ck_assert_uint_ge(d.nr, 1);
			ck_assert_str_eq(d.line[0], c->msg);
		} else {
			ck_assert_uint_eq(d.nr, 0);
		}
	} else {
		ck_assert_int_eq(r->kind, c->kind);
		ck_assert_msg(fabs(r->param - c->param) < 1e-12, "%s: param %g", c->val, r->param);
		ck_assert_msg(fabs(r->center - c->center) < 1e-12, "%s: center %g", c->val, r->center);
	}
	free(r);
}
END_TEST

START_TEST(test_dist_zones_per_direction_and_max)
{
	struct dist_rand *r = calloc(1, sizeof(*r));
	struct opt_diag d;
	char *val = malloc(8192);
	size_t n;

	ck_assert_int_eq(dist_rand_parse("zoned:50/10:50/90,100/100", 1024, r, NULL), 0);
	ck_assert_uint_eq(r->nr_zones[0], 2);
	ck_assert_uint_eq(r->nr_zones[1], 1);
	ck_assert_uint_eq(r->nr_zones[2], 1);
	ck_assert_int_eq(dist_rand_parse("zoned_abs:100/1m,,", 1024, r, NULL), 0);
	ck_assert_uint_eq(r->zones[0][0].size, 1 << 20);
	ck_assert_uint_eq(r->nr_zones[1], 0);
	/* 257 zones: fio warns once per direction and keeps the first 256 */
	n = (size_t)snprintf(val, 8192, "zoned:");
	for (int i = 0; i < 256; i++)
		n += (size_t)snprintf(val + n, 8192 - n, "0/0:");
	snprintf(val + n, 8192 - n, "100/100");
	opt_diag_init(&d);
	ck_assert_int_eq(dist_rand_parse(val, 1024, r, &d), -EINVAL);
	ck_assert_str_eq(d.line[0], "fio: hit max of 256 split entries");
	ck_assert_str_eq(d.line[1], "fio: access percentage don't add up to 100 for zoned random distribution (got=0)");
	free(val);
	free(r);
}
END_TEST

/* ---- maths and shares ----------------------------------------------------------------------- */

START_TEST(test_dist_math)
{
	static const double xs[] = { 1e-300, 1e-9, 0.001, 0.5, 0.999, 1, 1.5, 2, 10, 12345.678, 1e300 };

	for (unsigned i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
		ck_assert_msg(fabs(dist_log(xs[i]) - log(xs[i])) < 1e-12 * (1 + fabs(log(xs[i]))), "log %g", xs[i]);
	for (double x = -700; x < 700; x += 13.37)
		ck_assert_msg(fabs(dist_exp(x) / exp(x) - 1) < 1e-12, "exp %g", x);
	ck_assert(dist_exp(-800) == 0);
}
END_TEST

static struct dist_gen *gen_of(const char *val, int dir)
{
	struct dist_rand *r = calloc(1, sizeof(*r));
	struct dist_gen *g = malloc(sizeof(*g));

	ck_assert_int_eq(dist_rand_parse(val, 1024, r, NULL), 0);
	dist_gen_init(g, r, dir);
	free(r);
	return g;
}

START_TEST(test_dist_zoned_shares)
{
	/* 100k draws over 1000 blocks: each zone within +-2% of its share */
	static const struct { const char *val; unsigned nr; uint64_t lo[4], hi[4]; double share[4]; } cases[] = {
		{ "zoned:60/10:30/20:10/70", 3, { 0, 100, 300 }, { 100, 300, 1000 }, { 0.6, 0.3, 0.1 } },
		{ "zoned:50/50:50/50", 2, { 0, 500 }, { 500, 1000 }, { 0.5, 0.5 } },
		{ "zoned:80/20:0/30:20/50", 3, { 0, 200, 500 }, { 200, 500, 1000 }, { 0.8, 0, 0.2 } },
		/* blank sizes share the rest equally (measured with fio 3.33's write_iolog) */
		{ "zoned:50/5:30/15:20/", 3, { 0, 50, 200 }, { 50, 200, 1000 }, { 0.5, 0.3, 0.2 } },
		{ "zoned:50/:50/", 2, { 0, 500 }, { 500, 1000 }, { 0.5, 0.5 } },
		{ "zoned:50/10:25/:25", 3, { 0, 100, 550 }, { 100, 550, 1000 }, { 0.5, 0.25, 0.25 } },
		/* 4 KiB blocks: 400k = blocks 0..99, 1200k = 100..399, the rest never */
		{ "zoned_abs:25/400k:75/1200k", 3, { 0, 100, 400 }, { 100, 400, 1000 }, { 0.25, 0.75, 0 } },
	};

	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct dist_gen *g = gen_of(cases[c].val, DDIR_READ);
		uint64_t hits[4] = { 0 };
		struct rng r;

		rng_init(&r, 7);
		for (unsigned i = 0; i < 100000; i++) {
			uint64_t b = dist_gen_block(g, &r, 1000, 4096);

			ck_assert_uint_lt(b, 1000);
			for (unsigned z = 0; z < cases[c].nr; z++)
				if (b >= cases[c].lo[z] && b < cases[c].hi[z])
					hits[z]++;
		}
		for (unsigned z = 0; z < cases[c].nr; z++)
			ck_assert_msg(fabs((double)hits[z] / 100000 - cases[c].share[z]) < 0.02, "%s zone %u: %.3f",
				      cases[c].val, z, (double)hits[z] / 100000);
		free(g);
	}
}
END_TEST

/* share of the draws on the lowest ranks (center 0: block = rank - 1) */
static double low_share(const char *val, uint64_t n, double frac, unsigned draws)
{
	struct dist_gen *g = gen_of(val, DDIR_READ);
	uint64_t low = 0;
	struct rng r;

	rng_init(&r, 11);
	for (unsigned i = 0; i < draws; i++) {
		uint64_t b = dist_gen_block(g, &r, n, 4096);

		ck_assert_uint_lt(b, n);
		low += b < (uint64_t)(frac * (double)n);
	}
	free(g);
	return (double)low / draws;
}

START_TEST(test_dist_zipf_pareto_normal_shapes)
{
	/* exact zipf(1.2) over 262144 blocks: 95.3% of the accesses on the hottest 10% (fio-genzipf,
	 * with its approximation and sampling, shows 89%); zipf(0.8): 70% on the hottest 20% */
	double z12 = low_share("zipf:1.2:0", 262144, 0.10, 200000);
	double z08 = low_share("zipf:0.8:0", 262144, 0.20, 200000);
	double p02 = low_share("pareto:0.2:0", 100000, 0.20, 200000);
	double n10 = low_share("normal:10:0", 100000, 0.05, 200000);
	double uni = low_share("zipf:0", 100000, 0.10, 200000);
	double hashed = low_share("zipf:1.2", 262144, 0.50, 200000);

	ck_assert_msg(fabs(z12 - 0.953) < 0.01, "zipf:1.2 top 10%%: %.3f", z12);
	ck_assert_msg(fabs(z08 - 0.70) < 0.02, "zipf:0.8 top 20%%: %.3f", z08);
	ck_assert_msg(fabs(p02 - 0.80) < 0.01, "pareto:0.2 top 20%%: %.3f", p02);
	/* normal around block 0 with a 10% deviation: a third of the draws wrap below 0 to the
	 * end, 19% (0..0.5 sigma) land in the first 5% */
	ck_assert_msg(fabs(n10 - 0.19) < 0.02, "normal:10:0 first 5%%: %.3f", n10);
	ck_assert_msg(fabs(uni - 0.10) < 0.01, "zipf:0 (uniform) first 10%%: %.3f", uni);
	/* without a center the hot ranks are scattered over the whole range */
	ck_assert_msg(hashed > 0.2 && hashed < 0.8, "zipf:1.2 hashed first half: %.3f", hashed);
}
END_TEST

START_TEST(test_dist_center_and_determinism)
{
	struct dist_gen *g = gen_of("zipf:1.5:0.25", DDIR_READ), *n = gen_of("normal:1:0.75", DDIR_READ);
	struct rng r, r2;
	uint64_t at_center = 0, near = 0;

	rng_init(&r, 3);
	for (unsigned i = 0; i < 10000; i++) {
		if (dist_gen_block(g, &r, 1000, 4096) == 250)
			at_center++;	/* rank 1 sits at the center */
		uint64_t b = dist_gen_block(n, &r, 1000, 4096);

		if (b >= 720 && b < 780)
			near++;
	}
	ck_assert_uint_gt(at_center, 3000);
	ck_assert_uint_gt(near, 9900);
	/* same seed, same blocks */
	rng_init(&r, 99);
	rng_init(&r2, 99);
	for (unsigned i = 0; i < 1000; i++)
		ck_assert_uint_eq(dist_gen_block(g, &r, 1 << 20, 4096), dist_gen_block(g, &r2, 1 << 20, 4096));
	free(g);
	free(n);
}
END_TEST

/* ---- through offgen ------------------------------------------------------------------------- */

struct og_case {
	const char *what;
	enum rw_mode rw;
	const char *bssplit, *dist;
	bool norandommap;
	uint64_t size;
	uint64_t want_bytes;	/* measured with fio 3.33 */
	uint64_t want_ios;	/* 0: not deterministic */
};

static const struct og_case og_cases[] = {
	{ "seq 4k/50:64k/50 1028k", RW_READ, "4k/50:64k/50", NULL, false, 1028 * K, 1052672, 0 },
	{ "rand 4k/50:64k/50 1028k", RW_RANDREAD, "4k/50:64k/50", NULL, false, 1028 * K, 1052672, 0 },
	{ "seq 8k/50:12k/50 1028k", RW_WRITE, "8k/50:12k/50", NULL, false, 1028 * K, 1048576, 128 },
	{ "rand 8k/50:12k/50 norandommap", RW_RANDREAD, "8k/50:12k/50", NULL, true, 1028 * K, 1056768, 129 },
	{ "seq 4k/50:6k/50 1100k", RW_READ, "4k/50:6k/50", NULL, false, 1100 * K, 1126400, 275 },
	{ "randrw 64k/90:4k/10 1100k", RW_RANDRW, "64k/90:4k/10", NULL, false, 1100 * K, 1126400, 0 },
	{ "seq 4k/0:8k/100 1028k (fio hangs)", RW_WRITE, "4k/0:8k/100", NULL, false, 1028 * K, 1048576, 128 },
	{ "zipf 1m", RW_RANDREAD, NULL, "zipf:1.2", false, 1 << 20, 1 << 20, 256 },
	{ "zoned 1m", RW_RANDWRITE, NULL, "zoned:50/10:50/90", false, 1 << 20, 1 << 20, 256 },
	{ "normal 1m", RW_RANDRW, NULL, "normal:10", false, 1 << 20, 1 << 20, 256 },
};

START_TEST(test_dist_offgen_totals)
{
	const struct og_case *c = &og_cases[_i];
	struct dist_bssplit *s = calloc(DDIR_NR, sizeof(*s));
	struct iops_err err = { 0 };
	uint64_t start = 0, len = c->size, bytes = 0, ios = 0;
	struct offgen_io io;
	struct offgen og;
	bool present[DDIR_NR];
	struct job j;

	testjob_init(&j, c->rw);
	j.norandommap = c->norandommap;
	j.bssplit = (char *)c->bssplit;
	j.random_distribution = (char *)c->dist;
	if (c->bssplit) {
		ck_assert_int_eq(dist_bssplit_parse(c->bssplit, 1024, s, present, NULL), 0);
		for (int d = 0; d < DDIR_NR; d++) {
			j.bs_min[d] = s[d].bs_min;
			j.bs_max[d] = s[d].bs_max;
		}
	}
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, c->size, &err), 0);
	while (offgen_next(&og, &io)) {
		ck_assert_msg(io.offset + io.len <= c->size, "%s: beyond the range", c->what);
		ck_assert_uint_eq(io.offset % 4096, 0);
		bytes += io.len;
		ios++;
		ck_assert(ios < 100000);
	}
	ck_assert_msg(bytes == c->want_bytes, "%s: %llu bytes", c->what, (unsigned long long)bytes);
	if (c->want_ios)
		ck_assert_msg(ios == c->want_ios, "%s: %llu ios", c->what, (unsigned long long)ios);
	offgen_release(&og);
	free(s);
}
END_TEST

START_TEST(test_dist_offgen_zoned_abs_too_big)
{
	struct iops_err err = { 0 };
	uint64_t start = 0, len = 1 << 20;
	struct offgen og;
	struct job j;

	testjob_init(&j, RW_RANDREAD);
	j.random_distribution = (char *)"zoned_abs:50/100k:50/2m";
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "fio: zoned_abs sizes exceed file size");
	/* sequential jobs ignore the distribution */
	testjob_init(&j, RW_READ);
	j.random_distribution = (char *)"zoned_abs:50/100k:50/2m";
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	offgen_release(&og);
}
END_TEST

Suite *dist_suite(void)
{
	Suite *s = suite_create("dist");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_dist_bssplit_parse, 0, (int)(sizeof(bss_cases) / sizeof(bss_cases[0])));
	tcase_add_test(tc, test_dist_bssplit_max_entries);
	tcase_add_test(tc, test_dist_bs_pick_shares);
	tcase_add_test(tc, test_dist_bs_pick_nothing_fits);
	tcase_add_loop_test(tc, test_dist_rand_parse, 0, (int)(sizeof(rd_cases) / sizeof(rd_cases[0])));
	tcase_add_test(tc, test_dist_zones_per_direction_and_max);
	tcase_add_test(tc, test_dist_math);
	tcase_add_test(tc, test_dist_zoned_shares);
	tcase_add_test(tc, test_dist_zipf_pareto_normal_shapes);
	tcase_add_test(tc, test_dist_center_and_determinism);
	tcase_add_loop_test(tc, test_dist_offgen_totals, 0, (int)(sizeof(og_cases) / sizeof(og_cases[0])));
	tcase_add_test(tc, test_dist_offgen_zoned_abs_too_big);
	suite_add_tcase(s, tc);
	return s;
}
