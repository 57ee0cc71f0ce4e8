/* SPDX-License-Identifier: MIT */
/* Unit tests of the engine table (lib/engine/engine.c) and of the contract every engine keeps,
 * against real temporary files: data round trips at several depths, buffered and O_DIRECT,
 * batching, BUSY, timeouts, short transfers, syncs, error paths. The engine files' own
 * behaviour: check_engine_null.c, check_engine_libaio.c, check_engine_uring.c. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine_rig.h"

/* ---- engine table ----------------------------------------------------------------------- */

START_TEST(test_find_and_names)
{
	char names[512];
	size_t len = 0;

	for (size_t i = 0; i < NR(all_engines); i++) {
		const struct engine_ops *ops = engine_find(all_engines[i]);

		ck_assert_msg(ops != NULL, "%s", all_engines[i]);
		ck_assert_str_eq(ops->name, all_engines[i]);
		ck_assert(ops->init && ops->queue && ops->cleanup);
		if (ops->flags & ENGINE_F_SYNC)
			ck_assert(!ops->commit && !ops->reap);
		else
			ck_assert(ops->commit && ops->reap);
		/* the list for error messages names exactly the table, in order */
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
					all_engines[i]);
		ck_assert_uint_lt(len, sizeof(names));
	}
	for (size_t i = 0; i < NR(extra_engines); i++) {
		const struct engine_ops *ops = engine_find(extra_engines[i]);

		ck_assert_msg(ops != NULL, "%s", extra_engines[i]);
		ck_assert_str_eq(ops->name, extra_engines[i]);
		ck_assert(ops->init && ops->queue && ops->cleanup);
		ck_assert(ops->flags & ENGINE_F_SYNC);	/* all of them complete in queue() */
		ck_assert(!ops->commit && !ops->reap);
		len += (size_t)snprintf(names + len, sizeof(names) - len, ", %s", extra_engines[i]);
		ck_assert_uint_lt(len, sizeof(names));
	}
	ck_assert_str_eq(engine_names(), names);
	ck_assert(strncmp(engine_names(), "libaio, io_uring, posixaio, psync, sync, pvsync, pvsync2, null", 62) == 0);
	ck_assert(engine_find("filecreate")->flags & ENGINE_F_PATHS);
	ck_assert(engine_find("net")->flags & ENGINE_F_STREAM);
	ck_assert_ptr_null(engine_find("windowsaio"));
	ck_assert_ptr_null(engine_find("LIBAIO"));
	ck_assert_ptr_null(engine_find(""));
	ck_assert_ptr_null(engine_find("libaio "));
	ck_assert_ptr_null(engine_find(NULL));
	ck_assert(engine_find("null")->flags & ENGINE_F_DISKLESS);
	ck_assert(engine_find("psync")->flags & ENGINE_F_SYNC);
	ck_assert(engine_find("sync")->flags & ENGINE_F_SYNC);
	ck_assert(engine_find("pvsync")->flags & ENGINE_F_SYNC);
	ck_assert(engine_find("pvsync2")->flags & ENGINE_F_SYNC);
	ck_assert(!(engine_find("libaio")->flags & (ENGINE_F_DISKLESS | ENGINE_F_SYNC)));
	ck_assert(!(engine_find("io_uring")->flags & (ENGINE_F_DISKLESS | ENGINE_F_SYNC)));
}
END_TEST

/* ---- data round trip: engine x depth x direct ------------------------------------------- */

START_TEST(test_roundtrip)
{
	unsigned e = (unsigned)_i / (NR(depths) * 2), d = ((unsigned)_i / 2) % NR(depths);
	bool direct = _i % 2;
	const char *name = file_engines[e];
	size_t total = (size_t)NR_BLOCKS * BS;
	unsigned char *wbuf, *rbuf, *check;
	struct rig rig;
	int fd;
	ssize_t n;

	if (rig_engine_missing(name) || (direct && !rig_direct_ok()))
		return;
	wbuf = aligned_buf(total);
	rbuf = aligned_buf(total);
	check = aligned_buf(total);
	fd = temp_file(total, direct);
	for (unsigned b = 0; b < NR_BLOCKS; b++)
		fill_block(wbuf + (size_t)b * BS, b);
	rig_init(&rig, name, depths[d]);
	run_ios(&rig, IO_WRITE, fd, wbuf, NR_BLOCKS);
	/* what landed on the file, read without the engine */
	n = pread(fd, check, total, 0);
	ck_assert_int_eq(n, (ssize_t)total);
	ck_assert_msg(!memcmp(check, wbuf, total), "%s depth %u direct %d: file content differs",
		      name, depths[d], direct);
	/* and read back through the engine */
	run_ios(&rig, IO_READ, fd, rbuf, NR_BLOCKS);
	ck_assert_msg(!memcmp(rbuf, wbuf, total), "%s depth %u direct %d: read back differs",
		      name, depths[d], direct);
	rig_release(&rig);
	close(fd);
	free(wbuf);
	free(rbuf);
	free(check);
}
END_TEST

