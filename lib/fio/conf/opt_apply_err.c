/* SPDX-License-Identifier: MIT */
/* opt_apply_err: which I/O errors a job goes on after: continue_on_error, ignore_error,
 * error_dump (the runner applies them in runner_io.c). */
#include "fio/conf/opt_apply.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const struct opt_choice opt_apply_cont_err_choices[] = {
	{ .word = "none", .help = "Stop the job at its first error", .value = 0 },
	{ .word = "read", .help = "Go on after read errors", .value = 1 << JOB_ERR_READ },
	{ .word = "write", .help = "Go on after write errors", .value = 1 << JOB_ERR_WRITE },
	{ .word = "io", .help = "Go on after read and write errors", .value = 1 << JOB_ERR_READ | 1 << JOB_ERR_WRITE },
	{ .word = "verify", .help = "Go on after verify errors", .value = 1 << JOB_ERR_VERIFY },
	{ .word = "all", .help = "Go on after any I/O or verify error", .value = 7 },
	{ .word = "0", .help = "Same as none", .value = 0 },
	{ .word = "1", .help = "Same as all", .value = 7 },
	{ .word = NULL },
};

/* fio's symbolic names: errno 1 (EPERM) to 34 (ERANGE), in order */
static const char err_names[][8] = {	/* the longest, ENOTBLK, and its NUL */
	"EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF", "ECHILD",
	"EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST", "EXDEV", "ENODEV",
	"ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG", "ENOSPC",
	"ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE",
};

/* One error of a list as fio 3.33 reads it: a name (E...), else atoi() of the text: strtol's
 * number (saturated at the long's ends) cut to an int, a negative one counted as its value
 * ("99999999999999999999" is 1, "4294967296" 0). 0 if bad. */
static int opt_apply_err_value(const char *s, size_t n)
{
	char buf[64];
	unsigned v;

	if (n && s[0] == 'E') {
		for (size_t k = 0; k < sizeof(err_names) / sizeof(err_names[0]); k++)
			if (strlen(err_names[k]) == n && !strncmp(s, err_names[k], n))
				return (int)k + 1;
		return 0;
	}
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;	/* past 63 characters every number has saturated */
	memcpy(buf, s, n);
	buf[n] = '\0';
	v = (unsigned)strtol(buf, NULL, 10);	/* the low 32 bits, as (int) keeps them */
	if ((int)v < 0)
		v = 0u - v;	/* INT_MIN stays itself: it matches no errno */
	return (int)v;
}

/* fio's ignore_error callback reads its value cut at a ';' or '#' and without blanks at its end
 * ("EIO;" is EIO); a blank at its start stays (" EIO" is unknown, " 5" is 5 where fio 3.33
 * aborts: free(): invalid pointer). Lists at ',' (read, write, verify: a fourth, even empty,
 * is an illegal type), errors in a list at ':' up to an empty one. */
APPLY(opt_apply_ignore_error)
{
	struct job *j = &oj->j;
	char *copy, *p;
	int ret = 0;

	if (!val || !(copy = strdup(val))) {
		opt_value_failed(d, od, val);
		return -EINVAL;
	}
	p = copy;
	p[opt_value_blank_end(p)] = '\0';
	memset(j->nr_ignore_err, 0, sizeof(j->nr_ignore_err));
	for (unsigned type = 0; !ret; type++) {
		size_t len = strcspn(p, ",");

		if (type >= JOB_ERR_NR) {
			opt_diag_add(d, false, "Illegal error type");
			ret = -EINVAL;
			break;
		}
		for (size_t at = 0, n; at < len && (n = strcspn(p + at, ":,")) > 0;
		     at += n + (p[at + n] == ':')) {
			int e = opt_apply_err_value(p + at, n);

			if (!e) {
				opt_diag_add(d, false, "Unknown error %.*s, please use number value", (int)n, p + at);
				ret = -EINVAL;
				break;
			}
			if (j->nr_ignore_err[type] >= JOB_IGNORE_ERR_MAX) {
				opt_diag_add(d, false, "fio: ignore_error: more than %d errors in one list "
					     "are not supported by iops", JOB_IGNORE_ERR_MAX);
				ret = -EINVAL;
				break;
			}
			j->ignore_err[type][j->nr_ignore_err[type]++] = e;
			j->cont_on_err |= 1u << type;	/* a list makes its kind go on, as fio */
		}
		if (p[len] != ',')
			break;
		p += len + 1;
	}
	free(copy);
	if (ret)
		opt_value_failed(d, od, val);
	return ret;
}
