/* SPDX-License-Identifier: MIT */
/* Unit tests of zonemode=zbd (lib/fio/offset/zbd.c): emulated zones (count, short last zone,
 * capacity, empty and garbage sizes), zones from a device report (conventional, full,
 * offline), fio's range alignment, and the rules of zbd_adjust(): writes at the write pointer,
 * resets of full zones, trims (zone resets), max_open_zones and job_max_open_zones, zone_reset_frequency, reads
 * below the write pointer (sequential, random, read_beyond_wp), a mixed job's first reads;
 * and the zbd options through job text (fio 3.33's messages). Sequences checked against
 * fio 3.33 runs by tests/e2e/t_fio_zbd.sh. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fio/conf/fioconf.h"
#include "fio/offset/zbd.h"
#include "fioconf_text.h"
#include "runner_testjob.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

/* ---- emulated zones ---------------------------------------------------------------------- */

static const struct emu_case {
	uint64_t size, zone, cap;
	bool ok;
	unsigned nr;
	uint64_t last_start, cap0;
} emu_cases[] = {
	{ 16 * MIB, MIB, 0, true, 16, 15 * MIB, MIB },
	{ 16 * MIB + 1, MIB, 0, true, 17, 16 * MIB, MIB },	/* a short last zone */
	{ MIB, MIB, 512 * KIB, true, 1, 0, 512 * KIB },		/* one zone, half capacity */
	{ 0, MIB, 0, false, 0, 0, 0 },				/* empty file */
	{ MIB, 0, 0, false, 0, 0, 0 },				/* no zone size */
	{ UINT64_MAX, 512, 0, false, 0, 0, 0 },			/* too many zones */
};

START_TEST(test_zbd_emulate)
{
	const struct emu_case *c = &emu_cases[_i];
	struct zbd_dev *dev = zbd_dev_emulate(c->size, c->zone, c->cap);

	if (!c->ok) {
		ck_assert_ptr_null(dev);
		return;
	}
	ck_assert_ptr_nonnull(dev);
	ck_assert_uint_eq(dev->nr_zones, c->nr);
	ck_assert_uint_eq(dev->zones[c->nr - 1].start, c->last_start);
	ck_assert_uint_eq(dev->zones[c->nr].start, (uint64_t)c->nr * c->zone);	/* the end */
	ck_assert_uint_eq(dev->zones[0].cap, c->cap0);
	ck_assert_uint_eq(dev->zones[0].wp, 0);
	ck_assert(dev->zones[0].has_wp);
	ck_assert(!dev->zones[c->nr].has_wp);
	ck_assert_uint_eq(dev->data_bytes, 0);
	ck_assert_uint_eq(zbd_zone_of(dev, 0), 0);
	ck_assert_uint_eq(zbd_zone_of(dev, c->zone - 1), 0);
	ck_assert_uint_eq(zbd_zone_of(dev, UINT64_MAX), c->nr);
	zbd_dev_free(dev);
}
END_TEST

