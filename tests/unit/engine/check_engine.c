/* Unit tests of the I/O engines (lib/engine*.c) against real temporary files: data round
 * trips at several depths, buffered and O_DIRECT, batching, BUSY, timeouts, short transfers,
 * syncs, error paths, the null engine's fault injection, and init failures under seccomp. */
#include <check.h>
#include <errno.h>
#include <liburing.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"

#define BS		4096u
#define NR_BLOCKS	96u
#define MAX_DEPTH	32u

static const char *const all_engines[] = {
	"libaio", "io_uring", "psync", "sync", "pvsync", "null",
};
static const char *const file_engines[] = { "libaio", "io_uring", "psync", "sync", "pvsync" };
static const char *const async_engines[] = { "libaio", "io_uring", "null" };
static const unsigned depths[] = { 1, 4, 32 };

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers ---------------------------------------------------------------------------- */

struct rig {
	const struct engine_ops *ops;
	void *ctx;
	unsigned depth;
	struct io_req reqs[MAX_DEPTH];
	struct io_req *out[MAX_DEPTH];
};

static void rig_init(struct rig *rig, const char *name, unsigned depth)
{
	struct engine_cfg cfg = { .depth = depth, .direct = false };
	struct iops_err err = { 0 };
	int ret;

	memset(rig, 0, sizeof(*rig));
	rig->ops = engine_find(name);
	ck_assert_msg(rig->ops != NULL, "engine %s missing", name);
	rig->depth = depth;
	ret = rig->ops->init(&cfg, &rig->ctx, &err);
	ck_assert_msg(ret == 0, "%s init: %d %s", name, ret, err.msg);
	for (unsigned i = 0; i < depth; i++) {
		rig->reqs[i].index = i;
		if (rig->ops->prep)
			ck_assert_int_eq(rig->ops->prep(rig->ctx, &rig->reqs[i]), 0);
	}
}

static void rig_release(struct rig *rig)
{
	rig->ops->cleanup(rig->ctx);
}

