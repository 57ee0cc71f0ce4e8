/* SPDX-License-Identifier: MIT */
/* Unit tests of the latency target, fill, sequencing, sync_file_range, write_hint and log clock
 * options (lib/fio/conf/opt_apply_lat.c): accepted values and what they set, fio's messages for
 * the bad ones, iops' refusals where fio 3.33 misbehaves, and fill_device's workload check. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fio/conf/opt.h"
#include "fio/conf/opt_apply.h"

struct lopt_case {
	const char *name, *val;
	bool ok;
	const char *last;	/* failures: the last line (NULL: not checked) */
};

static const struct lopt_case lopt_cases[] = {
	{ "latency_target", "10", true, NULL },
	{ "latency_target", "0", true, NULL },
	{ "latency_target", "abc", false, "fio: failed parsing latency_target=abc" },
	{ "latency_target", "", false, NULL },
	{ "latency_target", NULL, false, NULL },
	{ "latency_window", "18446744073709551615", false, NULL },	/* ns overflow */
	{ "latency_percentile", "0", true, NULL },
	{ "latency_percentile", "100", true, NULL },
	{ "latency_percentile", "99.999", true, NULL },
	{ "latency_percentile", "101", false, "fio: failed parsing latency_percentile=101" },
	{ "latency_percentile", "-1", false, "fio: failed parsing latency_percentile=-1" },
	{ "latency_percentile", "abc", false, "fio: failed parsing latency_percentile=abc" },
	{ "latency_percentile", "50:60", true, NULL },	/* fio: "the list exceeding max length 1", 50 kept */
	{ "latency_percentile", "", false, NULL },
	{ "latency_run", "1", true, NULL },
	{ "latency_run", "2", false, "fio: failed parsing latency_run=2" },
	{ "fill_device", "1", true, NULL },
	{ "fill_fs", "0", true, NULL },
	{ "fill_fs", "3", false, NULL },	/* iops names the option fill_device */
	{ "bs_is_seq_rand", "1", true, NULL },
	{ "bs_is_seq_rand", "x", false, NULL },
	{ "rw_sequencer", "sequential", true, NULL },
	{ "rw_sequencer", "identical", true, NULL },
	{ "rw_sequencer", "same", false, "fio: failed parsing rw_sequencer=same" },
	{ "write_barrier", "0", true, NULL },
	{ "write_barrier", "100", true, NULL },
	{ "write_barrier", "-1", true, NULL },	/* fio's 32-bit field: 4294967295 */
	{ "sync_file_range", "write", true, NULL },
	{ "sync_file_range", "wait_before,write,wait_after:8", true, NULL },
	{ "sync_file_range", "write:4294967295", true, NULL },
	{ "sync_file_range", "write:4294967296", false, "fio: failed parsing sync_file_range=write:4294967296" },
	{ "sync_file_range", "write:0", false, "fio: failed parsing sync_file_range=write:0" },
	{ "sync_file_range", "write:abc", false, "fio: failed parsing sync_file_range=write:abc" },
	{ "sync_file_range", "write:", false, NULL },
	{ "sync_file_range", ":4", false, "fio: failed parsing sync_file_range=:4" },
	{ "sync_file_range", "write,,wait_after", false, NULL },
	{ "sync_file_range", "flush", false, "fio: failed parsing sync_file_range=flush" },
	{ "sync_file_range", "", false, "fio: option sync_file_range requires an argument" },
	{ "atomic", "1", true, NULL },
	{ "atomic", "2", false, NULL },
	{ "write_hint", "none", true, NULL },
	{ "write_hint", "extreme", true, NULL },
	{ "write_hint", "forever", false, "fio: failed parsing write_hint=forever" },
	{ "gtod_cpu", "0", true, NULL },
	{ "gtod_cpu", "100000", false, NULL },	/* no such CPU: fio's clock stands still */
	{ "gtod_cpu", "-1", true, NULL },	/* fio: -1, then 1: CPU 1 */
	{ "log_entries", "1024", true, NULL },
	{ "log_entries", "1048576", true, NULL },
	{ "log_entries", "1023", false, "fio: failed parsing log_entries=1023" },
	{ "log_entries", "1048577", false, "fio: failed parsing log_entries=1048577" },
	{ "log_unix_epoch", "1", true, NULL },
	{ "log_alternate_epoch", "1", true, NULL },
	{ "log_alternate_epoch_clock_id", "0", true, NULL },
	{ "log_alternate_epoch_clock_id", "1", true, NULL },
	{ "log_alternate_epoch_clock_id", "99", false, "fio: log_alternate_epoch_clock_id=99: no such clock" },
	{ "log_alternate_epoch_clock_id", "-1", false, NULL },
};

