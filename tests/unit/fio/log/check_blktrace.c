/* SPDX-License-Identifier: MIT */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio/log/blktrace.h"
#include "fio/log/iolog_replay.h"

#define Q	BLKTRACE_TA_QUEUE
#define R	BLKTRACE_TC_READ
#define W	BLKTRACE_TC_WRITE
#define FL	BLKTRACE_TC_FLUSH
#define DI	BLKTRACE_TC_DISCARD
#define NO	BLKTRACE_TC_NOTIFY
#define DEV	(7u << 20)

static char tmpdir[64];

static void files_setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_blktrace.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void files_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static struct blktrace_ev ev_make(uint64_t t, uint64_t sector, uint32_t bytes, uint32_t action)
{
	struct blktrace_ev e = { .magic = BLKTRACE_MAGIC | BLKTRACE_VERSION, .time_ns = t, .sector = sector,
				 .bytes = bytes, .action = action, .device = DEV };
	return e;
}

/* Write events to tmpdir/name, byte-swapped when swap, each with its pdu_len bytes. */
static void put_trace(const char *name, const struct blktrace_ev *evs, unsigned n, bool swap)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	for (unsigned i = 0; i < n; i++) {
		struct blktrace_ev e = evs[i];
		unsigned char b[BLKTRACE_REC];

		e.sequence = i;
		if (swap) {
			e.magic = __builtin_bswap32(e.magic);
			e.sequence = __builtin_bswap32(e.sequence);
			e.time_ns = __builtin_bswap64(e.time_ns);
			e.sector = __builtin_bswap64(e.sector);
			e.bytes = __builtin_bswap32(e.bytes);
			e.action = __builtin_bswap32(e.action);
			e.device = __builtin_bswap32(e.device);
			e.pdu_len = __builtin_bswap16(e.pdu_len);
		}
		blktrace_encode(&e, b);
		ck_assert_uint_eq(fwrite(b, 1, sizeof(b), f), sizeof(b));
		for (unsigned k = 0; k < evs[i].pdu_len; k++)
			fputc('p', f);
	}
	fclose(f);
}

static char *tpath(const char *name)
{
	static char p[4][256];
	static unsigned k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", tmpdir, name);
	return p[k];
}

static void job_init(struct job *j, const char *list)
{
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "b");
	j->read_iolog = strdup(list);
	j->replay_time_scale = 100;
	j->replay_scale = 1;
	j->nr_files = 1;
	j->filenames = calloc(1, sizeof(char *));
	j->filenames[0] = strdup("given");
}

static void job_free(struct job *j)
{
	for (unsigned i = 0; i < j->nr_files; i++)
		free(j->filenames[i]);
	free(j->filenames);
	iolog_replay_free(j);
}

START_TEST(test_codec)
{
	struct blktrace_ev e = ev_make(123456789012ull, 77, 4096, Q | W), d;
	unsigned char b[BLKTRACE_REC], s[BLKTRACE_REC];
	bool swap = true;

	e.sequence = 5, e.pid = 9, e.cpu = 3, e.error = 2, e.pdu_len = 11;
	blktrace_encode(&e, b);
	ck_assert(blktrace_is_trace(b, sizeof(b), &swap));
	ck_assert(!swap);
	blktrace_decode(b, false, &d);
	ck_assert_mem_eq(&d, &e, sizeof(d));
	/* the other byte order: every field reversed */
	for (unsigned i = 0; i < 4; i++)
		s[i] = b[3 - i];
	ck_assert(blktrace_is_trace(s, 4, &swap));
	ck_assert(swap);
	ck_assert(!blktrace_is_trace(b, 3, &swap));
	ck_assert(!blktrace_is_trace((const unsigned char *)"fio version 2", 13, &swap));
	ck_assert(!blktrace_is_trace((const unsigned char *)"\0\0\0\0", 4, &swap));
}
END_TEST

