/* SPDX-License-Identifier: MIT */
#include "fio/data/verify_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio/data/verify_sum.h"

#define VSTATE_FILE_MAX		(64u << 20)	/* more is not a state file */

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int vstate_path(const char *name, unsigned index, char *out, size_t cap)
{
	int n = snprintf(out, cap, "local-%s-%u-verify.state", name, index);

	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

/* fio's checksum of the list: crc32c without the final inversion */
static uint32_t vstate_crc(const unsigned char *p, size_t n)
{
	return ~verify_sum_crc32c(p, n, verify_sum_has_crc32c());
}

unsigned char *vstate_encode(const struct vstate_save *s, size_t *len)
{
	uint64_t slots = (uint64_t)s->depth * s->nofiles, no_comps = 0;
	size_t list, n;
	unsigned char *b, *p, *c;

	if (slots > (SIZE_MAX - VSTATE_HDR_BYTES - VSTATE_LIST_BYTES) / 16)
		return NULL;
	list = VSTATE_LIST_BYTES + (size_t)slots * 16;
	n = VSTATE_HDR_BYTES + list;
	b = calloc(1, n);
	if (!b)
		return NULL;
	p = b + VSTATE_HDR_BYTES;
	c = p + VSTATE_LIST_BYTES;
	for (uint32_t f = 0; f < s->nofiles; f++) {
		uint64_t cnt = s->count[f], k = cnt < s->depth ? cnt : s->depth;

		for (uint64_t i = 0; i < k; i++) {	/* newest first */
			put64(c, f);
			put64(c + 8, s->ring[(uint64_t)f * s->depth + (cnt - 1 - i) % s->depth]);
			c += 16;
			no_comps++;
		}
	}
	put64(p, no_comps);
	put32(p + 8, s->depth);
	put32(p + 12, s->nofiles);
	put64(p + 16, s->numberio);
	put64(p + 24, s->index);
	if (s->random) {
		put64(p + 32, s->use64);
		for (int i = 0; i < 5 && s->use64; i++)
			put64(p + 40 + 8 * i, s->s64[i]);
		for (int i = 0; i < 3 && !s->use64; i++)
			put32(p + 40 + 4 * i, s->s32[i]);
	}
	strncat((char *)p + 88, s->name, VSTATE_NAME_BYTES - 1);
	put64(b, VSTATE_VERSION);
	put64(b + 8, list);
	put64(b + 16, vstate_crc(p, list));
	*len = n;
	return b;
}

struct vstate *vstate_decode(const unsigned char *b, size_t len, struct iops_err *err)
{
	const unsigned char *p = b + VSTATE_HDR_BYTES;
	uint64_t list, no_comps, slots;
	uint32_t depth, nofiles;
	struct vstate *vs;

	if (len < VSTATE_HDR_BYTES + VSTATE_LIST_BYTES || get64(b + 8) != len - VSTATE_HDR_BYTES) {
		iops_err_set(err, EINVAL, "fio: failed reading verity state");	/* fio's words */
		return NULL;
	}
	if (get64(b) != VSTATE_VERSION) {
		iops_err_set(err, EINVAL, "fio: unsupported (%llu) version in verify state header",
			     (unsigned long long)get64(b));
		return NULL;
	}
	list = len - VSTATE_HDR_BYTES;
	no_comps = get64(p);
	depth = get32(p + 8);
	nofiles = get32(p + 12);
	slots = (uint64_t)depth * nofiles;
	if (get64(b + 16) != vstate_crc(p, (size_t)list) || slots > (list - VSTATE_LIST_BYTES) / 16 ||
	    list != VSTATE_LIST_BYTES + slots * 16 || no_comps > slots) {
		iops_err_set(err, EINVAL, "fio: verify state is corrupt");
		return NULL;
	}
	vs = malloc(sizeof(*vs) + (size_t)no_comps * sizeof(vs->comps[0]));
	if (!vs) {
		iops_err_set(err, ENOMEM, "fio: out of memory for the verify state");
		return NULL;
	}
	vs->numberio = get64(p + 16);
	vs->depth = depth;
	vs->no_comps = no_comps;
	for (uint64_t i = 0; i < no_comps; i++) {
		vs->comps[i].file = get64(p + VSTATE_LIST_BYTES + 16 * i);
		vs->comps[i].offset = get64(p + VSTATE_LIST_BYTES + 16 * i + 8);
	}
	return vs;
}

int vstate_save(const struct vstate_save *s, struct iops_err *err)
{
	char path[VSTATE_PATH_MAX];
	size_t len, done = 0;
	unsigned char *b;
	struct stat st;
	int fd, ret = 0;

	if (vstate_path(s->name, s->index, path, sizeof(path))) {
		iops_err_set(err, ENAMETOOLONG, "fio: verify state file name too long for job %s", s->name);
		return -ENAMETOOLONG;
	}
	b = vstate_encode(s, &len);
	if (!b) {
		iops_err_set(err, ENOMEM, "fio: out of memory for the verify state");
		return -ENOMEM;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
	if (fd < 0) {
		ret = -errno;
		goto fail;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		ret = -EINVAL;	/* a FIFO or device in the way: not ours to write */
		goto close_fd;
	}
	if (ftruncate(fd, 0) < 0) {
		ret = -errno;
		goto close_fd;
	}
	while (done < len) {
		ssize_t w = write(fd, b + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)w;
	}
close_fd:
	if (close(fd) < 0 && !ret)
		ret = -errno;
fail:
	if (ret)
		iops_err_set(err, -ret, "fio: write state file %s: %s", path, err_str(-ret));
	free(b);
	return ret;
}

int vstate_load(const struct job *job, struct vstate **out, struct iops_err *err)
{
	char path[VSTATE_PATH_MAX];
	unsigned char *b = NULL;
	size_t done = 0;
	struct stat st;
	int fd, ret;

	*out = NULL;
	if (vstate_path(job->name, job->thread_number - 1, path, sizeof(path))) {
		iops_err_set(err, ENAMETOOLONG, "fio: verify state file name too long for job %s", job->name);
		return -ENAMETOOLONG;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		iops_err_set(err, -ret, "fio: open state file %s: %s", path, err_str(-ret));
		return ret;
	}
	ret = fstat(fd, &st) < 0 ? -errno : 0;
	if (!ret && (!S_ISREG(st.st_mode) || st.st_size > VSTATE_FILE_MAX))
		ret = -EINVAL;
	if (!ret && !(b = malloc((size_t)st.st_size + 1)))
		ret = -ENOMEM;
	while (!ret && done < (size_t)st.st_size) {
		ssize_t r = read(fd, b + done, (size_t)st.st_size - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		done += (size_t)r;
	}
	close(fd);
	if (ret) {
		iops_err_set(err, -ret, "fio: state file %s: %s", path, ret == -EINVAL ? "not a verify state file" :
			     err_str(-ret));
	} else {
		*out = vstate_decode(b, done, err);
		if (!*out)
			ret = -EINVAL;
	}
	free(b);
	return ret;
}

bool vstate_should_stop(const struct vstate *vs, uint64_t reads_done, unsigned file, uint64_t offset)
{
	/* far from the end of what was written: every block there completed */
	if ((reads_done < vs->depth || vs->numberio - reads_done > vs->depth) && vs->numberio > vs->depth)
		return false;
	/* within the last depth writes: only those seen completing */
	for (uint64_t i = 0; i < vs->no_comps; i++)
		if (vs->comps[i].file == file && vs->comps[i].offset == offset)
			return false;
	return true;
}
