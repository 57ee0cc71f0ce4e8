/* SPDX-License-Identifier: MIT */
/* k8s_conf: the options of `iops k8s` (the Indexed Job renderer), each checked against what
 * Kubernetes accepts (DNS names, quantities, label keys and values) and against the other
 * options; simple-fio's config.file keys mapped onto them. Pure logic: the caller reads the
 * files, this module only looks at their text. */
#ifndef IOPS_K8S_CONF_H
#define IOPS_K8S_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "k8s/k8s.h"

#define K8S_SELECTORS_MAX	16
#define K8S_ARGS_MAX		256	/* fio options and job files after -- */
#define K8S_ARG_MAX		4096	/* one of them */
#define K8S_FILES_MAX		16	/* job files (or the config.file) in the ConfigMap */
#define K8S_FILES_BYTES		(900u << 10)	/* their text together: a ConfigMap holds 1 MiB */
#define K8S_WAIT_MAX		86400
#define K8S_PORT_DEFAULT	8765
#define K8S_WAIT_DEFAULT	600
#define K8S_JOB_DIR		"/iops/job"	/* the ConfigMap's mount point in the pods */
#define K8S_DATA_DIR		"/iops/data"	/* a Filesystem volume's mount point */
#define K8S_DEVICE		"/dev/iops"	/* a Block volume's device path */

enum k8s_volume { K8S_FILESYSTEM, K8S_BLOCK };

struct k8s_selector {
	char key[K8S_SUBDOMAIN_MAX + 1 + K8S_NAME_MAX + 1];
	char value[K8S_NAME_MAX + 1];
};

/* A file carried in the ConfigMap: its key there (the file's base name) and its text. */
struct k8s_file {
	char key[K8S_SUBDOMAIN_MAX + 1];
	const char *text;	/* the caller's, NUL-terminated, valid UTF-8 */
};

/* An argument of the client: a fio option as given, or a job file (file >= 0: files[file],
 * which the pods read from K8S_JOB_DIR/<key>). */
struct k8s_arg {
	const char *arg;	/* the caller's */
	int file;
};

struct k8s_conf {
	char name[K8S_NAME_MAX + 1];		/* Job, Service and ConfigMap name [iops] */
	char namespace_[K8S_NAME_MAX + 1];	/* "" = kubectl's current namespace */
	char image[K8S_IMAGE_MAX + 1];		/* [localhost/iops:latest] */
	char storage_class[K8S_SUBDOMAIN_MAX + 1];	/* "" = the default StorageClass */
	char size[K8S_QUANTITY_MAX + 1];	/* each pod's volume [10Gi] */
	char shared_pvc[K8S_SUBDOMAIN_MAX + 1];	/* "" = a generic ephemeral volume per pod */
	char token_secret[K8S_SUBDOMAIN_MAX + 1];	/* Secret with key "token": IOPS_SERVER_TOKEN */
	char output_format[8];			/* "" = the client's default */
	enum k8s_volume volume;
	unsigned pods;				/* parallelism = completions [1] */
	unsigned port;				/* the servers' TCP port [8765] */
	unsigned wait_s;			/* pod 0's wait for the others [600] */
	unsigned deadline_s;			/* activeDeadlineSeconds, 0 = none */
	struct k8s_selector sel[K8S_SELECTORS_MAX];
	unsigned nr_sel;
	struct k8s_arg args[K8S_ARGS_MAX];
	unsigned nr_args;
	struct k8s_file files[K8S_FILES_MAX];
	unsigned nr_files;
	size_t files_bytes;
	int sweep;			/* files[sweep] is a config.file (pod 0 runs `iops sweep`), or -1 */
	unsigned given;			/* K8S_GIVEN_* bits: set on the command line */
	char note[256];			/* config.file keys read but not used ("" if none) */
};

#define K8S_GIVEN_PODS		1u
#define K8S_GIVEN_CLASS		2u
#define K8S_GIVEN_SIZE		4u
#define K8S_GIVEN_VOLUME	8u
#define K8S_GIVEN_FORMAT	16u

/* Defaults (above); no workload yet. */
void k8s_conf_init(struct k8s_conf *c);

/* One option: key without the dashes ("parallelism"), value (NULL for a bare --key). The
 * workload options (config) are the caller's (k8s_conf_sweep, k8s_conf_arg). 0, or -EINVAL
 * with a one-line message quoting the culprit. */
int k8s_conf_set(struct k8s_conf *c, const char *key, const char *value, struct iops_err *err);

/* simple-fio's config.file, text read from path: checked whole (sweep_conf), carried in the
 * ConfigMap under path's base name; its server, storageclass, volumemode and storage(Gi) set
 * parallelism, storage-class, volume-mode and size unless an option set them already (call it
 * after the options). 0 or -EINVAL. */
int k8s_conf_sweep(struct k8s_conf *c, const char *path, const char *text, struct iops_err *err);

/* One argument after --: an option (starts with '-') passed to the client as is, or a job
 * file read from path (text: its contents) carried in the ConfigMap. 0 or -EINVAL/-E2BIG. */
int k8s_conf_arg(struct k8s_conf *c, const char *arg, const char *text, struct iops_err *err);

/* Everything together (after the options, the config and the arguments): a workload given,
 * one kind only, options that go together, names that fit the pods' host names. 0 or -EINVAL. */
int k8s_conf_check(struct k8s_conf *c, struct iops_err *err);

#endif
