/* SPDX-License-Identifier: MIT */
/* Unit tests of the trim directions: the discard itself (lib/trim.c) on real files, the trim op
 * in every engine, the offsets and order of trim / randtrim / trimwrite / randtrimwrite
 * (lib/offgen.c, checked against sequences observed with fio 3.33 on a loop device), the rw=
 * mapping (fioconf), the ETA letters, and whole runs through the runner. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctl.h"
#include "engine/engine.h"
#include "fio/progress/eta.h"
#include "fio/conf/fioconf.h"
#include "fio/conf/jobfile.h"
#include "fio/offset/offgen.h"
#include "fio/run/runner.h"
#include "runner_testjob.h"
#include "engine/trim.h"
#include "fioconf_text.h"
#include "engine_rig.h"

#define KIB 1024u

static char tmpdir[128];

static void setup_tmp(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iops-trim-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown_tmp(void)
{
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A file of nr bytes of 0xa5 in tmpdir; returns an O_RDWR fd. */
static int make_file(const char *name, size_t nr, char *path, size_t path_len)
{
	char *buf = malloc(nr);
	int fd;

	ck_assert_ptr_nonnull(buf);
	memset(buf, 0xa5, nr);
	snprintf(path, path_len, "%s/%s", tmpdir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, buf, nr, 0), (ssize_t)nr);
	ck_assert_int_eq(fsync(fd), 0);
	free(buf);
	return fd;
}

/* True when [off, off+len) of fd reads back as all bytes equal to v. */
static bool range_is(int fd, uint64_t off, size_t len, unsigned char v)
{
	unsigned char *buf = malloc(len);
	bool ok;

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, len, (off_t)off), (ssize_t)len);
	ok = true;
	for (size_t i = 0; i < len; i++)
		if (buf[i] != v) {
			ok = false;
			break;
		}
	free(buf);
	return ok;
}

/* The kernel's answers, asked without iops' code: hole punching in tmpdir (0 or its errno),
 * and BLKDISCARD on a regular file (ENOTTY: what fio 3.33 gets, err=25). */
static int kernel_punch(void)
{
	return probe_falloc(tmpdir, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE);
}

static int64_t kernel_punch_at(int fd, uint64_t off, uint64_t len)
{
	return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) < 0 ? -(int64_t)errno
												  : (int64_t)len;
}

static int64_t kernel_blkdiscard(int fd)
{
	uint64_t range[2] = { 0, 4 * KIB };

	return ioctl(fd, BLKDISCARD, range) < 0 ? -(int64_t)errno : (int64_t)(4 * KIB);
}

/* true, or false and a counted skip of what needs hole punching where the kernel refuses it */
static bool punch_ok(int refused, const char *what)
{
	if (refused)
		unit_skip("%s: the kernel refuses fallocate(PUNCH_HOLE) in %s (%s): the errno is checked, not the hole",
			  what, tmpdir, strerror(refused));
	return !refused;
}

/* ---- trim_req --------------------------------------------------------------------------- */

START_TEST(test_trim_req_punches)
{
	char path[256];
	int fd = make_file("punch", 64 * KIB, path, sizeof(path));
	struct io_req req = { .op = IO_TRIM, .fd = fd, .offset = 16 * KIB, .len = 8 * KIB };
	struct stat st;
	int refused = kernel_punch();

	if (!punch_ok(refused, "trim_req")) {
		ck_assert_int_eq(trim_req(&req), -refused);
		ck_assert(range_is(fd, 0, 64 * KIB, 0xa5));
		close(fd);
		return;
	}
	ck_assert_int_eq(trim_req(&req), 8 * KIB);
	ck_assert(range_is(fd, 0, 16 * KIB, 0xa5));
	ck_assert(range_is(fd, 16 * KIB, 8 * KIB, 0));
	ck_assert(range_is(fd, 24 * KIB, 40 * KIB, 0xa5));
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_size, 64 * KIB);	/* KEEP_SIZE */
	/* beyond the end: nothing to punch, the size stays */
	req.offset = 128 * KIB;
	ck_assert_int_eq(trim_req(&req), 8 * KIB);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_size, 64 * KIB);
	close(fd);
}
END_TEST

