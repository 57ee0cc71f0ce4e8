/* SPDX-License-Identifier: MIT */
/* iomem: a job's I/O buffer memory by kind (fio/run/iomem.h). */
#include "fio/run/iomem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#define IOMEM_HUGE_SHIFT	26	/* MAP_HUGE_SHIFT == SHM_HUGE_SHIFT */
#ifndef SHM_HUGETLB
#define SHM_HUGETLB	04000
#endif

size_t iomem_huge_len(size_t bytes, uint64_t hugepage)
{
	if (hugepage < 4096 || (hugepage & (hugepage - 1)) || hugepage > SIZE_MAX / 2)
		return 0;
	if (bytes > SIZE_MAX - (size_t)hugepage)
		return 0;
	return (bytes + (size_t)hugepage - 1) / (size_t)hugepage * (size_t)hugepage;
}

int iomem_huge_bits(uint64_t hugepage, uint64_t default_hugepage)
{
	int log2 = 0;

	if (!hugepage || hugepage == default_hugepage)
		return 0;
	while ((1ull << log2) < hugepage)
		log2++;
	return log2 << IOMEM_HUGE_SHIFT;
}

uint64_t iomem_default_hugepage(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	uint64_t kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Hugepagesize:", 13)) {
			kb = strtoull(line + 13, NULL, 10);
			break;
		}
	fclose(f);
	return kb * 1024;
}

/* The whole allocation for bytes of buffers: room to reach a page boundary, then mem_align. */
static int iomem_total(const struct job_proc *p, size_t bytes, size_t page, size_t *len)
{
	if (p->mem_align > SIZE_MAX - page || bytes > SIZE_MAX - page - (size_t)p->mem_align)
		return -ENOMEM;
	*len = bytes + (size_t)p->mem_align + page;
	if (p->mem == MEM_SHMHUGE || p->mem == MEM_MMAPHUGE) {
		*len = iomem_huge_len(*len, p->hugepage_bytes);
		if (!*len)
			return -EINVAL;
	}
	return 0;
}

static int iomem_map_file(struct iomem *m, const struct job_proc *p, int flags, const char **func)
{
	m->fd = open(p->mem_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (m->fd < 0) {
		*func = "open";
		return -errno;
	}
	m->path = p->mem_path;
	if (ftruncate(m->fd, (off_t)m->len) < 0) {
		*func = "ftruncate";
		return -errno;
	}
	m->base = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED | flags, m->fd, 0);
	if (m->base == MAP_FAILED) {
		m->base = NULL;
		*func = "mmap";
		return -errno;
	}
	return 0;
}

int iomem_alloc(struct iomem *m, const struct job_proc *p, size_t bytes, const char **func)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int ret, huge = 0, id;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	m->kind = p->mem;
	*func = "malloc";
	ret = iomem_total(p, bytes, page, &m->len);
	if (ret)
		return ret;
	if (p->mem == MEM_SHMHUGE || p->mem == MEM_MMAPHUGE)
		huge = iomem_huge_bits(p->hugepage_bytes, iomem_default_hugepage());
	switch (p->mem) {
	case MEM_MALLOC:
		ret = posix_memalign(&m->base, page, m->len);
		if (ret) {
			m->base = NULL;
			return -ret;
		}
		break;
	case MEM_SHM:
	case MEM_SHMHUGE:
		*func = "shmget";
		id = shmget(IPC_PRIVATE, m->len, IPC_CREAT | 0600 | (p->mem == MEM_SHMHUGE ? SHM_HUGETLB | huge : 0));
		if (id < 0)
			return -errno;
		m->base = shmat(id, NULL, 0);
		ret = m->base == (void *)-1 ? -errno : 0;
		(void)shmctl(id, IPC_RMID, NULL);	/* gone with the last detach, whatever happens */
		if (ret) {
			m->base = NULL;
			*func = "shmat";
			return ret;
		}
		break;
	case MEM_MMAP:
	case MEM_MMAPHUGE:
	case MEM_MMAPSHARED:
		if (p->mem_path[0]) {
			ret = iomem_map_file(m, p, 0, func);
			if (ret) {
				iomem_free(m);
				return ret;
			}
			break;
		}
		*func = "mmap";
		m->base = mmap(NULL, m->len, PROT_READ | PROT_WRITE,
			       MAP_ANONYMOUS | (p->mem == MEM_MMAPSHARED ? MAP_SHARED : MAP_PRIVATE) |
			       (p->mem == MEM_MMAPHUGE ? MAP_HUGETLB | huge : 0), -1, 0);
		if (m->base == MAP_FAILED) {
			m->base = NULL;
			return -errno;
		}
		break;
	default:
		return -EINVAL;
	}
	m->buf = (char *)m->base + (page - (uintptr_t)m->base % page) % page + p->mem_align;
	return 0;
}

void iomem_free(struct iomem *m)
{
	if (m->base) {
		if (m->kind == MEM_MALLOC)
			free(m->base);
		else if (m->kind == MEM_SHM || m->kind == MEM_SHMHUGE)
			(void)shmdt(m->base);
		else
			(void)munmap(m->base, m->len);
	}
	if (m->path) {	/* mmap:FILE (a zeroed struct iomem, never allocated, has none) */
		if (m->fd >= 0)
			close(m->fd);
		(void)unlink(m->path);
	}
	m->base = m->buf = NULL;
	m->fd = -1;
	m->path = NULL;
}
