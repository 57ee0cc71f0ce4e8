/* SPDX-License-Identifier: MIT */
#include "fio/data/verify.h"

#include "fio/opt_diag.h"
#include "fio/data/pattern.h"
#include "fio/data/verify_dump.h"
#include "fio/data/verify_sum.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define VERIFY_WHERE_BYTES	4400	/* a path (PATH_MAX) and the block figures */

/* ---- little-endian helpers -------------------------------------------------------------- */

static inline uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t get_le64(const unsigned char *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static inline void put_le64(unsigned char *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

/* ---- types and options ------------------------------------------------------------------ */

/* Name and checksum bytes of each type that has a checksum, by fio's number. */
static const struct {
	unsigned char type, bytes;
	char name[9];
} verify_sums[] = {
	{ VERIFY_MD5, 16, "md5" },	    { VERIFY_CRC64, 8, "crc64" },	   { VERIFY_CRC32, 4, "crc32" },
	{ VERIFY_CRC32C, 4, "crc32c" },	    { VERIFY_CRC16, 2, "crc16" },	   { VERIFY_CRC7, 1, "crc7" },
	{ VERIFY_SHA256, 64, "sha256" },    { VERIFY_SHA512, 128, "sha512" },	   { VERIFY_SHA3_224, 28, "sha3-224" },
	{ VERIFY_SHA3_256, 32, "sha3-256" }, { VERIFY_SHA3_384, 48, "sha3-384" }, { VERIFY_SHA3_512, 64, "sha3-512" },
	{ VERIFY_XXHASH, 4, "xxhash" },	    { VERIFY_SHA1, 20, "sha1" },
};

const char *verify_type_name(unsigned type)
{
	for (size_t i = 0; i < sizeof(verify_sums) / sizeof(verify_sums[0]); i++)
		if (verify_sums[i].type == type)
			return verify_sums[i].name;	/* crc32c for crc32c-intel too, as fio names it */
	switch (type) {
	case VERIFY_META:
		return "meta";
	case VERIFY_PATTERN:
	case VERIFY_PATTERN_HDR:
		return "pattern";
	case VERIFY_NULL:
		return "null";
	default:
		return "none";
	}
}

unsigned verify_csum_bytes(unsigned type)
{
	for (size_t i = 0; i < sizeof(verify_sums) / sizeof(verify_sums[0]); i++)
		if (verify_sums[i].type == type)
			return verify_sums[i].bytes;
	return 0;
}

int verify_pattern_parse(const char *s, struct job *job)
{
	struct pattern_out out = { .buf = job->verify_pattern, .cap = JOB_VERIFY_PATTERN_MAX,
				   .o_pos = job->verify_pattern_o, .o_cap = JOB_VERIFY_PATTERN_O_MAX };
	int ret = pattern_parse(s, &out);

	job->verify_pattern_len = ret ? 0 : out.len;
	job->nr_verify_pattern_o = ret ? 0 : out.nr_o;
	return ret;
}

/* ---- fill and check --------------------------------------------------------------------- */

void verify_ctx_init(struct verify_ctx *vc, const struct job *job)
{
	memset(vc, 0, sizeof(*vc));
	vc->type = job->verify;
	vc->interval = job->verify_interval;
	vc->hdr_offset = job->verify_offset;
	vc->hdr = job->verify != VERIFY_PATTERN && job->verify != VERIFY_NULL && job->verify != VERIFY_NONE;
	vc->hdr_bytes = VERIFY_HDR_BYTES + verify_csum_bytes(job->verify);
	vc->thread = job->thread_number;
	vc->fatal = job->verify_fatal;
	vc->dump = job->verify_dump;
	vc->hw_crc = verify_sum_has_crc32c();
	vc->job = job;
}

/* The pattern over len bytes, %o = offset. */
static void pattern_fill(const struct job *job, unsigned char *p, uint64_t len, uint64_t offset)
{
	unsigned char pat[JOB_VERIFY_PATTERN_MAX];
	unsigned plen = job->verify_pattern_len;

	memcpy(pat, job->verify_pattern, plen);
	for (unsigned i = 0; i < job->nr_verify_pattern_o; i++)
		put_le64(pat + job->verify_pattern_o[i], offset);
	for (uint64_t done = 0; done < len;) {
		uint64_t n = len - done < plen ? len - done : plen;

		memcpy(p + done, pat, (size_t)n);
		done += n;
	}
}

/* fio keeps the crc32c of the header without the final inversion. */
static uint32_t hdr_crc(const struct verify_ctx *vc, const unsigned char *p)
{
	return ~verify_sum_crc32c(p, 36, vc->hw_crc);
}

/* The checksum of the type over [p, p+n) into out (up to VERIFY_CSUM_MAX bytes, as stored). */
static void csum(const struct verify_ctx *vc, const unsigned char *p, size_t n, unsigned char *out)
{
	switch (vc->type) {
	case VERIFY_MD5:
		verify_sum_md5(p, n, out);
		break;
	case VERIFY_CRC64:
		put_le64(out, verify_sum_crc64(p, n));
		break;
	case VERIFY_CRC16: {
		uint16_t c = verify_sum_crc16(p, n);

		out[0] = (unsigned char)c;
		out[1] = (unsigned char)(c >> 8);
		break;
	}
	case VERIFY_CRC7:
		out[0] = verify_sum_crc7(p, n);
		break;
	case VERIFY_SHA1:
		verify_sum_sha1(p, n, out);
		break;
	case VERIFY_SHA256:
		verify_sum_fio_sha256(p, n, out);
		break;
	case VERIFY_SHA512:
		verify_sum_fio_sha512(p, n, out);
		break;
	case VERIFY_SHA3_224:
	case VERIFY_SHA3_256:
	case VERIFY_SHA3_384:
	case VERIFY_SHA3_512:
		verify_sum_sha3(p, n, verify_csum_bytes(vc->type), out);
		break;
	case VERIFY_CRC32:
		put_le32(out, verify_sum_crc32(p, n));
		break;
	case VERIFY_CRC32C:
		put_le32(out, ~verify_sum_crc32c(p, n, vc->hw_crc));	/* fio: no final inversion */
		break;
	case VERIFY_XXHASH:
		put_le32(out, verify_sum_xxh32(p, n, VERIFY_XXH32_SEED));
		break;
	default:
		break;
	}
}

/* Move the header between the start of the piece and verify_offset. Each step undoes the
 * other's byte swaps in reverse order, so overlapping ranges round-trip too. */
static void hdr_swap(unsigned char *p, unsigned off, unsigned n, bool forward)
{
	for (unsigned k = 0; k < n; k++) {
		unsigned i = forward ? k : n - 1 - k;
		unsigned char t = p[i];

		p[i] = p[off + i];
		p[off + i] = t;
	}
}

/* Length of the piece starting at pos of a len-byte block; 0 when it holds no header. */
static uint64_t piece_len(const struct verify_ctx *vc, uint64_t pos, uint64_t len)
{
	uint64_t n = vc->interval && vc->interval < len - pos ? vc->interval : len - pos;

	return n >= (uint64_t)vc->hdr_bytes + vc->hdr_offset ? n : 0;
}

/* The header of an n-byte interval at p (its data in place), then its checksum. */
static void put_hdr(const struct verify_ctx *vc, unsigned char *p, uint64_t n, uint64_t seed, uint64_t off,
		    uint32_t sec, uint32_t nsec, uint16_t thread, uint16_t numberio)
{
	p[0] = (unsigned char)VERIFY_MAGIC;
	p[1] = (unsigned char)(VERIFY_MAGIC >> 8);
	p[2] = (unsigned char)vc->type;
	p[3] = (unsigned char)(vc->type >> 8);
	put_le32(p + 4, (uint32_t)n);
	put_le64(p + 8, seed);
	put_le64(p + 16, off);
	put_le32(p + 24, sec);
	put_le32(p + 28, nsec);
	p[32] = (unsigned char)thread;
	p[33] = (unsigned char)(thread >> 8);
	p[34] = (unsigned char)numberio;
	p[35] = (unsigned char)(numberio >> 8);
	put_le32(p + 36, hdr_crc(vc, p));
	csum(vc, p + vc->hdr_bytes, (size_t)(n - vc->hdr_bytes), p + VERIFY_HDR_BYTES);
}

uint64_t verify_fill(const struct verify_ctx *vc, void *buf, uint64_t len, uint64_t offset,
		     struct rng *r, uint32_t numberio, uint64_t now_ns)
{
	unsigned char *b = buf;
	uint64_t seed = 0;

	if (vc->job->verify_pattern_len) {
		pattern_fill(vc->job, b, len, offset);
	} else {
		struct rng data;

		seed = rng_next(r);
		rng_init(&data, seed);	/* the data follows from the seed: a dump can show it again */
		rng_fill(&data, b, (size_t)len);
	}
	if (!vc->hdr)
		return seed;
	for (uint64_t pos = 0; pos < len;) {
		uint64_t n = piece_len(vc, pos, len);
		unsigned char *p = b + pos;

		if (!n)
			break;
		put_hdr(vc, p, n, seed, offset + pos, (uint32_t)(now_ns / 1000000000u),
			(uint32_t)(now_ns % 1000000000u), (uint16_t)vc->thread, (uint16_t)numberio);
		if (vc->hdr_offset)
			hdr_swap(p, vc->hdr_offset, vc->hdr_bytes, true);
		pos += n;
	}
	return seed;
}

/* verify_dump: what the interval [pos, pos+n) of the block read (buf, header in place at pos)
 * should have held: the data of the seed (or the pattern) and the header it carries. */
static void dump_expected(const struct verify_ctx *vc, FILE *diag, const unsigned char *buf, const struct verify_io *io,
			  uint64_t pos, uint64_t n)
{
	const unsigned char *h = buf + pos;
	unsigned char *exp = malloc((size_t)io->len);

	if (!exp) {
		fprintf(diag, "fio: verify dump: out of memory for the expected data\n");
		return;
	}
	if (vc->job->verify_pattern_len) {
		pattern_fill(vc->job, exp, io->len, io->offset);
	} else {
		struct rng data;

		rng_init(&data, get_le64(h + 8));
		rng_fill(&data, exp, (size_t)io->len);
	}
	if (vc->hdr)
		put_hdr(vc, exp + pos, n, get_le64(h + 8), io->offset + pos, get_le32(h + 24), get_le32(h + 28),
			(uint16_t)(h[32] | h[33] << 8), (uint16_t)(h[34] | h[35] << 8));
	verify_dump_write(diag, io->path, io->offset + pos, "expected", exp + pos, n);
	free(exp);
}

/* verify_dump: the bad interval as read, then (data failures) as it should be. */
static void dump_bad(const struct verify_ctx *vc, FILE *diag, const unsigned char *buf, const struct verify_io *io,
		     uint64_t pos, uint64_t n, bool hdr_fail)
{
	if (!vc->dump)
		return;
	verify_dump_write(diag, io->path, io->offset + pos, hdr_fail ? "hdr_fail" : "received", buf + pos, n);
	if (!hdr_fail)
		dump_expected(vc, diag, buf, io, pos, n);
}

static void hex(char *out, const unsigned char *p, unsigned n)
{
	static const char digits[] = "0123456789abcdef";

	for (unsigned i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}

/* Compare [from, to) of the block with the pattern; fio's messages at the first bad byte. */
static int check_pattern(const struct verify_ctx *vc, const unsigned char *b, uint64_t from, uint64_t to,
			 const struct verify_io *io, FILE *diag)
{
	unsigned char win[256 + JOB_VERIFY_PATTERN_MAX];
	uint64_t plen = vc->job->verify_pattern_len;

	for (uint64_t pos = from; pos < to;) {
		uint64_t n = to - pos < 256 ? to - pos : 256, phase = pos % plen;

		/* the pattern over [pos, pos+n), from a window aligned on its period */
		pattern_fill(vc->job, win, n + phase, io->offset);
		for (uint64_t i = 0; i < n; i++)
			if (b[pos + i] != win[phase + i]) {
				unsigned got = b[pos + i], want = win[phase + i];

				unsigned bad = 0;

				for (unsigned x = got ^ want; x; x >>= 1)
					bad += x & 1u;
				fprintf(diag, "fio: got pattern '%02x', wanted '%02x'. Bad bits %u\n", got, want, bad);
				fprintf(diag, "fio: bad pattern block offset %llu\n", (unsigned long long)(pos + i - from));
				fprintf(diag, "pattern: verify failed at file %s offset %llu, length %llu (requested block: "
					"offset=%llu, length=%llu, flags=%x)\n", io->path, (unsigned long long)io->offset,
					(unsigned long long)io->len, (unsigned long long)io->offset,
					(unsigned long long)io->len, io->flags);
				return -EILSEQ;
			}
		pos += n;
	}
	return 0;
}

int verify_check(const struct verify_ctx *vc, void *buf, const struct verify_io *io, FILE *diag)
{
	unsigned char *b = buf;
	int ret = 0;

	if (vc->type == VERIFY_PATTERN) {
		ret = check_pattern(vc, b, 0, io->len, io, diag);
		if (ret)
			dump_bad(vc, diag, b, io, 0, io->len, false);
		return ret;
	}
	if (!vc->hdr)
		return 0;
	for (uint64_t pos = 0; pos < io->len;) {
		uint64_t n = piece_len(vc, pos, io->len), off = io->offset + pos;
		unsigned char *p = b + pos;
		unsigned char want[VERIFY_CSUM_MAX];
		char where[VERIFY_WHERE_BYTES];
		unsigned type;
		int w;

		if (!n)
			break;
		w = snprintf(where, sizeof(where), "at file %s offset %llu, length %llu (requested block: offset=%llu, "
			     "length=%llu", io->path, (unsigned long long)off, (unsigned long long)n,
			     (unsigned long long)io->offset, (unsigned long long)io->len);
		if (w < 0 || (size_t)w >= sizeof(where))
			where[sizeof(where) - 1] = '\0';	/* a cut path still names the block */
		if (vc->hdr_offset)
			hdr_swap(p, vc->hdr_offset, vc->hdr_bytes, false);
		type = (unsigned)p[2] | (unsigned)p[3] << 8;
		if ((p[0] | p[1] << 8) != (int)VERIFY_MAGIC) {
			fprintf(diag, "verify: bad magic header %x, wanted %x %s)\n", p[0] | p[1] << 8, VERIFY_MAGIC, where);
			dump_bad(vc, diag, b, io, pos, n, true);
			return -EILSEQ;
		}
		if (get_le32(p + 4) != n) {
			fprintf(diag, "verify: bad header length %u, wanted %llu %s)\n", get_le32(p + 4),
				(unsigned long long)n, where);
			dump_bad(vc, diag, b, io, pos, n, true);
			return -EILSEQ;
		}
		if (get_le64(p + 16) != off) {
			fprintf(diag, "verify: bad header offset %llu, wanted %llu %s)\n",
				(unsigned long long)get_le64(p + 16), (unsigned long long)off, where);
			dump_bad(vc, diag, b, io, pos, n, true);
			return -EILSEQ;
		}
		if (get_le32(p + 36) != hdr_crc(vc, p)) {
			fprintf(diag, "verify: bad header crc %x, calculated %x %s)\n", get_le32(p + 36), hdr_crc(vc, p),
				where);
			dump_bad(vc, diag, b, io, pos, n, true);
			return -EILSEQ;
		}
		if (io->seed_known && get_le64(p + 8) != io->seed) {
			fprintf(diag, "verify: bad header rand_seed %llu, wanted %llu %s)\n",
				(unsigned long long)get_le64(p + 8), (unsigned long long)io->seed, where);
			dump_bad(vc, diag, b, io, pos, n, true);
			return -EILSEQ;
		}
		if (vc->type == VERIFY_PATTERN_HDR) {
			if (check_pattern(vc, b, pos + vc->hdr_bytes, pos + n, io, diag)) {
				dump_bad(vc, diag, b, io, pos, n, false);
				return -EILSEQ;
			}
		} else if (vc->type != VERIFY_META) {
			unsigned cb = verify_csum_bytes(vc->type);

			csum(vc, p + vc->hdr_bytes, (size_t)(n - vc->hdr_bytes), want);
			if (memcmp(want, p + VERIFY_HDR_BYTES, cb)) {
				char e[2 * VERIFY_CSUM_MAX + 1], r[2 * VERIFY_CSUM_MAX + 1];

				hex(e, p + VERIFY_HDR_BYTES, cb);
				hex(r, want, cb);
				fprintf(diag, "%s: verify failed %s, flags=%x)\n       Expected CRC: %s\n       Received CRC: %s\n",
					verify_type_name(vc->type), where, io->flags, e, r);
				dump_bad(vc, diag, b, io, pos, n, false);
				if (type != vc->type)
					fprintf(diag, "fio: verify type mismatch (%u media, %u given)\n", type, vc->type);
				ret = -EILSEQ;	/* fio goes on with the next interval too */
				if (vc->fatal)
					break;
			}
		}
		pos += n;
	}
	return ret;
}

int verify_check_zero(const void *buf, const struct verify_io *io, FILE *diag)
{
	const unsigned char *b = buf;
	uint64_t i = 0;

	while (i < io->len && !b[i])
		i++;
	if (i == io->len)
		return 0;
	fprintf(diag, "trim: verify failed at file %s offset %llu, length %llu, block offset %llu\n", io->path,
		(unsigned long long)io->offset, (unsigned long long)io->len, (unsigned long long)i);
	return -EILSEQ;
}

/* ---- the log ---------------------------------------------------------------------------- */

static int ent_cmp(const void *a, const void *b)
{
	const struct verify_ent *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

size_t verify_log_sort(struct verify_ent *log, size_t nr)
{
	size_t out = 0;

	if (nr < 2)
		return nr;
	qsort(log, nr, sizeof(*log), ent_cmp);
	for (size_t i = 0; i < nr; i++) {
		if (out && log[out - 1].file == log[i].file && log[out - 1].offset == log[i].offset)
			out--;	/* overwritten later: the later write replaces it */
		log[out++] = log[i];
	}
	return out;
}

/* ---- job checks ------------------------------------------------------------------------- */

int verify_fixup(struct job *job, struct opt_diag *d)
{
	uint64_t bs = job->bs_min[DDIR_WRITE], piece;
	unsigned hdr_bytes;

	if (job->block_error_pct && job->rw_has_trim) {
		opt_diag_add(d, false, "fio: block_error_percentiles is not supported with trims (fio 3.33 aborts on an "
			     "assertion when it reports them)");
		return -EINVAL;
	}
	if (job->verify == VERIFY_NONE && job->verify_pattern_len)
		job->verify = VERIFY_PATTERN_HDR;	/* fio: a pattern alone turns verify on */
	if (job->verify == VERIFY_NONE)
		return 0;
	if (job->trim_percentage && job->trim_backlog && job->do_verify && job->rw_has_write &&
	    !job->experimental_verify && !job->verify_only) {
		if (!job->rw_has_trim) {
			opt_diag_add(d, false, "fio: trim_backlog needs a job that trims (rw=trimwrite or randtrimwrite): "
				     "fio 3.33 aborts on an assertion at its first trim");
			return -EINVAL;
		}
		if (job->norandommap || job->rw_seq_add || (job->rw_random && job->percentage_random < 100)) {
			opt_diag_add(d, false, "fio: iops cannot trim verified blocks whose writes may overlap: drop "
				     "norandommap, rw=...:N or percentage_random");
			return -EINVAL;
		}
	}
	if (job->verify == VERIFY_PATTERN && !job->verify_pattern_len) {
		opt_diag_add(d, false, "fio: verify=pattern needs a verify_pattern");
		return -EINVAL;
	}
	hdr_bytes = VERIFY_HDR_BYTES + verify_csum_bytes(job->verify);
	piece = job->verify_interval && job->verify_interval < bs ? job->verify_interval : bs;
	if (job->verify != VERIFY_PATTERN && job->verify != VERIFY_NULL && job->rw_has_write &&
	    (uint64_t)job->verify_offset + hdr_bytes > piece) {
		opt_diag_add(d, false, "fio: verify_offset too large (%u + %u header bytes > %llu)", job->verify_offset,
			     hdr_bytes, (unsigned long long)piece);
		return -EINVAL;
	}
	if (job->verify_offset && job->verify_offset < hdr_bytes && job->verify != VERIFY_PATTERN &&
	    job->verify != VERIFY_NULL) {
		opt_diag_add(d, false, "fio: verify_offset=%u overlaps the %u header bytes it moves: fio 3.33 fails every "
			     "block so written", job->verify_offset, hdr_bytes);
		return -EINVAL;
	}
	if (!job->rw_has_write)
		piece = job->verify_interval && job->verify_interval < job->bs_min[DDIR_READ] ? job->verify_interval :
			job->bs_min[DDIR_READ];
	if (job->verify == VERIFY_SHA512 && piece < VERIFY_HDR_BYTES + 2 * VERIFY_CSUM_MAX) {
		opt_diag_add(d, false, "fio: verify=sha512 needs blocks (or verify_interval) of at least %u bytes: fio 3.33 "
			     "fails every smaller one", VERIFY_HDR_BYTES + 2 * VERIFY_CSUM_MAX);
		return -EINVAL;
	}
	if (job->rw_has_write && job->rw_random && job->norandommap && job->bs_min[DDIR_WRITE] != job->bs_max[DDIR_WRITE]) {
		opt_diag_add(d, false, "fio: norandommap given for variable block sizes, verify limited");
		opt_diag_add(d, false, "fio: iops cannot verify overlapping writes of variable size: drop norandommap "
			     "or use a single block size");
		return -EINVAL;
	}
	if (job->time_based && job->do_verify && job->rw_has_write && !job->rw_has_read && !job->verify_backlog)
		opt_diag_add(d, false, "fio: verification read phase will never start because write phase uses all of runtime");
	return 0;
}
