/* SPDX-License-Identifier: MIT */
/* sweep_conf: the configuration of `iops sweep` (simple-fio's matrix, seed 004), from its
 * config.file (key=value lines, '#' comments) and from --key=value options, which override
 * it; the step matrix (rw x bs x samples), the steps' fio options and names, and the space
 * the data files need. Pure logic: no file is read or created here. */
#ifndef IOPS_SWEEP_CONF_H
#define IOPS_SWEEP_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/err.h"

#define SWEEP_LIST_MAX	16	/* values in one rw or bs list */
#define SWEEP_WORD_MAX	24	/* longest rw or bs value */
#define SWEEP_VAL_MAX	1024	/* longest value of a passed-on option (paths) */
#define SWEEP_SAMPLES_MAX	1000
#define SWEEP_NUMJOBS_MAX	64
#define SWEEP_PREFILL_BS	"256k"

/* The table's format; SWEEP_OUT_NONE: --output-format=openmetrics alone (no table). */
enum sweep_out { SWEEP_OUT_NORMAL, SWEEP_OUT_CSV, SWEEP_OUT_JSON, SWEEP_OUT_NONE };

/* The fio options passed on to every step, in this order on the command line. */
enum sweep_pass {
	SWEEP_P_DIRECTORY, SWEEP_P_FILENAME, SWEEP_P_IOENGINE, SWEEP_P_SIZE, SWEEP_P_NUMJOBS, SWEEP_P_IODEPTH,
	SWEEP_P_DIRECT, SWEEP_P_RUNTIME, SWEEP_P_TIME_BASED, SWEEP_P_LOG_AVG_MSEC,
	SWEEP_P_RWMIXREAD, SWEEP_P_RATE_IOPS, SWEEP_P_NR
};

struct sweep_conf {
	char rw[SWEEP_LIST_MAX][SWEEP_WORD_MAX];
	unsigned nr_rw;
	char bs[SWEEP_LIST_MAX][SWEEP_WORD_MAX];
	unsigned nr_bs;
	unsigned samples;
	bool prefill;
	bool keep;
	enum sweep_out out;
	bool openmetrics;		/* --output-format=...,openmetrics: the exposition after it */
	char output[SWEEP_VAL_MAX];	/* --output=FILE: the documents there, "" if none */
	char results[SWEEP_VAL_MAX];	/* --results=DIR, "" if none */
	char pass[SWEEP_P_NR][SWEEP_VAL_MAX];	/* normalised values, "" = not given */
	uint64_t size;			/* bytes per job's file (size's value) */
	unsigned numjobs;
	unsigned k8s_keys;		/* config.file keys kept for the Kubernetes renderer (a bit each) */
	char k8s_vals[6][SWEEP_WORD_MAX * 4];	/* their values, in sweep_conf_k8s_names()' order */
};

/* Defaults: rw=randread, bs=4k, 1 sample, ioengine=libaio, size=1g, numjobs=1, iodepth=1,
 * no prefill. */
void sweep_conf_init(struct sweep_conf *c);

/* One setting, from the config file (from_file: simple-fio's keys, its Kubernetes keys too)
 * or an option (--key=value without the dashes; value NULL for a bare --key).
 * 0, or -EINVAL with a one-line message naming the key in err. */
int sweep_conf_set(struct sweep_conf *c, const char *key, const char *value, bool from_file,
		   struct iops_err *err);

/* A whole config.file text; the message names the line. */
int sweep_conf_file(struct sweep_conf *c, const char *text, const char *name, struct iops_err *err);

/* "server, storageclass" etc.: the Kubernetes keys the file set, "" if none. */
void sweep_conf_k8s_names(const struct sweep_conf *c, char *buf, size_t n);

/* The value the config file gave Kubernetes key (server, storageclass, storage_type,
 * volumemode, storage(Gi), platform), NULL when it gave none. */
const char *sweep_conf_k8s_value(const struct sweep_conf *c, const char *key);

/* Steps in the matrix: rw x bs x samples, rw outermost, samples innermost. */
unsigned sweep_nr_steps(const struct sweep_conf *c);

struct sweep_step {
	const char *rw, *bs;
	unsigned sample;	/* 1-based; 0 for the prefill step */
};

/* Step i (0-based) of the matrix; the prefill step has i == -1 (write, 256k, QD1). */
void sweep_step_at(const struct sweep_conf *c, int i, struct sweep_step *st);

bool sweep_rw_writes(const char *rw);
bool sweep_rw_random(const char *rw);

/* simple-fio's result directory name fio_<bs>_<rw>_sample<N>_<yy_mm_dd_HH_MM>
 * (prefill_<yy_mm_dd_HH_MM> for the prefill step). */
int sweep_step_dirname(const struct sweep_step *st, const struct tm *tm, char *buf, size_t n);

/* The fio arguments of a step (argv[0] "fio" included, NULL-terminated) in argv[0..max):
 * strings are written into store (size n). files is the --filename_format value when the
 * sweep names the files, NULL when --filename is given. json is the --output path. logs, if
 * not NULL, is the prefix of the bw/iops/lat logs. Returns argc or -ENOSPC. */
int sweep_step_argv(const struct sweep_conf *c, const struct sweep_step *st, const char *files,
		    const char *json, const char *logs, char **argv, int max, char *store, size_t n);

/* Bytes the data files need on the volume: size x numjobs (one shared file with filename). */
uint64_t sweep_space_needed(const struct sweep_conf *c);

/* Does need fit in free bytes, leaving a tenth of them (and at least 16 MiB) free? */
bool sweep_space_fits(uint64_t need, uint64_t free_bytes);

#endif
