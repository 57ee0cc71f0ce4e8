/* SPDX-License-Identifier: MIT */
/* Unit tests of io_submit_mode=offload (lib/engine/engine_offload.c): another engine run on a
 * submit thread. Data round trips through file engines at several depths, the BUSY and
 * ordering contract of an async engine whatever the inner engine is, faults of the inner
 * engine passed through, and init failures. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine_rig.h"

static const char *const inner_engines[] = { "null", "psync", "posixaio", "libaio", "sync" };

static void offload_rig_init(struct rig *rig, const char *inner, unsigned depth)
{
	struct engine_cfg cfg = { .depth = depth, .inner = engine_find(inner) };
	struct iops_err err = { 0 };
	int ret;

	memset(rig, 0, sizeof(*rig));
	ck_assert_ptr_nonnull(cfg.inner);
	rig->ops = &engine_offload_ops;
	rig->depth = depth;
	ret = rig->ops->init(&cfg, &rig->ctx, &err);
	ck_assert_msg(ret == 0, "offload(%s) init: %d %s", inner, ret, err.msg);
	for (unsigned i = 0; i < depth; i++) {
		rig->reqs[i].index = i;
		ck_assert_int_eq(rig->ops->prep(rig->ctx, &rig->reqs[i]), 0);
	}
}

/* write then read back through offload(inner), engine x depth */
START_TEST(test_offload_roundtrip)
{
	unsigned e = (unsigned)_i / NR(depths), d = (unsigned)_i % NR(depths);
	const char *inner = inner_engines[e];
	size_t total = (size_t)NR_BLOCKS * BS;
	unsigned char *wbuf, *rbuf, *check;
	struct rig rig;
	int fd;

	if (rig_engine_missing(inner))
		return;
	wbuf = aligned_buf(total);
	rbuf = aligned_buf(total);
	check = aligned_buf(total);
	fd = temp_file(total, false);
	for (unsigned b = 0; b < NR_BLOCKS; b++)
		fill_block(wbuf + (size_t)b * BS, b);
	offload_rig_init(&rig, inner, depths[d]);
	for (unsigned k = 0; k < 3; k++)
		run_ios(&rig, IO_WRITE, fd, wbuf, NR_BLOCKS);
	if (strcmp(inner, "null")) {
		ck_assert_int_eq(pread(fd, check, total, 0), (ssize_t)total);
		ck_assert_msg(!memcmp(check, wbuf, total), "offload(%s) depth %u: file differs", inner, depths[d]);
	}
	run_ios(&rig, IO_READ, fd, rbuf, NR_BLOCKS);
	if (strcmp(inner, "null"))
		ck_assert_msg(!memcmp(rbuf, wbuf, total), "offload(%s) depth %u: read back differs", inner,
			      depths[d]);
	rig_release(&rig);
	close(fd);
	free(wbuf);
	free(rbuf);
	free(check);
}
END_TEST

/* Always async: QUEUED up to depth, then BUSY; nothing comes back before commit; every
 * request comes back exactly once, with its own result. */
START_TEST(test_offload_contract)
{
	const char *inner = inner_engines[_i];
	unsigned char *buf;
	bool seen[4] = { false };
	unsigned got = 0;
	struct rig rig;
	int fd;

	if (rig_engine_missing(inner))
		return;
	buf = aligned_buf(8 * BS);
	fd = temp_file(8 * BS, false);
	offload_rig_init(&rig, inner, 4);
	for (unsigned i = 0; i < 4; i++) {
		set_req(&rig.reqs[i], IO_READ, fd, buf + i * BS, BS - i, (uint64_t)i * BS);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[i]), ENGINE_QUEUED);
	}
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_BUSY);
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 0, 4, NULL, rig.out), 0);	/* not committed */
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 4);
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 0);
	while (got < 4) {
		int n = rig.ops->reap(rig.ctx, 1, 2, NULL, rig.out);

		ck_assert_int_ge(n, 1);
		ck_assert_int_le(n, 2);
		for (int i = 0; i < n; i++) {
			unsigned idx = rig.out[i]->index;

			ck_assert_uint_lt(idx, 4);
			ck_assert_msg(!seen[idx], "request %u came back twice", idx);
			seen[idx] = true;
			ck_assert_int_eq(rig.out[i]->result, (int64_t)(BS - idx));
		}
		got += (unsigned)n;
	}
	/* min above what is outstanding returns at once */
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 3, 4, NULL, rig.out), 0);
	rig_release(&rig);
	close(fd);
	free(buf);
}
END_TEST

/* The inner engine's errors reach the caller's requests: a bad descriptor, a sync, an
 * unknown op. */
