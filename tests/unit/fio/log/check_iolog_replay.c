/* SPDX-License-Identifier: MIT */
/* iolog_replay and iolog_write: fio's trace format (versions 2 and 3) read and written. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio/log/iolog_replay.h"
#include "fio/log/iolog_write.h"
#include "fio/conf/opt.h"

/* ---- header and lines ------------------------------------------------------------------ */

static const struct {
	const char *line;
	int want;
} version_cases[] = {
	{ "fio version 2 iolog\n", 2 },
	{ "fio version 3 iolog\n", 3 },
	{ "fio version 3 iolog", 3 },
	{ "fio version 3 iolog\r\n", 3 },
	{ "fio version 3 iolog  \n", 3 },
	{ "fio version 1 iolog\n", -EINVAL },
	{ "fio version 4 iolog\n", -EINVAL },
	{ "fio version 3 iologx\n", -EINVAL },
	{ "fio version 3 iolog x\n", -EINVAL },
	{ "fio version 23 iolog\n", -EINVAL },
	{ "", -EINVAL },
	{ "garbage\n", -EINVAL },
	{ "\x01\x02\x03", -EINVAL },
};

START_TEST(test_version)
{
	ck_assert_int_eq(iolog_replay_version(version_cases[_i].line), version_cases[_i].want);
}
END_TEST

