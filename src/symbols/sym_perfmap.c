/* JIT symbols from perf's map files (/tmp/perf-PID.map): one
 * "START SIZE name" line per symbol, hex without 0x, absolute addresses.
 * Taken as written: no demangling, no end fixups (perf does none). */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/sym_int.h"

int sym_load_perfmap(struct sym_table *t, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = 0;
		char *p = line, *e;
		uint64_t start = strtoull(p, &e, 16);
		if (e == p || *e != ' ')
			continue;
		p = e + 1;
		uint64_t size = strtoull(p, &e, 16);
		if (e == p || *e != ' ')
			continue;
		p = e + 1;
		rc = sym_add(t, start, size, STB_GLOBAL, STT_FUNC, p, strlen(p));
		if (rc < 0)
			break;
	}
	free(line);
	fclose(f);
	if (rc < 0)
		return rc;
	sym_sort(t);
	return (int)(t->n > 0);
}