START_TEST(test_zbd_from_report)
{
	struct blkzone_ent e[4] = {
		{ 0, MIB, 0, MIB, BLKZONE_CONV, 0 },
		{ MIB, MIB, MIB + 4096, 768 * KIB, BLKZONE_SEQ_REQ, 2 },
		{ 2 * MIB, MIB, 2 * MIB, 768 * KIB, BLKZONE_SEQ_REQ, BLKZONE_COND_FULL },
		{ 3 * MIB, MIB, 3 * MIB, 768 * KIB, BLKZONE_SEQ_REQ, BLKZONE_COND_OFFLINE },
	};
	struct zbd_dev *dev = zbd_dev_from_report(e, 4, MIB, BLKZONE_HOST_MANAGED);

	ck_assert_ptr_nonnull(dev);
	ck_assert(!dev->zones[0].has_wp);
	ck_assert_uint_eq(dev->zones[0].wp, MIB);		/* conventional: all data */
	ck_assert_uint_eq(dev->zones[1].wp, MIB + 4096);
	ck_assert_uint_eq(dev->zones[2].wp, 2 * MIB + 768 * KIB);	/* full: at its capacity */
	ck_assert(dev->zones[3].offline);
	ck_assert_uint_eq(dev->zones[4].start, 4 * MIB);
	ck_assert_uint_eq(dev->data_bytes, 4096 + 768 * KIB);
	{	/* a conventional zone takes writes anywhere, not into the next zone */
		struct job j;
		struct zbd_job *zj;
		uint64_t off = 4096, len = 64 * KIB;
		bool skip;

		testjob_init(&j, RW_RANDWRITE);
		zj = zbd_job_new(&j, 1);
		ck_assert_ptr_nonnull(zj);
		zbd_job_file(zj, 0, dev, 0, 4 * MIB);
		ck_assert_int_eq(zbd_adjust(zj, 0, DDIR_WRITE, &off, &len, &skip), 0);
		ck_assert_uint_eq(off, 4096);
		ck_assert_uint_eq(len, 64 * KIB);
		off = MIB - 8192;
		ck_assert_int_eq(zbd_adjust(zj, 0, DDIR_WRITE, &off, &len, &skip), 0);
		ck_assert_uint_eq(off, MIB - 8192);
		ck_assert_uint_eq(len, 8192);	/* cut at the sequential zone */
		off = 3 * MIB;	/* offline: the next zone that opens, zone 1 (after the wrap) */
		len = 4096;
		ck_assert_int_eq(zbd_adjust(zj, 0, DDIR_WRITE, &off, &len, &skip), 0);
		ck_assert_uint_eq(off, MIB + 4096);
		off = MIB;
		len = 16384;	/* reads stay below zone 1's write pointer */
		ck_assert_int_eq(zbd_adjust(zj, 0, DDIR_READ, &off, &len, &skip), 0);
		ck_assert_uint_eq(off, MIB);
		ck_assert_uint_eq(len, 8192);
		off = 3 * MIB;	/* offline zone, sequential reads: nothing after it */
		zj->random = false;
		ck_assert_int_eq(zbd_adjust(zj, 0, DDIR_READ, &off, &len, &skip), 1);
		free(zj);
	}
	zbd_dev_free(dev);
	ck_assert_ptr_null(zbd_dev_from_report(e, 0, MIB, BLKZONE_HOST_AWARE));
	ck_assert_ptr_null(zbd_dev_from_report(e, 4, 0, BLKZONE_HOST_AWARE));
}
END_TEST

/* ---- alignment --------------------------------------------------------------------------- */

static const struct align_case {
	uint64_t off, len;
	int ret;
	unsigned note;
	uint64_t want_off, want_len;
} align_cases[] = {
	{ 0, 16 * MIB, 0, 0, 0, 16 * MIB },
	{ MIB, 4 * MIB, 0, 0, MIB, 4 * MIB },
	{ 1536 * KIB, 8 * MIB, 0, 3, 2 * MIB, 7 * MIB },	/* fio: 1572864 -> 2097152, 7864320 -> 7340032 */
	{ 0, 2560 * KIB, 0, 2, 0, 2 * MIB },
	{ 512 * KIB, 2 * MIB, 0, 3, MIB, MIB },			/* up to 1m, then the end 2.5m down to 2m */
	{ 512 * KIB, MIB, -EINVAL, 1, 0, 0 },			/* less than a zone */
	{ 0, 512 * KIB, -EINVAL, 0, 0, 0 },
	{ 0, 64 * MIB, 0, 2, 0, 16 * MIB },			/* past the zones: their end */
	{ 15 * MIB + 1, MIB, -EINVAL, 1, 0, 0 },		/* in the last zone */
};

START_TEST(test_zbd_align)
{
	const struct align_case *c = &align_cases[_i];
	struct zbd_dev *dev = zbd_dev_emulate(16 * MIB, MIB, 0);
	uint64_t off = c->off, len = c->len, oo, ol;
	unsigned note = 9;
	int ret;

	ret = zbd_align_range(dev, &off, &len, &note, &oo, &ol);
	ck_assert_int_eq(ret, c->ret);
	if (!ret) {
		ck_assert_uint_eq(off, c->want_off);
		ck_assert_uint_eq(len, c->want_len);
		ck_assert_uint_eq(note, c->note);
		ck_assert_uint_eq(oo, c->off);
	}
	zbd_dev_free(dev);
}
END_TEST