static const struct {
	const char *line;
	int version;
	int want;
	enum iolog_op op;
	uint64_t ts, off, len;
	const char *name;
} line_cases[] = {
	{ "f add\n", 2, 0, IOLOG_OP_ADD, 0, 0, 0, "f" },
	{ "/dev/sdb open", 2, 0, IOLOG_OP_OPEN, 0, 0, 0, "/dev/sdb" },
	{ "f close\r\n", 2, 0, IOLOG_OP_CLOSE, 0, 0, 0, "f" },
	{ "f read 0 4096\n", 2, 0, IOLOG_OP_READ, 0, 0, 4096, "f" },
	{ "f write 8192 512", 2, 0, IOLOG_OP_WRITE, 0, 8192, 512, "f" },
	{ "f\ttrim\t4096\t4096", 2, 0, IOLOG_OP_TRIM, 0, 4096, 4096, "f" },
	{ "f sync 4096 0", 2, 0, IOLOG_OP_SYNC, 0, 4096, 0, "f" },
	{ "f datasync 0 0", 2, 0, IOLOG_OP_DATASYNC, 0, 0, 0, "f" },
	{ "f wait 1000 0", 2, 0, IOLOG_OP_WAIT, 0, 1000, 0, "f" },
	{ "123 f read 0 4096\n", 3, 0, IOLOG_OP_READ, 123, 0, 4096, "f" },
	{ "18446744073709551615 f add", 3, 0, IOLOG_OP_ADD, UINT64_MAX, 0, 0, "f" },
	{ "0 f read 18446744073709547519 4096", 3, 0, IOLOG_OP_READ, 0, UINT64_MAX - 4096, 4096, "f" },
	{ "", 2, 1, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "   \t \n", 3, 1, IOLOG_OP_READ, 0, 0, 0, NULL },
	/* bad lines */
	{ "f read 18446744073709547520 4096", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },	/* offset + length overflows */
	{ "f read 18446744073709551616 1", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },	/* offset overflows */
	{ "f read 0 99999999999999999999", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f read 0 0", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },	/* zero length */
	{ "f trim 0 0", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f read -1 4096", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f read +1 4096", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f read 0x10 4096", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f read abc 4096", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f read 0", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f read", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f frob 0 4096", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f add 0 0", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f read 0 4096 1", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "f read 0 4096 1 2 3 4", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "1 f wait 100 0", 3, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },	/* no wait in v3 */
	{ "f read 0 4096", 3, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },	/* v3 needs the timestamp */
	{ "x f read 0 4096", 3, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
	{ "1 f read 0 4096", 2, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },	/* v2 has none */
	{ "f read 0 4096", 1, -EINVAL, IOLOG_OP_READ, 0, 0, 0, NULL },
};

START_TEST(test_parse_line)
{
	char buf[128];
	struct iolog_line l;
	int ret;

	snprintf(buf, sizeof(buf), "%s", line_cases[_i].line);
	ret = iolog_replay_parse_line(buf, line_cases[_i].version, &l);
	ck_assert_msg(ret == line_cases[_i].want, "'%s': %d", line_cases[_i].line, ret);
	if (ret)
		return;
	ck_assert_int_eq(l.op, line_cases[_i].op);
	ck_assert_uint_eq(l.ts_us, line_cases[_i].ts);
	ck_assert_uint_eq(l.offset, line_cases[_i].off);
	ck_assert_uint_eq(l.len, line_cases[_i].len);
	ck_assert_str_eq(l.name, line_cases[_i].name);
}
END_TEST

static const struct {
	uint64_t off, scale, align, want;
} offset_cases[] = {
	{ 0, 1, 0, 0 },
	{ 12345, 1, 0, 12345 },
	{ 12345, 0, 0, 12345 },		/* scale 0 is 1 */
	{ 12345, 1, 1, 12345 },
	{ 12345, 1, 4096, 12288 },
	{ 1 << 20, 3, 0, 349525 },
	{ 1 << 20, 3, 4096, 348160 },	/* scaled, then aligned */
	{ UINT64_MAX, 2, 4096, (UINT64_MAX / 2) & ~4095ull },
	{ UINT64_MAX, UINT64_MAX, 0, 1 },
	{ 4095, 1, 4096, 0 },
	{ UINT64_MAX, 1, 1ull << 63, 1ull << 63 },
};

START_TEST(test_offset)
{
	ck_assert_uint_eq(iolog_replay_offset(offset_cases[_i].off, offset_cases[_i].scale, offset_cases[_i].align),
			  offset_cases[_i].want);
}
END_TEST

static const struct {
	uint64_t us;
	unsigned scale;
	uint64_t want_ns;
} time_cases[] = {
	{ 0, 100, 0 },
	{ 100, 100, 100000 },
	{ 100, 200, 50000 },		/* twice the rate */
	{ 100, 50, 200000 },		/* half the rate */
	{ 100, 0, 100000 },		/* 0 is 100 */
	{ 1, 300, 0 },
	{ 3, 300, 1000 },
	{ UINT64_MAX, 100, UINT64_MAX },	/* saturates */
	{ UINT64_MAX, 1, UINT64_MAX },
	{ UINT64_MAX / 1000, 100, UINT64_MAX / 1000 * 1000 },
	{ UINT64_MAX, UINT32_MAX, 429496729700000ull },	/* (2^32 + 1) x 100 us */
};

START_TEST(test_time)
{
	ck_assert_uint_eq(iolog_replay_time_ns(time_cases[_i].us, time_cases[_i].scale), time_cases[_i].want_ns);
}
END_TEST

static const struct {
	const char *s;
	int want;
	unsigned bits;
} skip_cases[] = {
	{ "read", 0, IOLOG_SKIP_READ },
	{ "write", 0, IOLOG_SKIP_WRITE },
	{ "trim", 0, IOLOG_SKIP_TRIM },
	{ "sync", 0, IOLOG_SKIP_SYNC },
	{ "read,write,trim,sync", 0, 15 },
	{ "sync,sync", 0, IOLOG_SKIP_SYNC },
	{ "", 0, 0 },
	{ "flush", -EINVAL, 0 },
	{ "READ", -EINVAL, 0 },
	{ "read,", -EINVAL, 0 },
	{ "read,,write", -EINVAL, 0 },
	{ ",read", -EINVAL, 0 },
	{ "read:write", -EINVAL, 0 },
	{ "reads", -EINVAL, 0 },
};

START_TEST(test_skip)
{
	unsigned bits = 99;
	int ret = iolog_replay_skip_parse(skip_cases[_i].s, &bits);

	ck_assert_msg(ret == skip_cases[_i].want, "'%s': %d", skip_cases[_i].s, ret);
	if (!ret)
		ck_assert_uint_eq(bits, skip_cases[_i].bits);
}
END_TEST

/* ---- logs on disk ------------------------------------------------------------------------ */

static char tmpdir[64];

static void files_setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_iolog_replay.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void files_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* A replay job for log `name` in tmpdir (the fields the plan reads and sets). */
static void job_init(struct job *j, const char *name)
{
	char path[256];

	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "r");
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	j->read_iolog = strdup(path);
	j->replay_time_scale = 100;
	j->replay_scale = 1;
	for (int d = 0; d < DDIR_NR; d++)
		j->bs_min[d] = j->bs_max[d] = 4096;
	j->nr_files = 1;
	j->filenames = calloc(1, sizeof(char *));
	j->filenames[0] = strdup("given");
	j->rw_has_read = true;
}

static void job_free(struct job *j)
{
	for (unsigned i = 0; i < j->nr_files; i++)
		free(j->filenames[i]);
	free(j->filenames);
	iolog_replay_free(j);
}

START_TEST(test_plan_v2)
{
	struct iops_err err = { 0 };
	struct job j;

	put("a.log", "fio version 2 iolog\n/x/a add\n/x/b add\n/x/a open\n/x/b open\n"
		     "/x/a read 0 4096\n/x/b write 1048576 8192\n/x/a write 16384 512\n/x/b sync 0 0\n"
		     "/x/a close\n/x/b close\n");
	job_init(&j, "a.log");
	ck_assert_int_eq(iolog_replay_plan(&j, &err), 0);
	ck_assert_uint_eq(j.nr_files, 2);
	ck_assert_str_eq(j.filenames[0], "/x/a");
	ck_assert_str_eq(j.filenames[1], "/x/b");
	ck_assert_uint_eq(j.size, 2 * (1048576 + 8192));	/* each file: the largest extent */
	ck_assert(j.rw_has_read && j.rw_has_write && !j.rw_has_trim);
	ck_assert_uint_eq(j.replay_max_len, 8192);
	ck_assert_uint_eq(j.bs_max[DDIR_WRITE], 4096);	/* the job's own, for the header */
	job_free(&j);

	/* redirect: one file; skip the reads: a write-only job; scale shrinks the extent */
	job_init(&j, "a.log");
	j.replay_redirect = strdup("/dev/null-ish");
	j.replay_skip = IOLOG_SKIP_READ;
	j.replay_scale = 4;
	ck_assert_int_eq(iolog_replay_plan(&j, &err), 0);
	ck_assert_uint_eq(j.nr_files, 1);
	ck_assert_str_eq(j.filenames[0], "/dev/null-ish");
	ck_assert_uint_eq(j.size, 1048576 / 4 + 8192);
	ck_assert(!j.rw_has_read && j.rw_has_write);
	job_free(&j);

	/* everything skipped: nothing to replay */
	job_init(&j, "a.log");
	j.replay_skip = IOLOG_SKIP_READ | IOLOG_SKIP_WRITE;
	ck_assert_int_eq(iolog_replay_plan(&j, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "no I/O to replay"));
	ck_assert_str_eq(j.filenames[0], "given");	/* the job is left as it was */
	job_free(&j);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} bad_logs[] = {
	{ "", "is empty" },
	{ "garbage\n", "not a fio iolog" },
	{ "fio version 1 iolog\nf add\n", "not a fio iolog" },
	{ "fio version 2 iolog\n", "no I/O" },
	{ "fio version 2 iolog\nf add\nf open\nf close\n", "no I/O" },
	{ "fio version 2 iolog\nf add\nf frob 0 1\n", "line 3: bad iolog line: f frob 0 1" },
	{ "fio version 2 iolog\nf read 0 4096\n", "line 2: file not added" },
	{ "fio version 3 iolog\n1 f add\n2 f wait 100 0\n", "line 3: wait is not allowed" },
	{ "fio version 3 iolog\n1 f add\nf read 0 4096\n", "line 3: bad iolog line" },
	{ "fio version 2 iolog\nf add\nf read 18446744073709551615 4096\n", "line 3: bad iolog line" },
	{ "fio version 2 iolog\nf add\nf read 0 4096\nf write 1 2 3\n", "line 4" },
};

START_TEST(test_plan_bad)
{
	struct iops_err err = { 0 };
	struct job j;

	put("bad.log", bad_logs[_i].text);
	job_init(&j, "bad.log");
	ck_assert_int_eq(iolog_replay_plan(&j, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, bad_logs[_i].msg) != NULL, "%s", err.msg);
	ck_assert_msg(!strncmp(err.msg, "fio: r: ", 8) && !strchr(err.msg, '\n'), "%s", err.msg);
	job_free(&j);
}
END_TEST

START_TEST(test_plan_misc)
{
	struct iops_err err = { 0 };
	struct job j;
	char list[200];

	job_init(&j, "missing.log");
	ck_assert_int_eq(iolog_replay_plan(&j, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot open read_iolog"));
	job_free(&j);

	/* a ':' list: clone k replays the (k % n)th */
	put("one.log", "fio version 2 iolog\nf1 add\nf1 read 0 4096\n");
	put("two.log", "fio version 2 iolog\nf2 add\nf2 read 0 4096\n");
	job_init(&j, "one.log");
	snprintf(list, sizeof(list), "%s/one.log:%s/two.log", tmpdir, tmpdir);
	free(j.read_iolog);
	j.read_iolog = strdup(list);
	j.subjob = 3;
	ck_assert_int_eq(iolog_replay_plan(&j, &err), 0);
	ck_assert_str_eq(j.filenames[0], "f2");
	job_free(&j);

	job_init(&j, "one.log");
	free(j.read_iolog);
	j.read_iolog = strdup("-");
	ck_assert_int_eq(iolog_replay_plan(&j, &err), -EINVAL);
	job_free(&j);

	job_init(&j, "one.log");
	j.verify = 1;
	ck_assert_int_eq(iolog_replay_plan(&j, &err), -EINVAL);
	job_free(&j);
}
END_TEST

/* Every entry of the planned job's log, read with or without chunks. */
static size_t read_all(struct job *j, bool chunked, struct iolog_replay_ent *out, size_t max)
{
	struct iops_err err = { 0 };
	struct iolog_replay r;
	struct iolog_replay_ent e;
	size_t n = 0;
	int ret;

	j->read_iolog_chunked = chunked;
	ck_assert_int_eq(iolog_replay_open(&r, j, &err), 0);
	while ((ret = iolog_replay_next(&r, &e, &err)) > 0)
		if (n < max)
			out[n++] = e;
	ck_assert_int_eq(ret, 0);
	if (chunked)
		ck_assert_uint_le(r.cap, IOLOG_REPLAY_CHUNK);	/* bounded memory */
	iolog_replay_close(&r);
	return n;
}

START_TEST(test_read_timing)
{
	static struct iolog_replay_ent e[16];
	struct iops_err err = { 0 };
	struct job j;

	/* v3, then an appended v3 log (a second header): its times go on from the last one */
	put("t.log", "fio version 3 iolog\n5 f add\n10 f open\n100 f read 0 4096\n300 f write 4096 4096\n"
		     "310 f sync 0 0\n320 f close\nfio version 3 iolog\n5 f add\n50 f read 8192 4096\n");
	job_init(&j, "t.log");
	ck_assert_int_eq(iolog_replay_plan(&j, &err), 0);
	ck_assert_uint_eq(read_all(&j, false, e, 16), 4);
	ck_assert_uint_eq(e[0].t_ns, 100000);
	ck_assert_uint_eq(e[1].t_ns, 300000);
	ck_assert_int_eq(e[2].op, IOLOG_OP_SYNC);
	ck_assert_uint_eq(e[3].t_ns, 370000);
	ck_assert_uint_eq(e[3].offset, 8192);
	j.replay_time_scale = 200;
	ck_assert_uint_eq(read_all(&j, true, e, 16), 4);
	ck_assert_uint_eq(e[1].t_ns, 150000);
	j.replay_no_stall = true;
	ck_assert_uint_eq(read_all(&j, false, e, 16), 4);
	ck_assert_uint_eq(e[1].t_ns, 0);
	job_free(&j);

	/* v2: waits add up; below 100 us they are ignored */
	put("w.log", "fio version 2 iolog\nf add\nf read 0 4096\nf wait 1000 0\nf read 4096 4096\n"
		     "f wait 50 0\nf read 0 4096\nf wait 2000 0\nf trim 0 4096\n");
	job_init(&j, "w.log");
	ck_assert_int_eq(iolog_replay_plan(&j, &err), 0);
	ck_assert(j.rw_has_trim);
	ck_assert_uint_eq(read_all(&j, false, e, 16), 4);
	ck_assert_uint_eq(e[0].t_ns, 0);
	ck_assert_uint_eq(e[1].t_ns, 1000000);
	ck_assert_uint_eq(e[2].t_ns, 1000000);
	ck_assert_uint_eq(e[3].t_ns, 3000000);
	ck_assert_int_eq(e[3].op, IOLOG_OP_TRIM);
	job_free(&j);
}
END_TEST

/* ---- writer ------------------------------------------------------------------------------ */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	return buf;
}

START_TEST(test_write_format)
{
	char *names[] = { "a", "/d/b" };
	struct iops_err err = { 0 };
	struct iolog_writer w;
	char path[256];
	char *text;

	snprintf(path, sizeof(path), "%s/w.log", tmpdir);
	for (int run = 0; run < 2; run++) {	/* the second run appends */
		ck_assert_int_eq(iolog_write_open(&w, path, names, 2, 1000000, &err), 0);
		iolog_write_line(&w, 1002000, 0, IOLOG_OP_OPEN, 0, 0);
		iolog_write_line(&w, 1002999, 0, IOLOG_OP_READ, 0, 4096);
		iolog_write_line(&w, 500, 1, IOLOG_OP_WRITE, UINT64_MAX - 1, UINT64_MAX);	/* before t0: 0 */
		iolog_write_line(&w, 2000000, 1, IOLOG_OP_TRIM, 8192, 512);
		iolog_write_line(&w, 2000000, 1, IOLOG_OP_DATASYNC, 0, 0);
		iolog_write_line(&w, 3000000, 0, IOLOG_OP_SYNC, 0, 0);
		iolog_write_line(&w, 3000000, 7, IOLOG_OP_READ, 0, 1);	/* no such file: nothing */
		iolog_write_line(&w, 4000000, 0, IOLOG_OP_CLOSE, 0, 0);
		ck_assert_int_eq(iolog_write_close(&w), 0);
	}
	text = slurp(path);
	ck_assert_str_eq(text,
			 "fio version 3 iolog\n0 a add\n0 /d/b add\n2 a open\n2 a read 0 4096\n"
			 "0 /d/b write 18446744073709551614 18446744073709551615\n1000 /d/b trim 8192 512\n"
			 "1000 /d/b datasync 0 0\n2000 a sync 0 0\n3000 a close\n"
			 "fio version 3 iolog\n0 a add\n0 /d/b add\n2 a open\n2 a read 0 4096\n"
			 "0 /d/b write 18446744073709551614 18446744073709551615\n1000 /d/b trim 8192 512\n"
			 "1000 /d/b datasync 0 0\n2000 a sync 0 0\n3000 a close\n");
	free(text);

	snprintf(path, sizeof(path), "%s/no/such/dir/w.log", tmpdir);
	ck_assert_int_eq(iolog_write_open(&w, path, names, 2, 0, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "failed to open write_iolog"));
}
END_TEST

START_TEST(test_write_check)
{
	static const struct {
		const char *name;	/* in tmpdir */
		int want;
		const char *why;
	} cases[] = {
		{ "new.log", 0, NULL },		/* missing: the directory is writable */
		{ "empty.log", 0, NULL },
		{ "trace.log", 0, NULL },	/* a trace: appended to */
		{ "data.bin", -EEXIST, "it exists and is not a fio iolog" },
		{ "short.log", -EEXIST, "it exists and is not a fio iolog" },
		{ "link.log", -ELOOP, "it is a symbolic link" },
		{ "sub", -EEXIST, "not a regular file" },
		{ "nodir/x.log", -ENOENT, "No such file or directory" },
	};
	struct fio_config cfg;
	struct job j;
	char path[256], target[256];

	put("empty.log", "");
	put("trace.log", "fio version 3 iolog\n1 f add\n");
	put("data.bin", "precious data, not a trace\n");
	put("short.log", "fio");
	snprintf(path, sizeof(path), "%s/link.log", tmpdir);
	snprintf(target, sizeof(target), "%s/trace.log", tmpdir);
	ck_assert_int_eq(symlink(target, path), 0);
	snprintf(path, sizeof(path), "%s/sub", tmpdir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	memset(&cfg, 0, sizeof(cfg));
	memset(&j, 0, sizeof(j));
	cfg.jobs = &j;
	cfg.nr_jobs = 1;
	ck_assert_int_eq(iolog_write_check(&cfg, NULL), 0);	/* no write_iolog: nothing to check */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct iops_err err = { 0 };
		int ret;

		snprintf(path, sizeof(path), "%s/%s", tmpdir, cases[i].name);
		j.write_iolog = path;
		ret = iolog_write_check(&cfg, &err);
		ck_assert_msg(ret == cases[i].want, "%s: %d", cases[i].name, ret);
		if (cases[i].why)
			ck_assert_msg(strstr(err.msg, cases[i].why) && !strncmp(err.msg, "fio: cannot write write_iolog '", 31),
				      "%s: %s", cases[i].name, err.msg);
	}
	snprintf(path, sizeof(path), "%s/new.log", tmpdir);
	ck_assert_int_eq(access(path, F_OK), -1);	/* the check creates nothing */
}
END_TEST

/* Many lines (several buffer flushes), then read back by the replay: the same I/O in order. */
START_TEST(test_write_then_replay)
{
	enum { N = 20000 };
	char *names[] = { "f0", "f1", "f2" };
	static struct iolog_replay_ent e[N + 8];
	struct iops_err err = { 0 };
	struct iolog_writer w;
	struct job j;
	char path[256];
	size_t n;

	snprintf(path, sizeof(path), "%s/rt.log", tmpdir);
	ck_assert_int_eq(iolog_write_open(&w, path, names, 3, 0, &err), 0);
	for (uint64_t i = 0; i < N; i++)
		iolog_write_line(&w, i * 1000, (unsigned)(i % 3), (enum iolog_op)(i % 3),
				 (i * 7919 % 1000) * 4096, 4096 + (i % 2) * 4096);
	ck_assert_int_eq(iolog_write_close(&w), 0);
	job_init(&j, "rt.log");
	ck_assert_int_eq(iolog_replay_plan(&j, &err), 0);
	ck_assert_uint_eq(j.nr_files, 3);
	ck_assert_str_eq(j.filenames[2], "f2");
	for (int chunked = 0; chunked < 2; chunked++) {
		n = read_all(&j, chunked, e, N + 8);
		ck_assert_uint_eq(n, N);
		for (uint64_t i = 0; i < N; i++)
			if (e[i].file != i % 3 || e[i].op != (enum iolog_op)(i % 3) ||
			    e[i].offset != (i * 7919 % 1000) * 4096 || e[i].len != 4096 + (i % 2) * 4096 ||
			    e[i].t_ns != i * 1000)
				ck_abort_msg("entry %llu differs", (unsigned long long)i);
	}
	job_free(&j);
}
END_TEST

START_TEST(test_dup_free)
{
	struct job a, b;

	memset(&a, 0, sizeof(a));
	a.write_iolog = strdup("w");
	a.read_iolog = strdup("r1:r2");
	a.replay_redirect = strdup("/dev/x");
	ck_assert_int_eq(iolog_replay_dup(&b, &a), 0);
	ck_assert_str_eq(b.write_iolog, "w");
	ck_assert_str_eq(b.read_iolog, "r1:r2");
	ck_assert_ptr_null(b.replay_log);
	ck_assert_str_eq(b.replay_redirect, "/dev/x");
	ck_assert_ptr_ne(b.read_iolog, a.read_iolog);
	iolog_replay_free(&a);
	iolog_replay_free(&b);
	ck_assert_ptr_null(a.read_iolog);
	iolog_replay_free(&a);	/* twice is fine */
}
END_TEST

/* ---- options ------------------------------------------------------------------------------ */

static const struct {
	const char *name, *val;
	int ok;
	const char *last;	/* the last diagnostic line, NULL: not checked */
} opt_cases[] = {
	{ "write_iolog", "log", 1, NULL },
	{ "write_iolog", "", 0, "fio: failed parsing write_iolog=" },
	{ "read_iolog", "a:b", 1, NULL },
	{ "read_iolog_chunked", "1", 1, NULL },
	{ "read_iolog_chunked", "2", 0, "fio: failed parsing read_iolog_chunked=2" },
	{ "replay_no_stall", "1", 1, NULL },
	{ "replay_no_stall", "x", 0, "fio: failed parsing replay_no_stall=x" },
	{ "replay_redirect", "/dev/sdz", 1, NULL },
	{ "replay_time_scale", "50", 1, NULL },
	{ "replay_time_scale", "0", 0, "fio: failed parsing replay_time_scale=0" },
	{ "replay_time_scale", "4294967296", 0, NULL },
	{ "replay_scale", "0", 1, NULL },
	{ "replay_scale", "1k", 1, NULL },
	{ "replay_scale", "-1", 1, NULL },	/* fio's 32-bit field */
	{ "replay_scale", "garbage", 0, "fio: failed parsing replay_scale=garbage" },
	{ "replay_align", "4096", 1, NULL },
	{ "replay_align", "4k", 1, NULL },
	{ "replay_align", "3", 0, "fio: failed parsing replay_align=3" },
	{ "replay_align", "0", 0, "fio: failed parsing replay_align=0" },
	{ "replay_skip", "read,sync", 1, NULL },
	{ "replay_skip", "flush", 0, "fio: failed parsing replay_skip=flush" },
	{ "replay_skip", "read,,write", 0, "fio: failed parsing replay_skip=read,,write" },
	{ "replay_skip", "", 0, NULL },
};

START_TEST(test_options)
{
	const struct opt_def *od = opt_find(opt_cases[_i].name);
	struct opt_diag *d = malloc(sizeof(*d));
	struct opt_job oj, copy;
	int ret;

	ck_assert_ptr_nonnull(od);
	opt_job_init(&oj);
	ck_assert_uint_eq(oj.j.replay_time_scale, 100);
	ck_assert_uint_eq(oj.j.replay_scale, 1);
	opt_diag_init(d);
	ret = opt_apply(&oj, od, opt_cases[_i].val, d);
	ck_assert_msg((ret == 0) == (opt_cases[_i].ok != 0), "%s=%s: %d", opt_cases[_i].name, opt_cases[_i].val, ret);
	if (!opt_cases[_i].ok && opt_cases[_i].last) {
		ck_assert_uint_ge(d->nr, 1);
		ck_assert_str_eq(d->line[d->nr - 1], opt_cases[_i].last);
	}
	ck_assert_int_eq(opt_job_copy(&copy, &oj), 0);
	opt_job_release(&oj);	/* the copy owns its own strings */
	if (opt_cases[_i].ok && !strcmp(opt_cases[_i].name, "read_iolog"))
		ck_assert_str_eq(copy.j.read_iolog, "a:b");
	if (opt_cases[_i].ok && !strcmp(opt_cases[_i].name, "replay_align"))
		ck_assert_uint_eq(copy.j.replay_align, 4096);
	if (opt_cases[_i].ok && !strcmp(opt_cases[_i].name, "replay_skip"))
		ck_assert_uint_eq(copy.j.replay_skip, IOLOG_SKIP_READ | IOLOG_SKIP_SYNC);
	opt_job_release(&copy);
	free(d);
}
END_TEST

Suite *iolog_replay_suite(void);
Suite *iolog_replay_suite(void)
{
	Suite *s = suite_create("iolog_replay");
	TCase *tc = tcase_create("parse");
	TCase *tf = tcase_create("files");

	tcase_add_loop_test(tc, test_version, 0, (int)(sizeof(version_cases) / sizeof(version_cases[0])));
	tcase_add_loop_test(tc, test_parse_line, 0, (int)(sizeof(line_cases) / sizeof(line_cases[0])));
	tcase_add_loop_test(tc, test_offset, 0, (int)(sizeof(offset_cases) / sizeof(offset_cases[0])));
	tcase_add_loop_test(tc, test_time, 0, (int)(sizeof(time_cases) / sizeof(time_cases[0])));
	tcase_add_loop_test(tc, test_skip, 0, (int)(sizeof(skip_cases) / sizeof(skip_cases[0])));
	tcase_add_test(tc, test_dup_free);
	tcase_add_loop_test(tc, test_options, 0, (int)(sizeof(opt_cases) / sizeof(opt_cases[0])));
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tf, files_setup, files_teardown);
	tcase_add_test(tf, test_plan_v2);
	tcase_add_loop_test(tf, test_plan_bad, 0, (int)(sizeof(bad_logs) / sizeof(bad_logs[0])));
	tcase_add_test(tf, test_plan_misc);
	tcase_add_test(tf, test_read_timing);
	tcase_add_test(tf, test_write_format);
	tcase_add_test(tf, test_write_check);
	tcase_add_test(tf, test_write_then_replay);
	suite_add_tcase(s, tf);
	return s;
}
