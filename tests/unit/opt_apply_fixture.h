/* SPDX-License-Identifier: MIT */
/* The set-up the option-applier suites share (tests/unit/fio/check_opt_apply*.c): one message
 * buffer per test, made by setup() and freed by teardown() (tcase_add_checked_fixture). */
#ifndef IOPS_TEST_OPT_APPLY_FIXTURE_H
#define IOPS_TEST_OPT_APPLY_FIXTURE_H

#include <check.h>
#include <stdlib.h>

#include "fio/conf/fioconf.h"
#include "fio/conf/opt.h"
#include "fio/conf/opt_apply.h"
#include "fioconf_text.h"

static struct opt_diag *diag;

static void setup(void)
{
	diag = malloc(sizeof(*diag));
	opt_diag_init(diag);
}

static void teardown(void)
{
	free(diag);
}

#endif