START_TEST(test_trim_req_errors)
{
	char path[256];
	int fd = make_file("errs", 16 * KIB, path, sizeof(path));
	int rfd = open(path, O_RDONLY);
	struct io_req req = { .op = IO_TRIM, .fd = fd, .offset = 0, .len = 4 * KIB };

	/* BLKDISCARD on a regular file: what the kernel answers (ENOTTY: fio 3.33's err=25) */
	req.trim_ioctl = true;
	ck_assert_int_eq(trim_req(&req), kernel_blkdiscard(fd));
	req.trim_ioctl = false;
	/* offset and length beyond off_t */
	req.offset = (uint64_t)INT64_MAX + 1;
	ck_assert_int_eq(trim_req(&req), -EINVAL);
	req.offset = (uint64_t)INT64_MAX - 10;
	req.len = 4096;
	ck_assert_int_eq(trim_req(&req), -EINVAL);
	req.offset = 0;
	req.len = UINT64_MAX;
	ck_assert_int_eq(trim_req(&req), -EINVAL);
	/* a read-only fd, a closed fd: EBADF, as the kernel answers (asked directly) */
	req.len = 4 * KIB;
	req.fd = rfd;
	ck_assert_int_eq(trim_req(&req), kernel_punch_at(rfd, 0, 4 * KIB));
	req.fd = -1;
	ck_assert_int_eq(trim_req(&req), kernel_punch_at(-1, 0, 4 * KIB));
	req.trim_ioctl = true;
	ck_assert_int_eq(trim_req(&req), kernel_blkdiscard(-1));
	/* zero length: fallocate refuses it (EINVAL) */
	req.fd = fd;
	req.trim_ioctl = false;
	req.len = 0;
	ck_assert_int_eq(trim_req(&req), kernel_punch_at(fd, 0, 0));
	ck_assert(range_is(fd, 0, 16 * KIB, 0xa5));	/* nothing was punched */
	close(rfd);
	close(fd);
}
END_TEST

/* ---- the trim op in every engine -------------------------------------------------------- */

static const char *const engines[] = { "psync", "sync", "pvsync", "libaio", "io_uring", "null" };

START_TEST(test_engine_trim_op)
{
	const char *name = engines[_i];
	const struct engine_ops *ops = engine_find(name);
	struct engine_cfg cfg = { .depth = 4, .direct = false };
	struct iops_err err = { 0 };
	struct io_req reqs[4] = { 0 }, *out[4];
	bool is_null = !strcmp(name, "null");
	char path[256];
	void *ctx = NULL;
	int fd, ret, refused = kernel_punch();

	ck_assert_ptr_nonnull(ops);
	if (rig_engine_missing(name))
		return;
	fd = make_file(name, 64 * KIB, path, sizeof(path));
	ret = ops->init(&cfg, &ctx, &err);
	ck_assert_msg(ret == 0, "%s: %s", name, err.msg);
	for (unsigned i = 0; i < 4; i++) {
		reqs[i].index = i;
		if (ops->prep)
			ck_assert_int_eq(ops->prep(ctx, &reqs[i]), 0);
	}
	reqs[0].op = IO_TRIM;
	reqs[0].fd = fd;
	reqs[0].offset = 8 * KIB;
	reqs[0].len = 16 * KIB;
	reqs[0].result = -1;
	ret = ops->queue(ctx, &reqs[0]);
	if (ret == ENGINE_QUEUED) {	/* null at depth > 1 completes at reap, like its other ops */
		ck_assert(is_null);
		ck_assert_int_eq(ops->commit(ctx), 1);
		ck_assert_int_eq(ops->reap(ctx, 1, 4, NULL, out), 1);
		ck_assert_ptr_eq(out[0], &reqs[0]);
	} else {
		ck_assert_int_eq(ret, ENGINE_DONE);	/* file engines: synchronous, as fio */
	}
	ck_assert_int_eq(reqs[0].result, is_null || !refused ? 16 * KIB : -(int64_t)refused);
	if (is_null || !punch_ok(refused, name)) {
		ck_assert(range_is(fd, 0, 64 * KIB, 0xa5));	/* the null engine touches nothing */
	} else {
		ck_assert(range_is(fd, 0, 8 * KIB, 0xa5));
		ck_assert(range_is(fd, 8 * KIB, 16 * KIB, 0));
		ck_assert(range_is(fd, 24 * KIB, 40 * KIB, 0xa5));
	}
	if (!is_null) {
		/* a failing trim completes with the kernel's -errno */
		reqs[1].op = IO_TRIM;
		reqs[1].fd = fd;
		reqs[1].trim_ioctl = true;
		reqs[1].len = 4 * KIB;
		ck_assert_int_eq(ops->queue(ctx, &reqs[1]), ENGINE_DONE);
		ck_assert_int_eq(reqs[1].result, kernel_blkdiscard(fd));
	}
	ops->cleanup(ctx);
	close(fd);
}
END_TEST

