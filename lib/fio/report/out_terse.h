/* SPDX-License-Identifier: MIT */
/* out_terse: fio 3.33's terse output (--minimal, --output-format=terse), versions 2 to 5
 * (default 3), one ';'-separated line per reporting unit. */
#ifndef IOPS_OUT_TERSE_H
#define IOPS_OUT_TERSE_H

#include <stdio.h>

#include "fio/report/report.h"

/* All lines; the version comes from rep->cfg->terse_version (0 = 3).
 * Returns 0 or -errno (write error). */
int out_terse_print(FILE *out, const struct report *rep);

/* One unit's line (with disks appended for versions >= 3). */
void out_terse_unit(FILE *out, const struct report *rep, const struct report_unit *u,
		    unsigned version);

#endif
