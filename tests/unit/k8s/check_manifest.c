/* SPDX-License-Identifier: MIT */
/* manifest: the variants' distinguishing lines (Filesystem, Block, shared claim, config.file,
 * token, namespace, node selectors, deadline), the pods' arguments, byte-for-byte determinism,
 * and hostile strings reaching the output only quoted. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "k8s/manifest.h"

static void render(const struct k8s_conf *c, struct yaml *y)
{
	yaml_init(y);
	ck_assert_int_eq(manifest_render(c, y), 0);
	ck_assert_ptr_nonnull(y->buf);
}

static void has(const struct yaml *y, const char *line)
{
	ck_assert_msg(strstr(y->buf, line), "no '%s' in:\n%s", line, y->buf);
}

static void lacks(const struct yaml *y, const char *line)
{
	ck_assert_msg(!strstr(y->buf, line), "'%s' in:\n%s", line, y->buf);
}

static void conf_fio(struct k8s_conf *c)
{
	struct iops_err err = { 0 };

	k8s_conf_init(c);
	ck_assert_int_eq(k8s_conf_set(c, "parallelism", "3", &err), 0);
	ck_assert_int_eq(k8s_conf_arg(c, "--name=a", NULL, &err), 0);
	ck_assert_int_eq(k8s_conf_arg(c, "--rw=randread", NULL, &err), 0);
	ck_assert_int_eq(k8s_conf_check(c, &err), 0);
}

START_TEST(test_filesystem)
{
	struct k8s_conf c;
	struct yaml y, y2;

	conf_fio(&c);
	render(&c, &y);
	has(&y, "\nkind: Service\n");
	has(&y, "  clusterIP: None\n");
	has(&y, "\nkind: Job\n");
	has(&y, "  completionMode: Indexed\n  completions: 3\n  parallelism: 3\n");
	has(&y, "      subdomain: iops\n");
	has(&y, "        runAsNonRoot: true\n");
	has(&y, "          type: RuntimeDefault\n");
	has(&y, "            allowPrivilegeEscalation: false\n            readOnlyRootFilesystem: true\n");
	has(&y, "              drop:\n                - ALL\n");
	has(&y, "            - k8s-pod\n            - \"--pods=3\"\n            - \"--name=iops\"\n");
	has(&y, "            - \"--runs=1\"\n            - \"--directory=/iops/data\"\n            - \"--\"\n"
		"            - \"--name=a\"\n            - \"--rw=randread\"\n");
	has(&y, "                volumeMode: Filesystem\n");
	has(&y, "                    storage: \"10Gi\"\n");
	has(&y, "              mountPath: /iops/data\n");
	lacks(&y, "kind: ConfigMap");
	lacks(&y, "namespace:");
	lacks(&y, "storageClassName");
	lacks(&y, "activeDeadlineSeconds");
	lacks(&y, "volumeDevices");
	lacks(&y, "env:");
	lacks(&y, "nodeSelector");
	render(&c, &y2);
	ck_assert_uint_eq(y.len, y2.len);
	ck_assert(!memcmp(y.buf, y2.buf, y.len));	/* the same bytes */
	yaml_release(&y);
	yaml_release(&y2);
}
END_TEST

START_TEST(test_block_and_options)
{
	struct k8s_conf c;
	struct iops_err err = { 0 };
	struct yaml y;

	conf_fio(&c);
	ck_assert_int_eq(k8s_conf_set(&c, "volume-mode", "Block", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "storage-class", "fast-ssd", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "namespace", "bench", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "deadline", "7200", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "token-secret", "iops-token", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "node-selector", "topology.kubernetes.io/zone=eu-1a", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "node-selector", "disk=", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "output-format", "json+", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "port", "9000", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), 0);
	render(&c, &y);
	has(&y, "          volumeDevices:\n            - name: data\n              devicePath: /dev/iops\n");
	has(&y, "            - \"--device=/dev/iops\"\n");
	has(&y, "            - \"--output-format=json+\"\n");
	has(&y, "            - \"--port=9000\"\n");
	has(&y, "      port: 9000\n");
	has(&y, "              containerPort: 9000\n");
	has(&y, "                volumeMode: Block\n");
	has(&y, "                storageClassName: fast-ssd\n");
	has(&y, "  namespace: bench\n");
	has(&y, "#   kubectl -n bench apply");
	has(&y, "  activeDeadlineSeconds: 7200\n");
	has(&y, "            - name: IOPS_SERVER_TOKEN\n              valueFrom:\n                secretKeyRef:\n"
		"                  name: iops-token\n                  key: token\n");
	has(&y, "      nodeSelector:\n        topology.kubernetes.io/zone: eu-1a\n        disk: \"\"\n");
	lacks(&y, "mountPath: /iops/data");
	lacks(&y, "--directory");
	yaml_release(&y);
}
END_TEST

