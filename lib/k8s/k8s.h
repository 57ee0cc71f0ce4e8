/* SPDX-License-Identifier: MIT */
/* k8s: what Kubernetes accepts as a name or a value (DNS labels and subdomains, label keys
 * and values, ConfigMap keys, quantities, image references) and the bounds iops k8s keeps. */
#ifndef IOPS_K8S_H
#define IOPS_K8S_H

#include <stdbool.h>
#include <stddef.h>

#define K8S_PODS_MAX		1024	/* servers one client run fans out to */
#define K8S_NAME_MAX		63	/* a DNS label: Job, Service, namespace, pod host names */
#define K8S_SUBDOMAIN_MAX	253	/* a DNS subdomain: storage class, claim, secret names */
#define K8S_IMAGE_MAX		512
#define K8S_QUANTITY_MAX	24

bool k8s_dns_label(const char *s, size_t max);		/* RFC 1123 label: a-z 0-9 -, <= max */
bool k8s_dns1035_label(const char *s, size_t max);	/* and starting with a letter (Service) */
bool k8s_dns_subdomain(const char *s);			/* labels joined by '.', <= 253 */
bool k8s_quantity(const char *s);			/* a storage size: 10Gi, 500M, 1.5Ti, not 0 */
bool k8s_label_key(const char *s);			/* [prefix/]name */
bool k8s_label_value(const char *s);			/* "" or a name of <= 63 characters */
bool k8s_configmap_key(const char *s);			/* [-._a-zA-Z0-9]+, not . or .. */
bool k8s_image(const char *s);				/* letters, digits, . _ - / : @ +, <= 512 */
/* v is a whole number from lo to hi (digits only, no sign or blank): *out set. */
bool k8s_uint(const char *v, unsigned long lo, unsigned long hi, unsigned *out);

#endif
