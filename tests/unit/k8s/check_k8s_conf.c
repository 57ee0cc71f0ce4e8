/* SPDX-License-Identifier: MIT */
/* k8s_conf: every option's good and bad values (zero, max, one past, overflow, empty,
 * garbage), the arguments after --, simple-fio's config.file mapping and the checks of the
 * whole. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/k8s_conf.h"

static const char *const bad_opts[][2] = {
	{ "parallelism", "0" }, { "parallelism", "1025" }, { "parallelism", "-1" }, { "parallelism", "3x" },
	{ "parallelism", "99999999999999999999" }, { "parallelism", "" }, { "parallelism", NULL }, { "parallelism", " 3" },
	{ "name", "Iops" }, { "name", "0iops" }, { "name", "iops-" }, { "name", "a.b" }, { "name", "a_b" },
	{ "name", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" },
	{ "namespace", "Default" }, { "namespace", "-x" }, { "namespace", "" },
	{ "image", "a b" }, { "image", "a\nb" }, { "image", "\"x\"" }, { "image", "x;rm" },
	{ "storage-class", "Fast" }, { "storage-class", "a..b" }, { "storage-class", "a b" },
	{ "shared-pvc", "PVC" }, { "token-secret", "my_secret" },
	{ "size", "0" }, { "size", "10GB" }, { "size", "-1Gi" }, { "size", "lots" }, { "size", "1.Gi" },
	{ "volume-mode", "block" }, { "volume-mode", "Raw" }, { "volume-mode", "" },
	{ "node-selector", "disk" }, { "node-selector", "=ssd" }, { "node-selector", "disk=a b" },
	{ "node-selector", "Bad_Prefix/x=1" }, { "node-selector", "a/b/c=1" },
	{ "output-format", "JSON" }, { "output-format", "json++++" }, { "output-format", "a b" },
	{ "port", "0" }, { "port", "65536" }, { "port", "http" }, { "wait", "0" }, { "wait", "86401" },
	{ "deadline", "0" }, { "deadline", "2147483648" }, { "bogus", "1" }, { "config", "x" },
};

START_TEST(test_bad_option)
{
	struct k8s_conf c;
	struct iops_err err = { 0 };

	k8s_conf_init(&c);
	ck_assert_msg(k8s_conf_set(&c, bad_opts[_i][0], bad_opts[_i][1], &err) == -EINVAL, "accepted --%s=%s",
		      bad_opts[_i][0], bad_opts[_i][1] ? bad_opts[_i][1] : "(none)");
	ck_assert_msg(strstr(err.msg, bad_opts[_i][0]), "message does not name %s: %s", bad_opts[_i][0], err.msg);
	ck_assert(!strchr(err.msg, '\n'));
}
END_TEST

START_TEST(test_good_options)
{
	struct k8s_conf c;
	struct iops_err err = { 0 };

	k8s_conf_init(&c);
	ck_assert_str_eq(c.name, "iops");
	ck_assert_uint_eq(c.pods, 1);
	ck_assert_uint_eq(c.port, 8765);
	ck_assert_int_eq(k8s_conf_set(&c, "parallelism", "1024", &err), 0);
	ck_assert_uint_eq(c.pods, 1024);
	ck_assert_int_eq(k8s_conf_set(&c, "parallelism", "1", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "name", "bench-1", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "namespace", "storage-test", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "image", "registry.example.com/iops@sha256:abc", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "storage-class", "ocs-storagecluster-ceph-rbd", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "size", "1.5Ti", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "volume-mode", "Block", &err), 0);
	ck_assert_int_eq(c.volume, K8S_BLOCK);
	ck_assert_int_eq(k8s_conf_set(&c, "node-selector", "kubernetes.io/os=linux", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "node-selector", "empty=", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "node-selector", "kubernetes.io/os=windows", &err), -EINVAL);	/* twice */
	ck_assert_uint_eq(c.nr_sel, 2);
	ck_assert_str_eq(c.sel[1].value, "");
	ck_assert_int_eq(k8s_conf_set(&c, "port", "65535", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "wait", "86400", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "deadline", "2147483647", &err), 0);
	ck_assert_uint_eq(c.given, K8S_GIVEN_PODS | K8S_GIVEN_CLASS | K8S_GIVEN_SIZE | K8S_GIVEN_VOLUME);
	for (int i = 0; i < 14; i++) {
		char sel[32];

		snprintf(sel, sizeof(sel), "k%d=v", i);
		ck_assert_int_eq(k8s_conf_set(&c, "node-selector", sel, &err), 0);
	}
	ck_assert_int_eq(k8s_conf_set(&c, "node-selector", "one=more", &err), -EINVAL);
}
END_TEST

