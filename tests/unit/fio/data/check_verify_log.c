/* SPDX-License-Identifier: MIT */
/* verify_log: the backlog rule and the log's order, against sequences fio 3.33 produced (its
 * write_iolog of the same jobs), plus growth, overlap and the verify_dump files. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner_testjob.h"
#include "fio/offset/offgen.h"
#include "fio/data/verify.h"
#include "fio/data/verify_dump.h"
#include "fio/data/verify_log.h"

#define BS 4096u

/* One job's I/O as fio issues it: ops is the generator's sequence ("w3" a write of block 3,
 * "R3" a read of a mix), the result the same with the read-backs ("r3") and, after "|", the
 * verify phase. */
struct seq_case {
	const char *name;
	unsigned backlog, batch;
	bool overlap;
	const char *ops;
	const char *want;
};

static const struct seq_case seq_cases[] = {
	{ "write backlog=3", 3, 0, false, "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9",
	  "w0 w1 w2 r0 r1 r2 w3 w4 w5 r3 r4 r5 w6 w7 w8 r6 r7 r8 w9 | r9" },
	{ "write backlog=3 batch=2", 3, 2, false, "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9",
	  "w0 w1 w2 r0 r1 w3 w4 r2 r3 w5 w6 r4 r5 w7 w8 r6 r7 w9 | r8 r9" },
	/* a batch that runs dry waits for the next writes */
	{ "write backlog=3 batch=5", 3, 5, false, "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9",
	  "w0 w1 w2 r0 r1 r2 w3 r3 w4 r4 w5 w6 w7 r5 r6 r7 w8 r8 w9 | r9" },
	{ "randwrite backlog=3", 3, 0, false, "w0 w7 w8 w4 w5 w9 w3 w6 w1 w2",
	  "w0 w7 w8 r0 r7 r8 w4 w5 w9 r4 r5 r9 w3 w6 w1 r3 r6 r1 w2 | r2" },
	{ "randwrite backlog=4 batch=1", 4, 1, false, "w0 w7 w8 w4 w5 w9 w3 w6 w1 w2",
	  "w0 w7 w8 w4 r0 w5 r7 w9 r8 w3 r4 w6 r5 w1 r9 w2 | r3 r6 r1 r2" },
	/* norandommap: sorted, a rewrite replaces the pending block */
	{ "norandommap backlog=4", 4, 0, true, "w0 w7 w8 w4 w4 w8 w3 w3 w9 w0",
	  "w0 w7 w8 w4 r0 r4 r7 r8 w4 w8 w3 w3 w9 r3 r4 r8 r9 w0 | r0" },
	/* a mix: its reads are not read-backs, and a batch starts only after a write */
	{ "randrw backlog=2", 2, 0, false, "R0 R7 R8 w4 R5 R9 w3 w6 w1 R2",
	  "R0 R7 R8 w4 R5 R9 w3 r4 r3 w6 w1 r6 r1 R2 |" },
	{ "readwrite backlog=2", 2, 0, false, "R0 R1 R2 w0 R3 R4 w1 w2 w3 R5",
	  "R0 R1 R2 w0 R3 R4 w1 r0 r1 w2 w3 r2 r3 R5 |" },
	/* backlog=1: each write read back at once */
	{ "backlog=1", 1, 0, false, "w0 R0 w1 w2", "w0 r0 R0 w1 r1 w2 | r2" },
	/* no backlog: the phase in write order, or sorted without duplicates */
	{ "no backlog", 0, 0, false, "w3 w1 w2", "w3 w1 w2 | r3 r1 r2" },
	{ "no backlog, overlap", 0, 0, true, "w3 w1 w3 w2", "w3 w1 w3 w2 | r1 r2 r3" },
	{ "nothing written", 4, 0, false, "R1 R2", "R1 R2 |" },
	{ "empty", 4, 0, false, "", "|" },
};

