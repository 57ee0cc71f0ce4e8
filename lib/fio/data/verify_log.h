/* SPDX-License-Identifier: MIT */
/* verify_log: the written blocks a verifying job has still to read back (fio's I/O history),
 * and verify_backlog's rule for when to read some of them back during the writes.
 *
 * Blocks are read back in the order they were written, unless the writes of one pass may
 * overlap (random without a random map, rw=write:N, time_based): then, as fio, the log is kept
 * sorted by file and offset and a write replaces what it covers, so that only the last data of
 * a place is checked. Without verify_backlog the sort waits for the verify phase
 * (verify_log_phase(): one qsort instead of an insertion per write).
 *
 * verify_backlog=N (fio 3.33, as observed): when a block is about to be issued and the log is
 * not empty, a read-back comes first if a batch is under way, or if the count of logged blocks
 * is a multiple of N and the last I/O was not a read (a batch of verify_backlog_batch blocks,
 * default N, starts). A batch that finds the log empty waits for the next writes. */
#ifndef IOPS_VERIFY_LOG_H
#define IOPS_VERIFY_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fio/data/verify.h"

struct verify_log {
	struct verify_ent *ent;
	size_t head, nr, cap;		/* the pending blocks are ent[head..nr) */
	bool overlap;			/* writes may overlap: sorted, a write replaces what it covers */
	uint64_t backlog;		/* verify_backlog, 0 = no read-back during the writes */
	uint64_t batch;			/* blocks per batch */
	uint64_t left;			/* read-backs left in the batch under way */
	size_t dropped;			/* pending entries marked VERIFY_ENT_DROPPED */
};

void verify_log_init(struct verify_log *l, bool overlap, uint64_t backlog, uint64_t batch);
void verify_log_release(struct verify_log *l);

/* Blocks still to check (fio's io_hist_len). */
static inline size_t verify_log_pending(const struct verify_log *l)
{
	return l->nr - l->head - l->dropped;
}

/* Log a write (after any block it covers, with overlap and a backlog). 0 or -ENOMEM. */
int verify_log_add(struct verify_log *l, const struct verify_ent *e);
/* The oldest (or, sorted, the first) pending block into out, dropped ones skipped; false when
 * none. */
bool verify_log_pop(struct verify_log *l, struct verify_ent *out);
/* verify_backlog: the block to read back before the next I/O, or false (issue the I/O).
 * last_read: the last I/O issued was a read. */
bool verify_log_backlog_next(struct verify_log *l, bool last_read, struct verify_ent *out);
/* The pending entry of write number seq (logged in write order: not sorted), or NULL. */
struct verify_ent *verify_log_find(struct verify_log *l, uint64_t seq);
/* Before a verify phase: the pending blocks in the order the phase reads them. */
void verify_log_phase(struct verify_log *l);

#endif
