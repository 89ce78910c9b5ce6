/* spe_printinfo: runs the CLI's arm_spe AUXTRACE_INFO printers on values
 * from the command line, for tests/diff/spe_dump.sh. The printer lives in
 * the CLI (not the library), so its source is compiled in here.
 *   spe_printinfo [--61] V V ...   (the record's priv[] values) */
#include <stdlib.h>
#include <string.h>

#include "cli/print_spe.c"

int main(int argc, char **argv)
{
	uint64_t priv[256];
	size_t n = 0;
	int v61 = argc > 1 && !strcmp(argv[1], "--61");

	for (int i = 1 + v61; i < argc && n < 256; i++)
		priv[n++] = strtoull(argv[i], NULL, 0);
	if (v61)
		print_spe_auxtrace_info_61(stdout, priv, n);
	else
		print_spe_auxtrace_info(stdout, priv, n);
	return 0;
}