START_TEST(test_classify)
{
	static const struct {
		uint32_t action;
		enum blktrace_op replay, ddir;
	} t[] = {
		{ Q | R, BLKTRACE_READ, BLKTRACE_READ },
		{ Q | W, BLKTRACE_WRITE, BLKTRACE_WRITE },
		{ Q | W | DI, BLKTRACE_TRIM, BLKTRACE_WRITE },	/* a discard first; the merge sees a write */
		{ Q | DI, BLKTRACE_TRIM, BLKTRACE_TRIM },
		{ Q | FL, BLKTRACE_SYNC, BLKTRACE_NONE },
		{ Q | FL | W, BLKTRACE_SYNC, BLKTRACE_WRITE },	/* a preflush write: a sync */
		{ Q, BLKTRACE_READ, BLKTRACE_NONE },
		{ NO | 1, BLKTRACE_NONE, BLKTRACE_NONE },	/* a notification's "queue" */
		{ BLKTRACE_TA_COMPLETE | R, BLKTRACE_NONE, BLKTRACE_READ },
		{ BLKTRACE_TA_BACKMERGE | W, BLKTRACE_NONE, BLKTRACE_WRITE },
		{ 0x10000u | 0x101u, BLKTRACE_NONE, BLKTRACE_READ },	/* 257: not the queue event */
	};

	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct blktrace_ev e = ev_make(1, 0, 512, t[i].action);

		ck_assert_msg(blktrace_replay_op(&e) == t[i].replay, "case %u", i);
		ck_assert_msg(blktrace_ddir(&e) == t[i].ddir, "case %u", i);
	}
}
END_TEST

/* Feed events to a play; the I/Os as "op at_us offset len" lines. */
static void play_all(struct blktrace_play *p, const struct blktrace_ev *evs, unsigned n, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		struct blktrace_io io;
		int ret = blktrace_play_event(p, &evs[i], &io);

		ck_assert_int_ge(ret, 0);
		if (ret)
			used += (size_t)snprintf(out + used, len - used, "%d %llu %llu %llu;", io.op,
						 (unsigned long long)io.at_us, (unsigned long long)io.offset,
						 (unsigned long long)io.len);
	}
}

START_TEST(test_play_timing)
{
	const struct blktrace_ev evs[] = {
		ev_make(5000, 1, 512, Q | R),		/* first: no wait */
		ev_make(6500, 2, 512, Q | W),		/* 1.5 us: 1 */
		ev_make(7000, 3, 512, NO | 1),		/* a notification: no time */
		ev_make(9000, 0, 0, Q | FL),		/* 2.5 us: 2 */
		ev_make(8000, 4, 512, Q | R),		/* back in time: 0 */
		ev_make(108000, 5, 512, BLKTRACE_TA_COMPLETE | R),	/* not a queue event */
		ev_make(1008000, 6, 512, Q | R),	/* 1000 us */
	};
	struct blktrace_play p = { .time_scale = 100 };
	char out[512];

	play_all(&p, evs, 7, out, sizeof(out));
	ck_assert_str_eq(out, "0 0 512 512;1 1 1024 512;3 3 0 0;0 3 2048 512;0 1003 3072 512;");
	memset(&p, 0, sizeof(p));
	p.time_scale = 200;	/* twice as fast */
	play_all(&p, evs, 7, out, sizeof(out));
	ck_assert_str_eq(out, "0 0 512 512;1 0 1024 512;3 1 0 0;0 1 2048 512;0 501 3072 512;");
	memset(&p, 0, sizeof(p));
	p.time_scale = 50;
	play_all(&p, evs, 7, out, sizeof(out));
	ck_assert_str_eq(out, "0 0 512 512;1 3 1024 512;3 8 0 0;0 8 2048 512;0 2008 3072 512;");
	memset(&p, 0, sizeof(p));
	p.no_stall = true;
	play_all(&p, evs, 7, out, sizeof(out));
	ck_assert_str_eq(out, "0 0 512 512;1 0 1024 512;3 0 0 0;0 0 2048 512;0 0 3072 512;");
	/* a skipped event's wait is lost with it; zero-length I/O is counted, not replayed */
	memset(&p, 0, sizeof(p));
	p.skip = 1u << BLKTRACE_WRITE | 1u << BLKTRACE_SYNC;
	play_all(&p, evs, 7, out, sizeof(out));
	ck_assert_str_eq(out, "0 0 512 512;0 0 2048 512;0 1000 3072 512;");
	ck_assert_uint_eq(p.zero, 0);
	{
		const struct blktrace_ev z[] = { ev_make(1, 0, 0, Q | R), ev_make(2, 0, 0, Q | DI), ev_make(3, 0, 0, Q | FL) };

		memset(&p, 0, sizeof(p));
		play_all(&p, z, 3, out, sizeof(out));
		ck_assert_str_eq(out, "3 0 0 0;");
		ck_assert_uint_eq(p.zero, 2);
	}
}
END_TEST

