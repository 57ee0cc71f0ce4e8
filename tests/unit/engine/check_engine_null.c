/* SPDX-License-Identifier: MIT */
/* Unit tests of the null engine (lib/engine/engine_null.c): synchronous at depth 1, its ring
 * at depth 8, and the IOPS_NULL_FAIL fault injection. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine_rig.h"

START_TEST(test_null_depth1_sync)
{
	struct rig rig;

	rig_init(&rig, "null", 1);
	for (unsigned i = 0; i < 1000; i++) {
		set_req(&rig.reqs[0], i % 2 ? IO_WRITE : IO_READ, -1, NULL, 4096 + i, 0);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_DONE);
		ck_assert_int_eq(rig.reqs[0].result, 4096 + i);
	}
	set_req(&rig.reqs[0], IO_FSYNC, -1, NULL, 0, 0);
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_DONE);
	ck_assert_int_eq(rig.reqs[0].result, 0);
	rig_release(&rig);
}
END_TEST

/* depth 8: ring wrap-around over many rounds of uneven batches, FIFO order kept. */
START_TEST(test_null_queue_order)
{
	struct rig rig;
	unsigned next_out = 0, next_in = 0, inflight = 0;

	rig_init(&rig, "null", 8);
	for (unsigned round = 0; round < 500; round++) {
		unsigned batch = 1 + round % 5, qn = 0;

		while (qn < batch && inflight < 8) {
			struct io_req *req = &rig.reqs[next_in % 8];

			set_req(req, IO_READ, -1, NULL, 512, next_in);
			ck_assert_int_eq(rig.ops->queue(rig.ctx, req), ENGINE_QUEUED);
			next_in++;
			qn++;
			inflight++;
		}
		if (inflight == 8) {
			struct io_req spare = { .index = 0 };

			set_req(&spare, IO_READ, -1, NULL, 512, 0);
			ck_assert_int_eq(rig.ops->queue(rig.ctx, &spare), ENGINE_BUSY);
		}
		ck_assert_int_eq(rig.ops->commit(rig.ctx), (int)qn);
		{
			unsigned max = 1 + round % 3;
			int n = rig.ops->reap(rig.ctx, 1, max, NULL, rig.out);

			ck_assert_int_eq(n, (int)(inflight < max ? inflight : max));
			for (int i = 0; i < n; i++) {
				ck_assert_uint_eq(rig.out[i]->offset, next_out);
				ck_assert_int_eq(rig.out[i]->result, 512);
				next_out++;
			}
			inflight -= (unsigned)n;
		}
	}
	rig_release(&rig);
}
END_TEST

/* Uncommitted requests are not reaped. */
START_TEST(test_null_reap_needs_commit)
{
	struct rig rig;

	rig_init(&rig, "null", 4);
	set_req(&rig.reqs[0], IO_READ, -1, NULL, 512, 0);
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_QUEUED);
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 0, 4, NULL, rig.out), 0);
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 0, 4, NULL, rig.out), 1);
	rig_release(&rig);
}
END_TEST

static const struct {
	const char *env;
	unsigned every;		/* 0: init must fail */
	int64_t err;
} fail_cases[] = {
	{ "3", 3, -EIO },
	{ "1", 1, -EIO },
	{ "5:28", 5, -ENOSPC },
	{ "2:4095", 2, -4095 },
	{ "1000000000", 1000000000u, -EIO },
	{ "0", 0, 0 },
	{ "x", 0, 0 },
	{ "-3", 0, 0 },
	{ " 3", 0, 0 },
	{ "3:", 0, 0 },
	{ "3:0", 0, 0 },
	{ "3:4096", 0, 0 },
	{ "3:x", 0, 0 },
	{ "3x", 0, 0 },
	{ "1000000001", 0, 0 },
	{ "99999999999999999999999", 0, 0 },
};

