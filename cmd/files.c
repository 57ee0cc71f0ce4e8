/* SPDX-License-Identifier: MIT */
/* files: whole outputs out; see files.h. */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int files_out_open(struct files_out *o, const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	int dlen = slash ? (int)(slash - path + 1) : 0, fd;
	mode_t um;

	memset(o, 0, sizeof(*o));
	if (!*base)
		return -EISDIR;
	if (snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path) ||
	    snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.iops-XXXXXX", dlen, path, base) >= (int)sizeof(o->tmp)) {
		o->tmp[0] = '\0';
		return -ENAMETOOLONG;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);	/* O_CREAT | O_EXCL, mode 0600 */
	if (fd < 0) {
		int e = errno;

		o->tmp[0] = '\0';
		return -e;
	}
	um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um) < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		unlink(o->tmp);
		o->tmp[0] = '\0';
		return -e;
	}
	return 0;
}

int files_out_commit(struct files_out *o)
{
	int rc = 0;

	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		rc = errno ? -errno : -EIO;
	if (!rc && fsync(fileno(o->f)) < 0 && errno != EINVAL)
		rc = -errno;
	if (fclose(o->f) != 0 && !rc)
		rc = errno ? -errno : -EIO;
	o->f = NULL;
	if (!rc && rename(o->tmp, o->path) < 0)
		rc = -errno;
	if (rc)
		unlink(o->tmp);
	o->tmp[0] = '\0';
	return rc;
}

void files_out_abort(struct files_out *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}