static void out_add(char *out, size_t size, char kind, uint64_t block)
{
	size_t n = strlen(out);

	snprintf(out + n, size - n, "%s%c%llu", n ? " " : "", kind, (unsigned long long)block);
}

static void run_seq(const struct seq_case *c, char *out, size_t size)
{
	struct verify_log l;
	struct verify_ent e;
	bool last_read = false;
	uint64_t seq = 0;

	out[0] = '\0';
	verify_log_init(&l, c->overlap, c->backlog, c->batch);
	for (const char *p = c->ops; *p;) {
		char kind = *p++;
		uint64_t block = strtoull(p, (char **)&p, 10);

		while (*p == ' ')
			p++;
		while (verify_log_backlog_next(&l, last_read, &e)) {
			out_add(out, size, 'r', e.offset / BS);
			last_read = true;
		}
		out_add(out, size, kind, block);
		last_read = kind == 'R';
		if (kind == 'w') {
			struct verify_ent w = { .offset = block * BS, .seed = seq, .len = BS, .file = 0, .seq = seq };

			seq++;
			ck_assert_int_eq(verify_log_add(&l, &w), 0);
		}
	}
	snprintf(out + strlen(out), size - strlen(out), "%s|", out[0] ? " " : "");
	verify_log_phase(&l);
	while (verify_log_pop(&l, &e))
		out_add(out, size, 'r', e.offset / BS);
	ck_assert_uint_eq(verify_log_pending(&l), 0);
	verify_log_release(&l);
}

START_TEST(test_sequences)
{
	const struct seq_case *c = &seq_cases[_i];
	char out[1024];

	run_seq(c, out, sizeof(out));
	if (strcmp(out, c->want))
		ck_abort_msg("%s:\n got  %s\n want %s", c->name, out, c->want);
}
END_TEST

/* Many blocks through a backlog: order, counts, the array reused (compaction) and grown. */
START_TEST(test_growth)
{
	struct verify_log l;
	struct verify_ent e;
	uint64_t next_read = 0, reads = 0;
	const uint64_t n = 200000;

	verify_log_init(&l, false, 1000, 300);
	for (uint64_t i = 0; i < n; i++) {
		struct verify_ent w = { .offset = i * BS, .seed = i * 7, .len = BS, .seq = i };

		while (verify_log_backlog_next(&l, false, &e)) {
			if (e.offset != next_read * BS || e.seed != next_read * 7)
				ck_abort_msg("read-back %llu: block %llu", (unsigned long long)next_read,
					     (unsigned long long)(e.offset / BS));
			next_read++;
			reads++;
		}
		ck_assert_int_eq(verify_log_add(&l, &w), 0);
		if (verify_log_pending(&l) > 1000)
			ck_abort_msg("pending %zu > backlog", verify_log_pending(&l));
	}
	ck_assert_uint_gt(reads, n / 2);
	ck_assert_uint_le(l.cap, 4096);	/* compaction, not growth without end */
	verify_log_phase(&l);
	while (verify_log_pop(&l, &e)) {
		ck_assert_uint_eq(e.offset, next_read * BS);
		next_read++;
	}
	ck_assert_uint_eq(next_read, n);
	verify_log_release(&l);
	verify_log_release(&l);	/* twice: harmless */
}
END_TEST

