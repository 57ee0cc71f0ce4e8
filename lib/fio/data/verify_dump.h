/* SPDX-License-Identifier: MIT */
/* verify_dump: the files verify_dump=1 writes when a block fails its check (fio 3.33's names):
 * <basename of the file>.<offset of the interval>.<type> in the working directory, type
 * "received" and "expected" (bad data) or "hdr_fail" (bad header), each followed on diag by
 * fio's line "       <type> data dumped as <name>". Existing files are replaced, as fio does;
 * links are not followed. Cold code: it runs only after a failed check. */
#ifndef IOPS_VERIFY_DUMP_H
#define IOPS_VERIFY_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The dump file's name into out (size bytes); false when it does not fit. */
bool verify_dump_name(char *out, size_t size, const char *path, uint64_t offset, const char *type);
/* Write len bytes of buf as the dump of type for path at offset: 0 or -errno (a line on diag). */
int verify_dump_write(FILE *diag, const char *path, uint64_t offset, const char *type, const void *buf,
		      uint64_t len);

#endif