START_TEST(test_offload_errors)
{
	const char *inner = inner_engines[1 + _i];	/* the file engines */
	unsigned char buf[BS];
	struct rig rig;
	int fd;

	if (rig_engine_missing(inner))
		return;
	fd = temp_file(BS, false);
	offload_rig_init(&rig, inner, 2);
	set_req(&rig.reqs[0], IO_READ, 1000000, buf, BS, 0);
	set_req(&rig.reqs[1], IO_FSYNC, fd, NULL, 0, 0);
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_QUEUED);
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[1]), ENGINE_QUEUED);
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 2);
	for (unsigned got = 0; got < 2;) {
		int n = rig.ops->reap(rig.ctx, 1, 2, NULL, rig.out);

		ck_assert_int_ge(n, 1);
		got += (unsigned)n;
	}
	ck_assert_int_eq(rig.reqs[0].result, -EBADF);
	ck_assert_int_eq(rig.reqs[1].result, 0);
	set_req(&rig.reqs[0], (enum io_op)77, fd, buf, BS, 0);
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_QUEUED);
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 2, NULL, rig.out), 1);
	ck_assert_int_eq(rig.reqs[0].result, -EINVAL);
	rig_release(&rig);
	close(fd);
}
END_TEST

/* Fault injection of the null engine passes through: every 3rd request fails. */
START_TEST(test_offload_null_faults)
{
	struct rig rig;
	unsigned failed = 0, total = 0;

	setenv("IOPS_NULL_FAIL", "3:28", 1);
	offload_rig_init(&rig, "null", 8);
	unsetenv("IOPS_NULL_FAIL");
	for (unsigned round = 0; round < 300; round++) {
		for (unsigned i = 0; i < 8; i++) {
			set_req(&rig.reqs[i], IO_WRITE, -1, NULL, 512, i);
			ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[i]), ENGINE_QUEUED);
		}
		ck_assert_int_eq(rig.ops->commit(rig.ctx), 8);
		for (unsigned got = 0; got < 8;) {
			int n = rig.ops->reap(rig.ctx, 8 - got, 8, NULL, rig.out);

			ck_assert_int_ge(n, 1);
			for (int i = 0; i < n; i++) {
				if (rig.out[i]->result == -ENOSPC)
					failed++;
				else if (rig.out[i]->result != 512)
					ck_abort_msg("result %lld", (long long)rig.out[i]->result);
			}
			got += (unsigned)n;
			total += (unsigned)n;
		}
	}
	ck_assert_uint_eq(total, 2400);
	ck_assert_uint_eq(failed, 800);
	rig_release(&rig);
}
END_TEST

/* Init: no inner engine, an inner engine that refuses (depth), both with a message. */
START_TEST(test_offload_init_fails)
{
	struct engine_cfg none = { .depth = 4 };
	struct engine_cfg deep = { .depth = 4000000000u, .inner = engine_find("null") };
	struct iops_err err = { 0 };
	void *ctx = NULL;

	ck_assert_int_eq(engine_offload_ops.init(&none, &ctx, &err), -EINVAL);
	ck_assert_ptr_null(ctx);
	ck_assert_msg(strstr(err.msg, "offload") != NULL, "%s", err.msg);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(engine_offload_ops.init(&deep, &ctx, &err), -EINVAL);
	ck_assert_ptr_null(ctx);
	ck_assert_msg(strstr(err.msg, "too large") != NULL, "%s", err.msg);
	ck_assert_ptr_null(engine_find("offload"));	/* not selectable as an engine */
}
END_TEST

/* Requests not prepared through this context are refused. */
START_TEST(test_offload_foreign_request)
{
	struct rig rig;
	struct io_req stray = { .index = 1 };
	struct io_req far = { .index = 99 };

	offload_rig_init(&rig, "null", 2);
	set_req(&stray, IO_READ, -1, NULL, 512, 0);
	set_req(&far, IO_READ, -1, NULL, 512, 0);
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &stray), -EINVAL);
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &far), -EINVAL);
	ck_assert_int_eq(rig.ops->prep(rig.ctx, &far), -EINVAL);
	rig_release(&rig);
}
END_TEST

Suite *engine_offload_suite(void);

Suite *engine_offload_suite(void)
{
	Suite *s = suite_create("engine_offload");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_offload_roundtrip, 0, (int)(NR(inner_engines) * NR(depths)));
	tcase_add_loop_test(tc, test_offload_contract, 0, (int)NR(inner_engines));
	tcase_add_loop_test(tc, test_offload_errors, 0, (int)NR(inner_engines) - 1);
	tcase_add_test(tc, test_offload_null_faults);
	tcase_add_test(tc, test_offload_init_fails);
	tcase_add_test(tc, test_offload_foreign_request);
	suite_add_tcase(s, tc);
	return s;
}
