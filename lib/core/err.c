/* SPDX-License-Identifier: MIT */
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

/* The C library's messages as glibc (and so fio on Linux) prints them, by errno: musl words
 * many differently ("I/O error" for EIO, "Operation timed out" for ETIMEDOUT). NULL where glibc
 * has none. */
static const char *const err_glibc[] = {
	"Success",	/* 0 */
	"Operation not permitted",
	"No such file or directory",
	"No such process",
	"Interrupted system call",
	"Input/output error",
	"No such device or address",
	"Argument list too long",
	"Exec format error",
	"Bad file descriptor",
	"No child processes",	/* 10 */
	"Resource temporarily unavailable",
	"Cannot allocate memory",
	"Permission denied",
	"Bad address",
	"Block device required",
	"Device or resource busy",
	"File exists",
	"Invalid cross-device link",
	"No such device",
	"Not a directory",	/* 20 */
	"Is a directory",
	"Invalid argument",
	"Too many open files in system",
	"Too many open files",
	"Inappropriate ioctl for device",
	"Text file busy",
	"File too large",
	"No space left on device",
	"Illegal seek",
	"Read-only file system",	/* 30 */
	"Too many links",
	"Broken pipe",
	"Numerical argument out of domain",
	"Numerical result out of range",
	"Resource deadlock avoided",
	"File name too long",
	"No locks available",
	"Function not implemented",
	"Directory not empty",
	"Too many levels of symbolic links",	/* 40 */
	NULL,	/* 41: none */
	"No message of desired type",
	"Identifier removed",
	"Channel number out of range",
	"Level 2 not synchronized",
	"Level 3 halted",
	"Level 3 reset",
	"Link number out of range",
	"Protocol driver not attached",
	"No CSI structure available",	/* 50 */
	"Level 2 halted",
	"Invalid exchange",
	"Invalid request descriptor",
	"Exchange full",
	"No anode",
	"Invalid request code",
	"Invalid slot",
	NULL,	/* 58: none */
	"Bad font file format",
	"Device not a stream",	/* 60 */
	"No data available",
	"Timer expired",
	"Out of streams resources",
	"Machine is not on the network",
	"Package not installed",
	"Object is remote",
	"Link has been severed",
	"Advertise error",
	"Srmount error",
	"Communication error on send",	/* 70 */
	"Protocol error",
	"Multihop attempted",
	"RFS specific error",
	"Bad message",
	"Value too large for defined data type",
	"Name not unique on network",
	"File descriptor in bad state",
	"Remote address changed",
	"Can not access a needed shared library",
	"Accessing a corrupted shared library",	/* 80 */
	".lib section in a.out corrupted",
	"Attempting to link in too many shared libraries",
	"Cannot exec a shared library directly",
	"Invalid or incomplete multibyte or wide character",
	"Interrupted system call should be restarted",
	"Streams pipe error",
	"Too many users",
	"Socket operation on non-socket",
	"Destination address required",
	"Message too long",	/* 90 */
	"Protocol wrong type for socket",
	"Protocol not available",
	"Protocol not supported",
	"Socket type not supported",
	"Operation not supported",
	"Protocol family not supported",
	"Address family not supported by protocol",
	"Address already in use",
	"Cannot assign requested address",
	"Network is down",	/* 100 */
	"Network is unreachable",
	"Network dropped connection on reset",
	"Software caused connection abort",
	"Connection reset by peer",
	"No buffer space available",
	"Transport endpoint is already connected",
	"Transport endpoint is not connected",
	"Cannot send after transport endpoint shutdown",
	"Too many references: cannot splice",
	"Connection timed out",	/* 110 */
	"Connection refused",
	"Host is down",
	"No route to host",
	"Operation already in progress",
	"Operation now in progress",
	"Stale file handle",
	"Structure needs cleaning",
	"Not a XENIX named type file",
	"No XENIX semaphores available",
	"Is a named type file",	/* 120 */
	"Remote I/O error",
	"Disk quota exceeded",
	"No medium found",
	"Wrong medium type",
	"Operation canceled",
	"Required key not available",
	"Key has expired",
	"Key has been revoked",
	"Key was rejected by service",
	"Owner died",	/* 130 */
	"State not recoverable",
	"Operation not possible due to RF-kill",
	"Memory page has hardware error",
};

const char *err_str(int e)
{
	if (e >= 0 && (size_t)e < sizeof(err_glibc) / sizeof(err_glibc[0]) && err_glibc[e])
		return err_glibc[e];
	return strerror(e);	/* lint: the one call */
}
