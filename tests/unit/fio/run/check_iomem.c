/* SPDX-License-Identifier: MIT */
/* Unit tests of the I/O buffer memory (lib/fio/run/iomem.c): every kind this machine can give
 * without huge pages, the huge-page kinds as the kernel gives them (or refuses), the first buffer's alignment (page + iomem_align), mmap:FILE created,
 * sized and removed (and never an existing file), and the huge-page arithmetic. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio/run/iomem.h"
#include "unit_skip.h"

static struct job_proc proc_of(uint8_t mem, uint64_t align)
{
	struct job_proc p;

	memset(&p, 0, sizeof(p));
	p.mem = mem;
	p.mem_align = align;
	p.hugepage_bytes = 2u << 20;
	return p;
}

static const struct { uint8_t mem; uint64_t align; size_t bytes; } kinds[] = {
	{ MEM_MALLOC, 0, 4096 }, { MEM_MALLOC, 512, 65536 }, { MEM_MALLOC, 100, 1 }, { MEM_MALLOC, 8192, 12345 },
	{ MEM_SHM, 0, 4096 }, { MEM_SHM, 3, 1 << 20 },
	{ MEM_MMAP, 0, 4096 }, { MEM_MMAP, 4095, 8192 },
	{ MEM_MMAPSHARED, 0, 4096 }, { MEM_MMAPSHARED, 512, 3 },
};

START_TEST(test_kinds_and_alignment)
{
	struct job_proc p = proc_of(kinds[_i].mem, kinds[_i].align);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const char *func = NULL;
	struct iomem m;

	ck_assert_int_eq(iomem_alloc(&m, &p, kinds[_i].bytes, &func), 0);
	ck_assert_ptr_nonnull(m.buf);
	ck_assert_uint_eq(((uintptr_t)m.buf - kinds[_i].align) % page, 0);
	ck_assert((char *)m.buf + kinds[_i].bytes <= (char *)m.base + m.len);
	memset(m.buf, 0xa5, kinds[_i].bytes);	/* all of it is ours to write */
	ck_assert_ptr_null(m.path);
	iomem_free(&m);
	ck_assert_ptr_null(m.base);
	iomem_free(&m);	/* twice is harmless */
}
END_TEST

START_TEST(test_free_zeroed)
{
	struct iomem m;

	memset(&m, 0, sizeof(m));	/* a worker that never got as far: fd 0 must stay open */
	iomem_free(&m);
	ck_assert_int_ne(fcntl(0, F_GETFD), -1);
}
END_TEST

START_TEST(test_mmap_file)
{
	char dir[] = "/tmp/check_iomem.XXXXXX";
	struct job_proc p = proc_of(MEM_MMAP, 0);
	const char *func = NULL;
	struct stat st;
	struct iomem m;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(p.mem_path, sizeof(p.mem_path), "%s/buf", dir);
	ck_assert_int_eq(iomem_alloc(&m, &p, 1 << 20, &func), 0);
	ck_assert_int_eq(stat(p.mem_path, &st), 0);
	ck_assert_uint_ge((uint64_t)st.st_size, 1u << 20);
	ck_assert_uint_eq((uint64_t)st.st_size, m.len);
	memset(m.buf, 1, 1 << 20);
	iomem_free(&m);
	ck_assert_int_ne(stat(p.mem_path, &st), 0);	/* removed */

	/* an existing file is neither used nor removed */
	fd = open(p.mem_path, O_CREAT | O_WRONLY, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "keep", 4), 4);
	close(fd);
	ck_assert_int_eq(iomem_alloc(&m, &p, 4096, &func), -EEXIST);
	ck_assert_str_eq(func, "open");
	iomem_free(&m);
	ck_assert_int_eq(stat(p.mem_path, &st), 0);
	ck_assert_int_eq(st.st_size, 4);
	unlink(p.mem_path);

	/* a directory that does not exist */
	snprintf(p.mem_path, sizeof(p.mem_path), "%s/no/buf", dir);
	ck_assert_int_eq(iomem_alloc(&m, &p, 4096, &func), -ENOENT);
	iomem_free(&m);
	rmdir(dir);
}
END_TEST

