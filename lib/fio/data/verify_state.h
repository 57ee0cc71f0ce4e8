/* SPDX-License-Identifier: MIT */
/* verify_state: fio 3.33's verify state file, local-<job>-<n>-verify.state in the working
 * directory (n: the job's 0-based global number), written when a verifying writer ends
 * (verify_state_save) and read back by a later verify run (verify_state_load).
 *
 * The layout, every integer little-endian: a 24-byte header (version 3, the size of what
 * follows, its crc32c without the final inversion), then: completions kept (u64), iodepth
 * (u32), files (u32), writes issued (u64), the job's number (u64), the offset generator's
 * starting state (u64 "64-bit" flag, then 48 bytes: three u32 or five u64 words; zero for a
 * sequential job), the job name (64 bytes, NUL padded), and iodepth x files slots of
 * {file, offset} (u64 each): per file, its last iodepth completed writes, newest first, packed
 * from the start; the slots left over are zero. */
#ifndef IOPS_VERIFY_STATE_H
#define IOPS_VERIFY_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "fio/job.h"

#define VSTATE_VERSION		3u
#define VSTATE_HDR_BYTES	24u
#define VSTATE_LIST_BYTES	152u	/* the part before the slots */
#define VSTATE_NAME_BYTES	64u
#define VSTATE_PATH_MAX		160u

struct vstate_comp {
	uint64_t file, offset;
};

/* What a loaded file says (the header checked). */
struct vstate {
	uint64_t numberio;		/* writes issued */
	uint32_t depth;
	uint64_t no_comps;
	struct vstate_comp comps[];	/* no_comps of them */
};

/* What a writer saves. ring: files x depth offsets, file f's in ring[f * depth ...], the
 * write number k at slot k % depth; count[f]: the writes completed on file f. */
struct vstate_save {
	const char *name;
	unsigned index;			/* thread_number - 1 */
	uint32_t depth, nofiles;
	uint64_t numberio;
	bool random, use64;
	uint32_t s32[3];
	uint64_t s64[5];
	const uint64_t *ring;
	const uint64_t *count;
};

/* "local-<name>-<index>-verify.state" into out; -ENAMETOOLONG when it does not fit. */
int vstate_path(const char *name, unsigned index, char *out, size_t cap);
/* The file's bytes for s (malloc'd, *len set), or NULL (no memory). */
unsigned char *vstate_encode(const struct vstate_save *s, size_t *len);
/* Check and decode a file's bytes: a new struct vstate (free() it), or NULL with fio's message
 * in err ("fio: verify state is corrupt", ...). */
struct vstate *vstate_decode(const unsigned char *p, size_t len, struct iops_err *err);
/* Write s to its path in the working directory (never through a symlink). 0 or -errno, err set. */
int vstate_save(const struct vstate_save *s, struct iops_err *err);
/* Read the job's state file from the working directory: 0 and *out, or -errno with err set. */
int vstate_load(const struct job *job, struct vstate **out, struct iops_err *err);
/* fio's rule: does the verify read of (file, offset), after reads_done completed reads, go past
 * what the saved writer had completed? Then the job stops before it. */
bool vstate_should_stop(const struct vstate *vs, uint64_t reads_done, unsigned file, uint64_t offset);

#endif