/* ---- offsets and order ------------------------------------------------------------------ */

struct seq_io {
	int ddir;
	uint64_t off_kib, len_kib;
};

/* Run og to its end, comparing with want (nr entries; the generator must then end). */
static void expect_seq(struct offgen *og, const struct seq_io *want, unsigned nr)
{
	struct offgen_io io;

	for (unsigned i = 0; i < nr; i++) {
		ck_assert_msg(offgen_next(og, &io), "ended early at %u", i);
		ck_assert_msg((int)io.ddir == want[i].ddir && io.offset == want[i].off_kib * KIB &&
			      io.len == want[i].len_kib * KIB,
			      "io %u: got %d@%llu+%llu, want %d@%llu+%llu", i, io.ddir,
			      (unsigned long long)io.offset, (unsigned long long)io.len, want[i].ddir,
			      (unsigned long long)(want[i].off_kib * KIB), (unsigned long long)(want[i].len_kib * KIB));
	}
	ck_assert(!offgen_next(og, &io));
}

static void job_bs(struct job *j, uint64_t r, uint64_t w, uint64_t t)
{
	j->bs_min[DDIR_READ] = j->bs_max[DDIR_READ] = r;
	j->bs_min[DDIR_WRITE] = j->bs_max[DDIR_WRITE] = w;
	j->bs_min[DDIR_TRIM] = j->bs_max[DDIR_TRIM] = t;
}

START_TEST(test_offgen_trim_sequential)
{
	uint64_t start = 4 * KIB, len = 32 * KIB;
	const struct seq_io want[] = {
		{ DDIR_TRIM, 4, 8 }, { DDIR_TRIM, 12, 8 }, { DDIR_TRIM, 20, 8 }, { DDIR_TRIM, 28, 8 },
	};
	struct iops_err err = { 0 };
	struct offgen og;
	struct job j;

	testjob_init(&j, RW_TRIM);
	job_bs(&j, 4 * KIB, 4 * KIB, 8 * KIB);	/* the (T) block size is the one used */
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	expect_seq(&og, want, 4);
	ck_assert_uint_eq(og.issued_ios[DDIR_TRIM], 4);
	ck_assert_uint_eq(og.issued_ios[DDIR_READ] + og.issued_ios[DDIR_WRITE], 0);
	offgen_release(&og);
}
END_TEST

START_TEST(test_offgen_randtrim_covers_once)
{
	uint64_t start = 0, len = 1024 * KIB, seen[4] = { 0 };
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	unsigned n = 0;
	struct job j;

	testjob_init(&j, RW_RANDTRIM);
	job_bs(&j, 64 * KIB, 64 * KIB, 4 * KIB);
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	ck_assert_uint_eq(og.map_unit, 4 * KIB);
	while (offgen_next(&og, &io)) {
		uint64_t b = io.offset / (4 * KIB);

		ck_assert_int_eq(io.ddir, DDIR_TRIM);
		ck_assert_uint_eq(io.len, 4 * KIB);
		ck_assert(!(seen[b / 64] >> (b % 64) & 1));
		seen[b / 64] |= 1ull << (b % 64);
		n++;
	}
	ck_assert_uint_eq(n, 256);
	offgen_release(&og);
}
END_TEST

