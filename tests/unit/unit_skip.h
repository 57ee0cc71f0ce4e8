/* SPDX-License-Identifier: MIT */
/* unit_skip: a check (or the part of one) that this machine cannot run, counted and shown.
 * A suite calls it after probing the capability itself (never on an error of the code under
 * test): unit_skip("e4defrag: the kernel refuses EXT4_IOC_MOVE_EXT (%s)", err_str(e)).
 * The runner (check_main.c) prints every skip, with its test's name, under its closing line
 * and counts them; forked checks report theirs through a file the runner names in
 * UNIT_SKIP_FILE. A skip is not a failure; a check that skips still runs what it can. */
#ifndef UNIT_SKIP_H
#define UNIT_SKIP_H

void unit_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
