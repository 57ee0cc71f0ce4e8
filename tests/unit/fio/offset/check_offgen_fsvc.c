/* SPDX-License-Identifier: MIT */
/* Unit tests of the file service (lib/fio/offset/offgen_fsvc.c): whole sequences of files, opens and
 * closes through offgen, as fio 3.33 writes them in a write_iolog trace (rw=randwrite,
 * nrfiles=4, size=64k, bs=4k, one job: observed with fio, encoded as 'o'N open, 'c'N close,
 * N an I/O to file N). */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/offset/offgen.h"
#include "fio/offset/offgen_fsvc.h"
#include "runner_testjob.h"

/* ---- sequences ---------------------------------------------------------------------------- */

static const struct seq_case {
	const char *what;
	enum rw_mode rw;
	unsigned fsvc, nr, open_files;
	double param, center;
	const char *want;
} seq_cases[] = {
	/* observed with fio 3.33 (write_iolog), see the header */
	{ "random", RW_RANDWRITE, FSVC_RANDOM, 1, 0, 0, -1, "o333o000o2202323c3o11120c21c01c1" },
	{ "random:3", RW_RANDWRITE, FSVC_RANDOM, 3, 0, 0, -1, "o33333c3o00000c0o22222c2o11111c1" },
	{ "roundrobin:2", RW_RANDWRITE, FSVC_RR, 2, 0, 0, -1, "o000o111o222o33300112233c0c1c2c3" },
	{ "sequential", RW_RANDWRITE, FSVC_SEQ, 1, 0, 0, -1, "o00000c0o11111c1o22222c2o33333c3" },
	{ "zipf", RW_RANDWRITE, FSVC_ZIPF, 1, 0, 1.1, -1, "o3333333o113o003333033c0c1c3" },
	{ "pareto", RW_RANDWRITE, FSVC_PARETO, 1, 0, 0.2, -1, "o00o333333o11310333133c0c1c3" },
	{ "normal:20:0.4", RW_RANDWRITE, FSVC_NORMAL, 1, 0, 20, 0.4, "o1111111111111o00o2221c0c1c2" },
	{ "openfiles=2", RW_WRITE, FSVC_RR, 1, 2, 0, -1, "o00o11010101c0c1o22o33232323c2c3" },
	/* iops' own edges: one file open at a time is sequential; all open is plain round robin */
	{ "openfiles=1", RW_WRITE, FSVC_RR, 1, 1, 0, -1, "o00000c0o11111c1o22222c2o33333c3" },
	{ "roundrobin, openfiles=4", RW_WRITE, FSVC_RR, 1, 4, 0, -1, "o00o11o22o33012301230123c0c1c2c3" },
	{ "a turn longer than the file", RW_WRITE, FSVC_RR, 100, 0, 0, -1, "o00000c0o11111c1o22222c2o33333c3" },
};

/* The sequence offgen gives for c, encoded as in the table, plus the closes the runner writes
 * at the end for the files still open. */
static void run_seq(const struct seq_case *c, char *out, size_t n)
{
	struct job j;
	struct offgen og;
	struct offgen_io io;
	struct iops_err err = { 0 };
	uint64_t start[4] = { 0 }, len[4] = { 16384, 16384, 16384, 16384 };
	size_t used = 0;

	testjob_init(&j, c->rw);
	j.nr_files = 4;
	j.size = 65536;
	j.file_service = c->fsvc;
	j.file_service_nr = c->nr;
	j.open_files = c->open_files;
	j.fsvc_param = c->param;
	j.fsvc_center = c->center;
	j.write_iolog = (char *)"t.log";	/* the trace's open / close points */
	ck_assert_int_eq(offgen_init(&og, &j, start, len, 4, 65536, &err), 0);
	ck_assert_ptr_nonnull(og.fsvc);
	out[0] = '\0';
	while (offgen_next(&og, &io) || og.fsvc->nr_ev) {
		for (unsigned k = 0; k < og.fsvc->nr_ev && used + 3 < n; k++)
			used += (size_t)snprintf(out + used, n - used, "%c%u", og.fsvc->ev[k].open ? 'o' : 'c',
						 og.fsvc->ev[k].file);
		og.fsvc->nr_ev = 0;
		if (og.ended)
			break;
		if (used + 2 < n)
			used += (size_t)snprintf(out + used, n - used, "%u", io.file);
	}
	for (unsigned f = 0; f < 4; f++)
		if (offgen_fsvc_is_open(&og, f) && used + 3 < n)
			used += (size_t)snprintf(out + used, n - used, "c%u", f);
	offgen_release(&og);
}