/* ---- async mechanics -------------------------------------------------------------------- */

/* depth 4: four QUEUED, the fifth BUSY, still BUSY after commit, free again after reap. */
START_TEST(test_busy_when_full)
{
	const char *name = async_engines[_i];
	unsigned char *buf;
	struct io_req extra = { .index = 0 };
	unsigned got = 0;
	struct rig rig;
	int fd;

	if (rig_engine_missing(name))
		return;
	buf = aligned_buf(8 * BS);
	fd = temp_file(8 * BS, false);
	rig_init(&rig, name, 4);
	for (unsigned i = 0; i < 4; i++) {
		set_req(&rig.reqs[i], IO_WRITE, fd, buf + i * BS, BS, (uint64_t)i * BS);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[i]), ENGINE_QUEUED);
	}
	set_req(&extra, IO_WRITE, fd, buf + 4 * BS, BS, 4 * BS);
	extra.engine_data = rig.reqs[0].engine_data;
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &extra), ENGINE_BUSY);
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 4);
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &extra), ENGINE_BUSY);
	while (got < 4) {
		int n = rig.ops->reap(rig.ctx, 1, 4, NULL, rig.out);

		ck_assert_int_ge(n, 1);
		for (int i = 0; i < n; i++)
			ck_assert_int_eq(rig.out[i]->result, BS);
		got += (unsigned)n;
	}
	ck_assert_uint_eq(got, 4);
	/* a request slot is free again */
	set_req(&rig.reqs[0], IO_WRITE, fd, buf, BS, 0);
	ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_QUEUED);
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 4, NULL, rig.out), 1);
	ck_assert_ptr_eq(rig.out[0], &rig.reqs[0]);
	rig_release(&rig);
	close(fd);
	free(buf);
}
END_TEST

/* A partial batch (3 of depth 8) commits and reaps as 3; reap honours max. */
START_TEST(test_partial_batch_and_max)
{
	const char *name = async_engines[_i];
	unsigned char *buf;
	bool seen[3] = { false, false, false };
	unsigned got = 0;
	struct rig rig;
	int fd;

	if (rig_engine_missing(name))
		return;
	buf = aligned_buf(8 * BS);
	fd = temp_file(8 * BS, false);
	rig_init(&rig, name, 8);
	for (unsigned i = 0; i < 3; i++) {
		set_req(&rig.reqs[i], IO_READ, fd, buf + i * BS, BS, (uint64_t)i * BS);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[i]), ENGINE_QUEUED);
	}
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 3);
	/* nothing more to commit */
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 0);
	while (got < 3) {
		int n = rig.ops->reap(rig.ctx, 1, 1, NULL, rig.out);	/* max 1 */

		ck_assert_int_eq(n, 1);
		ck_assert_uint_lt(rig.out[0]->index, 3);
		ck_assert(!seen[rig.out[0]->index]);
		seen[rig.out[0]->index] = true;
		ck_assert_int_eq(rig.out[0]->result, BS);
		got++;
	}
	rig_release(&rig);
	close(fd);
	free(buf);
}
END_TEST

/* reap with a timeout returns 0 at once when nothing is in flight, even with min > 0. */
START_TEST(test_reap_timeout_nothing_inflight)
{
	const char *name = async_engines[_i];
	struct timespec zero = { 0, 0 }, short_ts = { 0, 20000000 };
	struct rig rig;
	uint64_t t0;

	if (rig_engine_missing(name))
		return;
	rig_init(&rig, name, 4);
	t0 = now_ns();
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 0, 4, &zero, rig.out), 0);
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 4, &zero, rig.out), 0);
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 4, &short_ts, rig.out), 0);
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 4, 4, NULL, rig.out), 0);	/* no hang */
	ck_assert_uint_lt(now_ns() - t0, 1000000000u);
	rig_release(&rig);
}
END_TEST