static void set_req(struct io_req *req, enum io_op op, int fd, void *buf, uint64_t len,
		    uint64_t offset)
{
	req->op = op;
	req->fd = fd;
	req->buf = buf;
	req->len = len;
	req->offset = offset;
	req->result = INT64_MIN;
	req->issue_ns = 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A temp file of size bytes (zeros written), already unlinked: nothing is left behind even when
 * a test fails. With direct, a second descriptor opened with O_DIRECT is returned instead. */
static int temp_file(uint64_t size, bool direct)
{
	const char *dir = getenv("TMPDIR");
	char path[512];
	int fd, dfd;

	if (!dir || !*dir)
		dir = "/tmp";
	ck_assert(snprintf(path, sizeof(path), "%s/iops-check-engine-XXXXXX", dir) < (int)sizeof(path));
	fd = mkstemp(path);
	ck_assert_msg(fd >= 0, "mkstemp %s: %s", path, strerror(errno));
	dfd = direct ? open(path, O_RDWR | O_DIRECT) : -1;
	unlink(path);	/* before any assertion can end the test */
	ck_assert_msg(!direct || dfd >= 0, "O_DIRECT open %s: %s", path, strerror(errno));
	/* real blocks, not a sparse file: O_DIRECT reads of holes take other kernel paths */
	for (uint64_t off = 0; off < size;) {
		static const unsigned char zeros[BS];
		size_t len = size - off < BS ? (size_t)(size - off) : BS;

		ck_assert_int_eq(pwrite(fd, zeros, len, (off_t)off), (ssize_t)len);
		off += len;
	}
	/* no fsync needed: O_DIRECT I/O writes back and drops the cached range itself */
	if (direct) {
		close(fd);
		fd = dfd;
	}
	return fd;
}

static void *aligned_buf(size_t len)
{
	void *p = NULL;

	ck_assert_int_eq(posix_memalign(&p, 4096, len), 0);
	memset(p, 0, len);
	return p;
}

static void fill_block(unsigned char *p, unsigned block)
{
	for (unsigned i = 0; i < BS; i++)
		p[i] = (unsigned char)(block * 131u + i * 7u + (i >> 8));
}

/* Block number written at position i: a fixed shuffle, so offsets are not sequential. */
static unsigned block_at(unsigned i)
{
	return (i * 37u) % NR_BLOCKS;	/* 37 is coprime with 96 */
}

/* Drive n requests (position i: block_at(i), buffer bufs + block*BS) through the engine with
 * up to depth in flight, committing partial batches, reaping with min 1. Every request must
 * transfer BS bytes. Returns the number of BUSY answers seen. */
static unsigned run_ios(struct rig *rig, enum io_op op, int fd, unsigned char *bufs, unsigned n)
{
	unsigned free_idx[MAX_DEPTH], nr_free = rig->depth, next = 0, done = 0, inflight = 0;
	unsigned uncommitted = 0, nr_busy = 0;

	for (unsigned i = 0; i < rig->depth; i++)
		free_idx[i] = rig->depth - 1 - i;
	while (done < n) {
		while (next < n && nr_free) {
			struct io_req *req = &rig->reqs[free_idx[nr_free - 1]];
			unsigned b = block_at(next);
			int ret;

			set_req(req, op, fd, bufs + (size_t)b * BS, BS, (uint64_t)b * BS);
			ret = rig->ops->queue(rig->ctx, req);
			if (ret == ENGINE_BUSY) {
				nr_busy++;
				break;
			}
			nr_free--;
			next++;
			if (ret == ENGINE_DONE) {
				ck_assert_msg(req->result == BS, "%s: result %lld", rig->ops->name,
					      (long long)req->result);
				free_idx[nr_free++] = req->index;
				done++;
				continue;
			}
			ck_assert_int_eq(ret, ENGINE_QUEUED);
			uncommitted++;
			/* commit in uneven batches: every 3 requests */
			if (uncommitted == 3) {
				ck_assert_int_eq(rig->ops->commit(rig->ctx), 3);
				inflight += 3;
				uncommitted = 0;
			}
		}
		if (uncommitted) {
			ck_assert_int_eq(rig->ops->commit(rig->ctx), (int)uncommitted);
			inflight += uncommitted;
			uncommitted = 0;
		}
		if (inflight) {
			int got = rig->ops->reap(rig->ctx, 1, rig->depth, NULL, rig->out);

			ck_assert_msg(got >= 1 && (unsigned)got <= inflight, "%s: reap %d of %u",
				      rig->ops->name, got, inflight);
			for (int i = 0; i < got; i++) {
				ck_assert_msg(rig->out[i]->result == BS, "%s: result %lld",
					      rig->ops->name, (long long)rig->out[i]->result);
				free_idx[nr_free++] = rig->out[i]->index;
			}
			inflight -= (unsigned)got;
			done += (unsigned)got;
		}
	}
	return nr_busy;
}

/* ---- engine table ----------------------------------------------------------------------- */

START_TEST(test_find_and_names)
{
	char names[128];
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
	ck_assert_str_eq(engine_names(), names);
	ck_assert_str_eq(engine_names(), "libaio, io_uring, psync, sync, pvsync, null");
	ck_assert_ptr_null(engine_find("windowsaio"));
	ck_assert_ptr_null(engine_find("LIBAIO"));
	ck_assert_ptr_null(engine_find(""));
	ck_assert_ptr_null(engine_find("libaio "));
	ck_assert_ptr_null(engine_find(NULL));
	ck_assert(engine_find("null")->flags & ENGINE_F_DISKLESS);
	ck_assert(engine_find("psync")->flags & ENGINE_F_SYNC);
	ck_assert(engine_find("sync")->flags & ENGINE_F_SYNC);
	ck_assert(engine_find("pvsync")->flags & ENGINE_F_SYNC);
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
	unsigned char *wbuf = aligned_buf(total), *rbuf = aligned_buf(total), *check = aligned_buf(total);
	struct rig rig;
	int fd = temp_file(total, direct);
	ssize_t n;

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
	unsigned char *buf = aligned_buf(8 * BS);
	struct io_req extra = { .index = 0 };
	int fd = temp_file(8 * BS, false);
	unsigned got = 0;
	struct rig rig;

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
	unsigned char *buf = aligned_buf(8 * BS);
	int fd = temp_file(8 * BS, false);
	bool seen[3] = { false, false, false };
	unsigned got = 0;
	struct rig rig;

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
	unsigned char *buf = aligned_buf(4 * BS);
	int fd = temp_file(4 * BS, false);
	struct timespec zero = { 0, 0 };
	unsigned got = 0, loops = 0;
	struct rig rig;

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
	unsigned char *buf = aligned_buf(2 * BS);
	int fd = temp_file(2 * BS, false);
	struct rig rig;
	uint64_t t0, t1;

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
	unsigned char *buf = aligned_buf(total);
	int fd = temp_file(total, true);
	struct rig rig;

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
	unsigned char *buf = aligned_buf(BS);
	int fd = temp_file(BS + 100, false);
	struct rig rig;
	int ret;

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
	unsigned char *buf = aligned_buf(8 * BS);
	int fd = temp_file(8 * BS, false);
	struct rig rig;

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

/* A closed descriptor: the request completes with -EBADF (never an engine failure). */
START_TEST(test_bad_fd)
{
	const char *name = file_engines[_i];
	unsigned char *buf = aligned_buf(3 * BS);
	int fd = temp_file(3 * BS, false);
	unsigned got = 0;
	struct rig rig;
	int bad;

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
	/* bad fd first in its batch (libaio: io_submit returns the error instead of a count) */
	set_req(&rig.reqs[0], IO_WRITE, bad, buf, BS, 0);
	if (rig.ops->queue(rig.ctx, &rig.reqs[0]) == ENGINE_QUEUED) {
		ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
		ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 4, NULL, rig.out), 1);
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

/* O_DIRECT with a 1000-byte transfer: -EINVAL in the result (fio's bs=1000 case). */
START_TEST(test_direct_misaligned)
{
	const char *name = file_engines[_i];
	unsigned char *buf = aligned_buf(2 * BS);
	int fd = temp_file(2 * BS, true);
	struct rig rig;

	rig_init(&rig, name, 2);
	set_req(&rig.reqs[0], IO_READ, fd, buf, 1000, 0);
	if (rig.ops->queue(rig.ctx, &rig.reqs[0]) == ENGINE_QUEUED) {
		ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
		ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 2, NULL, rig.out), 1);
	}
	ck_assert_int_eq(rig.reqs[0].result, -EINVAL);
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

	memset(&rig, 0, sizeof(rig));
	rig.ops = engine_find(all_engines[_i]);
	ck_assert_int_eq(rig.ops->init(&cfg, &rig.ctx, &err), 0);
	if (rig.ops->prep)
		ck_assert_int_eq(rig.ops->prep(rig.ctx, &rig.reqs[0]), 0);
	set_req(&rig.reqs[0], IO_READ, -1, buf, sizeof(buf), 0);
	if (rig.ops->queue(rig.ctx, &rig.reqs[0]) == ENGINE_QUEUED) {
		ck_assert_int_eq(rig.ops->queue(rig.ctx, &rig.reqs[1]), ENGINE_BUSY);
		ck_assert_int_eq(rig.ops->commit(rig.ctx), 1);
		ck_assert_int_eq(rig.ops->reap(rig.ctx, 1, 1, NULL, rig.out), 1);
	}
	rig_release(&rig);
}
END_TEST

