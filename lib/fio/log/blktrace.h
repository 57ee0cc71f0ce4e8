/* SPDX-License-Identifier: MIT */
/* blktrace: the Linux block layer's binary traces (blktrace(8); the record is the kernel ABI
 * struct blk_io_trace of linux/blktrace_api.h), read back for read_iolog, and several of them
 * merged by time for merge_blktrace_file.
 *
 * A trace is a sequence of 48-byte records, each followed by pdu_len bytes of payload:
 *   u32 magic (0x656174 then the version, 7), u32 sequence, u64 time (ns), u64 sector (512 B),
 *   u32 bytes, u32 action, u32 pid, u32 device (major << 20 | minor), u32 cpu, u16 error,
 *   u16 pdu_len
 * in the byte order of the machine that traced (the magic tells which). action is the event
 * (its low 16 bits: queue, merge, complete...) and its categories (high 16 bits: read, write,
 * flush, discard, notify...).
 *
 * A replay uses the queue events only (one per I/O the submitter asked for), as fio does:
 * discard -> trim, flush -> sync, else read or write; each waits the time from the previous
 * queue event (scaled by replay_time_scale). The iodepth the trace ran at is how many queue
 * events came before each completion, at most 1024.
 *
 * A merge (merge_blktrace_file) reads the traces side by side and writes their queue events
 * for reads, writes and discards in time order (ties: the earlier trace first) to one trace in
 * this machine's byte order, without payloads; merge_blktrace_scalars scales each trace's times
 * (percent), merge_blktrace_iters repeats it, each pass shifted by the time of its last event. */
#ifndef IOPS_BLKTRACE_H
#define IOPS_BLKTRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "fio/job.h"

#define BLKTRACE_REC		48u
#define BLKTRACE_MAGIC		0x65617400u
#define BLKTRACE_VERSION	7u
#define BLKTRACE_MAX_TRACES	64u	/* traces merged at once */
#define BLKTRACE_MAX_DEPTH	1024u

/* action: the event in the low 16 bits, categories (1 << n) << 16 */
#define BLKTRACE_TC(n)		(1u << ((n) + 16))
#define BLKTRACE_TC_READ	BLKTRACE_TC(0)
#define BLKTRACE_TC_WRITE	BLKTRACE_TC(1)
#define BLKTRACE_TC_FLUSH	BLKTRACE_TC(2)
#define BLKTRACE_TC_NOTIFY	BLKTRACE_TC(10)
#define BLKTRACE_TC_DISCARD	BLKTRACE_TC(13)
#define BLKTRACE_TA_QUEUE	1u
#define BLKTRACE_TA_BACKMERGE	2u
#define BLKTRACE_TA_FRONTMERGE	3u
#define BLKTRACE_TA_COMPLETE	8u

struct blktrace_ev {
	uint32_t magic, sequence;
	uint64_t time_ns, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};

/* What a replay does with an event; the first four are iolog_replay's READ..SYNC. */
enum blktrace_op { BLKTRACE_READ, BLKTRACE_WRITE, BLKTRACE_TRIM, BLKTRACE_SYNC, BLKTRACE_NONE };

/* b (n bytes, the start of a file) begins with a trace record: true, *swap when its byte order
 * is not this machine's. */
bool blktrace_is_trace(const unsigned char *b, size_t n, bool *swap);
void blktrace_decode(const unsigned char *b, bool swap, struct blktrace_ev *ev);
/* This machine's byte order, pdu_len as in ev. */
void blktrace_encode(const struct blktrace_ev *ev, unsigned char *b);
/* The direction of a read, write or discard event (by its categories), or BLKTRACE_NONE. */
enum blktrace_op blktrace_ddir(const struct blktrace_ev *ev);
/* What a replay does with ev: BLKTRACE_NONE for all but queue events and notifications. */
enum blktrace_op blktrace_replay_op(const struct blktrace_ev *ev);

/* The replay of one trace: timing, kinds skipped, offsets, depth. */
struct blktrace_play {
	bool no_stall;
	unsigned time_scale;	/* percent, 0 = 100 */
	uint64_t scale, align;	/* replay_scale, replay_align */
	unsigned skip;		/* 1 << enum blktrace_op: kinds not replayed */
	uint64_t last_ns;	/* the previous queue event's time (0: none yet) */
	uint64_t at_us;		/* when the next entry runs, from the start of the replay */
	unsigned long zero;	/* zero-length reads/writes/trims ignored */
	unsigned depth_now[3], depth[3];
};

/* One I/O of a replay. */
struct blktrace_io {
	enum blktrace_op op;
	uint64_t at_us, offset, len;
	uint32_t device;
};

/* Feed every event in order. 1: *io is an I/O to replay; 0: nothing to do; -EOVERFLOW: the
 * offset is beyond 64 bits. */
int blktrace_play_event(struct blktrace_play *p, const struct blktrace_ev *ev, struct blktrace_io *io);
/* The depth the trace ran at (1..BLKTRACE_MAX_DEPTH; 1 when it shows no completion). */
unsigned blktrace_play_depth(const struct blktrace_play *p);

/* merge_blktrace_scalars / _iters: numbers of 1 or more separated by ":" (a fraction is dropped, as
 * fio truncates it). The count, or
 * -EINVAL; vals (max of them) filled when not NULL. */
int blktrace_list_parse(const char *s, uint64_t *vals, unsigned max);

/* A stream of events: one trace as it is, or the merge of a job's traces. */
struct blktrace_cur {
	FILE *f;
	const char *path;	/* into the source's copy of the list */
	bool swap;
	uint64_t pos;		/* byte offset of the next record */
	uint64_t size;		/* of the file: a payload must fit */
	uint64_t scalar, iters, iter, length, last_raw;
	bool any;		/* the first pass had an event to merge */
	bool has;		/* ev holds the next event */
	struct blktrace_ev ev;
};

struct blktrace_src {
	const char *job;	/* for messages */
	char *paths;		/* the list, ':' replaced by NULs */
	struct blktrace_cur *cur;
	unsigned nr, live;
	bool merge;
};

/* Open path (one trace, every event) or, when job has merge_blktrace_file, every trace of
 * its read_iolog for the merge. 0 or -errno (err: one line). */
int blktrace_src_open(struct blktrace_src *s, const struct job *job, const char *path, struct iops_err *err);
/* The next event: 1, 0 at the end, -errno on a bad or unreadable trace (err). */
int blktrace_src_next(struct blktrace_src *s, struct blktrace_ev *ev, struct iops_err *err);
void blktrace_src_close(struct blktrace_src *s);

/* Config time: merge_blktrace_file can be written (a new file, or an empty file or trace that
 * is none of the inputs). 0 or -errno (err). */
int blktrace_merge_check(const struct job *job, struct iops_err *err);
/* Write job's merge_blktrace_file. 0 or -errno (err). */
int blktrace_merge_write(const struct job *job, struct iops_err *err);

#endif
