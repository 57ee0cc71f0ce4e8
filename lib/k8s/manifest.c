/* SPDX-License-Identifier: MIT */
/* manifest: the Indexed Job, its Service and ConfigMap; see manifest.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/k8s_argv.h"
#include "k8s/manifest.h"

#define POD_ARGS_MAX	(K8S_ARGS_MAX + 16)
#define POD_STORE	(K8S_ARGS_MAX * (K8S_ARG_MAX + 1) + 16 * 512)

int manifest_pod_argv(const struct k8s_conf *c, char **argv, int max, char *store, size_t n)
{
	struct k8s_argv a;

	k8s_argv_init(&a, argv, max, store, n);
	k8s_argv_add(&a, "k8s-pod");
	k8s_argv_add(&a, "--pods=%u", c->pods);
	k8s_argv_add(&a, "--name=%s", c->name);
	k8s_argv_add(&a, "--service=%s", c->name);
	k8s_argv_add(&a, "--port=%u", c->port);
	k8s_argv_add(&a, "--wait=%u", c->wait_s);
	k8s_argv_add(&a, "--runs=1");	/* a client run, and a whole sweep too, is one session per server */
	if (c->volume == K8S_BLOCK)
		k8s_argv_add(&a, "--device=%s", K8S_DEVICE);
	else
		k8s_argv_add(&a, "--directory=%s", K8S_DATA_DIR);
	if (c->output_format[0])
		k8s_argv_add(&a, "--output-format=%s", c->output_format);
	if (c->sweep >= 0)
		k8s_argv_add(&a, "--sweep=%s/%s", K8S_JOB_DIR, c->files[c->sweep].key);
	k8s_argv_add(&a, "--");
	for (unsigned i = 0; i < c->nr_args; i++) {
		if (c->args[i].file >= 0)
			k8s_argv_add(&a, "%s/%s", K8S_JOB_DIR, c->files[c->args[i].file].key);
		else
			k8s_argv_add(&a, "%s", c->args[i].arg);
	}
	return k8s_argv_end(&a);
}

static void manifest_meta(struct yaml *y, const struct k8s_conf *c, unsigned depth)
{
	yaml_key(y, depth, "metadata");
	yaml_kv(y, depth + 1, "name", c->name);
	if (c->namespace_[0])
		yaml_kv(y, depth + 1, "namespace", c->namespace_);
	yaml_key(y, depth + 1, "labels");
	yaml_kv(y, depth + 2, "app.kubernetes.io/name", "iops");
	yaml_kv(y, depth + 2, "app.kubernetes.io/instance", c->name);
}

static void manifest_labels(struct yaml *y, const struct k8s_conf *c, unsigned depth, const char *key)
{
	yaml_key(y, depth, key);
	yaml_kv(y, depth + 1, "app.kubernetes.io/name", "iops");
	yaml_kv(y, depth + 1, "app.kubernetes.io/instance", c->name);
}

static void manifest_configmap(struct yaml *y, const struct k8s_conf *c)
{
	yaml_kv(y, 0, "apiVersion", "v1");
	yaml_kv(y, 0, "kind", "ConfigMap");
	manifest_meta(y, c, 0);
	yaml_key(y, 0, "data");
	for (unsigned i = 0; i < c->nr_files; i++)
		yaml_kv_text(y, 1, c->files[i].key, c->files[i].text);
}

static void manifest_service(struct yaml *y, const struct k8s_conf *c)
{
	yaml_kv(y, 0, "apiVersion", "v1");
	yaml_kv(y, 0, "kind", "Service");
	manifest_meta(y, c, 0);
	yaml_key(y, 0, "spec");
	yaml_kv(y, 1, "clusterIP", "None");
	yaml_kv_bool(y, 1, "publishNotReadyAddresses", true);	/* names as soon as a pod has its IP */
	manifest_labels(y, c, 1, "selector");
	yaml_key(y, 1, "ports");
	yaml_item_kv(y, 2, "name", "iops");
	yaml_kv_int(y, 3, "port", c->port);
	yaml_kv(y, 3, "protocol", "TCP");
}

/* The container's environment, volumes and mounts. */
static void manifest_env(struct yaml *y, const struct k8s_conf *c)
{
	if (!c->shared_pvc[0] && !c->token_secret[0])
		return;
	yaml_key(y, 5, "env");
	if (c->shared_pvc[0]) {	/* subPathExpr reads the index from the container's environment */
		yaml_item_kv(y, 6, "name", "IOPS_POD_INDEX");
		yaml_key(y, 7, "valueFrom");
		yaml_key(y, 8, "fieldRef");
		yaml_kv(y, 9, "fieldPath", "metadata.annotations['batch.kubernetes.io/job-completion-index']");
	}
	if (c->token_secret[0]) {
		yaml_item_kv(y, 6, "name", "IOPS_SERVER_TOKEN");
		yaml_key(y, 7, "valueFrom");
		yaml_key(y, 8, "secretKeyRef");
		yaml_kv(y, 9, "name", c->token_secret);
		yaml_kv(y, 9, "key", "token");
	}
}

