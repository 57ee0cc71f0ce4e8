/* SPDX-License-Identifier: MIT */
/* modes: the entry points cmd/main.c dispatches to. Each returns the process exit status.
 * argv[0] is the mode's name as the user sees it ("ioping", "fio"); ctl carries stop requests. */
#ifndef IOPS_MODES_H
#define IOPS_MODES_H

#include "core/ctl.h"

int ioping_main(int argc, char **argv, struct ctl *ctl);
int fio_main(int argc, char **argv, struct ctl *ctl);
/* fio mode for a preset's command line, and with plot (a checked file name, or NULL) the
 * page of its json+ report written at the end; mode names the preset in messages. */
int fio_main_plot(int argc, char **argv, struct ctl *ctl, const char *plot, const char *mode);
int quick_main(int argc, char **argv, struct ctl *ctl);
/* latency, iops, throughput: argv[0] names the preset */
int preset_main(int argc, char **argv, struct ctl *ctl);
int suite_main(int argc, char **argv, struct ctl *ctl);
int sweep_main(int argc, char **argv, struct ctl *ctl);
int merge_main(int argc, char **argv, struct ctl *ctl);
int k8s_main(int argc, char **argv, struct ctl *ctl);
int k8s_pod_main(int argc, char **argv, struct ctl *ctl);
int plot_main(int argc, char **argv, struct ctl *ctl);
int compare_main(int argc, char **argv, struct ctl *ctl);

/* Exit status used when a second stop signal arrives before the mode has finished
 * (ioping: 4, like a second SIGINT to ioping 1.3). Set by the mode at start; 0 = keep going. */
extern int modes_second_stop_exit;

#endif