/* fio 3.33, rw=trimwrite --size=64k --bs=4k,8k,16k on a loop device (strace): a trim comes
 * when the last trim and the last write started at the same offset. */
START_TEST(test_offgen_trimwrite_fio_order)
{
	uint64_t start = 0, len = 64 * KIB;
	const struct seq_io want[] = {
		{ DDIR_TRIM, 0, 16 }, { DDIR_WRITE, 0, 8 },
		{ DDIR_TRIM, 16, 16 }, { DDIR_WRITE, 8, 8 }, { DDIR_WRITE, 16, 8 },
		{ DDIR_TRIM, 32, 16 }, { DDIR_WRITE, 24, 8 }, { DDIR_WRITE, 32, 8 },
		{ DDIR_TRIM, 48, 16 }, { DDIR_WRITE, 40, 8 }, { DDIR_WRITE, 48, 8 },
	};
	const struct seq_io same_bs[] = {
		{ DDIR_TRIM, 0, 16 }, { DDIR_WRITE, 0, 16 }, { DDIR_TRIM, 16, 16 }, { DDIR_WRITE, 16, 16 },
		{ DDIR_TRIM, 32, 16 }, { DDIR_WRITE, 32, 16 }, { DDIR_TRIM, 48, 16 }, { DDIR_WRITE, 48, 16 },
	};
	struct iops_err err = { 0 };
	struct offgen og;
	struct job j;

	testjob_init(&j, RW_TRIMWRITE);
	job_bs(&j, 4 * KIB, 8 * KIB, 16 * KIB);
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	expect_seq(&og, want, sizeof(want) / sizeof(want[0]));
	offgen_release(&og);

	job_bs(&j, 4 * KIB, 16 * KIB, 16 * KIB);
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	expect_seq(&og, same_bs, sizeof(same_bs) / sizeof(same_bs[0]));
	offgen_release(&og);
}
END_TEST

/* Only the writes count against size / io_size, as fio (trim bytes come on top). */
START_TEST(test_offgen_trimwrite_limits)
{
	uint64_t start = 0, len = 64 * KIB;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	testjob_init(&j, RW_TRIMWRITE);
	j.io_size = 32 * KIB;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	while (offgen_next(&og, &io))
		;
	ck_assert_uint_eq(og.issued_ios[DDIR_TRIM], 8);
	ck_assert_uint_eq(og.issued_ios[DDIR_WRITE], 8);
	ck_assert_uint_eq(og.issued_bytes, 64 * KIB);
	offgen_release(&og);

	/* loops=2: two passes, each trimming and writing the whole range */
	testjob_init(&j, RW_RANDTRIMWRITE);
	j.loops = 2;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, len, &err), 0);
	while (offgen_next(&og, &io))
		;
	ck_assert_uint_eq(og.issued_ios[DDIR_TRIM], 32);
	ck_assert_uint_eq(og.issued_ios[DDIR_WRITE], 32);
	offgen_release(&og);
}
END_TEST

/* randtrimwrite: every write rewrites exactly the block trimmed just before it (fio 3.33 with
 * --bs=4k,8k,16k writes 16k blocks), over two files served round-robin. */