START_TEST(test_args)
{
	struct k8s_conf c;
	struct iops_err err = { 0 };
	static char big[K8S_ARG_MAX + 2];

	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_check(&c, &err), -EINVAL);	/* no workload */
	ck_assert(strstr(err.msg, "no workload"));
	ck_assert_int_eq(k8s_conf_arg(&c, "--name=a", NULL, &err), 0);
	ck_assert_int_eq(k8s_conf_arg(&c, "jobs/job.fio", "[a]\nrw=read\n", &err), 0);
	ck_assert_int_eq(c.args[1].file, 0);
	ck_assert_str_eq(c.files[0].key, "job.fio");
	ck_assert_int_eq(k8s_conf_arg(&c, "other/job.fio", "[b]\n", &err), -EINVAL);	/* same key */
	ck_assert_int_eq(k8s_conf_arg(&c, "bad name.fio", "[b]\n", &err), -EINVAL);
	ck_assert_int_eq(k8s_conf_arg(&c, "x.fio", "[b]\n  include more.fio\n", &err), -EINVAL);
	ck_assert(strstr(err.msg, "include"));
	ck_assert_int_eq(k8s_conf_arg(&c, "y.fio", "[b]\ndescription=include me\n", &err), 0);
	ck_assert_int_eq(k8s_conf_arg(&c, "l1.fio", "[b]\nbad \xff\n", &err), -EINVAL);
	ck_assert(strstr(err.msg, "UTF-8"));
	ck_assert_int_eq(k8s_conf_arg(&c, "", NULL, &err), -EINVAL);
	ck_assert_int_eq(k8s_conf_arg(&c, "--a=\n", NULL, &err), -EINVAL);
	ck_assert_int_eq(k8s_conf_arg(&c, "--a=\xff", NULL, &err), -EINVAL);
	memset(big, 'a', sizeof(big) - 1);
	big[0] = '-';
	ck_assert_int_eq(k8s_conf_arg(&c, big, NULL, &err), -EINVAL);
	big[sizeof(big) - 2] = '\0';
	ck_assert_int_eq(k8s_conf_arg(&c, big, NULL, &err), 0);	/* 4096 bytes */
	ck_assert_int_eq(k8s_conf_check(&c, &err), 0);
	ck_assert_uint_eq(c.nr_args, 4);
}
END_TEST

/* what the pods set themselves is refused after --; what only looks like it is not */
static const char *const own_args[][2] = {
	{ "--client=h", "x" }, { "--client-wait=3", "x" }, { "--client", "x" }, { "--server", "x" },
	{ "--server-runs=2", "x" }, { "--output=x.json", "x" }, { "--output-format=json", "x" },
	{ "--clients=1", NULL }, { "--serverless=1", NULL }, { "--output_format=json", NULL }, { "--outputs", NULL },
};

START_TEST(test_own_args)
{
	struct k8s_conf c;
	struct iops_err err = { 0 };
	int want = own_args[_i][1] ? -EINVAL : 0;

	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_arg(&c, own_args[_i][0], NULL, &err), want);
	if (want)
		ck_assert(strstr(err.msg, own_args[_i][0]));
}
END_TEST

START_TEST(test_many_args_and_files)
{
	struct k8s_conf c;
	struct iops_err err = { 0 };
	static char text[K8S_FILES_BYTES + 2];
	static char names[K8S_FILES_MAX][32];	/* the conf keeps pointers to its arguments */

	k8s_conf_init(&c);
	for (int i = 0; i < K8S_ARGS_MAX; i++)
		ck_assert_int_eq(k8s_conf_arg(&c, "--rw=read", NULL, &err), 0);
	ck_assert_int_eq(k8s_conf_arg(&c, "--rw=read", NULL, &err), -E2BIG);
	k8s_conf_init(&c);
	for (int i = 0; i < K8S_FILES_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "j%d.fio", i);
		ck_assert_int_eq(k8s_conf_arg(&c, names[i], "[j]\n", &err), 0);
	}
	ck_assert_int_eq(k8s_conf_arg(&c, "one-more.fio", "[j]\n", &err), -EINVAL);
	k8s_conf_init(&c);
	memset(text, 'a', sizeof(text) - 2);
	text[sizeof(text) - 2] = '\0';	/* K8S_FILES_BYTES: fits */
	ck_assert_int_eq(k8s_conf_arg(&c, "big.fio", text, &err), 0);
	ck_assert_int_eq(k8s_conf_arg(&c, "small.fio", "x", &err), -EINVAL);	/* one byte over */
	ck_assert(strstr(err.msg, "KiB"));
}
END_TEST

static const char config[] =
	"storageclass=ocs-storagecluster-cephfs\n"
	"volumemode=Block\n"
	"platform=bm\n"
	"server=3\n"
	"sample=3\n"
	"prefill=true\n"
	"storage(Gi)=200\n"
	"rw=randwrite randread\n"
	"bs=4K 8K 16K\n"
	"iodepth=8\n";

