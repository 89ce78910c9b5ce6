/* `hwprof spe dump FILE`: prints a raw Arm SPE buffer in perf 6.1's
 * `report -D` packet format; `hwprof spe records FILE`: the records the
 * assembler builds from it, one per line (for debugging synthesis). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwprof/arm_spe.h"
#include "cli/cli.h"
#include "cli/print_spe.h"

static const char spe_usage[] =
	"usage: hwprof spe dump [--strict] [--addr N] FILE\n"
	"       hwprof spe records FILE\n";

/* Maps the whole file read-only; an empty file gives len 0 and no map. */
static int spe_map(const char *path, const uint8_t **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	void *p;

	if (fd < 0)
		return cli_error("spe", "%s: offset 0: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return cli_error("spe", "%s: offset 0: not a regular file", path);
	}
	*len = (size_t)st.st_size;
	*buf = NULL;
	if (*len) {
		p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			close(fd);
			return cli_error("spe", "%s: offset 0: %s", path, strerror(errno));
		}
		*buf = p;
	}
	close(fd);
	return 0;
}

/* --strict: stop at the first bad packet with a one-line error. */
static int spe_check(const char *path, const uint8_t *buf, size_t len, uint64_t addr)
{
	struct hwprof_spe_decoder dec;
	struct hwprof_spe_pkt pkt;
	int r;

	hwprof_spe_decoder_init(&dec, buf, len, addr);
	while ((r = hwprof_spe_decoder_next(&dec, &pkt)) > 0)
		;
	if (r < 0)
		return cli_error("spe", "%s: offset %#" PRIx64 ": %s", path, pkt.offset,
				 hwprof_strerror(r));
	return 0;
}

static void spe_print_record(FILE *out, const struct hwprof_spe_record *r)
{
	static const char *const end[] = { "?", "end", "ts", "truncated" };

	fprintf(out, "%#" PRIx64 " +%" PRIu64 " %s", r->offset, r->size, end[r->end & 3]);
	if (r->present & HWPROF_SPE_HAS_PC)
		fprintf(out, " pc=%#" PRIx64 " el%u ns=%u", r->pc, r->pc_el, r->pc_ns);
	if (r->present & HWPROF_SPE_HAS_TARGET)
		fprintf(out, " tgt=%#" PRIx64, r->target);
	if (r->present & HWPROF_SPE_HAS_PREV_BRANCH)
		fprintf(out, " pbt=%#" PRIx64, r->prev_branch);
	if (r->present & HWPROF_SPE_HAS_OP)
		fprintf(out, " op=%u:%#x", r->op_class, r->op);
	if (r->present & HWPROF_SPE_HAS_EVENTS)
		fprintf(out, " ev=%#" PRIx64, r->events);
	if (r->present & HWPROF_SPE_HAS_VA)
		fprintf(out, " va=%#" PRIx64, r->va);
	if (r->present & HWPROF_SPE_HAS_PA)
		fprintf(out, " pa=%#" PRIx64, r->pa);
	if (r->present & HWPROF_SPE_HAS_LAT_TOTAL)
		fprintf(out, " lat=%u", r->lat_total);
	if (r->present & HWPROF_SPE_HAS_LAT_ISSUE)
		fprintf(out, " issue=%u", r->lat_issue);
	if (r->present & HWPROF_SPE_HAS_LAT_XLAT)
		fprintf(out, " xlat=%u", r->lat_xlat);
	if (r->present & HWPROF_SPE_HAS_DATA_SOURCE)
		fprintf(out, " src=%u", r->data_source);
	if (r->present & HWPROF_SPE_HAS_CONTEXT)
		fprintf(out, " ctx=%#" PRIx64, r->context_id);
	if (r->present & HWPROF_SPE_HAS_TIMESTAMP)
		fprintf(out, " ts=%" PRIu64, r->timestamp);
	fputc('\n', out);
}

static int spe_records(const char *path, const uint8_t *buf, size_t len)
{
	struct hwprof_spe_decoder dec;
	struct hwprof_spe_record rec;
	int r;

	hwprof_spe_decoder_init(&dec, buf, len, 0);
	while ((r = hwprof_spe_record_next(&dec, &rec)) != 0) {
		if (r < 0)
			printf("%#" PRIx64 " bad packet, record dropped\n",
			       hwprof_spe_decoder_error(&dec)->offset);
		else
			spe_print_record(stdout, &rec);
	}
	return 0;
}

int cmd_spe(int argc, char **argv)
{
	const char *sub, *path = NULL;
	const uint8_t *buf;
	uint64_t addr = 0;
	int strict = 0, ret;
	size_t len = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(spe_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 129 : 0;
	}
	sub = argv[1];
	if (strcmp(sub, "dump") && strcmp(sub, "records"))
		return cli_usage_error("spe", "unknown subcommand '%s' (dump, records)", sub);
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--strict")) {
			strict = 1;
		} else if (!strcmp(argv[i], "--addr") && i + 1 < argc) {
			char *end;

			errno = 0;
			addr = strtoull(argv[++i], &end, 0);
			if (errno || *end)
				return cli_usage_error("spe", "bad --addr '%s'", argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error("spe", "unknown option '%s'", argv[i]);
		} else if (!path) {
			path = argv[i];
		} else {
			return cli_usage_error("spe", "more than one FILE");
		}
	}
	if (!path)
		return cli_usage_error("spe", "%s needs a FILE", sub);
	ret = spe_map(path, &buf, &len);
	if (ret)
		return ret;
	if (!strcmp(sub, "records")) {
		ret = spe_records(path, buf, len);
	} else {
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		print_spe_dump_at(stdout, buf, len, addr);
		fflush(stdout);
		ret = strict ? spe_check(path, buf, len, addr) : 0;
	}
	if (len)
		munmap((void *)buf, len);
	return ret;
}
