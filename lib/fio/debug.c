/* SPDX-License-Identifier: MIT */
/* debug: fio's debug categories and line layout (fio/debug.h). */
#include "fio/debug.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const names[DEBUG_NR] = {
	"process", "file", "io", "mem", "blktrace", "verify", "random", "parse", "diskutil",
	"job", "mutex", "profile", "time", "net", "rate", "compress", "steadystate",
	"helperthread", "zbd",
};

const char *debug_names(void)
{
	return "process,file,io,mem,blktrace,verify,random,parse,diskutil,job,mutex,profile,time,"
	       "net,rate,compress,steadystate,helperthread,zbd,all";
}

const char *debug_name(enum debug_cat c)
{
	return (unsigned)c < DEBUG_NR ? names[c] : "";
}

int debug_parse(const char *val, unsigned *mask, char *bad, size_t n)
{
	const char *p = val ? val : "";
	unsigned m = 0;

	if (!strcmp(p, "?") || !strcmp(p, "help"))
		return 1;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		unsigned c;

		if (len == 3 && !strncmp(p, "all", 3))
			m |= DEBUG_ALL;
		else {
			for (c = 0; c < DEBUG_NR; c++)
				if (strlen(names[c]) == len && !strncmp(names[c], p, len))
					break;
			if (c == DEBUG_NR) {
				if (n)
					snprintf(bad, n, "%.*s", (int)(len < 200 ? len : 200), p);
				return -EINVAL;
			}
			m |= 1u << c;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	*mask |= m;
	return 0;
}

void debug_vline(FILE *out, enum debug_cat c, const char *fmt, va_list ap)
{
	fprintf(out, "%-8s %-5ld ", debug_name(c), (long)syscall(SYS_gettid));
	vfprintf(out, fmt, ap);
	fputc('\n', out);
}

void debug_line(FILE *out, enum debug_cat c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	debug_vline(out, c, fmt, ap);
	va_end(ap);
}