/* Overlap with different lengths and files: a write drops every pending block it touches. */
START_TEST(test_overlap)
{
	struct verify_log l;
	struct verify_ent e;
	static const struct verify_ent w[] = {
		{ .offset = 0, .len = 8192, .file = 0, .seq = 0 },
		{ .offset = 8192, .len = 8192, .file = 0, .seq = 1 },
		{ .offset = 4096, .len = 8192, .file = 1, .seq = 2 },	/* other file: kept */
		{ .offset = 16384, .len = 4096, .file = 0, .seq = 3 },
		{ .offset = 4096, .len = 8192, .file = 0, .seq = 4 },	/* covers seq 0 and 1 */
		{ .offset = 20480, .len = 4096, .file = 0, .seq = 5 },	/* touches nothing */
		{ .offset = UINT64_MAX - 8192, .len = 4096, .file = 0, .seq = 6 },
	};
	static const uint64_t want_seq[] = { 4, 3, 5, 6, 2 };
	size_t i = 0;

	verify_log_init(&l, true, 100, 0);
	for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++)
		ck_assert_int_eq(verify_log_add(&l, &w[k]), 0);
	ck_assert_uint_eq(verify_log_pending(&l), 5);
	while (verify_log_pop(&l, &e)) {
		ck_assert_uint_lt(i, 5);
		ck_assert_uint_eq(e.seq, want_seq[i]);
		i++;
	}
	ck_assert_uint_eq(i, 5);
	ck_assert(!verify_log_pop(&l, &e));
	ck_assert(!verify_log_backlog_next(&l, false, &e));
	verify_log_release(&l);
}
END_TEST

/* backlog=0: never a read-back, whatever is logged */
START_TEST(test_no_backlog)
{
	struct verify_log l;
	struct verify_ent e, w = { .offset = 0, .len = BS };

	verify_log_init(&l, false, 0, 7);
	for (int i = 0; i < 10; i++) {
		w.offset = (uint64_t)i * BS;
		ck_assert_int_eq(verify_log_add(&l, &w), 0);
		ck_assert(!verify_log_backlog_next(&l, false, &e));
	}
	ck_assert_uint_eq(verify_log_pending(&l), 10);
	verify_log_release(&l);
}
END_TEST

/* ---- verify_dump ------------------------------------------------------------------------ */

START_TEST(test_dump_name)
{
	char b[64];

	ck_assert(verify_dump_name(b, sizeof(b), "/var/tmp/x/foo", 4096, "received"));
	ck_assert_str_eq(b, "foo.4096.received");
	ck_assert(verify_dump_name(b, sizeof(b), "foo", 0, "hdr_fail"));
	ck_assert_str_eq(b, "foo.0.hdr_fail");
	ck_assert(verify_dump_name(b, sizeof(b), "a/b", UINT64_MAX, "expected"));
	ck_assert_str_eq(b, "b.18446744073709551615.expected");
	ck_assert(!verify_dump_name(b, sizeof(b), "dir/", 0, "received"));	/* no base name */
	ck_assert(!verify_dump_name(b, sizeof(b), "", 0, "received"));
	ck_assert(!verify_dump_name(b, 10, "foo", 4096, "received"));		/* does not fit */
}
END_TEST

