/* SPDX-License-Identifier: MIT */
/* opt_diag: the user's lines of parsing and checking (fio/opt_diag.h). */
#include "fio/opt_diag.h"

#include <stdarg.h>
#include <stdio.h>

#include "fio/debug.h"

void opt_diag_init(struct opt_diag *d)
{
	d->nr = 0;
	d->overflow = false;
	d->debug = NULL;
	d->dry = false;
}

void opt_diag_debug(struct opt_diag *d, const char *fmt, ...)
{
	va_list ap;

	if (!d || !d->debug)
		return;
	va_start(ap, fmt);
	debug_vline(d->debug, DEBUG_PARSE, fmt, ap);
	va_end(ap);
}

void opt_diag_add(struct opt_diag *d, bool to_stdout, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return;
	if (d->nr >= OPT_DIAG_LINES) {
		d->overflow = true;
		return;
	}
	va_start(ap, fmt);
	/* a too-long line is cut: still one bounded line */
	(void)vsnprintf(d->line[d->nr], OPT_DIAG_LEN, fmt, ap);
	va_end(ap);
	d->to_stdout[d->nr] = to_stdout;
	d->nr++;
}
