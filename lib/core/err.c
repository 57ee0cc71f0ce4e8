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
 * many differently ("I/O error" for EIO, "Operation timed out" for ETIMEDOUT).
 * One string, the texts in errno order separated by NULs (empty where glibc has none): no table
 * of pointers, err_str walks it (it is not on any I/O path). */
static const char err_glibc[] =
	"Success\0"
	"Operation not permitted\0"
	"No such file or directory\0"
	"No such process\0"
	"Interrupted system call\0"
	"Input/output error\0"
	"No such device or address\0"
	"Argument list too long\0"
	"Exec format error\0"
	"Bad file descriptor\0"
	"No child processes\0"
	"Resource temporarily unavailable\0"
	"Cannot allocate memory\0"
	"Permission denied\0"
	"Bad address\0"
	"Block device required\0"
	"Device or resource busy\0"
	"File exists\0"
	"Invalid cross-device link\0"
	"No such device\0"
	"Not a directory\0"
	"Is a directory\0"
	"Invalid argument\0"
	"Too many open files in system\0"
	"Too many open files\0"
	"Inappropriate ioctl for device\0"
	"Text file busy\0"
	"File too large\0"
	"No space left on device\0"
	"Illegal seek\0"
	"Read-only file system\0"
	"Too many links\0"
	"Broken pipe\0"
	"Numerical argument out of domain\0"
	"Numerical result out of range\0"
	"Resource deadlock avoided\0"
	"File name too long\0"
	"No locks available\0"
	"Function not implemented\0"
	"Directory not empty\0"
	"Too many levels of symbolic links\0"
	"\0"	/* none */
	"No message of desired type\0"
	"Identifier removed\0"
	"Channel number out of range\0"
	"Level 2 not synchronized\0"
	"Level 3 halted\0"
	"Level 3 reset\0"
	"Link number out of range\0"
	"Protocol driver not attached\0"
	"No CSI structure available\0"
	"Level 2 halted\0"
	"Invalid exchange\0"
	"Invalid request descriptor\0"
	"Exchange full\0"
	"No anode\0"
	"Invalid request code\0"
	"Invalid slot\0"
	"\0"	/* none */
	"Bad font file format\0"
	"Device not a stream\0"
	"No data available\0"
	"Timer expired\0"
	"Out of streams resources\0"
	"Machine is not on the network\0"
	"Package not installed\0"
	"Object is remote\0"
	"Link has been severed\0"
	"Advertise error\0"
	"Srmount error\0"
	"Communication error on send\0"
	"Protocol error\0"
	"Multihop attempted\0"
	"RFS specific error\0"
	"Bad message\0"
	"Value too large for defined data type\0"
	"Name not unique on network\0"
	"File descriptor in bad state\0"
	"Remote address changed\0"
	"Can not access a needed shared library\0"
	"Accessing a corrupted shared library\0"
	".lib section in a.out corrupted\0"
	"Attempting to link in too many shared libraries\0"
	"Cannot exec a shared library directly\0"
	"Invalid or incomplete multibyte or wide character\0"
	"Interrupted system call should be restarted\0"
	"Streams pipe error\0"
	"Too many users\0"
	"Socket operation on non-socket\0"
	"Destination address required\0"
	"Message too long\0"
	"Protocol wrong type for socket\0"
	"Protocol not available\0"
	"Protocol not supported\0"
	"Socket type not supported\0"
	"Operation not supported\0"
	"Protocol family not supported\0"
	"Address family not supported by protocol\0"
	"Address already in use\0"
	"Cannot assign requested address\0"
	"Network is down\0"
	"Network is unreachable\0"
	"Network dropped connection on reset\0"
	"Software caused connection abort\0"
	"Connection reset by peer\0"
	"No buffer space available\0"
	"Transport endpoint is already connected\0"
	"Transport endpoint is not connected\0"
	"Cannot send after transport endpoint shutdown\0"
	"Too many references: cannot splice\0"
	"Connection timed out\0"
	"Connection refused\0"
	"Host is down\0"
	"No route to host\0"
	"Operation already in progress\0"
	"Operation now in progress\0"
	"Stale file handle\0"
	"Structure needs cleaning\0"
	"Not a XENIX named type file\0"
	"No XENIX semaphores available\0"
	"Is a named type file\0"
	"Remote I/O error\0"
	"Disk quota exceeded\0"
	"No medium found\0"
	"Wrong medium type\0"
	"Operation canceled\0"
	"Required key not available\0"
	"Key has expired\0"
	"Key has been revoked\0"
	"Key was rejected by service\0"
	"Owner died\0"
	"State not recoverable\0"
	"Operation not possible due to RF-kill\0"
	"Memory page has hardware error";

const char *err_str(int e)
{
	const char *p = err_glibc;

	for (int i = e; i > 0 && p < err_glibc + sizeof(err_glibc); i--)
		p += strlen(p) + 1;
	if (e >= 0 && p < err_glibc + sizeof(err_glibc) && *p)
		return p;
	return strerror(e);	/* lint: the one call */
}
