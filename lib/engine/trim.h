/* SPDX-License-Identifier: MIT */
/* trim: the discard operation of rw=trim / randtrim / trimwrite / randtrimwrite.
 *
 * Devices get ioctl(BLKDISCARD), as fio 3.33 does (character devices fail with ENOTTY, as
 * there). Regular files get a punched hole
 * (fallocate FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE): the range reads back as zeros and
 * its blocks return to the filesystem (fio 3.33 tries BLKDISCARD there too and fails with
 * ENOTTY). Every engine runs trims synchronously in queue(), as fio's libaio and io_uring
 * engines do (FIO_ASYNCIO_SYNC_TRIM). */
#ifndef IOPS_TRIM_H
#define IOPS_TRIM_H

#include <stdint.h>

#include "engine/engine.h"

/* Discard req's range on req->fd (nothing with trim_skip). Returns req->len when done, or -errno (EINTR retried). */
int64_t trim_req(const struct io_req *req);

#endif