/* ---- the rules ----------------------------------------------------------------------------- */

/* A job over a fresh emulated file of nz zones of 256k (cap 0: whole zones). */
static struct zbd_job *rig(struct job *j, enum rw_mode rw, unsigned nz, uint64_t cap, struct zbd_dev **dev)
{
	struct zbd_job *zj;

	testjob_init(j, rw);
	for (int d = 0; d < DDIR_NR; d++)
		j->bs_min[d] = j->bs_max[d] = 64 * KIB;
	*dev = zbd_dev_emulate(nz * 256 * KIB, 256 * KIB, cap);
	ck_assert_ptr_nonnull(*dev);
	zj = zbd_job_new(j, 1);
	ck_assert_ptr_nonnull(zj);
	zbd_job_file(zj, 0, *dev, 0, nz * 256 * KIB);
	zbd_job_pass(zj, j->rw_has_write);
	return zj;
}

static void io(struct zbd_job *zj, enum ddir d, uint64_t off, int want_ret, uint64_t want_off, uint64_t want_len)
{
	uint64_t len = 64 * KIB;
	bool skip = false;

	ck_assert_int_eq(zbd_adjust(zj, 0, d, &off, &len, &skip), want_ret);
	if (!want_ret) {
		ck_assert_uint_eq(off, want_off);
		ck_assert_uint_eq(len, want_len);
	}
}

START_TEST(test_zbd_writes)
{
	struct zbd_dev *dev;
	struct job j;
	struct zbd_job *zj = rig(&j, RW_RANDWRITE, 4, 0, &dev);

	io(zj, DDIR_WRITE, 300 * KIB, 0, 256 * KIB, 64 * KIB);	/* zone 1's write pointer */
	io(zj, DDIR_WRITE, 260 * KIB, 0, 320 * KIB, 64 * KIB);
	io(zj, DDIR_WRITE, 0, 0, 0, 64 * KIB);
	ck_assert_uint_eq(dev->data_bytes, 192 * KIB);
	io(zj, DDIR_WRITE, 257 * KIB, 0, 384 * KIB, 64 * KIB);
	io(zj, DDIR_WRITE, 257 * KIB, 0, 448 * KIB, 64 * KIB);	/* fills zone 1 */
	ck_assert_uint_eq(dev->zones[1].wp, 512 * KIB);
	ck_assert_uint_eq(zj->resets, 0);
	io(zj, DDIR_WRITE, 500 * KIB, 0, 256 * KIB, 64 * KIB);	/* full: reset first */
	ck_assert_uint_eq(zj->resets, 1);
	ck_assert_uint_eq(dev->data_bytes, 128 * KIB);
	free(zj);
	zbd_dev_free(dev);
}
END_TEST

START_TEST(test_zbd_trims)
{
	struct zbd_dev *dev;
	struct job j;
	struct zbd_job *zj = rig(&j, RW_RANDTRIM, 4, 0, &dev);
	uint64_t off = 600 * KIB, len = 256 * KIB;
	bool reset_only = false;

	/* nothing written: a random trim finds no zone with data */
	ck_assert_int_eq(zbd_adjust(zj, 0, DDIR_TRIM, &off, &len, &reset_only), 1);
	dev->zones[3].wp = dev->zones[3].start + 64 * KIB;
	dev->data_bytes = 64 * KIB;
	off = 600 * KIB;	/* zone 2, empty: the nearest zone with data, reset */
	ck_assert_int_eq(zbd_adjust(zj, 0, DDIR_TRIM, &off, &len, &reset_only), 0);
	ck_assert_uint_eq(off, 768 * KIB);
	ck_assert(reset_only);
	ck_assert_uint_eq(dev->zones[3].wp, 768 * KIB);
	ck_assert_uint_eq(dev->data_bytes, 0);
	ck_assert_uint_eq(zj->resets, 1);
	zj->random = false;	/* sequential: the zone as it comes, even empty */
	off = 256 * KIB;
	ck_assert_int_eq(zbd_adjust(zj, 0, DDIR_TRIM, &off, &len, &reset_only), 0);
	ck_assert_uint_eq(off, 256 * KIB);
	ck_assert(reset_only);
	ck_assert_uint_eq(zj->resets, 1);	/* an empty zone's reset does not count */
	free(zj);
	zbd_dev_free(dev);
}
END_TEST

