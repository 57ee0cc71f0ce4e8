/* SPDX-License-Identifier: MIT */
/* modes: what the modes share with main's signal handling (modes.h). */
#include "modes.h"

int modes_second_stop_exit;
