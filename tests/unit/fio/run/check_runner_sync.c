/* SPDX-License-Identifier: MIT */
/* Unit tests of the rest of a short read or write (lib/fio/runner_sync.c: worker_rest(), and
 * worker_complete_odd(), in the same file, around it), as fio 3.33 counts it: every piece that
 * moves some bytes but not all is one short I/O and one more issued I/O; a piece that moves
 * nothing ends the request, with fio's "full resid" EIO through a synchronous engine, or as a
 * completion of what was moved through an asynchronous one. Only bytes that were moved are
 * counted: a rest that counted the request's length would fail here. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio/run/runner_int.h"
#include "runner_testjob.h"

#define FILE_BYTES 10000u	/* the file ends inside the request at 8192 */

static char rtmp[128], rpath[200];
static unsigned char file_data[FILE_BYTES];

static void rest_setup(void)
{
	int fd;

	snprintf(rtmp, sizeof(rtmp), "/tmp/iops-rest-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(rtmp));
	snprintf(rpath, sizeof(rpath), "%s/f", rtmp);
	for (unsigned i = 0; i < FILE_BYTES; i++)
		file_data[i] = (unsigned char)(i * 7 + i / 251);
	fd = open(rpath, O_CREAT | O_EXCL | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, file_data, FILE_BYTES), FILE_BYTES);
	close(fd);
}

static void rest_teardown(void)
{
	unlink(rpath);
	rmdir(rtmp);
}

static const struct engine_ops sync_ops = { .name = "psync", .flags = ENGINE_F_SYNC };
static const struct engine_ops async_ops = { .name = "libaio", .flags = 0 };

/* A worker with what the rest and the completion path use: job, result, engine, requests. */
struct rig {
	struct worker w;
	struct job job;
	struct job_result *res;
	struct io_req req;
	struct io_req *free_reqs[1];
	unsigned char buf[8192];
	char *names[1];
	char *diag_buf;
	size_t diag_len;
};

static void rig_init(struct rig *r, bool sync, int open_flags)
{
	memset(r, 0, sizeof(*r));
	testjob_init(&r->job, RW_READ);
	r->names[0] = rpath;
	r->job.filenames = r->names;
	r->job.nr_files = 1;
	r->res = calloc(1, sizeof(*r->res));
	ck_assert_ptr_nonnull(r->res);
	r->w.job = &r->job;
	r->w.res = r->res;
	r->w.ops = sync ? &sync_ops : &async_ops;
	r->w.cap = 1;
	r->w.free_reqs = r->free_reqs;
	r->w.diag = open_memstream(&r->diag_buf, &r->diag_len);
	ck_assert_ptr_nonnull(r->w.diag);
	r->req.fd = open(rpath, open_flags);
	ck_assert_int_ge(r->req.fd, 0);
	r->req.buf = r->buf;
	memset(r->buf, 0xee, sizeof(r->buf));
}

static void rig_release(struct rig *r)
{
	close(r->req.fd);
	fclose(r->w.diag);
	free(r->diag_buf);
	free(r->res);
}

/* the request as the engine completed it: op, offset, length, what its first piece moved
 * (the bytes of the file it covers are in the buffer already) */
static void rig_req(struct rig *r, enum io_op op, uint64_t off, uint64_t len, uint64_t first)
{
	r->req.op = op;
	r->req.offset = off;
	r->req.len = len;
	r->req.result = (int64_t)first;
	for (uint64_t i = 0; i < first; i++)
		r->buf[i] = file_data[off + i];
}

static const char *rig_diag(struct rig *r)
{
	ck_assert_int_eq(fflush(r->w.diag), 0);
	return r->diag_buf ? r->diag_buf : "";
}

