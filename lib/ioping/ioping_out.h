/* SPDX-License-Identifier: MIT */
/* ioping_out: ioping 1.3's output: per-request lines, the human summary, raw (-B, -p/-P)
 * lines and the JSON array (-J), written to a caller-supplied stream. Layouts are ioping's,
 * byte for byte, except that JSON strings are escaped (ioping writes them raw). */
#ifndef IOPS_IOPING_OUT_H
#define IOPS_IOPING_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "ioping/ioping_stats.h"

#define IOPING_OUT_LABEL_LEN	4352	/* fstype + device path + size */

enum ioping_out_mode {
	IOPING_OUT_TEXT,
	IOPING_OUT_BATCH,	/* -B: one raw line at the end */
	IOPING_OUT_JSON,
};

struct ioping_out {
	FILE *stream;
	enum ioping_out_mode mode;
	bool quiet;		/* no per-request output */
	bool time_prefix;	/* -I: text lines start with the local time */
	bool periods;		/* -p or -P given */
	const char *time_fmt;	/* strftime format (-I, JSON "localtime") */
	const char *path;	/* the destination as given */
	/* target description: "ext4 /dev/vda 252.0 GiB", "block device 64 MiB", ... */
	char label[IOPING_OUT_LABEL_LEN];
	const char *fstype, *device;	/* JSON "target" fields (borrowed) */
	uint64_t device_size;
	const char *done_word;	/* " read", " written" or "" (-G) */
	/* state */
	bool json_open;		/* an object has been printed */
	bool has_stamp;
	struct timespec stamp;	/* CLOCK_REALTIME of the last printed object */
};

/* Set up the sink and its target label "<fstype> <device> <size>" (caller allocates; strings
 * are borrowed). Devices use fstype "block"/"character" and device "device", as ioping does.
 * The caller then sets quiet, time_prefix, periods, time_fmt and done_word. */
void ioping_out_init(struct ioping_out *out, FILE *stream, enum ioping_out_mode mode,
		     const char *path, const char *fstype, const char *device,
		     uint64_t device_size);

/* One request. bytes is what the I/O returned; ignored tells JSON consumers it is out of the
 * statistics. now is CLOCK_REALTIME. */
void ioping_out_request(struct ioping_out *out, int64_t request, int64_t bytes, int64_t time_ns,
			bool write, enum ioping_notice notice, bool ignored,
			const struct timespec *now);

/* The blank line that ends a burst group in text mode. */
void ioping_out_burst_end(struct ioping_out *out);

/* A -p/-P period: a raw line, or a JSON object. */
void ioping_out_period(struct ioping_out *out, const struct ioping_summary *s,
		       const struct timespec *now);

/* The end of the run: the human summary, the -B raw line, or the last JSON object and the
 * closing bracket. now is used only if nothing was stamped before. */
void ioping_out_final(struct ioping_out *out, const struct ioping_summary *s,
		      const struct timespec *now);

/* Enough for any raw line: 10 fields of at most 310 characters (%.0f of a huge double). */
#define IOPING_OUT_RAW_LEN	4096

/* The raw line format (exposed for tests): 10 fields, doubles rounded. */
int ioping_out_raw(char *buf, size_t len, const struct ioping_summary *s);

/* JSON string escaping (exposed for tests): writes "..." with ", \ and control characters
 * escaped and invalid UTF-8 bytes replaced by U+FFFD. */
void ioping_out_json_string(FILE *f, const char *s);

/* strftime with ioping's 64-byte buffer: conversions that do not fit are dropped, whole.
 * Returns the length (0 for an empty result). */
size_t ioping_out_strftime(char *buf, size_t len, const char *fmt, const struct tm *tm);

#endif
