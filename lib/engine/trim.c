/* SPDX-License-Identifier: MIT */
#include "engine/trim.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

int64_t trim_req(const struct io_req *req)
{
	int ret;

	if (req->trim_skip)	/* zbd */
		return (int64_t)req->len;
	if (req->offset > (uint64_t)INT64_MAX || req->len > (uint64_t)INT64_MAX - req->offset)
		return -EINVAL;
	do {
		if (req->trim_ioctl) {
			uint64_t range[2] = { req->offset, req->len };

			ret = ioctl(req->fd, BLKDISCARD, range);
		} else {
			ret = fallocate(req->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)req->offset,
					(off_t)req->len);
		}
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -(int64_t)errno : (int64_t)req->len;
}