static const struct rest_case {
	const char *what;
	bool sync;
	enum io_op op;
	int open_flags;
	uint64_t off, len, first;	/* the request, and what its first piece moved */
	int end;			/* enum worker_rest_end */
	int64_t result;			/* bytes moved, or -errno */
	uint64_t short_ios, issued_ios, complete0;	/* counted by the rest */
	uint64_t end_off, end_len;	/* the request after it (a failed rest: the rest's) */
} rest_cases[] = {
	{ "sync: the rest completes the request", true, IO_READ, O_RDONLY, 0, 4096, 1000,
	  WORKER_REST_DONE, 4096, 1, 1, 1, 0, 4096 },
	{ "async: the rest completes the request", false, IO_READ, O_RDONLY, 0, 4096, 1000,
	  WORKER_REST_DONE, 4096, 1, 1, 0, 0, 4096 },
	/* 1000 bytes, then the rest stops at the end of the file (short again), then nothing */
	{ "sync: the file ends inside the rest (full resid)", true, IO_READ, O_RDONLY, 8192, 4096, 1000,
	  WORKER_REST_EMPTY, -EIO, 2, 2, 2, 8192, 4096 },
	{ "async: the file ends inside the rest: what was moved", false, IO_READ, O_RDONLY, 8192, 4096, 1000,
	  WORKER_REST_DONE, FILE_BYTES - 8192, 2, 2, 0, 8192, 4096 },
	{ "async: the first piece reached the end, the rest finds nothing", false, IO_READ, O_RDONLY, 8192, 4096,
	  FILE_BYTES - 8192, WORKER_REST_DONE, FILE_BYTES - 8192, 1, 1, 0, 8192, 4096 },
	{ "sync: nothing past the end, no short", true, IO_READ, O_RDONLY, 12288, 4096, 0,
	  WORKER_REST_EMPTY, -EIO, 0, 0, 0, 12288, 4096 },
	{ "async: nothing past the end: a completion of 0 bytes", false, IO_READ, O_RDONLY, 12288, 4096, 0,
	  WORKER_REST_DONE, 0, 0, 0, 0, 12288, 4096 },
	{ "sync: a one-byte first piece", true, IO_READ, O_RDONLY, 4096, 4096, 1,
	  WORKER_REST_DONE, 4096, 1, 1, 1, 4096, 4096 },
	{ "sync: the rest of a write fails", true, IO_WRITE, O_RDONLY, 0, 4096, 100,
	  WORKER_REST_FAILED, -EBADF, 1, 1, 1, 100, 3996 },
	{ "async: the rest of a write fails", false, IO_WRITE, O_RDONLY, 4096, 4096, 4000,
	  WORKER_REST_FAILED, -EBADF, 1, 1, 0, 8096, 96 },
	{ "sync: the rest of a write completes it", true, IO_WRITE, O_RDWR, 0, 4096, 1000,
	  WORKER_REST_DONE, 4096, 1, 1, 1, 0, 4096 },
};

START_TEST(test_rest_cases)
{
	const struct rest_case *c = &rest_cases[_i];
	struct rig r;
	int end;

	rig_init(&r, c->sync, c->open_flags);
	rig_req(&r, c->op, c->off, c->len, c->first);
	if (c->op == IO_WRITE)
		memcpy(r.buf, file_data + c->off, c->len);	/* writes put back what is there */
	end = worker_rest(&r.w, &r.req);
	ck_assert_msg(end == c->end, "%s: end %d, want %d", c->what, end, c->end);
	ck_assert_msg(r.req.result == c->result, "%s: result %lld, want %lld", c->what,
		      (long long)r.req.result, (long long)c->result);
	ck_assert_msg(r.res->ddir[c->op].short_ios == c->short_ios, "%s: short_ios %llu", c->what,
		      (unsigned long long)r.res->ddir[c->op].short_ios);
	ck_assert_msg(r.res->ddir[c->op].issued_ios == c->issued_ios, "%s: issued_ios %llu", c->what,
		      (unsigned long long)r.res->ddir[c->op].issued_ios);
	ck_assert_msg(r.res->complete_map[0] == c->complete0, "%s: complete 0= %llu", c->what,
		      (unsigned long long)r.res->complete_map[0]);
	/* every reissue is one more I/O at depth 1, submitted and completed alone */
	ck_assert_uint_eq(r.res->depth_map[0], c->issued_ios);
	ck_assert_uint_eq(r.res->submit_map[1], c->issued_ios);
	ck_assert_uint_eq(r.res->complete_map[1], c->issued_ios);
	ck_assert_uint_eq(r.res->nr_submit_calls, c->issued_ios);
	ck_assert_uint_eq(r.res->nr_complete_calls, c->issued_ios + c->complete0);
	ck_assert_msg(r.req.offset == c->end_off && r.req.len == c->end_len, "%s: offset %llu len %llu", c->what,
		      (unsigned long long)r.req.offset, (unsigned long long)r.req.len);
	if (c->result > 0)	/* what was counted is what the buffer holds, in place */
		ck_assert_msg(memcmp(r.buf, file_data + c->off, (size_t)c->result) == 0, "%s: data", c->what);
	ck_assert_str_eq(rig_diag(&r), "");
	rig_release(&r);
}
END_TEST

