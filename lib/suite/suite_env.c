/* SPDX-License-Identifier: MIT */
#include "suite/suite_env.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct env_uint {
	char name[16];
	unsigned def, min, max;
	unsigned off;	/* of the field in struct suite_env */
};

static const struct env_uint uints[] = {
	{ "ITERATIONS", 1, 1, 1000000, offsetof(struct suite_env, iterations) },
	{ "STARTUP_DELAY", 0, 0, 86400, offsetof(struct suite_env, startup_delay_s) },
	{ "RAND_THINK", 0, 0, 86400, offsetof(struct suite_env, rand_think_s) },
	{ "FIO_CAPACITY_MB", 500, SUITE_CAPACITY_MIN_MB, 16u << 20, offsetof(struct suite_env, capacity_mb) },
	{ "FIO_RUNTIME", 120, 1, 86400, offsetof(struct suite_env, runtime_s) },
};

const char *suite_bench_name(enum suite_bench b)
{
	return b == SUITE_BENCH_FIO ? "fio" : "meta";
}

/* One whole number in [min, max]: digits only (no sign, no suffix, no blanks). */
static int env_uint_parse(const struct env_uint *u, const char *v, unsigned *out, struct iops_err *err)
{
	unsigned long long n = 0;

	if (!*v) {
		iops_err_set(err, EINVAL, "%s is empty (unset it for the default, %u)", u->name, u->def);
		return -EINVAL;
	}
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9') {
			iops_err_set(err, EINVAL, "%s=%s: not a whole number", u->name, v);
			return -EINVAL;
		}
		n = n * 10 + (unsigned)(*p - '0');
		if (n > u->max) {
			iops_err_set(err, EINVAL, "%s=%s: at most %u", u->name, v, u->max);
			return -EINVAL;
		}
	}
	if (n < u->min) {
		iops_err_set(err, EINVAL, "%s=%s: at least %u", u->name, v, u->min);
		return -EINVAL;
	}
	*out = (unsigned)n;
	return 0;
}

/* BENCHMARKS: names separated by blanks or commas. */
static int env_benchmarks(struct suite_env *env, const char *v, struct iops_err *err)
{
	const char *p = v;

	env->nr_bench = 0;
	while (*p) {
		size_t n;

		p += strspn(p, " \t,");
		n = strcspn(p, " \t,");
		if (!n)
			break;
		if (env->nr_bench == SUITE_BENCH_MAX) {
			iops_err_set(err, EINVAL, "BENCHMARKS=%s: at most %d benchmarks", v, SUITE_BENCH_MAX);
			return -EINVAL;
		}
		if (n == 3 && !strncmp(p, "fio", 3)) {
			env->bench[env->nr_bench++] = SUITE_BENCH_FIO;
		} else if (n == 4 && !strncmp(p, "meta", 4)) {
			env->bench[env->nr_bench++] = SUITE_BENCH_META;
		} else if ((n == 5 && !strncmp(p, "clone", 5)) || (n == 6 && !strncmp(p, "kernel", 6))) {
			iops_err_set(err, EINVAL, "BENCHMARKS: %.*s needs the network (it downloads %s); use meta, "
				     "which creates, stats and removes a source-like file tree offline", (int)n, p,
				     n == 5 ? "a Git repository" : "a kernel tarball");
			return -EINVAL;
		} else {
			iops_err_set(err, EINVAL, "BENCHMARKS: unknown benchmark '%.*s' (iops has fio, meta)", (int)n, p);
			return -EINVAL;
		}
		p += n;
	}
	if (!env->nr_bench) {
		iops_err_set(err, EINVAL, "BENCHMARKS is empty (iops has fio, meta)");
		return -EINVAL;
	}
	return 0;
}

int suite_env_load(struct suite_env *env, suite_getenv_fn *get, const char *cwd, struct iops_err *err)
{
	const char *v;
	size_t n;

	memset(env, 0, sizeof(*env));
	v = get("BENCHMARKS");
	if (env_benchmarks(env, v ? v : "fio meta", err))
		return -EINVAL;
	v = get("TARGET_PATH");
	if (v && !*v) {
		iops_err_set(err, EINVAL, "TARGET_PATH is empty (unset it for the working directory)");
		return -EINVAL;
	}
	if (!v)
		v = cwd;
	n = strlen(v);
	if (n >= sizeof(env->target)) {
		iops_err_set(err, ENAMETOOLONG, "TARGET_PATH is too long (%zu bytes)", n);
		return -ENAMETOOLONG;
	}
	memcpy(env->target, v, n + 1);
	for (size_t i = 0; i < sizeof(uints) / sizeof(uints[0]); i++) {
		unsigned *field = (unsigned *)((char *)env + uints[i].off);

		v = get(uints[i].name);
		*field = uints[i].def;
		if (v && env_uint_parse(&uints[i], v, field, err))
			return -EINVAL;
	}
	v = get("DELETE_FIRST");
	if (v && strcmp(v, "0") && strcmp(v, "1")) {
		iops_err_set(err, EINVAL, "DELETE_FIRST=%s: 0 or 1", v);
		return -EINVAL;
	}
	env->delete_first = v && !strcmp(v, "1");
	return 0;
}

void suite_env_print(const struct suite_env *env, FILE *out)
{
	fputs("Configuration:\nList of benchmarks to run:", out);
	for (unsigned i = 0; i < env->nr_bench; i++)
		fprintf(out, " %s", suite_bench_name(env->bench[i]));
	fprintf(out, " (BENCHMARKS)\n"
		"Target path for tests: %s (TARGET_PATH)\n"
		"Number of test iterations to run: %u (ITERATIONS)\n"
		"Random startup delay (s): %u (STARTUP_DELAY)\n"
		"Random delay between iterations (s): %u (RAND_THINK)\n"
		"Delete contents of target dir on startup: %d (DELETE_FIRST)\n"
		"File size for fio benchmark: %u (FIO_CAPACITY_MB)\n"
		"Runtime for individual fio tests (s): %u (FIO_RUNTIME)\n",
		env->target, env->iterations, env->startup_delay_s, env->rand_think_s, env->delete_first,
		env->capacity_mb, env->runtime_s);
}
