/* SPDX-License-Identifier: MIT */
/* pod_plan: what a pod of `iops k8s`' Job runs (`iops k8s-pod`), from its arguments and the
 * completion index Kubernetes gives it: its server's command line, the pods' host names, the
 * client's hosts file and command line (pod 0), the bounds of every wait. Pure logic: the
 * caller (cmd/k8s_pod.c) starts the processes and resolves the names. */
#ifndef IOPS_POD_PLAN_H
#define IOPS_POD_PLAN_H

#include <limits.h>
#include <stddef.h>

#include "core/err.h"
#include "k8s/k8s_conf.h"

#define POD_PLAN_GRACE_S	30	/* the client ended: how long its pod's server may take to */
#define POD_PLAN_PATH_MAX	1024

struct pod_plan {
	unsigned pods, index;		/* --pods, and JOB_COMPLETION_INDEX */
	unsigned port, wait_s, runs;	/* --port [8765], --wait [600], --runs [1] */
	char name[K8S_NAME_MAX + 1];	/* --name: host names are <name>-<index>.<service> */
	char service[K8S_SUBDOMAIN_MAX + 1];	/* --service [the name] */
	char directory[POD_PLAN_PATH_MAX];	/* --directory: served by the server ("" = none given) */
	char device[POD_PLAN_PATH_MAX];		/* --device: the Block volume ("" = none) */
	char listen[64];		/* --listen=IP: the server's address ("" = all) */
	char output_format[8];		/* --output-format for the client ("" = its default) */
	char sweep[POD_PLAN_PATH_MAX];	/* --sweep=CONFIG: pod 0 runs `iops sweep CONFIG` */
	char *const *client_args;	/* after --: the client's fio options and job files */
	int nr_client_args;
};

/* Parse argv (argv[0] "k8s-pod") and the index (the JOB_COMPLETION_INDEX value, NULL when
 * unset). 0, or -EINVAL with a one-line message. */
int pod_plan_parse(struct pod_plan *p, int argc, char *const *argv, const char *index, struct iops_err *err);

/* Pod i's host name "<name>-<i>.<service>": 0 or -ENAMETOOLONG. */
int pod_plan_host(const struct pod_plan *p, unsigned i, char *buf, size_t n);

/* The client's hosts file: a "host,port" line per pod. 0 or -ENOSPC. */
int pod_plan_hosts_text(const struct pod_plan *p, char *buf, size_t n);

/* A server without a client for this long gives up: pod 0 may wait --wait seconds for the
 * names, and its client as long again for the servers to answer. */
unsigned pod_plan_idle_s(const struct pod_plan *p);

/* The server's and pod 0's client's arguments (argv[0] "iops"), NULL-terminated, in
 * argv[0..max), strings in store (size n): argc, or -ENOSPC. hosts is the hosts file's path. */
int pod_plan_server_argv(const struct pod_plan *p, char **argv, int max, char *store, size_t n);
int pod_plan_client_argv(const struct pod_plan *p, const char *hosts, char **argv, int max, char *store, size_t n);

#endif
