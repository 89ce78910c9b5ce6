/* spe_mkdata: wraps raw Arm SPE bytes in a minimal file-mode perf.data that
 * perf 6.1 accepts, so `perf report -D` can serve as the oracle for
 * `hwprof spe dump`. Layout (perfdata-format.md §3): header, ids, one attr
 * (type 8 = fake arm_spe_0), then AUXTRACE_INFO(type 4) and AUXTRACE + data.
 *   spe_mkdata [--shift8] [--priv V,V,...] IN.bin OUT.data
 * --shift8 puts an 8-byte FINISHED_ROUND first so the SPE data starts at a
 * file offset that is 8 mod 16 (perf sizes ALIGNMENT packets by address).
 * --priv replaces the AUXTRACE_INFO values {8, 1} (e.g. a versioned layout).
 * Prints the file offset of the SPE data on stdout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int main(int argc, char **argv)
{
	int shift8 = 0, a = 1;
	uint64_t priv[64] = { 8, 1 };
	size_t npriv = 2;
	FILE *f;
	uint8_t *spe, *out;
	long n;
	size_t pos, data_start;

	for (;;) {
		if (argc > a && !strcmp(argv[a], "--shift8")) {
			shift8 = 1;
			a++;
		} else if (argc > a + 1 && !strcmp(argv[a], "--priv")) {
			char *p = argv[a + 1];

			for (npriv = 0; npriv < 64 && *p; npriv++) {
				priv[npriv] = strtoull(p, &p, 0);
				if (*p == ',')
					p++;
			}
			a += 2;
		} else {
			break;
		}
	}
	if (argc - a != 2) {
		fprintf(stderr, "usage: spe_mkdata [--shift8] IN.bin OUT.data\n");
		return 2;
	}
	f = fopen(argv[a], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(argv[a]);
		return 1;
	}
	spe = malloc((size_t)n + 1);
	out = calloc(1, (size_t)n + 4096 + 8 * npriv);
	if (!spe || !out || fread(spe, 1, (size_t)n, f) != (size_t)n) {
		perror(argv[a]);
		return 1;
	}
	fclose(f);

	/* ids at 104, attr at 112, data at 256 */
	memcpy(out, "PERFILE2", 8);
	put(out + 8, 104, 8);
	put(out + 16, 144, 8);
	put(out + 24, 112, 8);
	put(out + 32, 144, 8);
	put(out + 104, 1, 8);                 /* sample id of the SPE event */
	put(out + 112 + 0, 8, 4);             /* attr.type: arm_spe_0 */
	put(out + 112 + 4, 128, 4);           /* attr.size */
	put(out + 112 + 16, 1, 8);            /* sample_period */
	put(out + 112 + 24, 0x10087, 8);      /* IP|TID|TIME|CPU|IDENTIFIER */
	put(out + 112 + 40, 1 | (1u << 18) | (1u << 20), 8); /* disabled, sample_id_all, exclude_guest */
	put(out + 112 + 128, 104, 8);         /* ids section */
	put(out + 112 + 136, 8, 8);

	pos = 256;
	if (shift8) {
		put(out + pos, 68, 4);            /* FINISHED_ROUND */
		put(out + pos + 6, 8, 2);
		pos += 8;
	}
	put(out + pos, 70, 4);                /* AUXTRACE_INFO */
	put(out + pos + 6, 16 + 8 * npriv, 2);
	put(out + pos + 8, 4, 4);             /* PERF_AUXTRACE_ARM_SPE */
	for (size_t i = 0; i < npriv; i++)    /* default: PMU type 8, per-cpu mmaps */
		put(out + pos + 16 + 8 * i, priv[i], 8);
	pos += 16 + 8 * npriv;
	put(out + pos, 71, 4);                /* AUXTRACE */
	put(out + pos + 6, 48, 2);
	put(out + pos + 8, (uint64_t)n, 8);   /* size */
	put(out + pos + 16, 0, 8);            /* offset */
	put(out + pos + 24, 0, 8);            /* reference */
	put(out + pos + 32, 0, 4);            /* idx */
	put(out + pos + 36, 0xffffffffu, 4);  /* tid -1 */
	put(out + pos + 40, 0, 4);            /* cpu */
	pos += 48;
	data_start = pos;
	memcpy(out + pos, spe, (size_t)n);
	pos += (size_t)n;
	put(out + 40, 256, 8);                /* data section */
	put(out + 48, pos - 256, 8);

	f = fopen(argv[a + 1], "wb");
	if (!f || fwrite(out, 1, pos, f) != pos || fclose(f)) {
		perror(argv[a + 1]);
		return 1;
	}
	printf("%zu\n", data_start);
	free(spe);
	free(out);
	return 0;
}