START_TEST(test_offgen_randtrimwrite_pairs)
{
	uint64_t start[2] = { 0, 0 }, len[2] = { 256 * KIB, 256 * KIB }, seen[2][1] = { { 0 } };
	uint64_t last_off[2] = { 0 }, last_len[2] = { 0 }, wbytes = 0, tbytes = 0;
	bool pending[2] = { false, false };
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	testjob_init(&j, RW_RANDTRIMWRITE);
	job_bs(&j, 4 * KIB, 8 * KIB, 16 * KIB);
	ck_assert_int_eq(offgen_init(&og, &j, start, len, 2, 512 * KIB, &err), 0);
	while (offgen_next(&og, &io)) {
		unsigned f = io.file;

		ck_assert_uint_lt(f, 2);
		if (io.ddir == DDIR_TRIM) {
			uint64_t b = io.offset / (16 * KIB);

			ck_assert(!pending[f]);
			ck_assert_uint_eq(io.len, 16 * KIB);
			ck_assert_uint_eq(io.offset % (16 * KIB), 0);
			ck_assert(!(seen[f][0] >> b & 1));
			seen[f][0] |= 1ull << b;
			last_off[f] = io.offset;
			last_len[f] = io.len;
			pending[f] = true;
			tbytes += io.len;
		} else {
			ck_assert_int_eq(io.ddir, DDIR_WRITE);
			ck_assert(pending[f]);
			ck_assert_uint_eq(io.offset, last_off[f]);
			ck_assert_uint_eq(io.len, last_len[f]);
			pending[f] = false;
			wbytes += io.len;
		}
	}
	ck_assert_uint_eq(wbytes, 512 * KIB);
	ck_assert_uint_eq(tbytes, 512 * KIB);
	ck_assert_uint_eq(seen[0][0], 0xffff);
	ck_assert_uint_eq(seen[1][0], 0xffff);
	offgen_release(&og);
}
END_TEST

/* fio 3.33's t0023 / t0024 (write_bw_log with log_offset=1 on 1 MiB): every trim is followed
 * by a write of the same offset and length, with the random map, without it (a trim may then
 * land where the last write was), with bs, bsrange and bssplit; with the map (and always
 * sequentially) every 512-byte sector is trimmed and written. */
static const struct tw_case {
	enum rw_mode rw;
	bool norandommap;
	uint64_t wmin, wmax, tmin, tmax;	/* write and trim bs range, bytes */
	const char *bssplit;
	uint64_t want_len;			/* every I/O this long (0: any) */
} tw_cases[] = {
	{ RW_RANDTRIMWRITE, false, 4096, 4096, 4096, 4096, NULL, 4096 },
	{ RW_RANDTRIMWRITE, false, 8192, 8192, 8192, 8192, NULL, 8192 },
	{ RW_RANDTRIMWRITE, false, 512, 4096, 512, 4096, NULL, 0 },
	{ RW_RANDTRIMWRITE, false, 512, 512, 512, 512, "512/25:1k/25:2k/25:4k/25", 0 },
	{ RW_RANDTRIMWRITE, true, 4096, 4096, 4096, 4096, NULL, 4096 },
	{ RW_RANDTRIMWRITE, true, 4096, 4096, 8192, 8192, NULL, 8192 },
	{ RW_RANDTRIMWRITE, true, 512, 4096, 512, 4096, NULL, 0 },
	{ RW_RANDTRIMWRITE, true, 512, 512, 512, 512, "512/25:1k/25:2k/25:4k/25", 0 },
	{ RW_TRIMWRITE, false, 4096, 4096, 4096, 4096, NULL, 4096 },
	{ RW_TRIMWRITE, false, 8192, 8192, 8192, 8192, NULL, 8192 },
	{ RW_TRIMWRITE, false, 512, 4096, 512, 4096, NULL, 0 },
	{ RW_TRIMWRITE, false, 512, 512, 512, 512, "512/25:1k/25:2k/25:4k/25", 0 },
};