static char *read_all(const char *name, size_t *len)
{
	FILE *f = fopen(name, "rb");
	char *p;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	p = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

/* A failed check with verify_dump: fio's file names and lines; received is what was read,
 * expected what was written. */
START_TEST(test_dump_files)
{
	char tmpl[] = "/var/tmp/iops-dump-XXXXXX", old[4096];
	struct job *j = malloc(sizeof(*j));
	struct verify_ctx vc;
	struct rng r;
	static uint8_t blk[8192], cp[8192];
	struct verify_io io = { .path = "/x/data.0.0", .offset = 65536, .len = sizeof(blk), .flags = 0x8 };
	char *txt = NULL, *got;
	size_t txt_len = 0, n;
	FILE *diag;

	ck_assert_ptr_nonnull(j);
	ck_assert_ptr_nonnull(getcwd(old, sizeof(old)));
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	ck_assert_int_eq(chdir(tmpl), 0);
	testjob_init(j, RW_WRITE);
	j->verify = VERIFY_MD5;
	j->verify_interval = 4096;
	j->verify_dump = true;
	verify_ctx_init(&vc, j);
	rng_init(&r, 9);
	(void)verify_fill(&vc, blk, sizeof(blk), io.offset, &r, 3, 5000000123ull);

	/* bad data in the second interval */
	memcpy(cp, blk, sizeof(blk));
	cp[4096 + 900] ^= 0xff;
	diag = open_memstream(&txt, &txt_len);
	ck_assert_int_eq(verify_check(&vc, cp, &io, diag), -EILSEQ);
	fclose(diag);
	ck_assert_ptr_nonnull(strstr(txt, "\n       received data dumped as data.0.0.69632.received\n"
				     "       expected data dumped as data.0.0.69632.expected\n"));
	free(txt);
	got = read_all("data.0.0.69632.received", &n);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(n, 4096);
	ck_assert_int_eq(memcmp(got, cp + 4096, 4096), 0);
	free(got);
	got = read_all("data.0.0.69632.expected", &n);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(n, 4096);
	ck_assert_int_eq(memcmp(got, blk + 4096, 4096), 0);	/* rebuilt from the header's seed */
	free(got);

	/* a bad header: the interval as read, as hdr_fail */
	memcpy(cp, blk, sizeof(blk));
	cp[0] ^= 1;
	txt = NULL;
	diag = open_memstream(&txt, &txt_len);
	ck_assert_int_eq(verify_check(&vc, cp, &io, diag), -EILSEQ);
	fclose(diag);
	ck_assert_ptr_nonnull(strstr(txt, "\n       hdr_fail data dumped as data.0.0.65536.hdr_fail\n"));
	free(txt);
	got = read_all("data.0.0.65536.hdr_fail", &n);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(n, 4096);
	ck_assert_int_eq(memcmp(got, cp, 4096), 0);
	free(got);

	/* the pattern: the whole block, expected is the pattern */
	testjob_init(j, RW_WRITE);
	j->verify = VERIFY_PATTERN;
	j->verify_dump = true;
	ck_assert_int_eq(verify_pattern_parse("0xabcd", j), 0);
	verify_ctx_init(&vc, j);
	(void)verify_fill(&vc, blk, sizeof(blk), 0, &r, 0, 0);
	memcpy(cp, blk, sizeof(blk));
	cp[5000] = 0;
	io.offset = 0;
	txt = NULL;
	diag = open_memstream(&txt, &txt_len);
	ck_assert_int_eq(verify_check(&vc, cp, &io, diag), -EILSEQ);
	fclose(diag);
	free(txt);
	got = read_all("data.0.0.0.expected", &n);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(n, sizeof(blk));
	ck_assert_int_eq(memcmp(got, blk, sizeof(blk)), 0);
	free(got);

	/* verify_dump=0: nothing written */
	unlink("data.0.0.0.expected");
	unlink("data.0.0.0.received");
	vc.dump = false;
	txt = NULL;
	diag = open_memstream(&txt, &txt_len);
	ck_assert_int_eq(verify_check(&vc, cp, &io, diag), -EILSEQ);
	fclose(diag);
	ck_assert_ptr_null(strstr(txt, "dumped"));
	free(txt);
	ck_assert_int_ne(access("data.0.0.0.received", F_OK), 0);

	/* a dump that cannot be written: one line, no crash */
	ck_assert_int_eq(mkdir("blocked.0.received", 0700), 0);
	txt = NULL;
	diag = open_memstream(&txt, &txt_len);
	ck_assert_int_lt(verify_dump_write(diag, "blocked", 0, "received", blk, 16), 0);
	fclose(diag);
	ck_assert_ptr_nonnull(strstr(txt, "fio: verify dump: open blocked.0.received: "));
	free(txt);
	rmdir("blocked.0.received");

	unlink("data.0.0.69632.received");
	unlink("data.0.0.69632.expected");
	unlink("data.0.0.65536.hdr_fail");
	ck_assert_int_eq(chdir(old), 0);
	ck_assert_int_eq(rmdir(tmpl), 0);
	free(j);
}
END_TEST

/* ---- experimental_verify's replay: offgen_copy_state() ------------------------------------ */

/* A copy taken mid-pass (maps, positions, generators, randrepeat=0 seeds) hands out exactly
 * what the original hands out from there, to the end of the job; the copy owns its memory. */
START_TEST(test_replay_copy)
{
	static const enum rw_mode modes[] = { RW_RANDRW, RW_RANDWRITE, RW_WRITE };
	uint64_t start[2] = { 0, 4096 }, len[2] = { 1 << 20, 1 << 19 };
	struct iops_err err = { 0 };

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct offgen a, b;
		struct offgen_io ia, ib;
		struct job j;
		unsigned n = 0;

		testjob_init(&j, modes[m]);
		j.randrepeat = false;	/* seeds from the kernel: only a copy repeats them */
		j.loops = 2;
		ck_assert_int_eq(offgen_init(&a, &j, start, len, 2, len[0] + len[1], &err), 0);
		ck_assert_int_eq(offgen_init(&b, &j, start, len, 2, len[0] + len[1], &err), 0);
		for (int i = 0; i < 100; i++)
			ck_assert(offgen_next(&a, &ia));
		offgen_copy_state(&b, &a);
		for (;;) {
			bool ra = offgen_next(&a, &ia), rb = offgen_next(&b, &ib);

			ck_assert_int_eq(ra, rb);
			if (!ra)
				break;
			if (ia.ddir != ib.ddir || ia.file != ib.file || ia.offset != ib.offset || ia.len != ib.len)
				ck_abort_msg("mode %zu, I/O %u: the copy went another way", m, n);
			n++;
		}
		ck_assert_uint_gt(n, 300);
		offgen_release(&a);
		offgen_release(&b);	/* its own maps: no double free */
	}
}
END_TEST

