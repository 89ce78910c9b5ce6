/* pt_libipt_block: oracle for the flow decoder. Decodes a raw PT trace with
 * libipt's block decoder over the mappings of a maps file ("start end pgoff
 * path" hex lines, as pt_emulate writes) and checks every block against an
 * instruction list (one hex address per line: ground truth or hwprof's
 * output): the block's first and last instructions and its count must line
 * up with the list. Prints "ok: N blocks, M instructions" or the first
 * difference and exits 1.
 * With INSNS "-" it only decodes and counts (make bench: libipt's speed).
 * Usage: pt_libipt_block RAW MAPS INSNS|- */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap)
			break;
		b = realloc(b, cap *= 2);
	}
	fclose(f);
	*len = n;
	return b;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: pt_libipt_block RAW MAPS INSNS\n");
		return 2;
	}
	size_t len;
	uint8_t *buf = slurp(argv[1], &len);
	if (!buf) {
		perror(argv[1]);
		return 2;
	}
	int check = strcmp(argv[3], "-") != 0;
	size_t n = 0, cap = 1 << 16;
	uint64_t *list = malloc(cap * sizeof(*list));
	FILE *f;
	if (check) {
		f = fopen(argv[3], "r");
		if (!f) {
			perror(argv[3]);
			return 2;
		}
		unsigned long long v;
		while (list && fscanf(f, "%llx", &v) == 1) {
			if (n == cap)
				list = realloc(list, (cap *= 2) * sizeof(*list));
			if (list)
				list[n++] = v;
		}
		fclose(f);
	}
	if (!list)
		return 2;

	struct pt_config cfg;
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + len;
	struct pt_block_decoder *dec = pt_blk_alloc_decoder(&cfg);
	if (!dec)
		return 2;
	struct pt_image *img = pt_blk_get_image(dec);
	struct pt_image_section_cache *isc = pt_iscache_alloc(NULL);
	if (!isc)
		return 2;
	f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	unsigned long long s, e, off;
	char path[4097];
	while (fscanf(f, "%llx %llx %llx %4096s", &s, &e, &off, path) == 4) {
		/* through an image section cache, libipt's fast configuration */
		int r = pt_iscache_add_file(isc, path, off, e - s, s);
		if (r >= 0)
			r = pt_image_add_cached(img, isc, r, NULL);
		if (r < 0) {
			fprintf(stderr, "pt_image_add_file %s: %s\n", path, pt_errstr(pt_errcode(r)));
			return 2;
		}
	}
	fclose(f);

	size_t k = 0, nblocks = 0;
	int status, bad = 0;
	for (;;) {
		status = pt_blk_sync_forward(dec);
		if (status < 0)
			break;
		for (;;) {
			while (status & pts_event_pending) {
				struct pt_event ev;
				status = pt_blk_event(dec, &ev, sizeof(ev));
				if (status < 0)
					break;
			}
			if (status < 0)
				break;
			struct pt_block blk;
			status = pt_blk_next(dec, &blk, sizeof(blk));
			if (blk.ninsn) {
				nblocks++;
				if (check && (k + blk.ninsn > n || list[k] != blk.ip ||
					      list[k + blk.ninsn - 1] != blk.end_ip)) {
					printf("differ: libipt block %#" PRIx64 "..%#" PRIx64
					       " (%u insns) at list line %zu (%#" PRIx64 ")\n",
					       blk.ip, blk.end_ip, blk.ninsn, k + 1,
					       k < n ? list[k] : 0);
					bad = 1;
					goto out;
				}
				k += blk.ninsn;
			}
			if (status < 0)
				break;
		}
		if (status != -pte_eos) {
			uint64_t pos = 0;
			pt_blk_get_offset(dec, &pos);
			printf("libipt error at offset %#" PRIx64 ": %s\n", pos,
			       pt_errstr(pt_errcode(status)));
			bad = 1;
		}
	}
	if (check && !bad && k != n) {
		printf("differ: libipt gave %zu instructions, the list has %zu\n", k, n);
		bad = 1;
	}
out:
	if (!bad)
		printf("ok: %zu blocks, %zu instructions\n", nblocks, k);
	pt_blk_free_decoder(dec);
	pt_iscache_free(isc);
	free(buf);
	free(list);
	return bad;
}