START_TEST(test_config_file)
{
	struct k8s_conf c;
	struct iops_err err = { 0 };

	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_sweep(&c, "dir/config.file", config, &err), 0);
	ck_assert_uint_eq(c.pods, 3);
	ck_assert_str_eq(c.storage_class, "ocs-storagecluster-cephfs");
	ck_assert_int_eq(c.volume, K8S_BLOCK);
	ck_assert_str_eq(c.size, "200Gi");
	ck_assert_int_eq(c.sweep, 0);
	ck_assert_str_eq(c.files[0].key, "config.file");
	ck_assert_str_eq(c.note, "");
	ck_assert_int_eq(k8s_conf_check(&c, &err), 0);
	/* options given on the command line win */
	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_set(&c, "parallelism", "5", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "volume-mode", "Filesystem", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "size", "1Ti", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "storage-class", "fast", &err), 0);
	ck_assert_int_eq(k8s_conf_sweep(&c, "config.file", config, &err), 0);
	ck_assert_uint_eq(c.pods, 5);
	ck_assert_int_eq(c.volume, K8S_FILESYSTEM);
	ck_assert_str_eq(c.size, "1Ti");
	ck_assert_str_eq(c.storage_class, "fast");
	/* the sweep's own formats */
	ck_assert_int_eq(k8s_conf_set(&c, "output-format", "csv", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "output-format", "json+", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), -EINVAL);
	/* with arguments after -- too */
	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_sweep(&c, "config.file", config, &err), 0);
	ck_assert_int_eq(k8s_conf_arg(&c, "--rw=read", NULL, &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), -EINVAL);
	ck_assert(strstr(err.msg, "--rw=read"));
}
END_TEST

static const char *const bad_configs[] = {
	"server=0\n", "server=1025\n", "server=three\n", "storageclass=Not_A_Name\n", "volumemode=raw\n",
	"storage(Gi)=0\n", "storage(Gi)=1.5\n", "storage(Gi)=10Gi\n", "storage(Gi)=-1\n", "rw=bogus\n",
	"not a line\n", "storage(Gi)=99999999999999999999999999999999999999\n",
};

START_TEST(test_bad_config)
{
	struct k8s_conf c;
	struct iops_err err = { 0 };

	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_sweep(&c, "config.file", bad_configs[_i], &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "config.file"), "message does not name the file: %s", err.msg);
	ck_assert_uint_eq(c.nr_files, 0);
}
END_TEST

START_TEST(test_config_notes)
{
	struct k8s_conf c;
	struct iops_err err = { 0 };

	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_sweep(&c, "config.file", "platform=hcp\nstorage_type=rbd\n", &err), 0);
	ck_assert_str_eq(c.note, "config.file: storage_type and platform read, not used (one cluster, the one kubectl "
				 "applies to)");
}
END_TEST

START_TEST(test_check)
{
	struct k8s_conf c;
	struct iops_err err = { 0 };
	char name[64];

	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_arg(&c, "--name=a", NULL, &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "shared-pvc", "rwx-claim", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "size", "1Gi", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), -EINVAL);
	ck_assert(strstr(err.msg, "rwx-claim"));
	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_arg(&c, "--name=a", NULL, &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "shared-pvc", "rwx-claim", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "volume-mode", "Block", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), -EINVAL);
	/* the pods' host names: <name>-<index> within 63 */
	k8s_conf_init(&c);
	ck_assert_int_eq(k8s_conf_arg(&c, "--name=a", NULL, &err), 0);
	memset(name, 'a', 61);
	name[61] = '\0';
	ck_assert_int_eq(k8s_conf_set(&c, "name", name, &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "parallelism", "10", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), 0);	/* a...a-9 */
	ck_assert_int_eq(k8s_conf_set(&c, "parallelism", "11", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), -EINVAL);	/* a...a-10 */
	ck_assert(strstr(err.msg, "at most 60 characters with 11 pods"));
	ck_assert_int_eq(k8s_conf_set(&c, "parallelism", "1", &err), 0);
	ck_assert_int_eq(k8s_conf_set(&c, "output-format", "csv", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), -EINVAL);	/* a sweep's format */
	ck_assert_int_eq(k8s_conf_set(&c, "output-format", "json+", &err), 0);
	ck_assert_int_eq(k8s_conf_check(&c, &err), 0);
}
END_TEST

Suite *k8s_conf_suite(void)
{
	Suite *s = suite_create("k8s_conf");
	TCase *tc = tcase_create("k8s");

	tcase_add_loop_test(tc, test_bad_option, 0, sizeof(bad_opts) / sizeof(bad_opts[0]));
	tcase_add_test(tc, test_good_options);
	tcase_add_test(tc, test_args);
	tcase_add_loop_test(tc, test_own_args, 0, sizeof(own_args) / sizeof(own_args[0]));
	tcase_add_test(tc, test_many_args_and_files);
	tcase_add_test(tc, test_config_file);
	tcase_add_loop_test(tc, test_bad_config, 0, sizeof(bad_configs) / sizeof(bad_configs[0]));
	tcase_add_test(tc, test_config_notes);
	tcase_add_test(tc, test_check);
	suite_add_tcase(s, tc);
	return s;
}
