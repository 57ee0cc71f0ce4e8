/* SPDX-License-Identifier: MIT */
/* fuzz_compare: iops compare's reading and judging (lib/compare): the input as one input
 * compared with itself, and its first half against its second (documents one after the other,
 * fio JSON, client_stats, quick or sweep documents), then both reports. */
#include "fuzz_util.h"

#include <stdio.h>

#include "compare/compare.h"

static void compare_two(const char *a, size_t alen, const char *b, size_t blen)
{
	struct compare_opts o;
	struct iops_err err = { 0 };
	struct compare *c;
	FILE *null_out = fuzz_null_out();

	compare_opts_init(&o);
	o.fail_on_pct[COMPARE_P99] = 5;
	c = compare_new(&o);
	if (!c)
		return;
	if (!compare_add(c, "a", a, alen, &err) && !compare_add(c, "b", b, blen, &err) &&
	    !compare_run(c, null_out, &err)) {
		compare_write(c, null_out, COMPARE_OUT_NORMAL);
		compare_write(c, null_out, COMPARE_OUT_JSON);
		(void)compare_failures(c);
	}
	compare_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;

	compare_two(buf, size, buf, size);
	compare_two(buf, size / 2, buf + size / 2, size - size / 2);
	return 0;
}