START_TEST(test_fsvc_sequences)
{
	const struct seq_case *c = &seq_cases[_i];
	char got[512];

	run_seq(c, got, sizeof(got));
	ck_assert_msg(!strcmp(got, c->want), "%s: got %s, want %s", c->what, got, c->want);
}
END_TEST

/* plain round robin with every file open and no trace needs no file service at all */
START_TEST(test_fsvc_off_by_default)
{
	struct job j;

	testjob_init(&j, RW_RANDREAD);
	ck_assert(!offgen_fsvc_wanted(&j, 4));
	j.open_files = 4;
	ck_assert(!offgen_fsvc_wanted(&j, 4));
	j.open_files = 9;	/* more than the files: all of them */
	ck_assert(!offgen_fsvc_wanted(&j, 4));
	j.open_files = 3;
	ck_assert(offgen_fsvc_wanted(&j, 4));
	j.open_files = 0;
	j.file_service_nr = 2;
	ck_assert(offgen_fsvc_wanted(&j, 4));
	j.file_service_nr = 1;
	j.file_service = FSVC_SEQ;
	ck_assert(offgen_fsvc_wanted(&j, 1));
}
END_TEST

/* a pass starts every file closed and the generators seeded again: loops repeat the choices */
START_TEST(test_fsvc_loops_repeat)
{
	struct job j;
	struct offgen og;
	struct offgen_io io;
	struct iops_err err = { 0 };
	uint64_t start[3] = { 0 }, len[3] = { 8192, 8192, 8192 };
	unsigned files[32], nr = 0;

	testjob_init(&j, RW_RANDWRITE);
	j.nr_files = 3;
	j.loops = 2;
	j.file_service = FSVC_RANDOM;
	ck_assert_int_eq(offgen_init(&og, &j, start, len, 3, 24576, &err), 0);
	while (nr < 32 && offgen_next(&og, &io))
		files[nr++] = io.file;
	ck_assert_uint_eq(nr, 12);
	ck_assert_int_eq(memcmp(files, files + 6, 6 * sizeof(files[0])), 0);
	ck_assert_uint_ge(og.fsvc->nr_open, 1);	/* the pass ended on bytes: the last file stays open */
	offgen_release(&og);
}
END_TEST

/* fsync=N: the sync takes the next file's turn (round robin with or without the file service),
 * and there is room only while bytes are left */
START_TEST(test_fsvc_sync_turn)
{
	for (int with = 0; with < 2; with++) {
		struct job j;
		struct offgen og;
		struct offgen_io io;
		struct iops_err err = { 0 };
		uint64_t start[3] = { 0 }, len[3] = { 4096, 4096, 4096 };

		testjob_init(&j, RW_WRITE);
		j.nr_files = 3;
		if (with)
			j.write_iolog = (char *)"t.log";
		ck_assert_int_eq(offgen_init(&og, &j, start, len, 3, 12288, &err), 0);
		ck_assert(with ? og.fsvc != NULL : og.fsvc == NULL);
		ck_assert(offgen_next(&og, &io));
		ck_assert_uint_eq(io.file, 0);
		ck_assert(offgen_has_room(&og));
		ck_assert_int_eq(offgen_sync_file(&og), 1);	/* the sync's turn */
		ck_assert(offgen_next(&og, &io));
		ck_assert_uint_eq(io.file, 2);
		ck_assert(offgen_next(&og, &io));
		ck_assert_uint_eq(io.file, 0 + 1);	/* file 0 is used up: on to 1 */
		ck_assert(!offgen_has_room(&og));	/* 12k issued: nothing left */
		ck_assert(!offgen_next(&og, &io));
		ck_assert_int_eq(offgen_sync_file(&og), 2);	/* file 0 is skipped: it is done */
		offgen_release(&og);
	}
}
END_TEST

Suite *offgen_fsvc_suite(void)
{
	Suite *s = suite_create("offgen_fsvc");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_fsvc_sequences, 0, (int)(sizeof(seq_cases) / sizeof(seq_cases[0])));
	tcase_add_test(tc, test_fsvc_off_by_default);
	tcase_add_test(tc, test_fsvc_loops_repeat);
	tcase_add_test(tc, test_fsvc_sync_turn);
	suite_add_tcase(s, tc);
	return s;
}
