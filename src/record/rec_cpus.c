/* CPU lists: "0-3,5" as -C takes it and /sys/devices/system/cpu/online
 * prints it, and the number of possible CPUs (nr_cpus_avail). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/rec_int.h"

int rec_cpus_parse(const char *list, int **out, int *nr)
{
	int *v = NULL, n = 0, cap = 0;
	const char *p = list;
	*out = NULL;
	*nr = 0;
	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0 || a > 65535)
			goto bad;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b > 65535)
				goto bad;
			p = end;
		}
		for (long c = a; c <= b; c++) {
			bool dup = false;
			for (int i = 0; i < n; i++)
				dup |= v[i] == c;
			if (dup)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				int *t = realloc(v, (size_t)cap * sizeof(*v));
				if (!t) {
					free(v);
					return -HWPROF_E_NOMEM;
				}
				v = t;
			}
			v[n++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	if (!n)
		goto bad;
	*out = v;
	*nr = n;
	return 0;
bad:
	free(v);
	return -HWPROF_E_INVAL;
}

static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return (int)n;
}

int rec_cpus_online(int **out, int *nr)
{
	char buf[4096];
	if (read_small("/sys/devices/system/cpu/online", buf, sizeof(buf)) <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		snprintf(buf, sizeof(buf), "0-%ld", n > 0 ? n - 1 : 0);
	}
	return rec_cpus_parse(buf, out, nr);
}

int rec_cpus_possible(void)
{
	char buf[4096];
	int *v, n;
	if (read_small("/sys/devices/system/cpu/possible", buf, sizeof(buf)) <= 0 ||
	    rec_cpus_parse(buf, &v, &n))
		return (int)sysconf(_SC_NPROCESSORS_CONF);
	int max = 0;
	for (int i = 0; i < n; i++)
		if (v[i] + 1 > max)
			max = v[i] + 1;
	free(v);
	return max;
}
