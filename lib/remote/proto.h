/* SPDX-License-Identifier: MIT */
/* proto: iops' own client/server wire protocol (docs/many-clients.md, "Wire protocol").
 *
 * A connection carries frames: a 12-byte header, magic "IOPS", u16 version, u16 type, u32
 * payload length, all big-endian, then the payload. Frames are bounded (PROTO_FRAME_MAX) and
 * checked on arrival: a bad magic, another version, an unknown type or an oversized length
 * ends the session. A JOB payload is a list of records, each one byte of kind, a u32 length
 * and the bytes: 'A' one command-line argument (no NUL in it), 'F' a job file, its name, a
 * NUL, its contents. fio's own binary protocol is not a goal: both ends are iops. */
#ifndef IOPS_REMOTE_PROTO_H
#define IOPS_REMOTE_PROTO_H

#include <stdint.h>

#include "core/err.h"

#define PROTO_MAGIC		"IOPS"
#define PROTO_VERSION		1
#define PROTO_HDR_LEN		12
#define PROTO_FRAME_MAX		(16u << 20)	/* payload bytes: a json+ result is a few hundred KiB */
#define PROTO_JOB_ARGS_MAX	1024		/* 'A' records of one JOB */
#define PROTO_JOB_FILES_MAX	64		/* 'F' records of one JOB */
#define PROTO_NAME_MAX		4096		/* an 'F' record's name, NUL excluded */

/* Frame types. C: client to server, S: server to client. */
enum proto_type {
	PROTO_HELLO = 1,	/* C: token NUL client version; S: hostname NUL arch NUL version */
	PROTO_JOB = 2,		/* C: the job's records (arguments, job files) */
	PROTO_READY = 3,	/* S: files laid out, waiting for GO (empty) */
	PROTO_GO = 4,		/* C: start the I/O now (empty): the start barrier */
	PROTO_BYE = 5,		/* C: end of session, or stop the job running now (empty) */
	PROTO_OUT = 6,		/* S: a line of the job's output (header lines, layout) */
	PROTO_RESULT = 7,	/* S: the run's result as one json+ document */
	PROTO_DONE = 8,		/* S: the job ended: u32 exit status as fio mode's */
	PROTO_ERROR = 9,	/* S: refused (token, busy, confinement): one line, then the end */
	PROTO_REPORT = 10,	/* S: the report in the normal and terse formats the client asked */
	PROTO_DIAG = 11,	/* S: a line of the job's diagnostics (fio mode's stderr) */
	PROTO_TYPE_MAX = 11,
};

/* One received frame: data is malloc'd, len bytes plus a NUL (free() it). */
struct proto_frame {
	uint16_t type;
	uint32_t len;
	char *data;
};

void proto_hdr_encode(uint8_t *hdr, uint16_t type, uint32_t len);
/* 0, or -EPROTO with err set (magic, version, type, length). */
int proto_hdr_decode(const uint8_t *hdr, uint16_t *type, uint32_t *len, struct iops_err *err);

/* Sends one frame (header and payload, whole). 0 or -errno (-EMSGSIZE: over the bound). */
int proto_send(int fd, uint16_t type, const void *data, uint32_t len);
/* Receives one frame within timeout_ms (< 0: no limit). 0; -EPIPE at a clean end of stream
 * before a header; -ETIMEDOUT; -EPROTO (err set: a bad header, a frame cut short); -errno.
 * On error fr holds nothing to free. */
int proto_recv(int fd, struct proto_frame *fr, int timeout_ms, struct iops_err *err);

/* DONE's payload: a big-endian u32. */
void proto_u32_encode(uint8_t *p, uint32_t v);
uint32_t proto_u32_decode(const uint8_t *p);

struct proto_file {
	const char *name;	/* into the parsed payload's copy */
	const char *data;
	uint32_t len;
};

/* A JOB payload: built with proto_job_add() (buf, len), or read by proto_job_parse() (args,
 * files: pointers into its own copy of the payload). Zero it before the first use. */
struct proto_job {
	char *buf;
	uint32_t len, cap;
	char **args;
	unsigned nr_args;
	struct proto_file *files;
	unsigned nr_files;
};

/* Appends a record: kind 'A' (data: the argument, name NULL) or 'F' (name and data).
 * 0, -EINVAL (a NUL in an argument or a name, an empty name), -E2BIG (the bounds), -ENOMEM. */
int proto_job_add(struct proto_job *j, char kind, const char *name, const char *data, uint32_t len);
/* Reads a JOB payload. 0, or -EPROTO with err set (a record cut short, an unknown kind, the
 * bounds, a NUL in an argument), -ENOMEM; j holds what to release either way. */
int proto_job_parse(struct proto_job *j, const char *data, uint32_t len, struct iops_err *err);
void proto_job_release(struct proto_job *j);

#endif