/* trim_percentage: entries found by write number, dropped ones not counted nor popped. */
START_TEST(test_find_dropped)
{
	struct verify_log l;
	struct verify_ent e, *v;

	verify_log_init(&l, false, 0, 0);
	ck_assert_ptr_null(verify_log_find(&l, 0));	/* empty */
	for (uint64_t i = 0; i < 3000; i++) {
		struct verify_ent w = { .offset = i * BS, .len = BS, .seq = i * 2 };

		ck_assert_int_eq(verify_log_add(&l, &w), 0);
	}
	ck_assert_ptr_null(verify_log_find(&l, 1));	/* odd numbers were never logged */
	ck_assert_ptr_null(verify_log_find(&l, 6000));	/* past the end */
	v = verify_log_find(&l, 0);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->offset, 0);
	v = verify_log_find(&l, 5998);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->offset, 2999 * BS);
	v = verify_log_find(&l, 2);
	v->flags |= VERIFY_ENT_DROPPED;
	l.dropped++;
	verify_log_find(&l, 4)->flags |= VERIFY_ENT_TRIMMED;
	ck_assert_uint_eq(verify_log_pending(&l), 2999);
	ck_assert(verify_log_pop(&l, &e));
	ck_assert_uint_eq(e.seq, 0);
	ck_assert(verify_log_pop(&l, &e));	/* 2 is skipped */
	ck_assert_uint_eq(e.seq, 4);
	ck_assert_uint_eq(e.flags, VERIFY_ENT_TRIMMED);
	ck_assert_uint_eq(verify_log_pending(&l), 2997);
	ck_assert_uint_eq(l.dropped, 0);
	ck_assert_ptr_null(verify_log_find(&l, 0));	/* read back: gone */
	ck_assert_ptr_nonnull(verify_log_find(&l, 6));
	verify_log_release(&l);
}
END_TEST

Suite *verify_log_suite(void)
{
	Suite *s = suite_create("verify_log");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_sequences, 0, (int)(sizeof(seq_cases) / sizeof(seq_cases[0])));
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_overlap);
	tcase_add_test(tc, test_no_backlog);
	tcase_add_test(tc, test_dump_name);
	tcase_add_test(tc, test_dump_files);
	tcase_add_test(tc, test_replay_copy);
	tcase_add_test(tc, test_find_dropped);
	suite_add_tcase(s, tc);
	return s;
}