START_TEST(test_offgen_trimwrite_pairs_t0023)
{
	const struct tw_case *c = &tw_cases[_i];
	const uint64_t size = 1024 * KIB;
	uint64_t start = 0, len = size, sectors[2][size / 512 / 64];
	uint64_t last_off = 0, last_len = 0, bytes[DDIR_NR] = { 0 };
	bool pending = false, full_map = c->rw == RW_TRIMWRITE || !c->norandommap;
	struct iops_err err = { 0 };
	struct offgen_io io;
	struct offgen og;
	struct job j;

	memset(sectors, 0, sizeof(sectors));
	testjob_init(&j, c->rw);
	j.norandommap = c->norandommap;
	j.randrepeat = false;
	j.bs_min[DDIR_WRITE] = c->wmin;
	j.bs_max[DDIR_WRITE] = c->wmax;
	j.bs_min[DDIR_TRIM] = c->tmin;
	j.bs_max[DDIR_TRIM] = c->tmax;
	j.bssplit = c->bssplit ? strdup(c->bssplit) : NULL;
	j.bssplit_kb_base = 1024;
	ck_assert_int_eq(offgen_init(&og, &j, &start, &len, 1, size, &err), 0);
	while (offgen_next(&og, &io)) {
		unsigned k = io.ddir == DDIR_TRIM ? 0 : 1;

		if (io.ddir == DDIR_TRIM) {
			if (pending)
				ck_abort_msg("case %d: trim at %llu after a trim", _i, (unsigned long long)io.offset);
			last_off = io.offset;
			last_len = io.len;
		} else if (io.ddir != DDIR_WRITE || !pending || io.offset != last_off || io.len != last_len) {
			ck_abort_msg("case %d: %d@%llu+%llu does not rewrite the trim %llu+%llu", _i, io.ddir,
				     (unsigned long long)io.offset, (unsigned long long)io.len,
				     (unsigned long long)last_off, (unsigned long long)last_len);
		}
		pending = io.ddir == DDIR_TRIM;
		if ((c->want_len && io.len != c->want_len) || io.len % 512 || io.offset % 512 ||
		    io.offset + io.len > size)
			ck_abort_msg("case %d: bad I/O %llu+%llu", _i, (unsigned long long)io.offset,
				     (unsigned long long)io.len);
		for (uint64_t s = io.offset / 512; s < (io.offset + io.len) / 512; s++)
			sectors[k][s / 64] |= 1ull << (s % 64);
		bytes[io.ddir] += io.len;
	}
	ck_assert(!pending);
	/* only the writes count against size (without the map the last size is random: the
	 * last write may end up to a block past it, as in fio) */
	ck_assert_uint_eq(bytes[DDIR_TRIM], bytes[DDIR_WRITE]);
	ck_assert_uint_ge(bytes[DDIR_WRITE], size);
	ck_assert_uint_lt(bytes[DDIR_WRITE], full_map ? size + 1 : size + c->tmax);
	for (unsigned k = 0; k < 2 && full_map; k++)
		for (unsigned w = 0; w < size / 512 / 64; w++)
			if (sectors[k][w] != ~0ull)
				ck_abort_msg("case %d: %s sectors %u..: %llx", _i, k ? "written" : "trimmed",
					     w * 64, (unsigned long long)sectors[k][w]);
	offgen_release(&og);
	free(j.bssplit);
}
END_TEST

/* ---- rw= mapping and ETA letters -------------------------------------------------------- */

static int build_text(const char *text, struct fio_config *cfg, struct opt_diag *diag)
{
	return fioconf_from_text(text, cfg, diag);
}

static const struct map_case {
	const char *rw;
	enum rw_mode mode;
	bool has_write, random;
	char eta;
} map_cases[] = {
	{ "trim", RW_TRIM, false, false, 'D' },
	{ "randtrim", RW_RANDTRIM, false, true, 'd' },
	{ "trimwrite", RW_TRIMWRITE, true, false, 'W' },
	{ "randtrimwrite", RW_RANDTRIMWRITE, true, true, 'w' },
	{ "randtrim:8", RW_RANDTRIM, false, true, 'd' },
	{ "trim:8k", RW_TRIM, false, false, 'D' },
};

