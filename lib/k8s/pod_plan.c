/* SPDX-License-Identifier: MIT */
/* pod_plan: a pod's arguments, host names and command lines; see pod_plan.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/k8s.h"
#include "k8s/k8s_argv.h"
#include "k8s/pod_plan.h"

static bool pod_plan_path(char *field, const char *v)
{
	if (v[0] != '/' || strlen(v) >= POD_PLAN_PATH_MAX || strchr(v, ','))
		return false;
	memcpy(field, v, strlen(v) + 1);
	return true;
}

/* One --key=value; NULL or what the value must be. */
static const char *pod_plan_set(struct pod_plan *p, const char *key, const char *v)
{
	unsigned char addr[16];

	if (!strcmp(key, "pods"))
		return k8s_uint(v, 1, K8S_PODS_MAX, &p->pods) ? NULL : "a whole number from 1 to 1024";
	if (!strcmp(key, "port"))
		return k8s_uint(v, 1, 65535, &p->port) ? NULL : "a TCP port (1 to 65535)";
	if (!strcmp(key, "wait"))
		return k8s_uint(v, 1, K8S_WAIT_MAX, &p->wait_s) ? NULL : "a number of seconds from 1 to 86400";
	if (!strcmp(key, "runs"))
		return k8s_uint(v, 1, 1000000, &p->runs) ? NULL : "a whole number from 1 to 1000000";
	if (!strcmp(key, "name")) {
		if (!k8s_dns_label(v, K8S_NAME_MAX))
			return "a DNS label (a-z, 0-9, -)";
		memcpy(p->name, v, strlen(v) + 1);
		return NULL;
	}
	if (!strcmp(key, "service")) {
		if (!k8s_dns_subdomain(v))
			return "a DNS name (a-z, 0-9, - and .)";
		memcpy(p->service, v, strlen(v) + 1);
		return NULL;
	}
	if (!strcmp(key, "directory") || !strcmp(key, "device") || !strcmp(key, "sweep"))
		return pod_plan_path(key[0] == 's' ? p->sweep : key[1] == 'i' ? p->directory : p->device, v) ? NULL :
		       "an absolute path without ','";
	if (!strcmp(key, "listen")) {
		if (strlen(v) >= sizeof(p->listen) || (inet_pton(AF_INET, v, addr) != 1 && inet_pton(AF_INET6, v, addr) != 1))
			return "a numeric IPv4 or IPv6 address";
		memcpy(p->listen, v, strlen(v) + 1);
		return NULL;
	}
	if (!strcmp(key, "output-format")) {
		if (strlen(v) >= sizeof(p->output_format) || strspn(v, "abcdefghijklmnopqrstuvwxyz+") != strlen(v))
			return "an output format";
		memcpy(p->output_format, v, strlen(v) + 1);
		return NULL;
	}
	return "";
}