START_TEST(test_play_offsets)
{
	static const struct {
		uint64_t sector;
		uint32_t bytes;
		uint64_t scale, align;
		int ret;
		uint64_t off, len;
	} t[] = {
		{ 0, 512, 0, 0, 1, 0, 512 },
		{ 9, 1024, 1, 0, 1, 4608, 1024 },
		{ 9, 1024, 2, 4096, 1, 0, 4096 },		/* 2304 down to 0; 1024 up to 4096 */
		{ 17, 4096, 2, 4096, 1, 4096, 4096 },
		{ 40, 8193, 0, 4096, 1, 20480, 12288 },
		{ 3, 512, 3, 0, 1, 512, 512 },
		{ UINT64_MAX / 512 - 1, 512, 0, 0, 1, (UINT64_MAX / 512 - 1) * 512, 512 },
		{ UINT64_MAX / 512 + 1, 512, 0, 0, -EOVERFLOW, 0, 0 },	/* beyond 64-bit bytes */
		{ UINT64_MAX / 512, 4096, 0, 0, -EOVERFLOW, 0, 0 },	/* the end beyond them */
	};

	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct blktrace_play p = { .scale = t[i].scale, .align = t[i].align };
		struct blktrace_ev e = ev_make(10, t[i].sector, t[i].bytes, Q | W);
		struct blktrace_io io = { 0 };

		ck_assert_msg(blktrace_play_event(&p, &e, &io) == t[i].ret, "case %u", i);
		if (t[i].ret == 1) {
			ck_assert_msg(io.offset == t[i].off && io.len == t[i].len, "case %u: %llu %llu", i,
				      (unsigned long long)io.offset, (unsigned long long)io.len);
			ck_assert_uint_eq(io.device, DEV);
		}
	}
}
END_TEST

START_TEST(test_play_depth)
{
	struct blktrace_play p = { 0 };
	struct blktrace_io io;
	const uint32_t seq[] = {
		Q | R, Q | R, Q | R, BLKTRACE_TA_BACKMERGE | R, BLKTRACE_TA_COMPLETE | R,	/* 2 */
		Q | W, Q | W, Q | W, BLKTRACE_TA_COMPLETE | W,					/* 3 */
		Q | R, BLKTRACE_TA_COMPLETE | R, NO | 1, NO | BLKTRACE_TA_COMPLETE,
	};

	ck_assert_uint_eq(blktrace_play_depth(&p), 1);	/* no completion seen */
	for (unsigned i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		struct blktrace_ev e = ev_make(i + 1, i, 512, seq[i]);

		(void)blktrace_play_event(&p, &e, &io);
	}
	ck_assert_uint_eq(p.depth[BLKTRACE_READ], 2);
	ck_assert_uint_eq(p.depth[BLKTRACE_WRITE], 3);
	ck_assert_uint_eq(blktrace_play_depth(&p), 3);
	p.depth[BLKTRACE_TRIM] = 5000;
	ck_assert_uint_eq(blktrace_play_depth(&p), BLKTRACE_MAX_DEPTH);
}
END_TEST