START_TEST(test_rw_mapping)
{
	const struct map_case *c = &map_cases[_i];
	struct opt_diag *diag = malloc(sizeof(*diag));
	struct fio_config cfg;
	char text[128];
	struct job *j;

	ck_assert_ptr_nonnull(diag);
	snprintf(text, sizeof(text), "[t]\nrw=%s\nsize=1m\nbs=4k,8k,16k\n", c->rw);
	ck_assert_int_eq(build_text(text, &cfg, diag), 0);
	j = &cfg.jobs[0];
	ck_assert_int_eq(j->rw, c->mode);
	ck_assert(j->rw_has_trim);
	ck_assert(!j->rw_has_read);
	ck_assert(j->rw_has_write == c->has_write);
	ck_assert(j->rw_random == c->random);
	ck_assert_uint_eq(j->bs_min[DDIR_TRIM], 16 * KIB);
	ck_assert_int_eq(eta_run_char(j), c->eta);
	if (!strcmp(c->rw, "randtrim:8"))
		ck_assert_uint_eq(j->rw_nr_same_offset, 8);
	if (!strcmp(c->rw, "trim:8k"))
		ck_assert_uint_eq(j->rw_seq_add, 8 * KIB);
	fio_config_release(&cfg);

	/* size below the trim block size: fio's message */
	snprintf(text, sizeof(text), "[t]\nrw=%s\nsize=8k\nbs=16k\n", c->rw);
	ck_assert_int_ne(build_text(text, &cfg, diag), 0);
	ck_assert_uint_ge(diag->nr, 1);
	ck_assert_str_eq(diag->line[diag->nr - 1],
			 "fio: size too small, must not be less than minimum block size: 8192 < 16384");
	free(diag);
}
END_TEST

/* ---- whole runs ------------------------------------------------------------------------- */

struct trun {
	struct fio_config cfg;
	struct job job;
	struct job_result *res;
	char path[256];
	char *names[1];
	struct ctl ctl;
};