START_TEST(test_lat_options)
{
	const struct lopt_case *c = &lopt_cases[_i];
	const struct opt_def *od = opt_find(c->name);
	struct opt_diag *d = malloc(sizeof(*d));
	struct opt_job oj;
	int ret;

	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(od);
	ck_assert_int_ne(od->type, OPT_T_UNSUPPORTED);
	opt_diag_init(d);
	opt_job_init(&oj);
	ret = opt_apply(&oj, od, c->val, d);
	ck_assert_msg((ret == 0) == c->ok, "%s=%s: %d", c->name, c->val ? c->val : "(null)", ret);
	if (!c->ok) {
		ck_assert_int_eq(ret, -EINVAL);
		ck_assert_uint_ge(d->nr, 1);
		if (c->last)
			ck_assert_str_eq(d->line[d->nr - 1], c->last);
	}
	opt_job_release(&oj);
	free(d);
}
END_TEST

static void apply_ok(struct opt_job *oj, struct opt_diag *d, const char *name, const char *val)
{
	ck_assert_msg(opt_apply(oj, opt_find(name), val, d) == 0, "%s=%s", name, val);
}

START_TEST(test_lat_values)
{
	struct opt_diag *d = malloc(sizeof(*d));
	struct opt_job oj;

	ck_assert_ptr_nonnull(d);
	opt_diag_init(d);
	opt_job_init(&oj);
	/* defaults */
	ck_assert(oj.j.lat_pct == 100.0);
	ck_assert_uint_eq(oj.j.lat_target_ns, 0);
	ck_assert_int_eq(oj.j.gtod_cpu, -1);
	ck_assert_uint_eq(oj.j.log_entries, 1024);
	ck_assert_uint_eq(oj.j.sfr_every, 0);
	apply_ok(&oj, d, "latency_target", "10");	/* usec without a unit */
	ck_assert_uint_eq(oj.j.lat_target_ns, 10000);
	apply_ok(&oj, d, "latency_target", "3ms");
	ck_assert_uint_eq(oj.j.lat_target_ns, 3000000);
	apply_ok(&oj, d, "latency_window", "7");
	ck_assert_uint_eq(oj.j.lat_window_ns, 7000);
	apply_ok(&oj, d, "latency_percentile", "99.5");
	ck_assert(oj.j.lat_pct == 99.5);
	apply_ok(&oj, d, "latency_run", "1");
	ck_assert(oj.j.lat_run);
	apply_ok(&oj, d, "fill_fs", "1");	/* fill_device's alias */
	ck_assert(oj.j.fill_device);
	apply_ok(&oj, d, "rw_sequencer", "identical");
	ck_assert(oj.j.rw_seq_ident);
	apply_ok(&oj, d, "rw_sequencer", "sequential");
	ck_assert(!oj.j.rw_seq_ident);
	apply_ok(&oj, d, "sync_file_range", "wait_before,write,wait_after:8");
	ck_assert_uint_eq(oj.j.sfr_flags, 7);
	ck_assert_uint_eq(oj.j.sfr_every, 8);
	apply_ok(&oj, d, "sync_file_range", "write");
	ck_assert_uint_eq(oj.j.sfr_flags, 2);
	ck_assert_uint_eq(oj.j.sfr_every, 1);	/* fio's default: every write */
	apply_ok(&oj, d, "write_hint", "medium");
	ck_assert_uint_eq(oj.j.write_hint, 3);	/* RWH_WRITE_LIFE_MEDIUM */
	apply_ok(&oj, d, "write_barrier", "16");
	ck_assert_uint_eq(oj.j.write_barrier, 16);
	apply_ok(&oj, d, "log_alternate_epoch_clock_id", "1");
	ck_assert_int_eq(oj.j.log_epoch_clock, 1);
	apply_ok(&oj, d, "gtod_cpu", "0");
	ck_assert_int_eq(oj.j.gtod_cpu, 0);
	opt_job_release(&oj);
	free(d);
}
END_TEST