int pod_plan_parse(struct pod_plan *p, int argc, char *const *argv, const char *index, struct iops_err *err)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->port = K8S_PORT_DEFAULT;
	p->wait_s = K8S_WAIT_DEFAULT;
	p->runs = 1;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *eq = strchr(argv[i], '='), *why;
		char key[32];

		if (strncmp(argv[i], "--", 2) || !eq || eq - argv[i] - 2 >= (int)sizeof(key)) {
			iops_err_set(err, EINVAL, "unknown option '%s' (iops k8s writes this mode's command line)", argv[i]);
			return -EINVAL;
		}
		memcpy(key, argv[i] + 2, (size_t)(eq - argv[i] - 2));
		key[eq - argv[i] - 2] = '\0';
		why = pod_plan_set(p, key, eq + 1);
		if (why && !*why) {
			iops_err_set(err, EINVAL, "unknown option '--%s' (iops k8s writes this mode's command line)", key);
			return -EINVAL;
		}
		if (why) {
			iops_err_set(err, EINVAL, "--%s: '%s' is not %s", key, eq + 1, why);
			return -EINVAL;
		}
	}
	p->client_args = i < argc ? argv + i + 1 : argv + argc;
	p->nr_client_args = i < argc ? argc - i - 1 : 0;
	if (!p->pods || !p->name[0]) {
		iops_err_set(err, EINVAL, "--pods=N and --name=NAME are needed (iops k8s writes them)");
		return -EINVAL;
	}
	if (!p->service[0])
		memcpy(p->service, p->name, sizeof(p->name));
	if (!index || !k8s_uint(index, 0, p->pods - 1, &p->index)) {
		iops_err_set(err, EINVAL, "JOB_COMPLETION_INDEX is %s%s%s: not a pod of an Indexed Job of %u pods (this mode "
			     "runs in the pods of `iops k8s`)", index ? "'" : "", index ? index : "not set", index ? "'" : "",
			     p->pods);
		return -EINVAL;
	}
	if (!p->index && !p->sweep[0] && !p->nr_client_args) {
		iops_err_set(err, EINVAL, "pod 0 runs the client: give it --sweep=CONFIG or fio arguments after --");
		return -EINVAL;
	}
	return 0;
}

int pod_plan_host(const struct pod_plan *p, unsigned i, char *buf, size_t n)
{
	int w = snprintf(buf, n, "%s-%u.%s", p->name, i, p->service);

	return w < 0 || (size_t)w >= n ? -ENAMETOOLONG : 0;
}

int pod_plan_hosts_text(const struct pod_plan *p, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < p->pods; i++) {
		int w;

		if (pod_plan_host(p, i, buf + used, n - used) < 0)
			return -ENOSPC;
		used += strlen(buf + used);
		w = snprintf(buf + used, n - used, ",%u\n", p->port);
		if (w < 0 || (size_t)w >= n - used)
			return -ENOSPC;
		used += (size_t)w;
	}
	return 0;
}

unsigned pod_plan_idle_s(const struct pod_plan *p)
{
	return 2 * p->wait_s + 10;
}

int pod_plan_server_argv(const struct pod_plan *p, char **argv, int max, char *store, size_t n)
{
	struct k8s_argv a;

	k8s_argv_init(&a, argv, max, store, n);
	k8s_argv_add(&a, "iops");
	if (p->listen[0])
		k8s_argv_add(&a, "--server=%s:%s,%u", strchr(p->listen, ':') ? "ip6" : "ip", p->listen, p->port);
	else if (p->port != K8S_PORT_DEFAULT)
		k8s_argv_add(&a, "--server=,%u", p->port);
	else
		k8s_argv_add(&a, "--server");
	k8s_argv_add(&a, "--server-runs=%u", p->runs);
	if (p->directory[0])
		k8s_argv_add(&a, "--directory=%s", p->directory);
	if (p->device[0])
		k8s_argv_add(&a, "--device=%s", p->device);
	return k8s_argv_end(&a);
}

int pod_plan_client_argv(const struct pod_plan *p, const char *hosts, char **argv, int max, char *store, size_t n)
{
	struct k8s_argv a;

	k8s_argv_init(&a, argv, max, store, n);
	k8s_argv_add(&a, "iops");
	if (p->sweep[0]) {
		k8s_argv_add(&a, "sweep");
		k8s_argv_add(&a, "%s", p->sweep);
	}
	k8s_argv_add(&a, "--client=%s", hosts);
	k8s_argv_add(&a, "--client-wait=%u", p->wait_s);
	if (p->output_format[0])
		k8s_argv_add(&a, "--output-format=%s", p->output_format);
	if (p->device[0]) {	/* the servers' --device: every job's file */
		k8s_argv_add(&a, "--filename=%s", p->device);
		if (!p->sweep[0])
			k8s_argv_add(&a, "--allow_overwrite=1");
	}
	for (int i = 0; i < p->nr_client_args; i++)
		k8s_argv_add(&a, "%s", p->client_args[i]);
	return k8s_argv_end(&a);
}