/* Non-blocking poll (min 0) eventually returns what completed. */
START_TEST(test_reap_poll)
{
	const char *name = async_engines[_i];
	unsigned char *buf;
	struct timespec zero = { 0, 0 };
	unsigned got = 0, loops = 0;
	struct rig rig;
	int fd;

	if (rig_engine_missing(name))
		return;
	buf = aligned_buf(4 * BS);
	fd = temp_file(4 * BS, false);
	rig_init(&rig, name, 4);
	for (unsigned i = 0; i < 4; i++) {
		set_req(&rig.reqs[i], IO_READ, fd, buf + i * BS, BS, (uint64_t)i * BS);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[i]), ENGINE_QUEUED);
	}
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 4);
	while (got < 4 && loops++ < 1000000) {
		int n = rig.ops->reap(rig.ctx, 0, 4, &zero, rig.out);

		ck_assert_int_ge(n, 0);
		got += (unsigned)n;
	}
	ck_assert_uint_eq(got, 4);
	rig_release(&rig);
	close(fd);
	free(buf);
}
END_TEST

/* libaio and io_uring stamp issue_ns at commit (ENGINE_F_SETS_ISSUE). */
START_TEST(test_sets_issue)
{
	const char *name = _i ? "io_uring" : "libaio";
	unsigned char *buf;
	struct rig rig;
	uint64_t t0, t1;
	int fd;

	if (rig_engine_missing(name))
		return;
	buf = aligned_buf(2 * BS);
	fd = temp_file(2 * BS, false);
	rig_init(&rig, name, 2);
	ck_assert(rig.ops->flags & ENGINE_F_SETS_ISSUE);
	for (unsigned i = 0; i < 2; i++) {
		set_req(&rig.reqs[i], IO_READ, fd, buf + i * BS, BS, (uint64_t)i * BS);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[i]), ENGINE_QUEUED);
		ck_assert_uint_eq(rig.reqs[i].issue_ns, 0);
	}
	t0 = now_ns();
	ck_assert_int_eq(rig.ops->commit(rig.ctx), 2);
	t1 = now_ns();
	for (unsigned i = 0; i < 2; i++) {
		ck_assert_uint_ge(rig.reqs[i].issue_ns, t0);
		ck_assert_uint_le(rig.reqs[i].issue_ns, t1);
	}
	ck_assert_int_eq(rig.ops->reap(rig.ctx, 2, 2, NULL, rig.out), 2);
	rig_release(&rig);
	close(fd);
	free(buf);
}
END_TEST

/* cleanup() with requests in flight returns only once they are done: the runner frees the
 * buffers right after. Reads of zeros into 0xaa-filled buffers must have landed. */
START_TEST(test_cleanup_drains_inflight)
{
	const char *name = _i ? "io_uring" : "libaio";
	size_t total = (size_t)MAX_DEPTH * BS;
	unsigned char *buf;
	struct rig rig;
	int fd;

	if (rig_engine_missing(name))
		return;
	buf = aligned_buf(total);
	fd = temp_file(total, rig_direct_ok());	/* buffered, the reads may be done at submission */
	memset(buf, 0xaa, total);
	rig_init(&rig, name, MAX_DEPTH);
	for (unsigned i = 0; i < MAX_DEPTH; i++) {
		set_req(&rig.reqs[i], IO_READ, fd, buf + (size_t)i * BS, BS, (uint64_t)i * BS);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[i]), ENGINE_QUEUED);
	}
	ck_assert_int_eq(rig.ops->commit(rig.ctx), (int)MAX_DEPTH);
	rig_release(&rig);
	for (size_t i = 0; i < total; i++)
		ck_assert_msg(buf[i] == 0, "%s: byte %zu not read yet at cleanup", name, i);
	close(fd);
	free(buf);
}
END_TEST

/* ---- short transfers, syncs, errors ------------------------------------------------------ */

/* Reading 4096 bytes where only 100 remain reports 100; at EOF reports 0. */
START_TEST(test_short_read)
{
	const char *name = file_engines[_i];
	unsigned char *buf;
	struct rig rig;
	int ret, fd;

	if (rig_engine_missing(name))
		return;
	buf = aligned_buf(BS);
	fd = temp_file(BS + 100, false);
	rig_init(&rig, name, 2);
	for (unsigned pass = 0; pass < 2; pass++) {
		uint64_t off = pass ? 2 * BS : BS;
		int64_t want = pass ? 0 : 100;

		set_req(&rig.reqs[0], IO_READ, fd, buf, BS, off);
		ret = rig.ops->queue(rig.ctx, &rig.reqs[0]);
		if (ret == ENGINE_QUEUED) {
			ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
			ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 2, NULL, rig.out), 1);
		} else {
			ck_assert_int_eq(ret, ENGINE_DONE);
		}
		ck_assert_int_eq(rig.reqs[0].result, want);
	}
	rig_release(&rig);
	close(fd);
	free(buf);
}
END_TEST