/* fill_device: rw=write (fill the volume), read and randread (lay out a file filling it, then
 * read it), as fio 3.33; the other modes refused with what fio does with them. */
struct fill_case {
	enum rw_mode rw;
	bool replay;
	bool ok;
};

static const struct fill_case fill_cases[] = {
	{ RW_WRITE, false, true },  { RW_READ, false, true },	    { RW_RANDREAD, false, true },
	{ RW_RANDWRITE, false, false }, { RW_RW, false, false },   { RW_RANDRW, false, false },
	{ RW_TRIM, false, false },  { RW_RANDTRIM, false, false }, { RW_TRIMWRITE, false, false },
	{ RW_WRITE, true, false },  { RW_READ, true, false },
};

START_TEST(test_fill_workload)
{
	const struct fill_case *c = &fill_cases[_i];
	struct opt_diag *d = malloc(sizeof(*d));
	struct opt_job oj;
	int ret;

	ck_assert_ptr_nonnull(d);
	opt_diag_init(d);
	opt_job_init(&oj);
	ck_assert_int_eq(opt_apply_lat_derive(&oj, d), 0);	/* without fill_device: anything */
	oj.j.rw = c->rw;
	oj.j.rw_has_read = c->rw == RW_READ || c->rw == RW_RANDREAD || c->rw == RW_RW || c->rw == RW_RANDRW;
	oj.j.rw_has_write = c->rw != RW_READ && c->rw != RW_RANDREAD && c->rw != RW_TRIM && c->rw != RW_RANDTRIM;
	oj.j.rw_has_trim = c->rw == RW_TRIM || c->rw == RW_RANDTRIM || c->rw == RW_TRIMWRITE;
	oj.j.rw_random = c->rw == RW_RANDREAD || c->rw == RW_RANDWRITE || c->rw == RW_RANDRW || c->rw == RW_RANDTRIM;
	oj.j.fill_device = true;
	oj.j.read_iolog = c->replay ? (char *)"trace" : NULL;
	ret = opt_apply_lat_derive(&oj, d);
	oj.j.read_iolog = NULL;
	ck_assert_int_eq(ret, c->ok ? 0 : -EINVAL);
	if (!c->ok) {
		const char *l = d->line[d->nr - 1];

		ck_assert_ptr_nonnull(strstr(l, "fill_device=1 takes rw=write, read or randread ("));
		/* what fio would do, by mode */
		ck_assert_ptr_nonnull(strstr(l, c->replay			     ? "read_iolog"
						: oj.j.rw_has_trim	     ? "fails its first trim"
						: oj.j.rw_random	     ? "random map"
									     : "writes past the end"));
	}
	opt_job_release(&oj);
	free(d);
}
END_TEST

Suite *opt_apply_lat_suite(void);

Suite *opt_apply_lat_suite(void)
{
	Suite *s = suite_create("opt_apply_lat");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_lat_options, 0, (int)(sizeof(lopt_cases) / sizeof(lopt_cases[0])));
	tcase_add_test(tc, test_lat_values);
	tcase_add_loop_test(tc, test_fill_workload, 0, (int)(sizeof(fill_cases) / sizeof(fill_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}