START_TEST(test_too_big)
{
	struct job_proc p = proc_of(MEM_MALLOC, 1u << 30);
	const char *func = NULL;
	struct iomem m;

	ck_assert_int_eq(iomem_alloc(&m, &p, SIZE_MAX - 4096, &func), -ENOMEM);	/* overflow caught */
	iomem_free(&m);
	p = proc_of(MEM_SHMHUGE, 0);
	p.hugepage_bytes = 3000;	/* not a power of 2 */
	ck_assert_int_eq(iomem_alloc(&m, &p, 4096, &func), -EINVAL);
	iomem_free(&m);
}
END_TEST

/* Huge-page buffers (mem=shmhuge, mmaphuge) of 2 MiB pages: what the kernel gives a raw
 * shmget(SHM_HUGETLB) / mmap(MAP_HUGETLB) of the same size, iomem_alloc gives, or fails with
 * the same errno (ENOMEM where no huge page is free: then the buffer part is a counted skip). */
static int kernel_huge(uint8_t mem, size_t len)
{
	int e = 0;

	if (mem == MEM_SHMHUGE) {
		int id = shmget(IPC_PRIVATE, len, IPC_CREAT | 0600 | SHM_HUGETLB | (21 << 26) /* SHM_HUGE_2MB */);

		if (id < 0)
			return errno;
		if (shmat(id, NULL, 0) == (void *)-1)
			e = errno;
		(void)shmctl(id, IPC_RMID, NULL);
		return e;
	}
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (21 << 26) /* MAP_HUGE_2MB */, -1, 0);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, len);
	return 0;
}

START_TEST(test_huge_kinds)
{
	uint8_t mem = _i ? MEM_MMAPHUGE : MEM_SHMHUGE;
	struct job_proc p = proc_of(mem, 0);
	int e = kernel_huge(mem, 2u << 20);
	const char *func = NULL;
	struct iomem m;

	ck_assert_int_eq(iomem_alloc(&m, &p, 4096, &func), -e);
	if (e) {
		unit_skip("iomem: the kernel gives no 2 MiB huge-page %s here (%s): the refusal is checked, not the buffer",
			  _i ? "mapping" : "segment", strerror(e));
		ck_assert_ptr_null(m.base);
		return;
	}
	ck_assert_uint_eq(m.len, 2u << 20);
	memset(m.buf, 0xa5, 4096);
	iomem_free(&m);
	ck_assert_ptr_null(m.base);
}
END_TEST

static const struct { size_t bytes; uint64_t huge; size_t want; } huge_cases[] = {
	{ 1, 2u << 20, 2u << 20 }, { 2u << 20, 2u << 20, 2u << 20 }, { (2u << 20) + 1, 2u << 20, 4u << 20 },
	{ 0, 2u << 20, 0 }, { 1, 4096, 4096 }, { 1, 1u << 30, 1u << 30 },
	{ 1, 0, 0 }, { 1, 2048, 0 }, { 1, 3u << 20, 0 }, { SIZE_MAX - 10, 2u << 20, 0 },
};

START_TEST(test_huge_len)
{
	ck_assert_uint_eq(iomem_huge_len(huge_cases[_i].bytes, huge_cases[_i].huge), huge_cases[_i].want);
}
END_TEST

START_TEST(test_huge_bits)
{
	ck_assert_int_eq(iomem_huge_bits(2u << 20, 2u << 20), 0);	/* the default needs no name */
	ck_assert_int_eq(iomem_huge_bits(0, 2u << 20), 0);
	ck_assert_int_eq(iomem_huge_bits(1u << 30, 2u << 20), 30 << 26);
	ck_assert_int_eq(iomem_huge_bits(2u << 20, 1u << 30), 21 << 26);
}
END_TEST

Suite *iomem_suite(void);

Suite *iomem_suite(void)
{
	Suite *s = suite_create("iomem");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_kinds_and_alignment, 0, sizeof(kinds) / sizeof(kinds[0]));
	tcase_add_test(tc, test_free_zeroed);
	tcase_add_test(tc, test_mmap_file);
	tcase_add_test(tc, test_too_big);
	tcase_add_loop_test(tc, test_huge_kinds, 0, 2);
	tcase_add_loop_test(tc, test_huge_len, 0, sizeof(huge_cases) / sizeof(huge_cases[0]));
	tcase_add_test(tc, test_huge_bits);
	suite_add_tcase(s, tc);
	return s;
}
