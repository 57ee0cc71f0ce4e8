#include <stdio.h>
#include "modes.h"
int fio_main(int argc, char **argv, struct ctl *ctl)
{
	(void)argc; (void)argv; (void)ctl;
	fprintf(stderr, "fio: not built yet\n");
	return 1;
}