/* fsync / fdatasync complete with 0, through whatever path the engine uses. */
START_TEST(test_sync_ops)
{
	const char *name = file_engines[_i];
	unsigned char *buf;
	struct rig rig;
	int fd;

	if (rig_engine_missing(name))
		return;
	buf = aligned_buf(8 * BS);
	fd = temp_file(8 * BS, false);
	rig_init(&rig, name, 4);
	for (unsigned k = 0; k < 2; k++) {
		enum io_op op = k ? IO_FDATASYNC : IO_FSYNC;
		struct io_req *sync_req = &rig.reqs[3];
		unsigned uncommitted = 0, inflight = 0, nr_busy = 0;

		/* three writes, the first two committed (in flight), the third only stashed */
		for (unsigned i = 0; i < 3; i++) {
			int ret;

			set_req(&rig.reqs[i], IO_WRITE, fd, buf + i * BS, BS, (uint64_t)i * BS);
			ret = rig.ops->queue(rig.ctx, &rig.reqs[i]);
			if (ret == ENGINE_QUEUED)
				uncommitted++;
			else
				ck_assert_int_eq(ret, ENGINE_DONE);
			if (i == 1 && uncommitted) {
				ck_assert_int_eq(rig.ops->commit(rig.ctx), (int)uncommitted);
				inflight += uncommitted;
				uncommitted = 0;
			}
		}
		set_req(sync_req, op, fd, NULL, 0, 0);
		for (;;) {
			int s = rig.ops->queue(rig.ctx, sync_req);

			if (s == ENGINE_DONE) {
				/* a synchronous sync comes after every write it covers */
				for (unsigned i = 0; i < 3; i++)
					ck_assert_int_eq(rig.reqs[i].result, BS);
				break;
			}
			if (s == ENGINE_QUEUED) {
				uncommitted++;
				break;
			}
			ck_assert_int_eq(s, ENGINE_BUSY);
			ck_assert_uint_lt(++nr_busy, 10);
			if (uncommitted) {
				ck_assert_int_eq(rig.ops->commit(rig.ctx), (int)uncommitted);
				inflight += uncommitted;
				uncommitted = 0;
			} else {
				int n;

				ck_assert_uint_gt(inflight, 0);
				n = rig.ops->reap(rig.ctx, (unsigned)inflight, 4, NULL, rig.out);
				ck_assert_int_ge(n, 1);
				inflight -= (unsigned)n;
			}
		}
		if (uncommitted) {
			ck_assert_int_eq(rig.ops->commit(rig.ctx), (int)uncommitted);
			inflight += uncommitted;
		}
		while (inflight) {
			int n = rig.ops->reap(rig.ctx, 1, 4, NULL, rig.out);

			ck_assert_int_ge(n, 1);
			for (int i = 0; i < n; i++)
				if (rig.out[i] == sync_req)	/* io_uring: drained behind the writes */
					for (unsigned w = 0; w < 3; w++)
						ck_assert_int_eq(rig.reqs[w].result, BS);
			inflight -= (unsigned)n;
		}
		for (unsigned i = 0; i < 3; i++)
			ck_assert_int_eq(rig.reqs[i].result, BS);
		ck_assert_int_eq(sync_req->result, 0);
	}
	rig_release(&rig);
	close(fd);
	free(buf);
}
END_TEST

/* A closed descriptor: the request completes with -EBADF, except through libaio, where
 * io_submit stops at the bad iocb and fails the call: the requests before it are submitted, the
 * next commit returns -EBADF (fio's "io commit" error) and the rest is the caller's again. */
