/* `hwprof pt dump FILE`: prints the packets of a raw Intel PT byte stream in
 * perf's `report -D` line format. Default: sync to the first PSB and resync
 * after errors (like ptdump); --no-sync: start at the offset and reproduce
 * perf's dump exactly (zero absorption, "Bad packet!" and one-byte steps). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwprof/intel_pt.h"
#include "cli/cli.h"
#include "cli/print_pt.h"

struct pt_opts {
	const char *file;
	uint64_t offset;
	int no_sync, lastip, time;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: hwprof pt dump FILE [--offset N] [--no-sync] [--lastip] [--time]\n"
		   "       hwprof pt insn ... (instruction flow; hwprof pt insn -h)\n"
		   "  --offset N  start at byte N of FILE\n"
		   "  --no-sync   do not look for a PSB first; print exactly what perf -D prints\n"
		   "  --lastip    show the IP reconstructed from TIP/FUP packets\n"
		   "  --time      show the last TSC value on each packet\n");
}

static int parse(int argc, char **argv, struct pt_opts *o)
{
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--no-sync")) {
			o->no_sync = 1;
		} else if (!strcmp(a, "--lastip")) {
			o->lastip = 1;
		} else if (!strcmp(a, "--time")) {
			o->time = 1;
		} else if (!strcmp(a, "--offset") || !strncmp(a, "--offset=", 9)) {
			const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
			char *end;
			if (!v || !*v)
				return cli_usage_error("pt", "--offset needs a value");
			errno = 0;
			unsigned long long n = strtoull(v, &end, 0);
			if (*end || errno || *v == '-')
				return cli_usage_error("pt", "bad --offset value '%s'", v);
			o->offset = n;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("pt", "unknown option '%s'", a);
		} else if (!o->file) {
			o->file = a;
		} else {
			return cli_usage_error("pt", "more than one FILE given");
		}
	}
	if (!o->file)
		return cli_usage_error("pt", "no FILE given");
	return 0;
}

/* The extras --lastip / --time append to a packet's description. */
static void extras(const struct pt_opts *o, const struct hwprof_pt_packet *pkt,
		   struct hwprof_pt_last_ip *lip, uint64_t *tsc, int *have_tsc,
		   char *desc, size_t len)
{
	size_t n = strlen(desc);
	uint64_t ip;
	if (o->lastip && hwprof_pt_last_ip_update(lip, pkt, &ip) == 1 && n < len)
		n += (size_t)snprintf(desc + n, len - n, "  ip 0x%" PRIx64, ip);
	if (pkt->type == HWPROF_PT_TSC) {
		*tsc = pkt->payload;
		*have_tsc = 1;
	}
	if (o->time && *have_tsc && n < len)
		snprintf(desc + n, len - n, "  tsc 0x%" PRIx64, *tsc);
}

static int dump(const struct pt_opts *o, const uint8_t *buf, size_t len)
{
	struct hwprof_pt_decoder dec;
	struct hwprof_pt_packet pkt;
	struct hwprof_pt_last_ip lip;
	uint64_t tsc = 0;
	int have_tsc = 0, errors = 0;
	char desc[320];

	hwprof_pt_last_ip_init(&lip);
	hwprof_pt_decoder_init(&dec, buf, len, o->no_sync ? HWPROF_PT_PERF_DUMP : 0);
	if (o->offset > len)
		return cli_error("pt", "%s: offset %#" PRIx64 " is past the end (size %#zx)",
				 o->file, o->offset, len);
	hwprof_pt_decoder_seek(&dec, (size_t)o->offset);
	if (!o->no_sync && hwprof_pt_decoder_sync(&dec) < 0)
		return cli_error("pt", "%s: offset %#" PRIx64 ": no PSB found", o->file,
				 o->offset);
	for (;;) {
		size_t off = hwprof_pt_decoder_offset(&dec);
		int ret = hwprof_pt_decoder_next(&dec, &pkt);
		if (ret == 0)
			break;
		if (ret < 0) {
			if (o->no_sync) {
				print_pt_line(stdout, off, buf + off, 1, NULL);
				hwprof_pt_decoder_skip(&dec, 1);
				continue;
			}
			fflush(stdout);
			cli_error("pt", "%s: offset %#zx: %s", o->file, off, hwprof_strerror(ret));
			errors++;
			hwprof_pt_decoder_skip(&dec, 1);
			if (hwprof_pt_decoder_sync(&dec) < 0)
				break;
			hwprof_pt_last_ip_init(&lip);
			continue;
		}
		hwprof_pt_packet_desc(&pkt, desc, sizeof(desc));
		if (o->lastip || o->time)
			extras(o, &pkt, &lip, &tsc, &have_tsc, desc, sizeof(desc));
		print_pt_line(stdout, off, buf + off, pkt.size, desc);
	}
	if (fflush(stdout) != 0)
		return cli_error("pt", "writing output: %s", strerror(errno));
	return errors ? 1 : 0;
}

int cmd_pt(int argc, char **argv)
{
	struct pt_opts o = { 0 };
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 129 : 0;
	}
	if (!strcmp(argv[1], "insn"))
		return cmd_pt_insn(argc, argv);
	if (strcmp(argv[1], "dump"))
		return cli_usage_error("pt", "unknown subcommand '%s' (expected 'dump' or 'insn')",
				       argv[1]);
	int ret = parse(argc, argv, &o);
	if (ret)
		return ret;

	int fd = open(o.file, O_RDONLY);
	if (fd < 0)
		return cli_error("pt", "%s: offset 0x0: %s", o.file, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		ret = cli_error("pt", "%s: offset 0x0: %s", o.file, strerror(errno));
		close(fd);
		return ret;
	}
	size_t len = (size_t)st.st_size;
	const uint8_t *buf = (const uint8_t *)"";
	void *map = NULL;
	if (len) {
		map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			ret = cli_error("pt", "%s: offset 0x0: %s", o.file, strerror(errno));
			close(fd);
			return ret;
		}
		buf = map;
	}
	close(fd);
	ret = dump(&o, buf, len);
	if (map)
		munmap(map, len);
	return ret;
}