/* Requests the rest leaves alone: not reads or writes of a file. */
START_TEST(test_rest_applies)
{
	static const struct engine_ops stream = { .name = "net", .flags = ENGINE_F_SYNC | ENGINE_F_STREAM };
	static const struct engine_ops paths = { .name = "filestat", .flags = ENGINE_F_PATHS };
	static const struct engine_ops diskless = { .name = "null", .flags = ENGINE_F_DISKLESS };
	struct rig r;

	rig_init(&r, true, O_RDONLY);
	rig_req(&r, IO_READ, 0, 4096, 10);
	ck_assert(worker_rest_applies(&r.w, &r.req));
	r.req.op = IO_TRIM;
	ck_assert(!worker_rest_applies(&r.w, &r.req));
	r.req.op = IO_FSYNC;
	ck_assert(!worker_rest_applies(&r.w, &r.req));
	r.req.op = IO_WRITE;
	ck_assert(worker_rest_applies(&r.w, &r.req));
	r.w.ops = &stream;
	ck_assert(!worker_rest_applies(&r.w, &r.req));
	r.w.ops = &paths;
	ck_assert(!worker_rest_applies(&r.w, &r.req));
	r.w.ops = &diskless;
	ck_assert(!worker_rest_applies(&r.w, &r.req));
	r.w.ops = &sync_ops;
	{
		int fd = r.req.fd;

		r.req.fd = -1;
		ck_assert(!worker_rest_applies(&r.w, &r.req));
		r.req.fd = fd;
	}
	rig_release(&r);
}
END_TEST

/* The completion path: a synchronous engine's read that meets the end of the file fails the
 * job with fio's "full resid" error, no io_u error line, none of its bytes counted. */
START_TEST(test_complete_full_resid)
{
	struct rig r;

	rig_init(&r, true, O_RDONLY);
	rig_req(&r, IO_READ, 8192, 4096, 1000);
	ck_assert(worker_complete_odd(&r.w, &r.req, 0));
	ck_assert_int_eq(r.w.error, EIO);
	ck_assert_int_eq(r.res->error, EIO);
	ck_assert_str_eq(r.res->verror, "file:backend.c:471, func=full resid, error=Input/output error");
	ck_assert_uint_eq(r.res->ddir[DDIR_READ].io_bytes, 0);
	ck_assert_uint_eq(r.res->ddir[DDIR_READ].total_ios, 0);	/* issued, never completed */
	ck_assert_uint_eq(r.res->ddir[DDIR_READ].short_ios, 2);	/* 1000 bytes, then 808 to the end */
	ck_assert_uint_eq(r.res->ddir[DDIR_READ].issued_ios, 2);
	ck_assert_uint_eq(r.res->total_err, 0);
	ck_assert_uint_eq(r.w.nr_free, 1);	/* the request is back on the free list */
	ck_assert_str_eq(rig_diag(&r), "");
	rig_release(&r);
}
END_TEST

