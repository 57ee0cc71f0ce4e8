/* SPDX-License-Identifier: MIT */
/* plot_fixture: the real results and logs under tests/unit/fixtures/plot/ (made by fio 3.33
 * and by iops, see that folder's README), read whole for the plot suites. The unit runner
 * runs from the top of the tree. */
#ifndef IOPS_TEST_PLOT_FIXTURE_H
#define IOPS_TEST_PLOT_FIXTURE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#define PLOT_FIXTURES	"tests/unit/fixtures/plot/"

/* The file's text (NUL added; free() it), its length in *len. Fails the test if missing. */
static inline char *plot_fixture(const char *name, size_t *len)
{
	char path[256];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), PLOT_FIXTURES "%s", name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "fixture %s missing (run from the top of the tree)", path);
	ck_assert(fseek(f, 0, SEEK_END) == 0);
	n = ftell(f);
	ck_assert(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert(buf != NULL);
	ck_assert(fread(buf, 1, (size_t)n, f) == (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#endif
