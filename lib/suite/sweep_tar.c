/* SPDX-License-Identifier: MIT */
/* sweep_tar: ustar (sweep_tar.h). */
#include "suite/sweep_tar.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* value in octal, width-1 digits and a NUL */
static void sweep_tar_octal(uint8_t *field, unsigned width, uint64_t value)
{
	field[width - 1] = '\0';
	for (unsigned i = width - 1; i-- > 0; value >>= 3)
		field[i] = (uint8_t)('0' + (value & 7));
}

int sweep_tar_header(uint8_t block[SWEEP_TAR_BLOCK], const char *name, uint64_t size, uint64_t mtime)
{
	size_t n = strlen(name);
	unsigned sum = 0;

	if (!n || n > SWEEP_TAR_NAME_MAX)
		return -ENAMETOOLONG;
	if (size >= 1ull << 33)
		return -EFBIG;
	memset(block, 0, SWEEP_TAR_BLOCK);
	memcpy(block, name, n);				/* name[100] */
	sweep_tar_octal(block + 100, 8, 0644);		/* mode */
	sweep_tar_octal(block + 108, 8, 0);		/* uid */
	sweep_tar_octal(block + 116, 8, 0);		/* gid */
	sweep_tar_octal(block + 124, 12, size);		/* size */
	sweep_tar_octal(block + 136, 12, mtime & 077777777777ull);	/* mtime */
	memset(block + 148, ' ', 8);			/* chksum: spaces while summing */
	block[156] = '0';				/* typeflag: a regular file */
	memcpy(block + 257, "ustar", 6);		/* magic, NUL-terminated */
	memcpy(block + 263, "00", 2);			/* version */
	for (unsigned i = 0; i < SWEEP_TAR_BLOCK; i++)
		sum += block[i];
	sweep_tar_octal(block + 148, 7, sum);		/* six digits, NUL, then the space left */
	return 0;
}

int sweep_tar_write(FILE *out, const struct sweep_tar_file *files, unsigned nr, uint64_t mtime)
{
	static const uint8_t zero[SWEEP_TAR_BLOCK];
	uint8_t block[SWEEP_TAR_BLOCK];

	for (unsigned i = 0; i < nr; i++) {
		size_t pad = (SWEEP_TAR_BLOCK - files[i].len % SWEEP_TAR_BLOCK) % SWEEP_TAR_BLOCK;
		int ret = sweep_tar_header(block, files[i].name, files[i].len, mtime);

		if (ret)
			return ret;
		if (fwrite(block, 1, sizeof(block), out) != sizeof(block) ||
		    (files[i].len && fwrite(files[i].data, 1, files[i].len, out) != files[i].len) ||
		    (pad && fwrite(zero, 1, pad, out) != pad))
			return -EIO;
	}
	if (fwrite(zero, 1, sizeof(zero), out) != sizeof(zero) || fwrite(zero, 1, sizeof(zero), out) != sizeof(zero))
		return -EIO;
	return fflush(out) ? -EIO : 0;
}