START_TEST(test_list_parse)
{
	static const struct {
		const char *s;
		int n;
		uint64_t first, last;
	} t[] = {
		{ "50:100", 2, 50, 100 }, { "1", 1, 1, 1 }, { "007:3", 2, 7, 3 },
		{ "1844674407370955", 1, 1844674407370955ull, 1844674407370955ull },
		{ "18446744073709551", -EINVAL, 0, 0 },	/* too large a factor */
		{ "99999999999999999999999", -EINVAL, 0, 0 },
		{ "0", -EINVAL, 0, 0 }, { "1:0", -EINVAL, 0, 0 }, { "", -EINVAL, 0, 0 }, { ":", -EINVAL, 0, 0 },
		{ "1:", -EINVAL, 0, 0 }, { ":1", -EINVAL, 0, 0 }, { "1::2", -EINVAL, 0, 0 }, { "1.5", 1, 1, 1 },	/* fio's float: its whole part */
		{ "2.75:3.0", 2, 2, 3 }, { ".5", -EINVAL, 0, 0 }, { "0.5", -EINVAL, 0, 0 },
		{ "a", -EINVAL, 0, 0 }, { "-1", -EINVAL, 0, 0 }, { " 1", -EINVAL, 0, 0 }, { "1,2", -EINVAL, 0, 0 },
	};
	uint64_t v[BLKTRACE_MAX_TRACES];
	char many[4 * BLKTRACE_MAX_TRACES + 8] = "1";

	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int n = blktrace_list_parse(t[i].s, v, BLKTRACE_MAX_TRACES);

		ck_assert_msg(n == t[i].n, "'%s': %d", t[i].s, n);
		if (n > 0)
			ck_assert(v[0] == t[i].first && v[n - 1] == t[i].last);
	}
	ck_assert_int_eq(blktrace_list_parse(NULL, v, 4), -EINVAL);
	for (unsigned i = 1; i < BLKTRACE_MAX_TRACES; i++)
		strcat(many, ":2");
	ck_assert_int_eq(blktrace_list_parse(many, NULL, BLKTRACE_MAX_TRACES), (int)BLKTRACE_MAX_TRACES);
	strcat(many, ":2");
	ck_assert_int_eq(blktrace_list_parse(many, NULL, BLKTRACE_MAX_TRACES), -EINVAL);
}
END_TEST

/* Every event of one trace file: "time:sector:action" joined, or the error's code. */
static int read_all(const char *name, char *out, size_t len, struct iops_err *err)
{
	struct blktrace_src s;
	struct blktrace_ev e;
	struct job j;
	size_t used = 0;
	int ret;

	job_init(&j, tpath(name));
	out[0] = '\0';
	ret = blktrace_src_open(&s, &j, tpath(name), err);
	while (!ret) {
		ret = blktrace_src_next(&s, &e, err);
		if (ret <= 0)
			break;
		ret = 0;
		used += (size_t)snprintf(out + used, len - used, "%llu:%llu:%x;", (unsigned long long)e.time_ns,
					 (unsigned long long)e.sector, e.action);
	}
	blktrace_src_close(&s);
	job_free(&j);
	return ret;
}

START_TEST(test_src_read)
{
	struct blktrace_ev evs[] = { ev_make(10, 1, 512, Q | R), ev_make(20, 2, 512, NO), ev_make(30, 3, 512, Q | W) };
	struct iops_err err = { 0 };
	char out[256];
	FILE *f;

	evs[1].pdu_len = 7;	/* a process name */
	for (int swap = 0; swap < 2; swap++) {
		put_trace("t", evs, 3, swap);
		ck_assert_int_eq(read_all("t", out, sizeof(out), &err), 0);
		ck_assert_str_eq(out, "10:1:10001;20:2:4000000;30:3:20001;");
	}
	/* a record cut short, a payload beyond the end */
	put_trace("t", evs, 3, false);
	ck_assert_int_eq(truncate(tpath("t"), 48 + 48 + 7 + 20), 0);
	ck_assert_int_eq(read_all("t", out, sizeof(out), &err), -EINVAL);
	ck_assert_str_eq(err.msg + strlen(err.msg) - 25, "truncated record at byte 103" + 3);
	ck_assert_int_eq(truncate(tpath("t"), 48 + 48 + 3), 0);
	ck_assert_int_eq(read_all("t", out, sizeof(out), &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "truncated payload at byte 48"));
	/* a bad magic, a version other than 7 after the first record */
	evs[2].magic = 0x12345678;
	put_trace("t", evs, 3, false);
	ck_assert_int_eq(read_all("t", out, sizeof(out), &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "bad magic at byte 103"));
	evs[2].magic = BLKTRACE_MAGIC | 6;
	put_trace("t", evs, 3, false);
	ck_assert_int_eq(read_all("t", out, sizeof(out), &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "version 6 is not supported"));
	/* not a trace; not there */
	f = fopen(tpath("txt"), "w");
	fputs("fio version 2 iolog\n", f);
	fclose(f);
	ck_assert_int_eq(read_all("txt", out, sizeof(out), &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "file is not a blktrace"));
	ck_assert_int_eq(read_all("none", out, sizeof(out), &err), -ENOENT);
	/* an empty trace: no event */
	put_trace("t", evs, 0, false);
	ck_assert_int_eq(read_all("t", out, sizeof(out), &err), -EINVAL);	/* no magic to know it by */
}
END_TEST

