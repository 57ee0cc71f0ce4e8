/* SPDX-License-Identifier: MIT */
/* logzip: the compressed logs of log_store_compressed=1, as fio 3.33 writes them: a file of
 * zlib streams, one after the other, each holding whole binary samples (struct iolog_entry,
 * 40 bytes with IOLOG_F_OFFSET in its direction word, 32 without), compressed and inflated by
 * zlib (linked into the static binary). */
#ifndef IOPS_LOGZIP_H
#define IOPS_LOGZIP_H

#include <stddef.h>
#include <stdio.h>

#include "core/err.h"
#include "fio/log/iolog.h"

/* A compressor for blocks of up to max_in bytes (its buffers allocated once). NULL: no memory. */
struct iolog_zip *logzip_new(size_t max_in);
void logzip_free(struct iolog_zip *z);

/* Entries e[0..n) as one zlib stream (32-byte entries when they carry no offset); *out points
 * into z's buffer, valid until the next call. 0 or -errno. */
int logzip_block(struct iolog_zip *z, const struct iolog_entry *e, size_t n, const unsigned char **out,
		 size_t *out_len);

/* fio --inflate-log: the text lines of the compressed log in fd, on out. Returns 0, or -errno
 * (-EINVAL: not a compressed fio log, -EIO: truncated) with err filled. */
int logzip_inflate(int fd, FILE *out, struct iops_err *err);

#endif
