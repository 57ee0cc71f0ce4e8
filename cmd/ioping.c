#include <stdio.h>
#include "modes.h"
int ioping_main(int argc, char **argv, struct ctl *ctl)
{
	(void)argc; (void)argv; (void)ctl;
	fprintf(stderr, "ioping: not built yet\n");
	return 1;
}