static int trun_run(struct trun *r, enum rw_mode rw, const char *engine, const char *file, uint64_t size,
		    bool allow)
{
	struct iops_err err = { 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	testjob_init(&r->job, rw);
	r->job.size = size;
	r->job.allow_overwrite = allow;
	snprintf(r->job.ioengine, sizeof(r->job.ioengine), "%s", engine);
	if (file) {
		snprintf(r->path, sizeof(r->path), "%s/%s", tmpdir, file);
		r->names[0] = r->path;
		r->job.filenames = r->names;
		r->job.nr_files = 1;
	}
	r->res = calloc(1, sizeof(*r->res));
	ck_assert_ptr_nonnull(r->res);
	r->cfg.jobs = &r->job;
	r->cfg.nr_jobs = 1;
	r->cfg.nr_groups = 1;
	ck_assert_int_eq(ctl_init(&r->ctl), 0);
	ret = runner_run(&r->cfg, &r->res, NULL, stderr, &r->ctl, &err);
	ctl_release(&r->ctl);
	return ret;
}

START_TEST(test_run_null_engine)
{
	struct trun r;

	ck_assert_int_eq(trun_run(&r, RW_RANDTRIM, "null", NULL, 1024 * KIB, false), 0);
	ck_assert_uint_eq(r.res->ddir[DDIR_TRIM].io_bytes, 1024 * KIB);
	ck_assert_uint_eq(r.res->ddir[DDIR_TRIM].total_ios, 256);
	ck_assert_uint_eq(r.res->ddir[DDIR_TRIM].clat.n, 256);
	ck_assert_uint_eq(r.res->ddir[DDIR_READ].total_ios + r.res->ddir[DDIR_WRITE].total_ios, 0);
	ck_assert_uint_eq(r.res->depth_map[0], 256);	/* trims count in IO depths, as in fio */
	free(r.res);

	ck_assert_int_eq(trun_run(&r, RW_TRIMWRITE, "null", NULL, 1024 * KIB, false), 0);
	ck_assert_uint_eq(r.res->ddir[DDIR_TRIM].io_bytes, 1024 * KIB);
	ck_assert_uint_eq(r.res->ddir[DDIR_WRITE].io_bytes, 1024 * KIB);
	ck_assert_uint_eq(r.res->ddir[DDIR_TRIM].issued_ios, 256);
	ck_assert_uint_eq(r.res->ddir[DDIR_WRITE].issued_ios, 256);
	free(r.res);
}
END_TEST

START_TEST(test_run_file_punches_and_safety)
{
	struct trun r;
	char path[256];
	struct stat st;
	int fd;
	bool punch = punch_ok(kernel_punch(), "trim runs");
	int aio_err = probe_libaio();
	const char *aio = aio_err ? "psync" : "libaio";

	/* a file iops did not create: refused like a write, untouched */
	fd = make_file("foreign", 64 * KIB, path, sizeof(path));
	close(fd);
	ck_assert_int_lt(trun_run(&r, RW_RANDTRIM, "psync", "foreign", 64 * KIB, false), 0);
	ck_assert_uint_eq(r.res->ddir[DDIR_TRIM].total_ios, 0);
	free(r.res);
	fd = open(path, O_RDONLY);
	ck_assert(range_is(fd, 0, 64 * KIB, 0xa5));
	close(fd);
	if (!punch)
		return;
	/* ... unless allowed */
	ck_assert_int_eq(trun_run(&r, RW_RANDTRIM, "psync", "foreign", 64 * KIB, true), 0);
	ck_assert_uint_eq(r.res->ddir[DDIR_TRIM].total_ios, 16);
	free(r.res);
	fd = open(path, O_RDONLY);
	ck_assert(range_is(fd, 0, 64 * KIB, 0));
	close(fd);

	/* a file iops lays out: the trimmed range reads back as zeros, no block stays allocated */
	ck_assert_int_eq(trun_run(&r, RW_TRIMWRITE, "psync", "tw", 256 * KIB, false), 0);
	ck_assert_uint_eq(r.res->ddir[DDIR_TRIM].io_bytes, 256 * KIB);
	ck_assert_uint_eq(r.res->ddir[DDIR_WRITE].io_bytes, 256 * KIB);
	free(r.res);
	if (aio_err)	/* the libaio run alone is not done: psync runs the same trims */
		unit_skip("trims on libaio: the kernel refuses io_setup here (%s): psync runs them", strerror(aio_err));
	ck_assert_int_eq(trun_run(&r, RW_TRIM, aio, "tw", 256 * KIB, false), 0);
	ck_assert_uint_eq(r.res->ddir[DDIR_TRIM].io_bytes, 256 * KIB);
	ck_assert_int_eq(r.res->error, 0);
	free(r.res);
	snprintf(path, sizeof(path), "%s/tw", tmpdir);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert(range_is(fd, 0, 256 * KIB, 0));
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_size, 256 * KIB);
	ck_assert_int_eq(st.st_blocks, 0);
	close(fd);
}
END_TEST

Suite *trim_suite(void);

Suite *trim_suite(void)
{
	Suite *s = suite_create("trim");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup_tmp, teardown_tmp);
	tcase_add_test(tc, test_trim_req_punches);
	tcase_add_test(tc, test_trim_req_errors);
	tcase_add_loop_test(tc, test_engine_trim_op, 0, (int)(sizeof(engines) / sizeof(engines[0])));
	tcase_add_test(tc, test_offgen_trim_sequential);
	tcase_add_test(tc, test_offgen_randtrim_covers_once);
	tcase_add_test(tc, test_offgen_trimwrite_fio_order);
	tcase_add_test(tc, test_offgen_trimwrite_limits);
	tcase_add_test(tc, test_offgen_randtrimwrite_pairs);
	tcase_add_loop_test(tc, test_offgen_trimwrite_pairs_t0023, 0, (int)(sizeof(tw_cases) / sizeof(tw_cases[0])));
	tcase_add_loop_test(tc, test_rw_mapping, 0, (int)(sizeof(map_cases) / sizeof(map_cases[0])));
	tcase_add_test(tc, test_run_null_engine);
	tcase_add_test(tc, test_run_file_punches_and_safety);
	suite_add_tcase(s, tc);
	return s;
}
