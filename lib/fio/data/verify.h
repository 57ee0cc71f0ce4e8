/* SPDX-License-Identifier: MIT */
/* verify: fio's data verification (verify=, verify_pattern, verify_interval, verify_offset).
 *
 * Write jobs put, in every verify_interval bytes of a block (default: the whole block), a
 * 40-byte header (magic 0xacca, verify type, length, random seed, offset, write time, thread,
 * sequence number, crc32c of those fields) followed by the checksum of the rest of the
 * interval; the data itself is random (or verify_pattern). verify_offset moves the header
 * inside the interval. verify=pattern writes no header: the whole block is the pattern.
 * Reads of a verifying job check each interval and print fio's messages on failure.
 * All integers on the media are little-endian (the layout of fio 3.33's header).
 *
 * The checksums (fio/data/verify_sum.h) are stored as fio 3.33 stores them (crc32c without its final
 * inversion, xxhash with seed 1, sha1's state words little-endian, fio's own sha256 and sha512
 * fields), so files written by one tool verify with the other. Option parsing and messages
 * are cold code. */
#ifndef IOPS_VERIFY_H
#define IOPS_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fio/job.h"
#include "core/rng.h"

/* fio's numbering of the types (the "type" field of the header; "verify type mismatch"). */
enum verify_type {
	VERIFY_NONE = 0,
	VERIFY_META = 1,
	VERIFY_MD5 = 2,
	VERIFY_CRC64 = 3,
	VERIFY_CRC32 = 4,
	VERIFY_CRC32C = 5,
	VERIFY_CRC16 = 7,
	VERIFY_CRC7 = 8,
	VERIFY_SHA256 = 9,
	VERIFY_SHA512 = 10,
	VERIFY_SHA3_224 = 11,
	VERIFY_SHA3_256 = 12,
	VERIFY_SHA3_384 = 13,
	VERIFY_SHA3_512 = 14,
	VERIFY_XXHASH = 15,
	VERIFY_SHA1 = 16,
	VERIFY_PATTERN_HDR = 17,	/* verify_pattern without verify=: header + pattern */
	VERIFY_PATTERN = 18,	/* verify=pattern: no header (fio's pattern_no_hdr) */
	VERIFY_NULL = 19,
};

#define VERIFY_MAGIC		0xaccau
#define VERIFY_HDR_BYTES	40u	/* the header, before the checksum */
#define VERIFY_INTERVAL_MIN	80u	/* fio: 2 x sizeof(header) */
#define VERIFY_XXH32_SEED	1u
#define VERIFY_CSUM_MAX		128u	/* the largest checksum field (sha512) */

/* ---- options ---- */
/* The name fio prints for a type ("crc32c" for crc32c-intel). */
const char *verify_type_name(unsigned type);
/* Bytes of checksum after the header for this type (0 for meta, pattern, null). */
unsigned verify_csum_bytes(unsigned type);
/* verify_pattern= value into job (verify_pattern, verify_pattern_len, %o positions). fio's
 * syntax, pieces back to back: a decimal int32 (-12, 300: its little-endian bytes, at least
 * one, negative ones four), 0x hex (any length, in order), "string", %o (the block offset, 8
 * bytes little-endian). At most JOB_VERIFY_PATTERN_MAX bytes. Returns 0 or -EINVAL. */
int verify_pattern_parse(const char *s, struct job *job);
/* Job-level checks and defaults once all options are in (fio's fixup_options() part for
 * verify): 0, or -EINVAL with the message in d. May add a warning line to d. */
struct opt_diag;
int verify_fixup(struct job *job, struct opt_diag *d);

/* ---- per-job state (cold: set up once) ---- */
struct verify_ctx {
	unsigned type;
	unsigned interval;		/* 0 = the block size */
	unsigned hdr_offset;		/* verify_offset */
	unsigned hdr_bytes;		/* header + checksum */
	unsigned thread;
	bool hw_crc;
	bool hdr;			/* the type writes headers */
	bool fatal;			/* verify_fatal: stop at the first bad interval */
	bool dump;			/* verify_dump: bad intervals go to files (fio/data/verify_dump.h) */
	const struct job *job;		/* pattern */
};

void verify_ctx_init(struct verify_ctx *vc, const struct job *job);

/* Fill buf (len bytes going to offset) for a write: pattern or random data from r, then the
 * headers. Returns the seed written in the headers (0 with a pattern). */
uint64_t verify_fill(const struct verify_ctx *vc, void *buf, uint64_t len, uint64_t offset,
		     struct rng *r, uint32_t numberio, uint64_t now_ns);

/* What a check knows about the block. */
struct verify_io {
	const char *path;
	uint64_t offset, len;
	unsigned flags;			/* fio's io_u flags shown in messages: 0x8, 0x88 in verify phases */
	bool seed_known;		/* verify phase: the seed written is known */
	uint64_t seed;
};

/* Check buf (may be modified: verify_offset is undone in place). Returns 0, or -EILSEQ after
 * printing fio's message lines to diag. With verify_dump, a bad interval is written to
 * <file>.<offset>.hdr_fail (bad header), or to .received and .expected (bad data: the data of
 * the header's seed, or the pattern), in the working directory, as fio names them. */
int verify_check(const struct verify_ctx *vc, void *buf, const struct verify_io *io, FILE *diag);

/* A trimmed block (trim_verify_zero): 0 when all io->len bytes are zero, else -EILSEQ after
 * fio's "trim: verify failed ... block offset N" line (N: the first byte that is not). */
int verify_check_zero(const void *buf, const struct verify_io *io, FILE *diag);

/* ---- the written-block log of a verify phase ---- */
struct verify_ent {
	uint64_t offset;
	uint64_t seed;
	uint32_t len;
	uint32_t file;
	uint64_t seq;
	unsigned flags;			/* VERIFY_ENT_*: trim_percentage */
};

#define VERIFY_ENT_TRIMMED	1u	/* trimmed: must read back as zeros (trim_verify_zero) */
#define VERIFY_ENT_DROPPED	2u	/* trimmed, not to be checked */

/* Sort log by file and offset; of blocks written at the same place keep the last. Returns the
 * new count. */
size_t verify_log_sort(struct verify_ent *log, size_t nr);

#endif