static const char *merged(struct job *j, struct iops_err *err, int *ret)
{
	static char out[1024];
	struct blktrace_src s;
	struct blktrace_ev e;
	size_t used = 0;

	out[0] = '\0';
	*ret = blktrace_src_open(&s, j, NULL, err);
	while (!*ret) {
		*ret = blktrace_src_next(&s, &e, err);
		if (*ret <= 0)
			break;
		*ret = 0;
		used += (size_t)snprintf(out + used, sizeof(out) - used, "%llu:%llu;", (unsigned long long)e.time_ns,
					 (unsigned long long)e.sector);
	}
	blktrace_src_close(&s);
	return out;
}

START_TEST(test_merge)
{
	const struct blktrace_ev a[] = {
		ev_make(100, 1, 512, Q | R), ev_make(150, 9, 512, BLKTRACE_TA_COMPLETE | R),
		ev_make(300, 2, 512, Q | W), ev_make(400, 3, 0, Q | FL), ev_make(500, 4, 512, Q | DI),
	};
	const struct blktrace_ev b[] = { ev_make(50, 11, 512, Q | R), ev_make(300, 12, 512, Q | W), ev_make(450, 13, 512, NO | 1) };
	struct iops_err err = { 0 };
	char list[300];
	struct job j;
	int ret;

	put_trace("a", a, 5, false);
	put_trace("b", b, 3, true);
	snprintf(list, sizeof(list), "%s:%s", tpath("a"), tpath("b"));
	job_init(&j, list);
	j.merge_blktrace_file = strdup(tpath("m"));
	/* queue events of reads, writes and discards only; a tie: the first trace first */
	ck_assert_str_eq(merged(&j, &err, &ret), "50:11;100:1;300:2;300:12;500:4;");
	ck_assert_int_eq(ret, 0);
	j.merge_blktrace_scalars = strdup("50:200");
	j.merge_blktrace_iters = strdup("3:2");
	/* a: 50 150 250, then +500 (its last queue event) each pass; b: 100 600, +300 */
	ck_assert_str_eq(merged(&j, &err, &ret),
			 "50:1;100:11;150:2;250:4;300:1;400:2;500:4;550:1;600:12;650:2;700:11;750:4;1200:12;");
	free(j.merge_blktrace_iters);
	j.merge_blktrace_iters = strdup("1");
	merged(&j, &err, &ret);
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_str_eq(err.msg, "fio: b: merge_blktrace_iters(1) != nr_logs(2)");
	free(j.merge_blktrace_iters);
	j.merge_blktrace_iters = NULL;
	/* writing it (scalars 50:200): a trace of those events, this machine's order, no payloads */
	ck_assert_int_eq(blktrace_merge_check(&j, &err), 0);
	ck_assert_int_eq(blktrace_merge_write(&j, &err), 0);
	{
		char out[256];
		FILE *f = fopen(tpath("m"), "r");

		fseek(f, 0, SEEK_END);
		ck_assert_int_eq(ftell(f), 5 * BLKTRACE_REC);
		fclose(f);
		ck_assert_int_eq(read_all("m", out, sizeof(out), &err), 0);
		ck_assert_str_eq(out, "50:1:10001;100:11:10001;150:2:20001;250:4:20000001;600:12:20001;");
	}
	/* the output may be an existing trace (overwritten), never an input or something else */
	ck_assert_int_eq(blktrace_merge_check(&j, &err), 0);
	free(j.merge_blktrace_file);
	j.merge_blktrace_file = strdup(tpath("b"));
	ck_assert_int_eq(blktrace_merge_check(&j, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "is one of the traces it merges"));
	free(j.merge_blktrace_file);
	j.merge_blktrace_file = strdup(tpath("target"));
	j.replay_redirect = strdup(tpath("target"));
	ck_assert_int_eq(blktrace_merge_check(&j, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "is the replay_redirect target"));
	free(j.merge_blktrace_file);
	j.merge_blktrace_file = strdup(tpath("txt"));
	{
		FILE *f = fopen(tpath("txt"), "w");

		fputs("precious", f);
		fclose(f);
	}
	ck_assert_int_eq(blktrace_merge_check(&j, &err), -EEXIST);
	ck_assert_ptr_nonnull(strstr(err.msg, "it exists and is not a blktrace"));
	ck_assert_int_eq(symlink(tpath("m"), tpath("lnk")), 0);
	free(j.merge_blktrace_file);
	j.merge_blktrace_file = strdup(tpath("lnk"));
	ck_assert_int_eq(blktrace_merge_check(&j, &err), -EEXIST);
	ck_assert_ptr_nonnull(strstr(err.msg, "symbolic link"));
	free(j.merge_blktrace_file);
	j.merge_blktrace_file = strdup(tpath("no/such/m"));
	ck_assert_int_eq(blktrace_merge_check(&j, &err), -EEXIST);
	job_free(&j);
}
END_TEST

