/* SPDX-License-Identifier: MIT */
/* fuzz_util: what the libFuzzer harnesses of tests/fuzz share (test code, never in iops). */
#ifndef IOPS_FUZZ_UTIL_H
#define IOPS_FUZZ_UTIL_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_ARGV_MAX	64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* /dev/null, opened once, for what a harness writes (reports). */
static inline FILE *fuzz_null_out(void)
{
	static FILE *f;

	if (!f && !(f = fopen("/dev/null", "w")))
		abort();
	return f;
}

/* argv[0] = prog, then the input split on NUL or newline (at most FUZZ_ARGV_MAX - 2 words).
 * *store is malloc'd: free it. Returns argc. */
static inline int fuzz_argv(const uint8_t *data, size_t size, const char *prog, char **argv, char **store)
{
	int argc = 0;
	char *s = malloc(size + 1);

	*store = s;
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	argv[argc++] = (char *)prog;
	for (size_t i = 0, start = 0; i <= size && argc < FUZZ_ARGV_MAX - 1; i++)
		if (i == size || s[i] == '\0' || s[i] == '\n') {
			s[i] = '\0';
			argv[argc++] = s + start;
			start = i + 1;
		}
	argv[argc] = NULL;
	return argc;
}

/* Nothing to read on stdin (a job file "-" reads it): /dev/null. */
static inline void fuzz_stdin_null(void)
{
	int fd = open("/dev/null", O_RDONLY);

	if (fd > 0) {
		dup2(fd, 0);
		close(fd);
	}
}

#endif
