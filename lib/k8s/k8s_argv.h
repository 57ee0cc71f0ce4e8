/* SPDX-License-Identifier: MIT */
/* k8s_argv: a command line built argument by argument (printf-style) into a caller's argv
 * array and string store, for the pods' container arguments and the processes a pod starts.
 * The first overflow sticks: k8s_argv_end() then returns -ENOSPC. */
#ifndef IOPS_K8S_ARGV_H
#define IOPS_K8S_ARGV_H

#include <stddef.h>

struct k8s_argv {
	char **argv;
	int argc, max;		/* max: argv's size, the NULL included */
	char *store;		/* where the next string goes */
	size_t left;		/* bytes left in the store */
	int err;		/* 0 or -ENOSPC */
};

void k8s_argv_init(struct k8s_argv *a, char **argv, int max, char *store, size_t n);
void k8s_argv_add(struct k8s_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* NULL-terminates argv: argc, or -ENOSPC. */
int k8s_argv_end(struct k8s_argv *a);

#endif