START_TEST(test_plan)
{
	struct blktrace_ev evs[] = {
		ev_make(1000, 8, 4096, Q | R), ev_make(2000, 100, 8192, Q | W), ev_make(3000, 16, 1024, Q | R),
		ev_make(3500, 16, 1024, BLKTRACE_TA_COMPLETE | R), ev_make(4000, 0, 0, Q | FL),
		ev_make(5000, 0, 0, Q | R),
	};
	struct iops_err err = { 0 };
	struct job j;

	put_trace("p", evs, 6, false);
	job_init(&j, tpath("p"));
	j.replay_redirect = strdup("/x/target");
	ck_assert_int_eq(iolog_replay_plan(&j, &err), 0);
	ck_assert_uint_eq(j.nr_files, 1);
	ck_assert_str_eq(j.filenames[0], "/x/target");
	ck_assert_uint_eq(j.size, 100 * 512 + 8192);
	ck_assert(j.rw_has_read && j.rw_has_write && !j.rw_has_trim);
	ck_assert_uint_eq(j.replay_max_len, 8192);
	ck_assert_uint_eq(j.replay_depth, 2);
	ck_assert_ptr_nonnull(strstr(err.msg, "ignoring 1 zero byte events"));
	job_free(&j);
	/* no redirect: a device number that /dev does not have */
	for (unsigned i = 0; i < 6; i++)
		evs[i].device = 4095u << 20 | 77;
	put_trace("p", evs, 6, false);
	job_init(&j, tpath("p"));
	ck_assert_int_eq(iolog_replay_plan(&j, &err), -ENODEV);
	ck_assert_ptr_nonnull(strstr(err.msg, "no block device 4095:77 in /dev"));
	job_free(&j);
	/* the scalars without a file to merge into */
	job_init(&j, tpath("p"));
	j.merge_blktrace_iters = strdup("2");
	ck_assert_int_eq(iolog_replay_plan(&j, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "fio: b: merge_blktrace_iters needs merge_blktrace_file");
	job_free(&j);
}
END_TEST

Suite *blktrace_suite(void)
{
	Suite *s = suite_create("blktrace");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, files_setup, files_teardown);
	tcase_add_test(tc, test_codec);
	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_play_timing);
	tcase_add_test(tc, test_play_offsets);
	tcase_add_test(tc, test_play_depth);
	tcase_add_test(tc, test_list_parse);
	tcase_add_test(tc, test_src_read);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_plan);
	suite_add_tcase(s, tc);
	return s;
}