START_TEST(test_bad_fd)
{
	const char *name = file_engines[_i];
	unsigned char *buf;
	unsigned got = 0;
	struct rig rig;
	int bad, fd;

	if (rig_engine_missing(name))
		return;
	buf = aligned_buf(3 * BS);
	fd = temp_file(3 * BS, false);
	rig_init(&rig, name, 4);	/* first: io_uring's ring fd must not take the bad number */
	bad = dup(fd);
	close(bad);
	/* good, bad, good in one batch: the good ones must still complete */
	for (unsigned i = 0; i < 3; i++) {
		int ret;

		set_req(&rig.reqs[i], IO_READ, i == 1 ? bad : fd, buf + i * BS, BS, (uint64_t)i * BS);
		ret = rig.ops->queue(rig.ctx, &rig.reqs[i]);
		if (ret == ENGINE_DONE)
			got++;
		else
			ck_assert_int_eq(ret, ENGINE_QUEUED);
	}
	if (got < 3 && !strcmp(name, "libaio")) {
		ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
		ck_assert_int_eq(rig.ops->commit(rig.ctx), -EBADF);
		ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 4, NULL, rig.out), 1);
		ck_assert_ptr_eq(rig.out[0], &rig.reqs[0]);
		ck_assert_int_eq(rig.reqs[0].result, BS);
		/* nothing is left in the engine: a commit has nothing to send */
		ck_assert_int_eq(rig.ops->commit(rig.ctx), 0);
	} else {
		if (got < 3) {
			ck_assert_int_eq(rig.ops->commit(rig.ctx), 3);
			while (got < 3) {
				int n = rig.ops->reap(rig.ctx, 1, 4, NULL, rig.out);

				ck_assert_int_ge(n, 1);
				got += (unsigned)n;
			}
		}
		ck_assert_int_eq(rig.reqs[0].result, BS);
		ck_assert_int_eq(rig.reqs[1].result, -EBADF);
		ck_assert_int_eq(rig.reqs[2].result, BS);
	}
	/* bad fd first in its batch (libaio: io_submit returns the error instead of a count) */
	set_req(&rig.reqs[0], IO_WRITE, bad, buf, BS, 0);
	if (rig.ops->queue(rig.ctx, &rig.reqs[0]) == ENGINE_QUEUED) {
		if (!strcmp(name, "libaio")) {
			ck_assert_int_eq(rig.ops->commit(rig.ctx), -EBADF);
			rig.reqs[0].result = -EBADF;	/* the caller fails it */
		} else {
			ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
			ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 4, NULL, rig.out), 1);
		}
	}
	ck_assert_int_eq(rig.reqs[0].result, -EBADF);
	/* fsync on a bad fd */
	set_req(&rig.reqs[0], IO_FSYNC, bad, NULL, 0, 0);
	if (rig.ops->queue(rig.ctx, &rig.reqs[0]) == ENGINE_QUEUED) {
		ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
		ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 4, NULL, rig.out), 1);
	}
	ck_assert_int_eq(rig.reqs[0].result, -EBADF);
	rig_release(&rig);
	close(fd);
	free(buf);
}
END_TEST

/* O_DIRECT with a 1000-byte transfer (fio's bs=1000 case): the engine passes on what the kernel
 * answers a plain pread of it (-EINVAL where the file system checks the alignment; tmpfs reads
 * it). */
START_TEST(test_direct_misaligned)
{
	const char *name = file_engines[_i];
	unsigned char *buf;
	struct rig rig;
	int64_t want;
	ssize_t k;
	int fd;

	if (rig_engine_missing(name) || !rig_direct_ok())
		return;
	buf = aligned_buf(2 * BS);
	fd = temp_file(2 * BS, true);
	k = pread(fd, buf, 1000, 0);
	want = k < 0 ? -(int64_t)errno : (int64_t)k;
	rig_init(&rig, name, 2);
	set_req(&rig.reqs[0], IO_READ, fd, buf, 1000, 0);
	if (rig.ops->queue(rig.ctx, &rig.reqs[0]) == ENGINE_QUEUED) {
		ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
		ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 2, NULL, rig.out), 1);
	}
	ck_assert_int_eq(rig.reqs[0].result, want);
	rig_release(&rig);
	close(fd);
	free(buf);
}
END_TEST

/* An unknown op or an impossible offset completes with -EINVAL at once. */
START_TEST(test_invalid_request)
{
	const char *name = all_engines[_i];
	unsigned char buf[16];
	struct rig rig;

	if (rig_engine_missing(name))
		return;
	rig_init(&rig, name, 2);
	set_req(&rig.reqs[0], (enum io_op)77, 0, buf, sizeof(buf), 0);
	if (rig.ops->queue(rig.ctx, &rig.reqs[0]) == ENGINE_QUEUED) {	/* null at depth 2 */
		ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
		ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 2, NULL, rig.out), 1);
	}
	ck_assert_int_eq(rig.reqs[0].result, -EINVAL);
	if (strcmp(name, "null")) {
		set_req(&rig.reqs[0], IO_READ, 0, buf, sizeof(buf), UINT64_MAX - 4);
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[0]), ENGINE_DONE);
		ck_assert_int_eq(rig.reqs[0].result, -EINVAL);
	}
	rig_release(&rig);
}
END_TEST

