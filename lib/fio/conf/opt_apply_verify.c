/* SPDX-License-Identifier: MIT */
/* opt_apply_verify: verify= and the verify_* options (fio/data/verify.h). */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>

#include "fio/data/verify.h"

const struct opt_choice opt_apply_verify_choices[] = {
	{ .word = "0", .help = "No verification", .value = VERIFY_NONE },
	{ .word = "md5", .help = "MD5 digest of every block", .value = VERIFY_MD5 },
	{ .word = "crc64", .help = "64-bit CRC of every block", .value = VERIFY_CRC64 },
	{ .word = "crc32", .help = "32-bit CRC of every block", .value = VERIFY_CRC32 },
	{ .word = "crc32c-intel", .help = "Another name for crc32c", .value = VERIFY_CRC32C },
	{ .word = "crc32c", .help = "Castagnoli CRC of every block (CPU instruction when present)", .value = VERIFY_CRC32C },
	{ .word = "crc16", .help = "16-bit CRC of every block", .value = VERIFY_CRC16 },
	{ .word = "crc7", .help = "7-bit CRC of every block", .value = VERIFY_CRC7 },
	{ .word = "sha1", .help = "SHA-1 digest of every block", .value = VERIFY_SHA1 },
	{ .word = "sha256", .help = "fio's 64-byte sha256 field of every block", .value = VERIFY_SHA256 },
	{ .word = "sha512", .help = "fio's 128-byte sha512 field (copied bytes, no digest)", .value = VERIFY_SHA512 },
	{ .word = "sha3-224", .help = "SHA3-224 digest of every block", .value = VERIFY_SHA3_224 },
	{ .word = "sha3-256", .help = "SHA3-256 digest of every block", .value = VERIFY_SHA3_256 },
	{ .word = "sha3-384", .help = "SHA3-384 digest of every block", .value = VERIFY_SHA3_384 },
	{ .word = "sha3-512", .help = "SHA3-512 digest of every block", .value = VERIFY_SHA3_512 },
	{ .word = "xxhash", .help = "XXH32 hash of every block", .value = VERIFY_XXHASH },
	{ .word = "meta", .help = "Block headers only, the data is not summed", .value = VERIFY_META },
	{ .word = "pattern", .help = "The verify_pattern bytes alone, no header", .value = VERIFY_PATTERN },
	{ .word = "null", .help = "Random data, nothing checked", .value = VERIFY_NULL },
	{ .word = NULL },
};

APPLY(opt_apply_verify)
{
	int v;
	int ret = opt_value_get_choice(od, val, d, &v);

	if (ret)
		return ret;
	oj->j.verify = (unsigned)v;
	return 0;
}

APPLY(opt_apply_verify_pattern)
{
	if (!val || verify_pattern_parse(val, &oj->j)) {
		oj->j.verify_pattern_len = 0;
		oj->j.nr_verify_pattern_o = 0;
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	return 0;
}

