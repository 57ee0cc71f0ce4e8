/* SPDX-License-Identifier: MIT */
/* iomem: a job's I/O buffer memory, of the kind mem= asks for (malloc, a System V shared
 * segment, an anonymous or file mapping, each also of huge pages), its first buffer
 * iomem_align bytes past a page boundary. mmap:FILE creates FILE (never an existing one),
 * sizes it and maps it shared; iomem_free() removes it again. Runs at job set-up only. */
#ifndef IOPS_IOMEM_H
#define IOPS_IOMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fio/job.h"

struct iomem {
	void *base;		/* what was allocated or mapped (NULL: nothing) */
	size_t len;		/* its length in bytes */
	void *buf;		/* the first buffer: page aligned + mem_align */
	uint8_t kind;		/* enum job_mem */
	int fd;			/* mmap:FILE's descriptor, -1 otherwise */
	const char *path;	/* the file to remove when freed, NULL otherwise */
};

/* Allocate bytes of buffers (bytes > 0) as p asks. 0, or -errno with *func naming the call
 * that failed ("mmap", "shmget", "open"...) for fio's error line. */
int iomem_alloc(struct iomem *m, const struct job_proc *p, size_t bytes, const char **func);
void iomem_free(struct iomem *m);

/* The length a huge-page kind rounds bytes up to (a multiple of hugepage), 0 on overflow or
 * a hugepage that is not a power of two of at least 4 KiB. */
size_t iomem_huge_len(size_t bytes, uint64_t hugepage);
/* MAP_HUGE_* / SHM_HUGE_* bits naming a huge page size (log2 << 26), 0 for the default. */
int iomem_huge_bits(uint64_t hugepage, uint64_t default_hugepage);
/* The size the kernel uses when none is named (Hugepagesize in /proc/meminfo), 0 unknown. */
uint64_t iomem_default_hugepage(void);

#endif