START_TEST(test_zbd_capacity)
{
	struct zbd_dev *dev;
	struct job j;
	struct zbd_job *zj = rig(&j, RW_WRITE, 2, 160 * KIB, &dev);

	io(zj, DDIR_WRITE, 0, 0, 0, 64 * KIB);
	io(zj, DDIR_WRITE, 64 * KIB, 0, 64 * KIB, 64 * KIB);
	/* 32k left, less than bs: fio 3.33 resets the zone and starts it over */
	io(zj, DDIR_WRITE, 128 * KIB, 0, 0, 64 * KIB);
	ck_assert_uint_eq(zj->resets, 1);
	/* sequential jobs jump from a capacity end to the zone's end, else go on */
	ck_assert_uint_eq(zbd_seq_next(zj, 0, 160 * KIB), 256 * KIB);
	ck_assert_uint_eq(zbd_seq_next(zj, 0, 128 * KIB), 128 * KIB);
	ck_assert_uint_eq(zbd_seq_next(zj, 0, 256 * KIB + 160 * KIB), 512 * KIB);
	ck_assert_uint_eq(zbd_seq_next(zj, 0, 512 * KIB), 512 * KIB);	/* the end */
	free(zj);
	zbd_dev_free(dev);
}
END_TEST

START_TEST(test_zbd_max_open)
{
	struct zbd_dev *dev;
	struct job j;
	struct zbd_job *zj = rig(&j, RW_RANDWRITE, 8, 0, &dev);

	dev->max_open = 2;
	io(zj, DDIR_WRITE, 0, 0, 0, 64 * KIB);			/* opens zone 0 */
	io(zj, DDIR_WRITE, 1800 * KIB, 0, 1792 * KIB, 64 * KIB);	/* opens zone 7 */
	ck_assert_uint_eq(dev->nr_open, 2);
	/* zone 3 cannot open: the open zone the offset points at (3/8 of the range: index 0) */
	io(zj, DDIR_WRITE, 800 * KIB, 0, 64 * KIB, 64 * KIB);
	io(zj, DDIR_WRITE, 1100 * KIB, 0, 1856 * KIB, 64 * KIB);	/* 1100/2048 x 2 = 1: zone 7 */
	io(zj, DDIR_WRITE, 5, 0, 128 * KIB, 64 * KIB);
	io(zj, DDIR_WRITE, 5, 0, 192 * KIB, 64 * KIB);		/* fills zone 0: closed */
	ck_assert_uint_eq(dev->nr_open, 1);
	ck_assert(!dev->zones[0].open);
	io(zj, DDIR_WRITE, 600 * KIB, 0, 512 * KIB, 64 * KIB);	/* zone 2 opens */
	ck_assert_uint_eq(zj->nr_open, 2);
	free(zj);
	zbd_dev_free(dev);

	zj = rig(&j, RW_RANDWRITE, 8, 0, &dev);	/* job_max_open_zones under a larger limit */
	dev->max_open = 4;
	zj->job_max_open = 1;
	io(zj, DDIR_WRITE, 300 * KIB, 0, 256 * KIB, 64 * KIB);
	io(zj, DDIR_WRITE, 1800 * KIB, 0, 320 * KIB, 64 * KIB);	/* the job's one zone */
	ck_assert_uint_eq(dev->nr_open, 1);
	free(zj);
	zbd_dev_free(dev);
}
END_TEST

