/* Kernel symbols from a kallsyms file ("addr type name[\t[module]]" lines),
 * kept like perf keeps them for [kernel.kallsyms]: text, weak, data and
 * bss symbols; ends fixed up, then duplicates folded, over the whole list
 * (modules included), then module symbols dropped, since their DSOs are
 * the modules' own. */
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/sym_int.h"

static bool kernel_only(const struct sym_table *t, const struct sym_raw *r)
{
	return !strchr(sym_raw_name(t, r), '\t');
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int sym_load_kallsyms(struct sym_table *t, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[1024];
	int rc = 0;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n");
		line[len] = 0;
		uint64_t addr = 0;
		size_t i = 0;
		int h;
		while ((h = hexval((unsigned char)line[i])) >= 0 && i < 16) {
			addr = addr << 4 | (uint64_t)h;
			i++;
		}
		if (i == 0 || line[i] != ' ' || !line[i + 1] || line[i + 2] != ' ')
			continue;
		char type = (char)toupper((unsigned char)line[i + 1]);
		const char *name = line + i + 3;
		if (type != 'T' && type != 'W' && type != 'D' && type != 'B')
			continue;
		if (name[0] == '$' || !name[0])
			continue;
		unsigned bind = line[i + 1] == 'W' || line[i + 1] == 'w' ? STB_WEAK
				: isupper((unsigned char)line[i + 1]) ? STB_GLOBAL : STB_LOCAL;
		unsigned stt = type == 'T' || type == 'W' ? STT_FUNC : STT_OBJECT;
		rc = sym_add(t, addr, 0, bind, stt, name, strlen(name));
		if (rc < 0)
			break;
	}
	fclose(f);
	if (rc < 0)
		return rc;
	sym_sort(t);
	sym_fixup_end(t, true);
	sym_fixup_duplicate(t);
	sym_filter(t, kernel_only);
	return (int)(t->n > 0);
}
