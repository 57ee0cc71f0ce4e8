/* SPDX-License-Identifier: MIT */
/* Unit tests of lib/fio/log/logzip.c: log_store_compressed's blocks (one zlib stream each) and
 * --inflate-log's reading of a file of such streams, against zlib's own streams and against
 * every way such a file goes wrong: cut at each byte, flipped bits, a wrong check, a preset
 * dictionary, garbage, an unreadable descriptor, samples cut between output chunks. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "fio/log/iolog.h"
#include "fio/log/logzip.h"

/* The samples fio would log: entry i of n, with an offset (40 bytes) or without (32). */
static struct iolog_entry *entries(size_t n, bool off)
{
	struct iolog_entry *e = calloc(n ? n : 1, sizeof(*e));

	ck_assert_ptr_nonnull(e);
	for (size_t i = 0; i < n; i++) {
		e[i].time_ms = i * 7;
		e[i].value = i * 1000003u % 99991;
		e[i].ddir = (uint32_t)(i % 3) | (off ? IOLOG_F_OFFSET : 0);
		e[i].bs = 4096u << (i % 4);
		e[i].offset = off ? (uint64_t)i << 12 : 0;
	}
	return e;
}

/* The text lines iolog_format() makes of e[0..n). */
static char *lines(const struct iolog_entry *e, size_t n)
{
	char *buf = NULL, line[IOLOG_LINE_MAX];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	for (size_t i = 0; i < n; i++)
		fwrite(line, 1, iolog_format(line, &e[i]), f);
	fclose(f);
	return buf;
}

