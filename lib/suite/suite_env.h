/* SPDX-License-Identifier: MIT */
/* suite_env: the configuration of `iops suite`, read from the environment as fs-performance
 * reads it (BENCHMARKS, TARGET_PATH, ITERATIONS, STARTUP_DELAY, RAND_THINK, DELETE_FIRST,
 * FIO_CAPACITY_MB, FIO_RUNTIME), checked, and echoed in its "Description: value (VAR)" form. */
#ifndef IOPS_SUITE_ENV_H
#define IOPS_SUITE_ENV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"

#define SUITE_BENCH_MAX		8	/* benchmarks in one BENCHMARKS list */
#define SUITE_PATH_MAX		4096
#define SUITE_CAPACITY_MIN_MB	64	/* the quick suite's smallest test file */

enum suite_bench { SUITE_BENCH_FIO, SUITE_BENCH_META };

struct suite_env {
	enum suite_bench bench[SUITE_BENCH_MAX];	/* in the order given */
	unsigned nr_bench;
	char target[SUITE_PATH_MAX];	/* TARGET_PATH as given, or the working directory */
	unsigned iterations;		/* >= 1 */
	unsigned startup_delay_s;	/* a random delay of up to this before the first benchmark */
	unsigned rand_think_s;		/* a random delay of up to this between iterations */
	bool delete_first;		/* remove what earlier iops runs left in the target first */
	unsigned capacity_mb;		/* the fio benchmark's file size; scales the meta tree */
	unsigned runtime_s;		/* each fio step's runtime */
};

/* The environment as a function, so tests can give their own. NULL: the variable is unset. */
typedef const char *suite_getenv_fn(const char *name);

/* Read and check every variable; cwd stands for an unset TARGET_PATH. 0, or -EINVAL with a
 * one-line message naming the variable in err. */
int suite_env_load(struct suite_env *env, suite_getenv_fn *get, const char *cwd, struct iops_err *err);

/* fs-performance's "Configuration:" block. */
void suite_env_print(const struct suite_env *env, FILE *out);

const char *suite_bench_name(enum suite_bench b);

#endif
