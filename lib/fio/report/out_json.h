/* SPDX-License-Identifier: MIT */
/* out_json: fio 3.33's JSON / json+ report (stat.c's schema), through lib/json so the
 * document is always valid JSON. Nothing but the document is written to out. */
#ifndef IOPS_OUT_JSON_H
#define IOPS_OUT_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "core/json.h"
#include "fio/report/report.h"

/* The whole document; plus adds json+ "bins". Returns 0 or -errno (write error). */
int out_json_print(FILE *out, const struct report *rep, bool plus);

/* The pairs of one element of "jobs" (unit u), between its braces. */
void out_json_unit_fields(struct json_writer *w, const struct report *rep, const struct report_unit *u,
			  bool plus);

/* One element of "jobs" (unit u). */
void out_json_unit(struct json_writer *w, const struct report *rep, const struct report_unit *u,
		   bool plus);

#endif