START_TEST(test_shared_and_config)
{
	static const char cfg[] = "server=2\nrw=randread randwrite\nbs=4k\nsample=2\nprefill=true\n";
	struct k8s_conf c;
	struct iops_err err = { 0 };
	struct yaml y;

	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_set(&c, "shared-pvc", "rwx", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "output-format", "csv", &err), 0);
	ck_assert_int_eq(k8s_conf_sweep(&c, "my/config.file", cfg, &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), 0);
	render(&c, &y);
	ck_assert(!strncmp(strstr(y.buf, "apiVersion"), "apiVersion: v1\nkind: ConfigMap\n", 31));	/* first */
	has(&y, "data:\n  config.file: |\n    server=2\n    rw=randread randwrite\n");
	has(&y, "            - \"--runs=1\"\n");	/* the whole sweep: one session per server */
	has(&y, "            - \"--sweep=/iops/job/config.file\"\n            - \"--\"\n          env:");
	has(&y, "          persistentVolumeClaim:\n            claimName: rwx\n");
	has(&y, "              subPathExpr: \"pod-$(IOPS_POD_INDEX)\"\n");
	has(&y, "                  fieldPath: \"metadata.annotations['batch.kubernetes.io/job-completion-index']\"\n");
	has(&y, "            - name: job\n              mountPath: /iops/job\n              readOnly: true\n");
	has(&y, "          configMap:\n            name: iops\n            defaultMode: 292\n");
	has(&y, "  completions: 2\n");
	lacks(&y, "ephemeral");
	yaml_release(&y);
}
END_TEST

START_TEST(test_hostile)
{
	static const char job[] = "[j]\ndescription=\"yes: no # {x} & *y\"\n  indented=1\n\xe2\x98\x83\n";
	struct k8s_conf c;
	struct iops_err err = { 0 };
	struct yaml y;

	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_arg(&c, "--description=a: b # c \"d\" \\ 'e' yes", NULL, &err), 0);
	ck_assert_int_eq(k8s_conf_arg(&c, "--description=\x1b[31m\xc2\x85\xe2\x80\xa8", NULL, &err), 0);
	ck_assert_int_eq(k8s_conf_arg(&c, "d/evil.fio", job, &err), 0);
	ck_assert_int_eq(k8s_conf_arg(&c, "crlf.fio", "[j]\r\nrw=read\r\n", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), 0);
	render(&c, &y);
	has(&y, "            - \"--description=a: b # c \\\"d\\\" \\\\ 'e' yes\"\n");
	has(&y, "            - \"--description=\\u001B[31m\\u0085\\u2028\"\n");
	has(&y, "            - /iops/job/evil.fio\n");
	has(&y, "  evil.fio: |\n    [j]\n    description=\"yes: no # {x} & *y\"\n      indented=1\n    \xe2\x98\x83\n");
	has(&y, "  crlf.fio: \"[j]\\u000D\\nrw=read\\u000D\\n\"\n");
	yaml_release(&y);
}
END_TEST

START_TEST(test_pod_argv_overflow)
{
	struct k8s_conf c;
	char *argv[8], store[4096];

	conf_fio(&c);
	ck_assert_int_eq(manifest_pod_argv(&c, argv, 8, store, sizeof(store)), -ENOSPC);	/* 12 arguments */
	ck_assert_int_eq(manifest_pod_argv(&c, (char *[16]){ 0 }, 16, store, 40), -ENOSPC);
	{
		char *all[16];

		ck_assert_int_eq(manifest_pod_argv(&c, all, 16, store, sizeof(store)), 11);
		ck_assert_str_eq(all[0], "k8s-pod");
		ck_assert_ptr_null(all[11]);
	}
}
END_TEST

Suite *manifest_suite(void)
{
	Suite *s = suite_create("manifest");
	TCase *tc = tcase_create("k8s");

	tcase_add_test(tc, test_filesystem);
	tcase_add_test(tc, test_block_and_options);
	tcase_add_test(tc, test_shared_and_config);
	tcase_add_test(tc, test_hostile);
	tcase_add_test(tc, test_pod_argv_overflow);
	suite_add_tcase(s, tc);
	return s;
}