/* Absurd depths are refused with a message instead of a huge allocation. */
START_TEST(test_depth_too_large)
{
	const struct engine_ops *ops = engine_find(async_engines[_i]);
	struct engine_cfg cfg = { .depth = 4000000000u };
	struct iops_err err = { 0 };
	void *ctx = NULL;

	ck_assert_int_eq(ops->init(&cfg, &ctx, &err), -EINVAL);
	ck_assert_ptr_null(ctx);
	ck_assert_msg(strstr(err.msg, "iodepth 4000000000 is too large") != NULL, "%s", err.msg);
}
END_TEST

/* Depth 0 is treated as 1. */
START_TEST(test_depth_zero)
{
	struct rig rig;
	unsigned char buf[8];
	struct engine_cfg cfg = { .depth = 0 };
	struct iops_err err = { 0 };

	if (rig_engine_missing(all_engines[_i]))
		return;
	memset(&rig, 0, sizeof(rig));
	rig.ops = engine_find(all_engines[_i]);
	ck_assert_int_eq(rig.ops->init(&cfg, &rig.ctx, &err), 0);
	if (rig.ops->prep)
		ck_assert_int_eq(rig.ops->prep(rig.ctx, &rig.reqs[0]), 0);
	set_req(&rig.reqs[0], IO_READ, -1, buf, sizeof(buf), 0);
	if (rig.ops->queue(rig.ctx, &rig.reqs[0]) == ENGINE_QUEUED) {
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[1]), ENGINE_BUSY);
		if (!strcmp(all_engines[_i], "libaio")) {	/* io_submit refuses fd -1: a commit error */
			ck_assert_int_eq(rig.ops->commit(rig.ctx), -EBADF);
		} else {
			ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
			ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 1, NULL, rig.out), 1);
		}
	}
	rig_release(&rig);
}
END_TEST

/* ---- many requests through each async engine at full depth, reaping in batches ----------- */

START_TEST(test_stress_batches)
{
	const char *name = async_engines[_i];
	unsigned char *buf;
	struct rig rig;
	int fd;

	if (rig_engine_missing(name))
		return;
	buf = aligned_buf((size_t)NR_BLOCKS * BS);
	fd = temp_file((uint64_t)NR_BLOCKS * BS, rig_direct_ok());	/* buffered where it must */
	rig_init(&rig, name, MAX_DEPTH);
	for (unsigned k = 0; k < 20; k++)
		run_ios(&rig, IO_READ, fd, buf, NR_BLOCKS);
	rig_release(&rig);
	close(fd);
	free(buf);
}
END_TEST

Suite *engine_suite(void);

Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_find_and_names);
	tcase_add_loop_test(tc, test_roundtrip, 0, (int)(NR(file_engines) * NR(depths) * 2));
	tcase_add_loop_test(tc, test_busy_when_full, 0, (int)NR(async_engines));
	tcase_add_loop_test(tc, test_partial_batch_and_max, 0, (int)NR(async_engines));
	tcase_add_loop_test(tc, test_reap_timeout_nothing_inflight, 0, (int)NR(async_engines));
	tcase_add_loop_test(tc, test_reap_poll, 0, (int)NR(async_engines));
	tcase_add_loop_test(tc, test_sets_issue, 0, 2);
	tcase_add_loop_test(tc, test_cleanup_drains_inflight, 0, 2);
	tcase_add_loop_test(tc, test_short_read, 0, (int)NR(file_engines));
	tcase_add_loop_test(tc, test_sync_ops, 0, (int)NR(file_engines));
	tcase_add_loop_test(tc, test_bad_fd, 0, (int)NR(file_engines));
	tcase_add_loop_test(tc, test_direct_misaligned, 0, (int)NR(file_engines));
	tcase_add_loop_test(tc, test_invalid_request, 0, (int)NR(all_engines));
	tcase_add_loop_test(tc, test_depth_too_large, 0, (int)NR(async_engines));
	tcase_add_loop_test(tc, test_depth_zero, 0, (int)NR(all_engines));
	tcase_add_loop_test(tc, test_stress_batches, 0, (int)NR(async_engines));
	suite_add_tcase(s, tc);
	return s;
}
