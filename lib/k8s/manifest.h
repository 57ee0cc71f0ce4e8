/* SPDX-License-Identifier: MIT */
/* manifest: the YAML that `iops k8s` prints for `kubectl apply -f -`: a ConfigMap with the
 * job files or config.file (when there are any), a headless Service (the pods' stable DNS
 * names <name>-<index>.<name>) and an Indexed Job of N pods, each a server on its own volume,
 * pod 0 also the client of all of them (`iops k8s-pod`). The same configuration gives the
 * same bytes. */
#ifndef IOPS_MANIFEST_H
#define IOPS_MANIFEST_H

#include "k8s/k8s_conf.h"
#include "k8s/yaml.h"

/* The pods' container arguments after /usr/bin/iops (k8s-pod and its options, --, the
 * client's arguments), NULL-terminated, in argv[0..max), the strings in store (size n).
 * Their count, or -ENOSPC. */
int manifest_pod_argv(const struct k8s_conf *c, char **argv, int max, char *store, size_t n);

/* The whole manifest of a checked configuration (k8s_conf_check) into y: 0 or yaml_error(). */
int manifest_render(const struct k8s_conf *c, struct yaml *y);

#endif
