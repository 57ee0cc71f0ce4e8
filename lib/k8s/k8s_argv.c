/* SPDX-License-Identifier: MIT */
/* k8s_argv: see k8s_argv.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "k8s/k8s_argv.h"

void k8s_argv_init(struct k8s_argv *a, char **argv, int max, char *store, size_t n)
{
	a->argv = argv;
	a->argc = 0;
	a->max = max;
	a->store = store;
	a->left = n;
	a->err = max < 1 ? -ENOSPC : 0;
}

void k8s_argv_add(struct k8s_argv *a, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (a->err)
		return;
	va_start(ap, fmt);
	w = vsnprintf(a->store, a->left, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= a->left || a->argc >= a->max - 1) {
		a->err = -ENOSPC;
		return;
	}
	a->argv[a->argc++] = a->store;
	a->store += w + 1;
	a->left -= (size_t)w + 1;
}

int k8s_argv_end(struct k8s_argv *a)
{
	if (a->err)
		return a->err;
	a->argv[a->argc] = NULL;
	return a->argc;
}
