/* SPDX-License-Identifier: MIT */
/* fuzz_k8s: `iops k8s`' options and manifest (lib/k8s). The input is a file's text, then
 * optionally a NUL and words (NUL- or newline-separated): options (--key=value; --config takes
 * the text as its config.file) up to a "--", then the client's arguments (a word not starting
 * with '-' is a job file whose contents are the text). A configuration that passes the checks
 * is rendered, and the manifest must be valid UTF-8 with no control character but newlines
 * and tabs (in literal blocks, where they are text);
 * the text itself goes through the writer's scalar and file forms, and the words through
 * k8s-pod's parser and command lines. */
#include "fuzz_util.h"

#include "k8s/k8s_conf.h"
#include "k8s/manifest.h"
#include "k8s/pod_plan.h"
#include "k8s/yaml.h"

static void fuzz_k8s_clean(const struct yaml *y)
{
	if (yaml_error(y) || !y->buf)
		return;
	if (!yaml_utf8_ok(y->buf, y->len) || strlen(y->buf) != y->len)
		abort();
	for (size_t i = 0; i < y->len; i++)
		if (((unsigned char)y->buf[i] < 0x20 && y->buf[i] != '\n' && y->buf[i] != '\t') || y->buf[i] == 0x7f)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t tlen = nul ? (size_t)(nul - data) : size;
	char *argv[FUZZ_ARGV_MAX], *store = NULL, *text = malloc(tlen + 1);
	struct k8s_conf *c = malloc(sizeof(*c));
	struct iops_err err = { 0 };
	struct pod_plan plan;
	struct yaml y;
	int argc = 0, i;
	bool ok = true;

	if (!text || !c)
		goto free_all;
	memcpy(text, data, tlen);
	text[tlen] = '\0';
	if (nul)
		argc = fuzz_argv(nul + 1, size - tlen - 1, "k8s", argv, &store);
	yaml_init(&y);
	yaml_scalar(&y, text);
	yaml_kv_text(&y, 1, text, text);
	fuzz_k8s_clean(&y);
	yaml_release(&y);
	k8s_conf_init(c);
	for (i = 1; i < argc && strcmp(argv[i], "--") && ok; i++) {
		char key[64], *eq = strchr(argv[i], '=');
		size_t klen = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);

		if (strncmp(argv[i], "--", 2) || klen - 2 >= sizeof(key) || klen < 2) {
			ok = false;
			break;
		}
		memcpy(key, argv[i] + 2, klen - 2);
		key[klen - 2] = '\0';
		ok = !strcmp(key, "config") ? !k8s_conf_sweep(c, "config.file", text, &err)
					    : !k8s_conf_set(c, key, eq ? eq + 1 : NULL, &err);
	}
	for (i++; i < argc && ok; i++)
		ok = !k8s_conf_arg(c, argv[i], argv[i][0] == '-' ? NULL : text, &err);
	if (ok && !k8s_conf_check(c, &err)) {
		yaml_init(&y);
		if (!manifest_render(c, &y))
			fuzz_k8s_clean(&y);
		yaml_release(&y);
	}
	if (argc && !pod_plan_parse(&plan, argc, argv, text, &err)) {
		char *pv[FUZZ_ARGV_MAX + 16], pstore[8192], hosts[4096];

		pod_plan_server_argv(&plan, pv, FUZZ_ARGV_MAX + 16, pstore, sizeof(pstore));
		pod_plan_client_argv(&plan, "/tmp/hosts", pv, FUZZ_ARGV_MAX + 16, pstore, sizeof(pstore));
		pod_plan_hosts_text(&plan, hosts, sizeof(hosts));
	}
free_all:
	free(store);
	free(text);
	free(c);
	return 0;
}