START_TEST(test_zbd_reset_frequency)
{
	struct zbd_dev *dev;
	struct job j;
	struct zbd_job *zj;

	testjob_init(&j, RW_WRITE);
	j.zone_reset_threshold = 0;
	j.zone_reset_frequency = 0.5;	/* one write in two */
	zj = rig(&j, RW_WRITE, 2, 0, &dev);
	zj->reset_threshold = 0;
	zj->reset_frequency = 0.5;
	zbd_job_pass(zj, true);
	ck_assert_uint_eq(dev->write_cnt, 2);
	io(zj, DDIR_WRITE, 0, 0, 0, 64 * KIB);			/* count 1, zone empty */
	io(zj, DDIR_WRITE, 64 * KIB, 0, 0, 64 * KIB);		/* count 0: reset, written again */
	ck_assert_uint_eq(zj->resets, 1);
	ck_assert_uint_eq(dev->write_cnt, 2);
	io(zj, DDIR_WRITE, 64 * KIB, 0, 64 * KIB, 64 * KIB);
	free(zj);
	zbd_dev_free(dev);
}
END_TEST

START_TEST(test_zbd_reads)
{
	struct zbd_dev *dev;
	struct job j;
	struct zbd_job *zj = rig(&j, RW_READ, 4, 0, &dev);

	io(zj, DDIR_READ, 0, 1, 0, 0);				/* nothing written: the pass ends */
	dev->zones[1].wp = 256 * KIB + 128 * KIB;
	dev->data_bytes = 128 * KIB;
	io(zj, DDIR_READ, 0, 0, 256 * KIB, 64 * KIB);		/* sequential: the next zone with data */
	io(zj, DDIR_READ, 320 * KIB, 0, 320 * KIB, 64 * KIB);
	io(zj, DDIR_READ, 384 * KIB, 1, 0, 0);			/* at the write pointer, none after */
	free(zj);
	zbd_dev_free(dev);

	zj = rig(&j, RW_RANDREAD, 4, 0, &dev);
	dev->zones[1].wp = 256 * KIB + 192 * KIB;
	dev->data_bytes = 192 * KIB;
	/* zone 3, empty: the nearest zone with data; folded into its 192k: (832k-768k) % 128k */
	io(zj, DDIR_READ, 832 * KIB, 0, 320 * KIB, 64 * KIB);
	io(zj, DDIR_READ, 300 * KIB, 0, 256 * KIB, 64 * KIB);	/* 44k % 128k, down to bs */
	zj->read_beyond_wp = true;
	io(zj, DDIR_READ, 832 * KIB, 0, 832 * KIB, 64 * KIB);
	free(zj);
	zbd_dev_free(dev);
}
END_TEST

START_TEST(test_zbd_mixed_ddir)
{
	struct zbd_dev *dev;
	struct job j;
	struct zbd_job *zj = rig(&j, RW_RANDRW, 4, 0, &dev);

	ck_assert_int_eq(zbd_ddir(zj, 0, DDIR_READ), DDIR_WRITE);	/* nothing to read yet */
	ck_assert_int_eq(zbd_ddir(zj, 0, DDIR_WRITE), DDIR_WRITE);
	io(zj, DDIR_WRITE, 0, 0, 0, 64 * KIB);
	ck_assert_int_eq(zbd_ddir(zj, 0, DDIR_READ), DDIR_READ);
	free(zj);
	zbd_dev_free(dev);
	zj = rig(&j, RW_RANDREAD, 4, 0, &dev);
	ck_assert_int_eq(zbd_ddir(zj, 0, DDIR_READ), DDIR_READ);	/* not a mixed job */
	free(zj);
	zbd_dev_free(dev);
}
END_TEST

/* ---- options ------------------------------------------------------------------------------ */

