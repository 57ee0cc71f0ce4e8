/* SPDX-License-Identifier: MIT */
/* opt_diag: the user's lines of parsing and checking (fio/opt_diag.h). */
#include "fio/opt_diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
		/* full: the first lines stay, the last OPT_DIAG_TAIL roll, so the line that decided
		 * (a refusal after 40 warnings) is still there to print */
		unsigned t = OPT_DIAG_LINES - OPT_DIAG_TAIL;

		d->overflow = true;
		memmove(d->line[t], d->line[t + 1], (OPT_DIAG_TAIL - 1) * sizeof(d->line[0]));
		memmove(&d->to_stdout[t], &d->to_stdout[t + 1], (OPT_DIAG_TAIL - 1) * sizeof(d->to_stdout[0]));
		d->nr = OPT_DIAG_LINES - 1;
	}
	va_start(ap, fmt);
	/* a too-long line is cut: still one bounded line */
	(void)vsnprintf(d->line[d->nr], OPT_DIAG_LEN, fmt, ap);
	va_end(ap);
	d->to_stdout[d->nr] = to_stdout;
	d->nr++;
}
