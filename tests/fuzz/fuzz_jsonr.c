/* SPDX-License-Identifier: MIT */
/* fuzz_jsonr: the JSON reader (lib/core/jsonr.c) and the merge of fio JSON results that reads
 * with it (lib/merge: merge_next_doc() over a stream with lines between its documents,
 * merge_add(), which reads every job entry back through merge_rd.c, and merge_write(), in
 * every format, openmetrics too). */
#include "fuzz_util.h"

#include <stdio.h>

#include "core/jsonr.h"
#include "merge/merge.h"

static FILE *null_out;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	null_out = fopen("/dev/null", "w");
	if (!null_out)
		abort();
	return 0;
}

/* Visit every node, the way lookups do. */
static void walk(const struct jsonr *j, const struct jsonr_node *n, unsigned depth)
{
	const struct jsonr_node *c;
	double v;

	if (depth > JSONR_MAX_DEPTH + 1)
		abort();
	for (uint32_t i = 0; (c = jsonr_child(j, n, i)); i++) {
		if (c->key && jsonr_get(j, n, c->key) == NULL && !strchr(c->key, '/') && c->key[0])
			abort();	/* a key is found by its own name */
		walk(j, c, depth + 1);
	}
	(void)jsonr_num(j, n, "jobs/0/read/iops", &v);
	(void)jsonr_str(j, n, "fio version");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data, *doc;
	struct iops_err err = { 0 };
	struct jsonr j;
	struct merge *m;
	size_t pos = 0, dlen;

	if (!jsonr_parse(&j, buf, size, &err)) {
		walk(&j, jsonr_get(&j, NULL, ""), 0);
		jsonr_free(&j);
	}
	m = merge_new();
	if (!m)
		return 0;
	while ((doc = merge_next_doc(buf, size, &pos, &dlen)))
		if (merge_add(m, doc, dlen, "fuzz", 8765, &err))
			break;
	if (merge_count(m))
		merge_write(m, null_out, MERGE_NORMAL | MERGE_JSONPLUS | MERGE_OPENMETRICS, 1, &err);
	merge_free(m);
	return 0;
}