static const struct text_case {
	const char *opts;
	const char *msg;	/* NULL: accepted */
	uint64_t size;
	unsigned max_open;
	double zrt;
} text_cases[] = {
	{ "zonemode=zbd\nzonesize=1m\nmax_open_zones=4\nzone_reset_threshold=0.5\n", NULL, 65536, 4, 0.5 },
	{ "zonemode=zbd\nzonesize=1m\nsize=4z\n", NULL, 4 * MIB, 0, 0 },
	{ "zonemode=zbd\nzonesize=1m\nmax_open_zones=4096\n", NULL, 65536, 4096, 0 },
	{ "zonemode=zbd\nzonesize=1m\nmax_open_zones=4097\n", "max_open_zones: max value out of range: 4097 (4096 max)", 0, 0, 0 },
	{ "zonemode=zbd\nzone_reset_threshold=2\n", "value out of range: 2.000000 (range max: 1.000000)", 0, 0, 0 },
	{ "zonemode=zbd\nzone_reset_frequency=-1\n", "value out of range: -1.000000 (range min: 0.000000)", 0, 0, 0 },
	{ "zonemode=zbd\nzone_reset_threshold=abc\n", "not a floating point value: abc", 0, 0, 0 },
	/* fio: "the list exceeding max length 1", and 0.5 taken */
	{ "zonemode=zbd\nzonesize=1m\nzone_reset_threshold=0.5:0.3\n", NULL, 65536, 0, 0.5 },
	{ "zonemode=zbd\nread_beyond_wp=2\n", "max value out of range: 2 (1 max)", 0, 0, 0 },
	{ "zonemode=zbd\nzonecapacity=abc\n", "fio: failed parsing zonecapacity=abc", 0, 0, 0 },
	{ "zonemode=zbd\nzonesize=1m\nrw=randtrim\nbs=1m\nsize=2z\n", NULL, 2 * MIB, 0, 0 },
	{ "zonemode=zbd\nzonesize=1m\nrw=randtrimwrite\n", "fio: zonemode=zbd with trimwrite / randtrimwrite is not supported by iops", 0, 0, 0 },
	{ "zonemode=zbd\nzonesize=1m\nrw=trim\nbsrange=4k-1m\n", "bsrange and bssplit are not allowed for trim with zonemode=zbd", 0, 0, 0 },
	{ "size=4z\n", "fio: size=4z (zones) without zonemode=zbd and zonesize= is not supported by iops", 0, 0, 0 },
	{ "zonemode=zbd\noffset=2z\n", "fio: offset=2z (zones) without zonemode=zbd and zonesize= is not supported by iops", 0, 0, 0 },
};

START_TEST(test_zbd_options)
{
	const struct text_case *c = &text_cases[_i];
	char text[512];
	struct fio_config cfg;
	struct opt_diag d;
	int ret;

	snprintf(text, sizeof(text), "[z]\nioengine=null\nsize=64k\n%s", c->opts);
	ret = fioconf_from_text(text, &cfg, &d);
	if (!c->msg && ret)
		ck_abort_msg("%s: %s", c->opts, d.nr ? d.line[0] : "?");
	if (c->msg) {
		ck_assert_int_ne(ret, 0);
		ck_assert_uint_ge(d.nr, 1);
		ck_assert_str_eq(d.line[0], c->msg);
		return;
	}
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(cfg.jobs[0].size, c->size);
	ck_assert_uint_eq(cfg.jobs[0].max_open_zones, c->max_open);
	ck_assert(cfg.jobs[0].zone_reset_threshold == c->zrt);
	fio_config_release(&cfg);
}
END_TEST

Suite *zbd_suite(void)
{
	Suite *s = suite_create("zbd");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_zbd_emulate, 0, (int)(sizeof(emu_cases) / sizeof(emu_cases[0])));
	tcase_add_test(tc, test_zbd_from_report);
	tcase_add_loop_test(tc, test_zbd_align, 0, (int)(sizeof(align_cases) / sizeof(align_cases[0])));
	tcase_add_test(tc, test_zbd_writes);
	tcase_add_test(tc, test_zbd_capacity);
	tcase_add_test(tc, test_zbd_trims);
	tcase_add_test(tc, test_zbd_max_open);
	tcase_add_test(tc, test_zbd_reset_frequency);
	tcase_add_test(tc, test_zbd_reads);
	tcase_add_test(tc, test_zbd_mixed_ddir);
	tcase_add_loop_test(tc, test_zbd_options, 0, (int)(sizeof(text_cases) / sizeof(text_cases[0])));
	suite_add_tcase(s, tc);
	return s;
}