static void manifest_mounts(struct yaml *y, const struct k8s_conf *c)
{
	if (c->volume == K8S_BLOCK) {
		yaml_key(y, 5, "volumeDevices");
		yaml_item_kv(y, 6, "name", "data");
		yaml_kv(y, 7, "devicePath", K8S_DEVICE);
	}
	yaml_key(y, 5, "volumeMounts");
	if (c->volume == K8S_FILESYSTEM) {
		yaml_item_kv(y, 6, "name", "data");
		yaml_kv(y, 7, "mountPath", K8S_DATA_DIR);
		if (c->shared_pvc[0])
			yaml_kv(y, 7, "subPathExpr", "pod-$(IOPS_POD_INDEX)");
	}
	yaml_item_kv(y, 6, "name", "tmp");
	yaml_kv(y, 7, "mountPath", "/tmp");
	if (c->nr_files) {
		yaml_item_kv(y, 6, "name", "job");
		yaml_kv(y, 7, "mountPath", K8S_JOB_DIR);
		yaml_kv_bool(y, 7, "readOnly", true);
	}
}

static void manifest_volumes(struct yaml *y, const struct k8s_conf *c)
{
	yaml_key(y, 3, "volumes");
	yaml_item_kv(y, 4, "name", "data");
	if (c->shared_pvc[0]) {
		yaml_key(y, 5, "persistentVolumeClaim");
		yaml_kv(y, 6, "claimName", c->shared_pvc);
	} else {	/* a generic ephemeral volume: one claim per pod, deleted with it */
		yaml_key(y, 5, "ephemeral");
		yaml_key(y, 6, "volumeClaimTemplate");
		yaml_key(y, 7, "metadata");
		manifest_labels(y, c, 8, "labels");
		yaml_key(y, 7, "spec");
		yaml_key(y, 8, "accessModes");
		yaml_item(y, 9, "ReadWriteOnce");
		yaml_kv(y, 8, "volumeMode", c->volume == K8S_BLOCK ? "Block" : "Filesystem");
		if (c->storage_class[0])
			yaml_kv(y, 8, "storageClassName", c->storage_class);
		yaml_key(y, 8, "resources");
		yaml_key(y, 9, "requests");
		yaml_kv(y, 10, "storage", c->size);
	}
	yaml_item_kv(y, 4, "name", "tmp");	/* the root file system is read-only */
	yaml_key(y, 5, "emptyDir");
	yaml_kv(y, 6, "sizeLimit", "256Mi");
	if (c->nr_files) {
		yaml_item_kv(y, 4, "name", "job");
		yaml_key(y, 5, "configMap");
		yaml_kv(y, 6, "name", c->name);
		yaml_kv_int(y, 6, "defaultMode", 0444);	/* written in decimal (292): YAML 1.1 and 1.2 agree */
	}
}

static void manifest_security(struct yaml *y)
{
	yaml_key(y, 3, "securityContext");
	yaml_kv_bool(y, 4, "runAsNonRoot", true);
	yaml_kv_int(y, 4, "runAsUser", 65532);
	yaml_kv_int(y, 4, "runAsGroup", 65532);
	yaml_kv_int(y, 4, "fsGroup", 65532);
	yaml_kv(y, 4, "fsGroupChangePolicy", "OnRootMismatch");
	yaml_key(y, 4, "seccompProfile");
	yaml_kv(y, 5, "type", "RuntimeDefault");
}

static void manifest_container(struct yaml *y, const struct k8s_conf *c, char *const *argv)
{
	yaml_key(y, 3, "containers");
	yaml_item_kv(y, 4, "name", "iops");
	yaml_kv(y, 5, "image", c->image);
	yaml_kv(y, 5, "imagePullPolicy", "IfNotPresent");
	yaml_key(y, 5, "command");
	yaml_item(y, 6, "/usr/bin/iops");
	yaml_key(y, 5, "args");
	for (; *argv; argv++)
		yaml_item(y, 6, *argv);
	manifest_env(y, c);
	yaml_key(y, 5, "ports");
	yaml_item_kv(y, 6, "name", "iops");
	yaml_kv_int(y, 7, "containerPort", c->port);
	yaml_kv(y, 7, "protocol", "TCP");
	yaml_key(y, 5, "securityContext");
	yaml_kv_bool(y, 6, "allowPrivilegeEscalation", false);
	yaml_kv_bool(y, 6, "readOnlyRootFilesystem", true);
	yaml_key(y, 6, "capabilities");
	yaml_key(y, 7, "drop");
	yaml_item(y, 8, "ALL");
	yaml_key(y, 5, "resources");
	yaml_key(y, 6, "requests");
	yaml_kv(y, 7, "cpu", "500m");
	yaml_kv(y, 7, "memory", "64Mi");
	yaml_key(y, 6, "limits");
	yaml_kv(y, 7, "memory", "1Gi");
	manifest_mounts(y, c);
}