/* IOPS_NULL_FAIL=N[:ERRNO]: every Nth request fails, at depth 1 and depth 8. */
START_TEST(test_null_fault_injection)
{
	unsigned c = (unsigned)_i / 2, depth = _i % 2 ? 8 : 1;
	const struct engine_ops *ops = engine_find("null");
	struct engine_cfg cfg = { .depth = depth };
	struct iops_err err = { 0 };
	struct io_req reqs[8];
	unsigned every = fail_cases[c].every;
	void *ctx = NULL;
	int ret;

	ck_assert_int_eq(setenv("IOPS_NULL_FAIL", fail_cases[c].env, 1), 0);
	ret = ops->init(&cfg, &ctx, &err);
	unsetenv("IOPS_NULL_FAIL");
	if (!every) {
		ck_assert_int_eq(ret, -EINVAL);
		ck_assert_msg(strstr(err.msg, "invalid IOPS_NULL_FAIL") != NULL, "%s", err.msg);
		ck_assert_msg(strstr(err.msg, fail_cases[c].env) != NULL, "%s", err.msg);
		return;
	}
	ck_assert_int_eq(ret, 0);
	memset(reqs, 0, sizeof(reqs));
	for (unsigned i = 1; i <= 64; i++) {
		struct io_req *req = &reqs[(i - 1) % 8];
		int64_t want = (every <= 64 && i % every == 0) ? fail_cases[c].err : 4096;

		set_req(req, IO_WRITE, -1, NULL, 4096, 0);
		ret = ops->queue(ctx, req);
		if (ret == ENGINE_QUEUED) {
			struct io_req *out[8];

			ck_assert_int_eq(ops->commit(ctx), 1);
			ck_assert_int_eq(ops->reap(ctx, 1, 8, NULL, out), 1);
			ck_assert_ptr_eq(out[0], req);
		} else {
			ck_assert_int_eq(ret, ENGINE_DONE);
		}
		ck_assert_msg(req->result == want, "%s: request %u result %lld want %lld",
			      fail_cases[c].env, i, (long long)req->result, (long long)want);
	}
	ops->cleanup(ctx);
}
END_TEST

/* A request refused with BUSY is not counted by the fault injection. */
START_TEST(test_null_fault_skips_busy)
{
	const struct engine_ops *ops = engine_find("null");
	struct engine_cfg cfg = { .depth = 2 };
	struct iops_err err = { 0 };
	struct io_req a, b, c, d, *out[2];
	void *ctx = NULL;

	ck_assert_int_eq(setenv("IOPS_NULL_FAIL", "2", 1), 0);
	ck_assert_int_eq(ops->init(&cfg, &ctx, &err), 0);
	unsetenv("IOPS_NULL_FAIL");
	set_req(&a, IO_READ, -1, NULL, 512, 0);
	set_req(&b, IO_READ, -1, NULL, 512, 0);
	set_req(&c, IO_READ, -1, NULL, 512, 0);
	set_req(&d, IO_READ, -1, NULL, 512, 0);
	ck_assert_int_eq(ops->queue(ctx, &a), ENGINE_QUEUED);
	ck_assert_int_eq(ops->queue(ctx, &b), ENGINE_QUEUED);
	ck_assert_int_eq(ops->queue(ctx, &c), ENGINE_BUSY);
	ck_assert_int_eq(c.result, INT64_MIN);	/* untouched */
	ck_assert_int_eq(ops->commit(ctx), 2);
	ck_assert_int_eq(ops->reap(ctx, 2, 2, NULL, out), 2);
	ck_assert_int_eq(ops->queue(ctx, &c), ENGINE_QUEUED);
	ck_assert_int_eq(ops->queue(ctx, &d), ENGINE_QUEUED);
	ck_assert_int_eq(ops->commit(ctx), 2);
	ck_assert_int_eq(ops->reap(ctx, 2, 2, NULL, out), 2);
	ck_assert_int_eq(a.result, 512);
	ck_assert_int_eq(b.result, -EIO);
	ck_assert_int_eq(c.result, 512);
	ck_assert_int_eq(d.result, -EIO);
	ops->cleanup(ctx);
}
END_TEST

START_TEST(test_null_fault_unset_or_empty)
{
	const struct engine_ops *ops = engine_find("null");
	struct engine_cfg cfg = { .depth = 1 };
	struct iops_err err = { 0 };
	struct io_req req;
	void *ctx = NULL;

	ck_assert_int_eq(setenv("IOPS_NULL_FAIL", "", 1), 0);
	ck_assert_int_eq(ops->init(&cfg, &ctx, &err), 0);
	unsetenv("IOPS_NULL_FAIL");
	for (unsigned i = 0; i < 100; i++) {
		set_req(&req, IO_READ, -1, NULL, 100, 0);
		ck_assert_int_eq(ops->queue(ctx, &req), ENGINE_DONE);
		ck_assert_int_eq(req.result, 100);
	}
	ops->cleanup(ctx);
	ck_assert(!iops_err_isset(&err));
}
END_TEST

Suite *engine_null_suite(void);

Suite *engine_null_suite(void)
{
	Suite *s = suite_create("engine_null");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_null_depth1_sync);
	tcase_add_test(tc, test_null_queue_order);
	tcase_add_test(tc, test_null_reap_needs_commit);
	tcase_add_loop_test(tc, test_null_fault_injection, 0, (int)(NR(fail_cases) * 2));
	tcase_add_test(tc, test_null_fault_skips_busy);
	tcase_add_test(tc, test_null_fault_unset_or_empty);
	suite_add_tcase(s, tc);
	return s;
}
