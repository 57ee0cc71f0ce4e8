/* SPDX-License-Identifier: MIT */
/* pod_plan: the pod's options (good, bad, missing), its index from JOB_COMPLETION_INDEX, the
 * host names and hosts file, the server's and the client's command lines per variant. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "k8s/pod_plan.h"

#define ARGV(...) ((char *[]){ "k8s-pod", __VA_ARGS__, NULL })
#define ARGC(a) ((int)(sizeof(a) / sizeof(a[0])) - 1)

static char *const *join(char **argv, char *store, size_t n, int argc)
{
	char *p = store;

	for (int i = 0; i < argc; i++) {
		size_t len = strlen(argv[i]);

		ck_assert_uint_lt((size_t)(p - store) + len + 1, n);
		memcpy(p, argv[i], len);
		p[len] = i + 1 < argc ? ' ' : '\0';
		p += len + 1;
	}
	if (!argc)
		store[0] = '\0';
	return argv;
}

START_TEST(test_parse_and_lines)
{
	char *a[] = { "k8s-pod", "--pods=3", "--name=iops", "--port=8765", "--wait=30", "--runs=1",
		      "--directory=/iops/data", "--output-format=json+", "--", "--name=a", "job.fio", NULL };
	struct pod_plan p;
	struct iops_err err = { 0 };
	char *argv[32], store[4096], line[1024], hosts[256];

	ck_assert_int_eq(pod_plan_parse(&p, ARGC(a), a, "0", &err), 0);
	ck_assert_uint_eq(p.pods, 3);
	ck_assert_uint_eq(p.index, 0);
	ck_assert_str_eq(p.service, "iops");	/* the name by default */
	ck_assert_int_eq(p.nr_client_args, 2);
	ck_assert_uint_eq(pod_plan_idle_s(&p), 70);
	ck_assert_int_eq(pod_plan_host(&p, 2, hosts, sizeof(hosts)), 0);
	ck_assert_str_eq(hosts, "iops-2.iops");
	ck_assert_int_eq(pod_plan_host(&p, 2, hosts, 11), -ENAMETOOLONG);
	ck_assert_int_eq(pod_plan_hosts_text(&p, hosts, sizeof(hosts)), 0);
	ck_assert_str_eq(hosts, "iops-0.iops,8765\niops-1.iops,8765\niops-2.iops,8765\n");
	ck_assert_int_eq(pod_plan_hosts_text(&p, hosts, 40), -ENOSPC);
	ck_assert_int_eq(pod_plan_server_argv(&p, argv, 32, store, sizeof(store)), 4);
	join(argv, line, sizeof(line), 4);
	ck_assert_str_eq(line, "iops --server --server-runs=1 --directory=/iops/data");
	ck_assert_int_eq(pod_plan_client_argv(&p, "/tmp/h", argv, 32, store, sizeof(store)), 6);
	join(argv, line, sizeof(line), 6);
	ck_assert_str_eq(line, "iops --client=/tmp/h --client-wait=30 --output-format=json+ --name=a job.fio");
	ck_assert_int_eq(pod_plan_client_argv(&p, "/tmp/h", argv, 4, store, sizeof(store)), -ENOSPC);
	ck_assert_int_eq(pod_plan_client_argv(&p, "/tmp/h", argv, 32, store, 20), -ENOSPC);
}
END_TEST

START_TEST(test_variants)
{
	char *blk[] = { "k8s-pod", "--pods=2", "--name=b", "--service=svc", "--port=9000", "--runs=7",
			"--device=/dev/loop7", "--listen=127.0.0.3", "--", "--rw=read", NULL };
	char *swp[] = { "k8s-pod", "--pods=2", "--name=s", "--sweep=/iops/job/config.file", "--device=/dev/iops",
			"--listen=::1", NULL };
	struct pod_plan p;
	struct iops_err err = { 0 };
	char *argv[32], store[4096], line[1024];
	int n;

	ck_assert_int_eq(pod_plan_parse(&p, ARGC(blk), blk, "1", &err), 0);
	ck_assert_uint_eq(p.index, 1);
	n = pod_plan_server_argv(&p, argv, 32, store, sizeof(store));
	join(argv, line, sizeof(line), n);
	ck_assert_str_eq(line, "iops --server=ip:127.0.0.3,9000 --server-runs=7 --device=/dev/loop7");
	n = pod_plan_client_argv(&p, "/t/h", argv, 32, store, sizeof(store));
	join(argv, line, sizeof(line), n);
	ck_assert_str_eq(line, "iops --client=/t/h --client-wait=600 --filename=/dev/loop7 --allow_overwrite=1 --rw=read");
	ck_assert_int_eq(pod_plan_parse(&p, ARGC(swp), swp, "0", &err), 0);	/* pod 0 with a sweep, no args */
	n = pod_plan_server_argv(&p, argv, 32, store, sizeof(store));
	join(argv, line, sizeof(line), n);
	ck_assert_str_eq(line, "iops --server=ip6:::1,8765 --server-runs=1 --device=/dev/iops");
	n = pod_plan_client_argv(&p, "/t/h", argv, 32, store, sizeof(store));
	join(argv, line, sizeof(line), n);
	ck_assert_str_eq(line, "iops sweep /iops/job/config.file --client=/t/h --client-wait=600 --filename=/dev/iops");
	{
		char *port[] = { "k8s-pod", "--pods=1", "--name=p", "--port=1234", "--", "--rw=read", NULL };

		ck_assert_int_eq(pod_plan_parse(&p, ARGC(port), port, "0", &err), 0);
		n = pod_plan_server_argv(&p, argv, 32, store, sizeof(store));
		join(argv, line, sizeof(line), n);
		ck_assert_str_eq(line, "iops --server=,1234 --server-runs=1");
	}
}
END_TEST

