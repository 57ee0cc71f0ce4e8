/* proto: the scale-out wire protocol between `iops --client` and `iops --server` (our own,
 * not fio's binary protocol; both ends are iops). A stream of frames over TCP or a Unix
 * socket; every frame is a 12-byte header then LEN bytes of payload:
 *
 *   offset 0  "IOPS"         magic (4 bytes)
 *   offset 4  u16 version    PROTO_VERSION, big-endian; a peer refuses another version
 *   offset 6  u16 type       enum proto_type, big-endian
 *   offset 8  u32 len        payload bytes, big-endian, at most PROTO_MAX_PAYLOAD
 *
 * A session: client HELLO -> server HELLO (or ERROR and close); client JOB -> server, after
 * parsing, checking and laying out the files, READY (or ERROR); client GO to every server at
 * once (the start barrier) or ABORT; server TEXT frames while it runs (its header lines, which
 * the client prints prefixed with "<hostname> "), then RESULT (fio's json+ document of the
 * run) and DONE. Either side may send ERROR (one line) and close; a malformed frame
 * (bad magic, version, type, length over the bound, payload not as the type says) ends that
 * session only. */
#ifndef IOPS_REMOTE_PROTO_H
#define IOPS_REMOTE_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

#define PROTO_MAGIC		"IOPS"
#define PROTO_VERSION		1u
#define PROTO_HDR_LEN		12u
#define PROTO_MAX_PAYLOAD	(16u << 20)	/* a json+ result of many jobs fits; a job file too */
#define PROTO_DEFAULT_PORT	8765u		/* fio's */

enum proto_type {
	PROTO_HELLO = 1,	/* c->s: "token\0client-hostname"; s->c: "server-hostname" */
	PROTO_JOB = 2,		/* c->s: argc strings, each NUL-terminated: fio's arguments, with the
				 * contents of job files carried as "@name\0<len-prefixed text>"
				 * (see proto_job_*) */
	PROTO_READY = 3,	/* s->c: files laid out, waiting for GO (empty) */
	PROTO_GO = 4,		/* c->s: start the I/O now (empty) */
	PROTO_ABORT = 5,	/* c->s: do not start / stop now (empty) */
	PROTO_TEXT = 6,		/* s->c: lines of output to show, prefixed by the client */
	PROTO_RESULT = 7,	/* s->c: the run's fio JSON (json+) document */
	PROTO_DONE = 8,		/* s->c: u32 exit status of the run, big-endian */
	PROTO_ERROR = 9,	/* either way: one line, the session ends */
	PROTO_TYPE_MAX = 9
};

struct proto_frame {
	uint16_t type;
	uint32_t len;
	char *data;		/* LEN bytes, plus a NUL after them (owned by the caller) */
};

/* Encodes a header for TYPE and LEN into buf (PROTO_HDR_LEN bytes). */
void proto_hdr_encode(unsigned char *buf, enum proto_type type, uint32_t len);

/* Decodes and validates a header. Returns 0 with *type / *len set, or -1 with ERR (bad magic,
 * other version, unknown type, length over PROTO_MAX_PAYLOAD). */
int proto_hdr_decode(const unsigned char *buf, uint16_t *type, uint32_t *len, struct iops_err *err);

/* Sends one frame on fd (whole, retrying short writes and EINTR). 0 or -errno. */
int proto_send(int fd, enum proto_type type, const void *data, uint32_t len);

/* Receives one frame, waiting at most TIMEOUT_MS (-1: no bound). 0 with *f filled (free
 * f->data), -ETIMEDOUT, -EPIPE when the peer closed, or -EPROTO with ERR set. */
int proto_recv(int fd, struct proto_frame *f, int timeout_ms, struct iops_err *err);

#endif