static void manifest_job(struct yaml *y, const struct k8s_conf *c, char *const *argv)
{
	yaml_kv(y, 0, "apiVersion", "batch/v1");
	yaml_kv(y, 0, "kind", "Job");
	manifest_meta(y, c, 0);
	yaml_key(y, 0, "spec");
	yaml_kv(y, 1, "completionMode", "Indexed");
	yaml_kv_int(y, 1, "completions", c->pods);
	yaml_kv_int(y, 1, "parallelism", c->pods);
	yaml_kv_int(y, 1, "backoffLimit", 0);	/* a failed benchmark is not rerun blindly */
	if (c->deadline_s)
		yaml_kv_int(y, 1, "activeDeadlineSeconds", c->deadline_s);
	yaml_kv_int(y, 1, "ttlSecondsAfterFinished", 86400);
	yaml_key(y, 1, "template");
	yaml_key(y, 2, "metadata");
	manifest_labels(y, c, 3, "labels");
	yaml_key(y, 2, "spec");
	yaml_kv(y, 3, "subdomain", c->name);	/* with the Service: <name>-<index>.<name> */
	yaml_kv(y, 3, "restartPolicy", "Never");
	yaml_kv_bool(y, 3, "automountServiceAccountToken", false);
	yaml_kv_bool(y, 3, "enableServiceLinks", false);
	if (c->nr_sel) {
		yaml_key(y, 3, "nodeSelector");
		for (unsigned i = 0; i < c->nr_sel; i++)
			yaml_kv(y, 4, c->sel[i].key, c->sel[i].value);
	}
	manifest_security(y);
	manifest_container(y, c, argv);
	manifest_volumes(y, c);
}

/* One comment line, printf-made. */
static void manifest_comment(struct yaml *y, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void manifest_comment(struct yaml *y, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= sizeof(line))
		y->err = y->err ? y->err : -ENOSPC;
	else
		yaml_comment(y, line);
}

/* The comment at the top: how to apply, follow and remove it. */
static void manifest_header(struct yaml *y, const struct k8s_conf *c)
{
	const char *ns = c->namespace_[0] ? " -n " : "", *nsv = c->namespace_;

	manifest_comment(y, "iops k8s: %u pod%s of the Indexed Job %s, each an iops server on its own %s;",
			 c->pods, c->pods == 1 ? "" : "s", c->name,
			 c->shared_pvc[0] ? "subdirectory of one claim" : c->volume == K8S_BLOCK ? "block volume" : "volume");
	manifest_comment(y, "pod 0 also runs the client of all of them, and its log is the merged report.");
	manifest_comment(y, "  kubectl%s%s apply -f FILE", ns, nsv);
	manifest_comment(y, "  kubectl%s%s wait --for=condition=complete --timeout=-1s job/%s", ns, nsv, c->name);
	manifest_comment(y, "  kubectl%s%s logs --tail=-1 -l batch.kubernetes.io/job-name=%s,"
			 "batch.kubernetes.io/job-completion-index=0", ns, nsv, c->name);
	manifest_comment(y, "  kubectl%s%s delete job,service,configmap -l app.kubernetes.io/instance=%s", ns, nsv, c->name);
}

int manifest_render(const struct k8s_conf *c, struct yaml *y)
{
	char **argv = malloc(POD_ARGS_MAX * sizeof(*argv));
	char *store = malloc(POD_STORE);
	int ret = -ENOMEM;

	if (!argv || !store)
		goto free_args;
	ret = manifest_pod_argv(c, argv, POD_ARGS_MAX, store, POD_STORE);
	if (ret < 0)
		goto free_args;
	manifest_header(y, c);
	if (c->nr_files) {
		manifest_configmap(y, c);
		yaml_doc(y);
	}
	manifest_service(y, c);
	yaml_doc(y);
	manifest_job(y, c, argv);
	ret = yaml_error(y);
free_args:
	free(store);
	free(argv);
	return ret;
}
