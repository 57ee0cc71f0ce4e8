/* SPDX-License-Identifier: MIT */
/* merge: exact aggregation of N fio results (the `All clients` of client/server runs and
 * `iops merge`). Inputs are fio JSON documents, json+ (with clat/lat/slat histogram bins, by
 * iops or the real fio) or plain json (percentiles only: the merged ones are then marked
 * approximate). Sums are exact: I/O counts, bytes, runtimes over the common window, every
 * histogram bin, so the merged percentiles are those of the summed bins. */
#ifndef IOPS_MERGE_MERGE_H
#define IOPS_MERGE_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "core/err.h"

struct merge;

/* Output formats, as bits (fio's --output-format list). */
enum merge_fmt { MERGE_NORMAL = 1, MERGE_JSON = 2, MERGE_JSONPLUS = 4, MERGE_TERSE = 8, MERGE_OPENMETRICS = 16 };

/* fio's --output-format list ("normal,json+", ...) as MERGE_* bits. 0, or -EINVAL (an
 * unknown or empty name; *fmts is then meaningless). */
int merge_fmts_parse(const char *list, unsigned *fmts);

struct merge *merge_new(void);
void merge_free(struct merge *m);

/* Adds one input: a whole fio JSON document of LEN bytes, labelled HOST (and PORT, 0 when
 * none: a file), e.g. one server's result. Returns 0, or -1 with ERR set (not JSON, not fio's
 * layout, a histogram that does not add up); the merge is unchanged then. */
int merge_add(struct merge *m, const char *doc, size_t len, const char *host, unsigned port,
	      struct iops_err *err);

/* The next document of a stream (kubectl logs of N pods, files written one after the other):
 * from *pos, the first '{' that starts a line, up to its matching '}' (strings skipped), or
 * to the end when it has none (then merge_add() says why). Returns it with *doc_len and *pos
 * moved past it, or NULL when no document is left. Lines between documents are skipped. */
const char *merge_next_doc(const char *buf, size_t len, size_t *pos, size_t *doc_len);

/* Number of inputs added. */
unsigned merge_count(const struct merge *m);

/* Writes the merged result in the formats of FMTS (enum merge_fmt bits): normal: the
 * `All clients:` block in fio's layout (with its percentile block, exact); json / json+: one
 * document whose `client_stats` holds each input's job entries (with `hostname` and `port`)
 * and a last `All clients` entry; openmetrics (last): every input's units (label host: the
 * input's name) and All clients (no host), with histograms when every input had bins, as
 * one exposition. PER_INPUT: in normal format, also one line per input with its first and
 * last completion times (iops merge), and in terse format a line per input's job before the
 * All clients line; a client that already printed each server's report passes false.
 * Formats are written in fio's order: terse, json, normal, then openmetrics. Returns 0 or -1
 * with ERR set. */
int merge_write(const struct merge *m, FILE *out, unsigned fmts, int per_input, struct iops_err *err);

#endif
