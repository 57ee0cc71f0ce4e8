/* SPDX-License-Identifier: MIT */
/* k8s: Kubernetes' rules for names and values; see k8s.h. */
#include <stdlib.h>
#include <string.h>

#include "k8s/k8s.h"

#define LOWER_DIGITS	"abcdefghijklmnopqrstuvwxyz0123456789"
#define NAME_CHARS	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

bool k8s_dns_label(const char *s, size_t max)
{
	size_t n = strlen(s);

	return n && n <= max && strspn(s, LOWER_DIGITS "-") == n && s[0] != '-' && s[n - 1] != '-';
}

bool k8s_dns1035_label(const char *s, size_t max)
{
	return k8s_dns_label(s, max) && s[0] >= 'a' && s[0] <= 'z';
}

bool k8s_dns_subdomain(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > K8S_SUBDOMAIN_MAX)
		return false;
	for (const char *p = s;; p++) {
		char label[K8S_NAME_MAX + 1];
		size_t len = strcspn(p, ".");

		if (len > K8S_NAME_MAX)
			return false;
		memcpy(label, p, len);
		label[len] = '\0';
		if (!k8s_dns_label(label, K8S_NAME_MAX))
			return false;
		p += len;
		if (!*p)
			return true;
	}
}

bool k8s_quantity(const char *s)
{
	static const char *const suffixes[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "k", "M", "G", "T", "P", "E" };
	size_t whole = strspn(s, "0123456789"), frac = 0;
	const char *sfx = s + whole;
	bool nonzero = strspn(s, "0") < whole;

	if (!whole || strlen(s) > K8S_QUANTITY_MAX)
		return false;
	if (*sfx == '.') {
		frac = strspn(sfx + 1, "0123456789");
		if (!frac)
			return false;
		nonzero = nonzero || strspn(sfx + 1, "0") < frac;
		sfx += 1 + frac;
	}
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (!strcmp(sfx, suffixes[i]))
			return nonzero;
	return false;
}

/* A label name part: [A-Za-z0-9] at both ends, - _ . inside, at most 63. */
static bool k8s_label_name(const char *s, size_t n)
{
	static const char inner[] = NAME_CHARS "-_.";

	if (!n || n > K8S_NAME_MAX || strspn(s, inner) < n)
		return false;
	return strchr(NAME_CHARS, s[0]) && strchr(NAME_CHARS, s[n - 1]);
}

bool k8s_label_key(const char *s)
{
	const char *slash = strchr(s, '/');
	char prefix[K8S_SUBDOMAIN_MAX + 1];

	if (!slash)
		return k8s_label_name(s, strlen(s));
	if ((size_t)(slash - s) > K8S_SUBDOMAIN_MAX)
		return false;
	memcpy(prefix, s, (size_t)(slash - s));
	prefix[slash - s] = '\0';
	return k8s_dns_subdomain(prefix) && k8s_label_name(slash + 1, strlen(slash + 1));
}

bool k8s_label_value(const char *s)
{
	return !*s || k8s_label_name(s, strlen(s));
}

bool k8s_configmap_key(const char *s)
{
	size_t n = strlen(s);

	return n && n <= K8S_SUBDOMAIN_MAX && strspn(s, NAME_CHARS "-._") == n && strcmp(s, ".") && strcmp(s, "..");
}

bool k8s_uint(const char *v, unsigned long lo, unsigned long hi, unsigned *out)
{
	unsigned long n;

	if (!*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 10)
		return false;
	n = strtoul(v, NULL, 10);
	if (n < lo || n > hi)
		return false;
	*out = (unsigned)n;
	return true;
}

bool k8s_image(const char *s)
{
	size_t n = strlen(s);

	return n && n <= K8S_IMAGE_MAX && strspn(s, NAME_CHARS "._-/:@+") == n;
}