/* ---- null engine ------------------------------------------------------------------------ */

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

/* ---- init failures under a seccomp filter (Docker's default profile blocks io_uring) ----- */

/* In a child: deny syscall nr with errno, then init the engine; the child writes the error
 * line to the pipe and exits with the negated init result. */
static int init_under_seccomp(const char *name, long nr, int deny_errno, char *msg, size_t msg_len)
{
	int pfd[2], status;
	pid_t pid;
	ssize_t n;

	ck_assert_int_eq(pipe(pfd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct sock_filter filter[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)deny_errno & SECCOMP_RET_DATA)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = NR(filter), .filter = filter };
		struct engine_cfg cfg = { .depth = 4 };
		struct iops_err err = { 0 };
		void *ctx = NULL;
		int ret;

		close(pfd[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(200);
		ret = engine_find(name)->init(&cfg, &ctx, &err);
		if (write(pfd[1], err.msg, strlen(err.msg)) < 0)
			_exit(201);
		_exit(ret < 0 ? -ret : 0);
	}
	close(pfd[1]);
	n = read(pfd[0], msg, msg_len - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(pfd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

START_TEST(test_uring_blocked_by_seccomp)
{
	char msg[512];
	int deny = _i ? ENOSYS : EPERM;
	int code = init_under_seccomp("io_uring", SYS_io_uring_setup, deny, msg, sizeof(msg));

	ck_assert_int_eq(code, deny);
	ck_assert_msg(strstr(msg, "io_uring is not available here") && strstr(msg, "--ioengine=libaio") &&
		      strstr(msg, strerror(deny)) && !strchr(msg, '\n'), "%s", msg);
}
END_TEST

START_TEST(test_libaio_blocked_by_seccomp)
{
	char msg[512];
	int code = init_under_seccomp("libaio", SYS_io_setup, ENOSYS, msg, sizeof(msg));

	ck_assert_int_eq(code, ENOSYS);
	ck_assert_msg(strstr(msg, "libaio is not available here") && strstr(msg, "--ioengine=psync"),
		      "%s", msg);
}
END_TEST

START_TEST(test_libaio_io_setup_eagain)
{
	char msg[512];
	int code = init_under_seccomp("libaio", SYS_io_setup, EAGAIN, msg, sizeof(msg));

	ck_assert_int_eq(code, EAGAIN);
	ck_assert_msg(strstr(msg, "io engine libaio init failed") &&
		      strstr(msg, "Perhaps try reducing io depth?"), "%s", msg);
}
END_TEST

/* Deny syscall nr with deny_errno when its second argument equals arg1 (the batch size of
 * io_submit / the to_submit count of io_uring_enter). Returns 0 or -1. */
static int seccomp_deny_arg1(long nr, unsigned arg1, int deny_errno)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arg1, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)deny_errno & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = NR(filter), .filter = filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	return 0;
}

/* Child side of the submit-pressure scenario (no Check assertions in a grandchild: returns a
 * step number on failure, 0 on success). Batches of 2 are refused with deny_errno:
 *   A alone is submitted; B+C as a batch hit the error: A is reaped internally while in flight,
 *   then with nothing in flight the engine gives up after its retries. */
static int submit_pressure_child(const char *name, int fd, int deny_errno)
{
	const struct engine_ops *ops = engine_find(name);
	struct engine_cfg cfg = { .depth = 4 };
	struct iops_err err = { 0 };
	struct io_req reqs[3], *out[4];
	unsigned char *buf = NULL;
	void *ctx = NULL;
	int ret, got = 0;

	if (posix_memalign((void **)&buf, 4096, 3 * BS) || ops->init(&cfg, &ctx, &err))
		return 1;
	memset(reqs, 0, sizeof(reqs));
	for (unsigned i = 0; i < 3; i++) {
		reqs[i].index = i;
		if (ops->prep(ctx, &reqs[i]))
			return 2;
		set_req(&reqs[i], IO_READ, fd, buf + i * BS, BS, (uint64_t)i * BS);
	}
	if (seccomp_deny_arg1(!strcmp(name, "libaio") ? SYS_io_submit : SYS_io_uring_enter, 2,
			      deny_errno))
		return 3;
	if (ops->queue(ctx, &reqs[0]) != ENGINE_QUEUED || ops->commit(ctx) != 1)
		return 4;
	if (ops->queue(ctx, &reqs[1]) != ENGINE_QUEUED || ops->queue(ctx, &reqs[2]) != ENGINE_QUEUED)
		return 5;
	ret = ops->commit(ctx);
	if (!strcmp(name, "libaio")) {
		/* B failed with -EAGAIN after the retries, C went alone */
		if (ret != 2)
			return 6;
		while (got < 3) {
			int n = ops->reap(ctx, 1, 4, NULL, out);

			if (n < 1)
				return 7;
			got += n;
		}
		if (reqs[0].result != BS || reqs[1].result != -EAGAIN || reqs[2].result != BS)
			return 8;
	} else {
		/* SQEs cannot be taken back: commit reports the error, A is still delivered */
		if (ret != -deny_errno)
			return 9;
		if (ops->reap(ctx, 1, 4, NULL, out) != 1 || out[0] != &reqs[0] || reqs[0].result != BS)
			return 10;
		/* the context refuses further work instead of sending stale SQEs later */
		if (ops->queue(ctx, &reqs[0]) != -deny_errno || ops->commit(ctx) != -deny_errno)
			return 11;
	}
	/* cleanup is not called: the child exits; io_uring's unsubmitted SQEs die with it */
	return 0;
}

START_TEST(test_submit_pressure)
{
	const char *name = _i ? "io_uring" : "libaio";
	int fd = temp_file(3 * BS, false);
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(submit_pressure_child(name, fd, _i ? EBUSY : EAGAIN));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_msg(WEXITSTATUS(status) == 0, "%s: failed at step %d", name, WEXITSTATUS(status));
	close(fd);
}
END_TEST

/* io_uring without a usable probe (io_uring_register denied) falls back to READV/WRITEV:
 * write a pattern and read it back through that path. Child returns a step number or 0. */
static int uring_vectored_child(int fd)
{
	const struct engine_ops *ops = engine_find("io_uring");
	struct engine_cfg cfg = { .depth = 4 };
	struct iops_err err = { 0 };
	struct io_req reqs[4], *out[4];
	unsigned char *wbuf = NULL, *rbuf = NULL;
	void *ctx = NULL;

	if (seccomp_deny_arg1(SYS_io_uring_register, IORING_REGISTER_PROBE, EINVAL))
		return 1;
	if (posix_memalign((void **)&wbuf, 4096, 4 * BS) || posix_memalign((void **)&rbuf, 4096, 4 * BS))
		return 2;
	for (unsigned b = 0; b < 4; b++)
		fill_block(wbuf + b * BS, b + 11);
	memset(rbuf, 0, 4 * BS);
	if (ops->init(&cfg, &ctx, &err))
		return 3;
	memset(reqs, 0, sizeof(reqs));
	for (unsigned pass = 0; pass < 2; pass++) {
		int got = 0;

		for (unsigned i = 0; i < 4; i++) {
			reqs[i].index = i;
			if (ops->prep(ctx, &reqs[i]) || !reqs[i].engine_data)	/* the iovec */
				return 4;
			set_req(&reqs[i], pass ? IO_READ : IO_WRITE, fd, (pass ? rbuf : wbuf) + i * BS,
				BS, (uint64_t)(3 - i) * BS);
			if (ops->queue(ctx, &reqs[i]) != ENGINE_QUEUED)
				return 5;
		}
		if (ops->commit(ctx) != 4)
			return 6;
		while (got < 4) {
			int n = ops->reap(ctx, 1, 4, NULL, out);

			if (n < 1)
				return 7;
			for (int i = 0; i < n; i++)
				if (out[i]->result != BS)
					return 8;
			got += n;
		}
	}
	if (memcmp(wbuf, rbuf, 4 * BS))
		return 9;
	ops->cleanup(ctx);
	return 0;
}

START_TEST(test_uring_vectored_fallback)
{
	int fd = temp_file(4 * BS, false);
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(uring_vectored_child(fd));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_msg(WEXITSTATUS(status) == 0, "failed at step %d", WEXITSTATUS(status));
	close(fd);
}
END_TEST

/* ---- many requests through each async engine at full depth, reaping in batches ----------- */

START_TEST(test_stress_batches)
{
	const char *name = async_engines[_i];
	unsigned char *buf = aligned_buf((size_t)NR_BLOCKS * BS);
	int fd = temp_file((uint64_t)NR_BLOCKS * BS, true);
	struct rig rig;

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
	tcase_add_test(tc, test_null_depth1_sync);
	tcase_add_test(tc, test_null_queue_order);
	tcase_add_test(tc, test_null_reap_needs_commit);
	tcase_add_loop_test(tc, test_null_fault_injection, 0, (int)(NR(fail_cases) * 2));
	tcase_add_test(tc, test_null_fault_skips_busy);
	tcase_add_test(tc, test_null_fault_unset_or_empty);
	tcase_add_loop_test(tc, test_uring_blocked_by_seccomp, 0, 2);
	tcase_add_test(tc, test_libaio_blocked_by_seccomp);
	tcase_add_test(tc, test_libaio_io_setup_eagain);
	tcase_add_loop_test(tc, test_submit_pressure, 0, 2);
	tcase_add_test(tc, test_uring_vectored_fallback);
	tcase_add_loop_test(tc, test_stress_batches, 0, (int)NR(async_engines));
	suite_add_tcase(s, tc);
	return s;
}
