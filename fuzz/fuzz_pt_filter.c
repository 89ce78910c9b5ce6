/* Fuzz target for perf's --filter grammar (hwprof_pt_filter_parse) and
 * the kernel filter text (hwprof_pt_filter_append): any text parses or
 * fails cleanly, parsed filters print within bounds, and perf's
 * valid-values list takes any bitmap. Symbol resolution is left out (it
 * reads files). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/intel_pt_cfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hwprof_pt_filter f[16];
	struct hwprof_error err;
	char out[512], list[256];
	uint64_t bits = 0;

	memcpy(&bits, data, size < 8 ? size : 8);
	hwprof_pt_valid_values(list, sizeof(list), bits);
	if (strlen(list) >= sizeof(list))
		__builtin_trap();

	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	int n = hwprof_pt_filter_parse(text, f, 16, &err);
	if (n > 16)
		__builtin_trap();
	out[0] = 0;
	for (int i = 0; i < n; i++) {
		if (f[i].action < 0 || f[i].action > 3)
			__builtin_trap();
		if (hwprof_pt_filter_append(out, sizeof(out), &f[i]) < 0)
			break;
		if (strlen(out) >= sizeof(out))
			__builtin_trap();
	}
	free(text);
	return 0;
}