/* argv, JOB_COMPLETION_INDEX, a word of the message */
static const struct bad_case {
	char *argv[6];
	const char *index, *word;
} bad[] = {
	{ { "k8s-pod", "--pods=3", "--name=a", "--", "x" }, NULL, "JOB_COMPLETION_INDEX" },
	{ { "k8s-pod", "--pods=3", "--name=a", "--", "x" }, "3", "'3'" },
	{ { "k8s-pod", "--pods=3", "--name=a", "--", "x" }, "-1", "'-1'" },
	{ { "k8s-pod", "--pods=3", "--name=a", "--", "x" }, "", "''" },
	{ { "k8s-pod", "--pods=3", "--name=a", "--", "x" }, "1x", "'1x'" },
	{ { "k8s-pod", "--pods=3", "--name=a", "--", "x" }, "99999999999", "'99999999999'" },
	{ { "k8s-pod", "--pods=3", "--name=a" }, "0", "pod 0 runs the client" },
	{ { "k8s-pod", "--name=a", "--", "x" }, "0", "--pods" },
	{ { "k8s-pod", "--pods=2", "--", "x" }, "0", "--name" },
	{ { "k8s-pod", "--pods=0", "--name=a" }, "0", "--pods" },
	{ { "k8s-pod", "--pods=1025", "--name=a" }, "0", "--pods" },
	{ { "k8s-pod", "--pods=2", "--name=A" }, "0", "--name" },
	{ { "k8s-pod", "--pods=2", "--name=a", "--service=a..b" }, "0", "--service" },
	{ { "k8s-pod", "--pods=2", "--name=a", "--port=0" }, "0", "--port" },
	{ { "k8s-pod", "--pods=2", "--name=a", "--wait=0" }, "0", "--wait" },
	{ { "k8s-pod", "--pods=2", "--name=a", "--runs=0" }, "0", "--runs" },
	{ { "k8s-pod", "--pods=2", "--name=a", "--directory=rel" }, "0", "--directory" },
	{ { "k8s-pod", "--pods=2", "--name=a", "--device=/dev/a,b" }, "0", "--device" },
	{ { "k8s-pod", "--pods=2", "--name=a", "--listen=localhost" }, "0", "--listen" },
	{ { "k8s-pod", "--pods=2", "--name=a", "--output-format=Json" }, "0", "--output-format" },
	{ { "k8s-pod", "--pods=2", "--name=a", "--bogus=1" }, "0", "--bogus" },
	{ { "k8s-pod", "--pods=2", "--name=a", "-x" }, "0", "-x" },
	{ { "k8s-pod", "--pods=2", "--name=a", "--pods" }, "0", "--pods" },
};

START_TEST(test_bad)
{
	const struct bad_case *b = &bad[_i];
	struct pod_plan p;
	struct iops_err err = { 0 };
	int argc = 0;

	while (argc < 6 && b->argv[argc])
		argc++;
	ck_assert_int_eq(pod_plan_parse(&p, argc, b->argv, b->index, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, b->word), "'%s' not in: %s", b->word, err.msg);
}
END_TEST

START_TEST(test_max_pods)
{
	char *a[] = { "k8s-pod", "--pods=1024", "--name=a", "--wait=86400", "--", "x", NULL };
	struct pod_plan p;
	struct iops_err err = { 0 };
	static char text[1024 * 32];

	ck_assert_int_eq(pod_plan_parse(&p, ARGC(a), a, "1023", &err), 0);
	ck_assert_uint_eq(pod_plan_idle_s(&p), 2 * 86400 + 10);
	ck_assert_int_eq(pod_plan_hosts_text(&p, text, sizeof(text)), 0);
	ck_assert(strstr(text, "\na-1023.a,8765\n"));
	(void)join;
}
END_TEST

Suite *pod_plan_suite(void)
{
	Suite *s = suite_create("pod_plan");
	TCase *tc = tcase_create("k8s");

	tcase_add_test(tc, test_parse_and_lines);
	tcase_add_test(tc, test_variants);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_max_pods);
	suite_add_tcase(s, tc);
	return s;
}
