/* SPDX-License-Identifier: MIT */
/* hosts: the hosts file (hosts.h). */
#include "remote/hosts.h"

#include <errno.h>
#include <string.h>

int hosts_parse(const char *text, size_t len, const char *name, struct addr *list, unsigned *nr,
		unsigned cap, struct iops_err *err)
{
	unsigned line = 0, added = 0;
	size_t pos = 0;

	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos), *hash;
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		char entry[ADDR_HOST_MAX + 16];
		struct iops_err why = { 0 };

		line++;
		pos += n + (nl != NULL);
		if ((hash = memchr(s, '#', n)))
			n = (size_t)(hash - s);
		while (n && strchr(" \t\r", s[0]) && s[0]) {
			s++;
			n--;
		}
		while (n && strchr(" \t\r", s[n - 1]) && s[n - 1])
			n--;
		if (!n)
			continue;
		if (memchr(s, '\0', n) || n >= sizeof(entry)) {
			iops_err_set(err, EINVAL, "%s line %u: %s", name, line, n >= sizeof(entry) ?
				     "entry too long" : "a NUL byte (not a hosts file?)");
			return -EINVAL;
		}
		if (*nr >= cap) {
			iops_err_set(err, E2BIG, "%s line %u: more than %u servers", name, line, cap);
			return -E2BIG;
		}
		memcpy(entry, s, n);
		entry[n] = '\0';
		if (addr_parse_client(&list[*nr], entry, &why)) {
			iops_err_set(err, EINVAL, "%s line %u: %s", name, line, why.msg);
			return -EINVAL;
		}
		(*nr)++;
		added++;
	}
	return (int)added;
}