/* A file (unlinked, rewound) holding len bytes of p. */
static int file_of(const void *p, size_t len)
{
	char path[] = "/tmp/iops-check-logzip-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	unlink(path);
	ck_assert_int_eq(write(fd, p, len), (ssize_t)len);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* logzip_inflate() of fd: the text printed (the caller frees it), *ret its result. */
static char *inflate_fd(int fd, int *ret, struct iops_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	memset(err, 0, sizeof(*err));
	*ret = logzip_inflate(fd, out, err);
	fclose(out);
	return buf;
}

static char *inflate_bytes(const void *p, size_t len, int *ret, struct iops_err *err)
{
	int fd = file_of(p, len);
	char *text = inflate_fd(fd, ret, err);

	close(fd);
	return text;
}

/* Blocks of one compressor, appended: the file log_store_compressed writes. */
struct zfile {
	unsigned char *p;
	size_t len, cap;
};

static void zfile_add(struct zfile *f, struct iolog_zip *z, const struct iolog_entry *e, size_t n)
{
	const unsigned char *out;
	size_t out_len;

	ck_assert_int_eq(logzip_block(z, e, n, &out, &out_len), 0);
	if (f->len + out_len > f->cap) {
		f->cap = (f->len + out_len) * 2;
		f->p = realloc(f->p, f->cap);
		ck_assert_ptr_nonnull(f->p);
	}
	memcpy(f->p + f->len, out, out_len);
	f->len += out_len;
}

/* Round trips: block sizes that split the samples anywhere, both sample sizes, one sample, none,
 * and a log far larger than one output chunk (256 KiB: samples cut between chunks). */
static const struct { size_t n, per_block; bool off; } trips[] = {
	{ 0, 1, false }, { 1, 1, true }, { 10, 3, false }, { 777, 64, true },
	{ 20000, 1000, false }, { 20000, 7, true }, { 60000, 60000, true },
};

START_TEST(test_round_trip)
{
	struct iolog_entry *e = entries(trips[_i].n, trips[_i].off);
	struct iolog_zip *z = logzip_new(trips[_i].per_block * sizeof(*e));
	struct zfile f = { 0 };
	struct iops_err err;
	char *want = lines(e, trips[_i].n), *got;
	int ret;

	ck_assert_ptr_nonnull(z);
	for (size_t i = 0; i < trips[_i].n; i += trips[_i].per_block) {
		size_t k = trips[_i].n - i < trips[_i].per_block ? trips[_i].n - i : trips[_i].per_block;

		zfile_add(&f, z, e + i, k);
	}
	got = inflate_bytes(f.p ? (const void *)f.p : "", f.len, &ret, &err);
	ck_assert_msg(ret == 0, "%d %s", ret, err.msg);
	ck_assert_str_eq(got, want);
	free(got);
	free(want);
	free(f.p);
	free(e);
	logzip_free(z);
}
END_TEST

/* Each block is a standard zlib stream (any inflater reads it, as fio's zlib does) holding the
 * samples' bytes: 40 each with an offset, packed to 32 without. A block larger than the
 * compressor was made for is refused. */
START_TEST(test_block_is_zlib)
{
	for (int off = 0; off < 2; off++) {
		struct iolog_entry *e = entries(100, off);
		struct iolog_zip *z = logzip_new(100 * sizeof(*e));
		const unsigned char *out;
		unsigned char raw[100 * sizeof(*e)];
		size_t out_len, sz = off ? sizeof(*e) : IOLOG_ENTRY_SHORT;
		uLongf raw_len = sizeof(raw);

		ck_assert_int_eq(logzip_block(z, e, 100, &out, &out_len), 0);
		ck_assert_int_eq(out[0], 0x78);	/* deflate, 32 KiB window */
		ck_assert_int_eq(uncompress(raw, &raw_len, out, out_len), Z_OK);
		ck_assert_uint_eq(raw_len, 100 * sz);
		for (size_t i = 0; i < 100; i++)
			ck_assert_mem_eq(raw + i * sz, &e[i], sz);
		ck_assert_int_eq(logzip_block(z, e, 101, &out, &out_len), -EINVAL);
		logzip_free(z);
		free(e);
	}
	logzip_free(NULL);
}
END_TEST

/* zlib's own streams, at each compression level and strategy, and stored blocks, read back. */
START_TEST(test_reads_zlib_streams)
{
	static const int levels[] = { 0, 1, 6, 9 };
	struct iolog_entry *e = entries(3000, true);
	char *want = lines(e, 3000);
	uLong bound = compressBound(3000 * sizeof(*e));
	unsigned char *z = malloc(bound);

	for (unsigned l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
		uLongf zlen = bound;
		struct iops_err err;
		char *got;
		int ret;

		ck_assert_int_eq(compress2(z, &zlen, (const Bytef *)e, 3000 * sizeof(*e), levels[l]), Z_OK);
		got = inflate_bytes(z, zlen, &ret, &err);
		ck_assert_msg(ret == 0, "level %d: %s", levels[l], err.msg);
		ck_assert_str_eq(got, want);
		free(got);
	}
	free(z);
	free(want);
	free(e);
}
END_TEST

/* What is not a whole compressed log: one line, and the errno fio's --inflate-log exits with. */
START_TEST(test_errors)
{
	struct iolog_entry *e = entries(50, false);
	struct iolog_zip *zc = logzip_new(50 * sizeof(*e));
	struct zfile f = { 0 };
	unsigned char bad[4096];
	struct iops_err err;
	char *text;
	int ret, fd;

	zfile_add(&f, zc, e, 25);
	zfile_add(&f, zc, e + 25, 25);
	/* empty: nothing printed, fine */
	text = inflate_bytes("", 0, &ret, &err);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(text, "");
	free(text);
	/* cut at every byte: an error, except between the two streams (the first one's samples) */
	for (size_t cut = 1; cut < f.len; cut++) {
		text = inflate_bytes(f.p, cut, &ret, &err);
		if (ret == 0) {
			char *first = lines(e, 25);

			ck_assert_str_eq(text, first);
			free(first);
		} else {
			ck_assert_int_eq(ret, -EIO);
			ck_assert_str_eq(err.msg, "fio: failed inflating log: the file ends inside a compressed stream");
		}
		free(text);
	}
	/* a wrong Adler-32 at the end */
	memcpy(bad, f.p, f.len);
	bad[f.len - 1] ^= 1;
	free(inflate_bytes(bad, f.len, &ret, &err));
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_str_eq(err.msg, "fio: failed inflating log: not a compressed fio log (incorrect data check)");
	/* not zlib: a text log, a bad header check, a preset dictionary (FDICT), garbage after a log */
	free(inflate_bytes("0, 1, 0, 4096, 0\n", 17, &ret, &err));
	ck_assert_int_eq(ret, -EINVAL);
	ck_assert_str_eq(err.msg, "fio: failed inflating log: not a compressed fio log (bad data)");
	memcpy(bad, f.p, f.len);
	bad[1] ^= 1;
	free(inflate_bytes(bad, f.len, &ret, &err));
	ck_assert_int_eq(ret, -EINVAL);
	bad[0] = 0x78;
	bad[1] = 0xbb;	/* FDICT set (0x78bb is a multiple of 31) */
	free(inflate_bytes(bad, f.len, &ret, &err));
	ck_assert_int_eq(ret, -EINVAL);
	memcpy(bad, f.p, f.len);
	memcpy(bad + f.len, "junk", 4);
	free(inflate_bytes(bad, f.len + 4, &ret, &err));
	ck_assert_int_eq(ret, -EINVAL);
	/* a stream that ends inside a sample: 20 bytes of a 32-byte one */
	{
		uLongf zlen = sizeof(bad);

		ck_assert_int_eq(compress2(bad, &zlen, (const Bytef *)e, 20, 6), Z_OK);
		free(inflate_bytes(bad, zlen, &ret, &err));
		ck_assert_int_eq(ret, -EIO);
		ck_assert_str_eq(err.msg, "fio: failed inflating log: the file ends inside a sample");
	}
	/* a descriptor that cannot be read: the read's errno */
	fd = open("/", O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	free(inflate_fd(fd, &ret, &err));
	close(fd);
	ck_assert_int_eq(ret, -EISDIR);
	ck_assert_str_eq(err.msg, "fio: failed inflating log: Is a directory");
	free(f.p);
	free(e);
	logzip_free(zc);
}
END_TEST

Suite *logzip_suite(void);
Suite *logzip_suite(void)
{
	Suite *s = suite_create("logzip");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_round_trip, 0, (int)(sizeof(trips) / sizeof(trips[0])));
	tcase_add_test(tc, test_block_is_zlib);
	tcase_add_test(tc, test_reads_zlib_streams);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}