/* continue_on_error=read covers it: counted as the job's first error, the job goes on. */
START_TEST(test_complete_full_resid_continues)
{
	struct rig r;

	rig_init(&r, true, O_RDONLY);
	r.job.cont_on_err = 1u << JOB_ERR_READ;
	rig_req(&r, IO_READ, 12288, 4096, 0);
	ck_assert(worker_complete_odd(&r.w, &r.req, 0));
	ck_assert_int_eq(r.w.error, 0);
	ck_assert_int_eq(r.res->error, EIO);
	ck_assert(r.res->err_continued);
	ck_assert_uint_eq(r.res->total_err, 1);
	ck_assert_int_eq(r.res->first_error, EIO);
	ck_assert_str_eq(r.res->verror, "file:backend.c:471, func=full resid, error=Input/output error");
	ck_assert_uint_eq(r.res->ddir[DDIR_READ].total_ios, 1);
	ck_assert_uint_eq(r.res->ddir[DDIR_READ].io_bytes, 0);
	/* a write error is not covered by continue_on_error=read: fatal, and not counted */
	rig_req(&r, IO_WRITE, 12288, 4096, 0);
	ck_assert(worker_complete_odd(&r.w, &r.req, 0));
	ck_assert_int_eq(r.w.error, EIO);
	ck_assert_uint_eq(r.res->total_err, 1);
	ck_assert_str_eq(rig_diag(&r), "");
	rig_release(&r);
}
END_TEST

/* An asynchronous engine's read that meets the end: a completion of the bytes moved, for the
 * common accounting (worker_complete_odd returns false), no error. */
START_TEST(test_complete_async_end)
{
	struct rig r;

	rig_init(&r, false, O_RDONLY);
	rig_req(&r, IO_READ, 8192, 4096, 123);
	ck_assert(!worker_complete_odd(&r.w, &r.req, 0));
	ck_assert_int_eq(r.req.result, FILE_BYTES - 8192);
	ck_assert_int_eq(r.w.error, 0);
	ck_assert_uint_eq(r.res->ddir[DDIR_READ].short_ios, 2);	/* 123 bytes, then the rest to the end */
	ck_assert_uint_eq(r.w.nr_free, 0);	/* the caller accounts it and frees it */
	rig_release(&r);
}
END_TEST

/* The rest of a write fails: fio's io_u error line shows the rest's offset and length. */
START_TEST(test_complete_rest_fails)
{
	struct rig r;
	char want[300];

	rig_init(&r, true, O_RDONLY);
	rig_req(&r, IO_WRITE, 4096, 4096, 1000);
	ck_assert(worker_complete_odd(&r.w, &r.req, 0));
	ck_assert_int_eq(r.w.error, EBADF);
	ck_assert_int_lt(snprintf(want, sizeof(want), "fio: io_u error on file %s: Bad file descriptor: write offset=5096, buflen=3096\n",
				  rpath), (int)sizeof(want));
	ck_assert_str_eq(rig_diag(&r), want);
	ck_assert_str_eq(r.res->verror, "file:io_u.c:1876, func=io_u error, error=Bad file descriptor");
	ck_assert_uint_eq(r.res->ddir[DDIR_WRITE].short_ios, 1);
	ck_assert_uint_eq(r.res->ddir[DDIR_WRITE].io_bytes, 0);
	rig_release(&r);
}
END_TEST

Suite *runner_sync_suite(void);
Suite *runner_sync_suite(void)
{
	Suite *s = suite_create("runner_sync");
	TCase *tc = tcase_create("rest");

	tcase_add_unchecked_fixture(tc, rest_setup, rest_teardown);
	tcase_add_loop_test(tc, test_rest_cases, 0, sizeof(rest_cases) / sizeof(rest_cases[0]));
	tcase_add_test(tc, test_rest_applies);
	tcase_add_test(tc, test_complete_full_resid);
	tcase_add_test(tc, test_complete_full_resid_continues);
	tcase_add_test(tc, test_complete_async_end);
	tcase_add_test(tc, test_complete_rest_fails);
	suite_add_tcase(s, tc);
	return s;
}
