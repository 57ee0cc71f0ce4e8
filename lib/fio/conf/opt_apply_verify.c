/* opt_apply_verify: verify= and the verify_* options (fio/data/verify.h). */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdint.h>

#include "fio/data/verify.h"

const struct opt_choice opt_apply_verify_choices[] = {
	OPT_CHOICE("0", "No verification", VERIFY_NONE),
	OPT_CHOICE("md5", "MD5 digest of every block", VERIFY_MD5),
	OPT_CHOICE("crc64", "64-bit CRC of every block", VERIFY_CRC64),
	OPT_CHOICE("crc32", "32-bit CRC of every block", VERIFY_CRC32),
	OPT_CHOICE("crc32c-intel", "Another name for crc32c", VERIFY_CRC32C),
	OPT_CHOICE("crc32c", "Castagnoli CRC of every block (CPU instruction when present)", VERIFY_CRC32C),
	OPT_CHOICE("crc16", "16-bit CRC of every block", VERIFY_CRC16),
	OPT_CHOICE("crc7", "7-bit CRC of every block", VERIFY_CRC7),
	OPT_CHOICE("sha1", "SHA-1 digest of every block", VERIFY_SHA1),
	OPT_CHOICE("sha256", "fio's 64-byte sha256 field of every block", VERIFY_SHA256),
	OPT_CHOICE("sha512", "fio's 128-byte sha512 field (copied bytes, no digest)", VERIFY_SHA512),
	OPT_CHOICE("sha3-224", "SHA3-224 digest of every block", VERIFY_SHA3_224),
	OPT_CHOICE("sha3-256", "SHA3-256 digest of every block", VERIFY_SHA3_256),
	OPT_CHOICE("sha3-384", "SHA3-384 digest of every block", VERIFY_SHA3_384),
	OPT_CHOICE("sha3-512", "SHA3-512 digest of every block", VERIFY_SHA3_512),
	OPT_CHOICE("xxhash", "XXH32 hash of every block", VERIFY_XXHASH),
	OPT_CHOICE("meta", "Block headers only, the data is not summed", VERIFY_META),
	OPT_CHOICE("pattern", "The verify_pattern bytes alone, no header", VERIFY_PATTERN),
	OPT_CHOICE("null", "Random data, nothing checked", VERIFY_NULL),
	{ NULL, 0 },
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

