#include "core/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void iops_err_set(struct iops_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	err->code = code;
	va_start(ap, fmt);
	/* Truncation is acceptable here: the message stays one bounded, terminated line. */
	(void)vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

bool iops_err_isset(const struct iops_err *err)
{
	return err && err->msg[0] != '\0';
}

void iops_err_clear(struct iops_err *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}
