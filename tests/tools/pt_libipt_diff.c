/* pt_libipt_diff: decodes the same Intel PT bytes with libipt's packet
 * decoder (pt_pkt_*) and with ours and checks that every packet's offset,
 * type and payload agree. Input: a file, or a random packet stream made by
 * our encoder from every packet type libipt 2.0.5 knows.
 *   pt_libipt_diff FILE          compare on FILE's bytes
 *   pt_libipt_diff gen SEED N    compare on N random packets
 * Prints one summary line; exit 0 if all agree, 1 on a mismatch, 2 on usage. */
#include <inttypes.h>
#include <intel-pt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/intel_pt.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* Random packet of a type libipt 2.0.5 decodes (no BBP/BIP/BEP/CFE/EVD/TRIG). */
static int gen_packet(struct hwprof_pt_encoder *enc, uint64_t *s)
{
	static const uint8_t types[] = {
		HWPROF_PT_PAD, HWPROF_PT_PSB, HWPROF_PT_PSBEND, HWPROF_PT_TNT, HWPROF_PT_TNT,
		HWPROF_PT_TIP, HWPROF_PT_TIP_PGE, HWPROF_PT_TIP_PGD, HWPROF_PT_FUP,
		HWPROF_PT_MODE_EXEC, HWPROF_PT_MODE_TSX, HWPROF_PT_PIP, HWPROF_PT_VMCS,
		HWPROF_PT_CBR, HWPROF_PT_TSC, HWPROF_PT_TMA, HWPROF_PT_MTC, HWPROF_PT_CYC,
		HWPROF_PT_TRACESTOP, HWPROF_PT_OVF, HWPROF_PT_MNT, HWPROF_PT_EXSTOP,
		HWPROF_PT_MWAIT, HWPROF_PT_PWRE, HWPROF_PT_PWRX, HWPROF_PT_PTWRITE,
	};
	uint64_t r = rnd(s), r2 = rnd(s);
	struct hwprof_pt_packet p = { .type = types[r % sizeof(types)] };
	r >>= 8;
	switch (p.type) {
	case HWPROF_PT_TNT:
		p.count = 1 + (unsigned)(r % 47);
		p.payload = r2 & (~0ULL << (64 - p.count));
		break;
	case HWPROF_PT_TIP: case HWPROF_PT_TIP_PGE: case HWPROF_PT_TIP_PGD:
	case HWPROF_PT_FUP:
		if (r % 7 == 0) /* suppressed */
			break;
		return hwprof_pt_encode_ip(enc, p.type, r % 3 ? r2 >> (r % 48) : r2);
	case HWPROF_PT_MODE_EXEC: {
		static const uint64_t modes[] = { 16, 64, 32 };
		p.payload = modes[r % 3];
		p.count = (r % 3) | (r & 4);
		break;
	}
	case HWPROF_PT_MODE_TSX: p.payload = r % 3; break;
	case HWPROF_PT_PIP: p.payload = r2 >> 16; break;
	case HWPROF_PT_VMCS: p.payload = r2 >> 24; p.count = 5; break;
	case HWPROF_PT_CBR: p.payload = r2 & 0xff; break;
	case HWPROF_PT_TSC: p.payload = r2 >> 8; break;
	case HWPROF_PT_TMA: p.payload = r2 & 0xffff; p.count = (r >> 16) & 0x1ff; break;
	case HWPROF_PT_MTC: p.payload = r2 & 0xff; break;
	case HWPROF_PT_CYC: p.payload = r2 >> (3 + r % 61); break; /* < 2^61: see below */
	case HWPROF_PT_MNT: p.payload = r2; break;
	case HWPROF_PT_EXSTOP: p.ip = r & 1; break;
	case HWPROF_PT_MWAIT: p.payload = r2 & 0x00000003000000ffULL; break;
	case HWPROF_PT_PWRE: p.payload = r2 & 0xff88; break;
	case HWPROF_PT_PWRX: p.payload = r2 & 0xdff; break;
	case HWPROF_PT_PTWRITE:
		p.count = r & 1;
		p.ip = (r >> 1) & 1;
		p.payload = p.count ? r2 : r2 >> 32;
		break;
	default: break;
	}
	return hwprof_pt_encode(enc, &p);
}

/* The libipt type for one of our packets, or -1. */
static int ipt_type(const struct hwprof_pt_packet *p)
{
	switch (p->type) {
	case HWPROF_PT_PAD: return ppt_pad;
	case HWPROF_PT_PSB: return ppt_psb;
	case HWPROF_PT_PSBEND: return ppt_psbend;
	case HWPROF_PT_FUP: return ppt_fup;
	case HWPROF_PT_TIP: return ppt_tip;
	case HWPROF_PT_TIP_PGE: return ppt_tip_pge;
	case HWPROF_PT_TIP_PGD: return ppt_tip_pgd;
	case HWPROF_PT_TNT: return p->size == 1 ? ppt_tnt_8 : ppt_tnt_64;
	case HWPROF_PT_MODE_EXEC: case HWPROF_PT_MODE_TSX: return ppt_mode;
	case HWPROF_PT_PIP: return ppt_pip;
	case HWPROF_PT_VMCS: return ppt_vmcs;
	case HWPROF_PT_CBR: return ppt_cbr;
	case HWPROF_PT_TSC: return ppt_tsc;
	case HWPROF_PT_TMA: return ppt_tma;
	case HWPROF_PT_MTC: return ppt_mtc;
	case HWPROF_PT_CYC: return ppt_cyc;
	case HWPROF_PT_TRACESTOP: return ppt_stop;
	case HWPROF_PT_OVF: return ppt_ovf;
	case HWPROF_PT_MNT: return ppt_mnt;
	case HWPROF_PT_EXSTOP: return ppt_exstop;
	case HWPROF_PT_MWAIT: return ppt_mwait;
	case HWPROF_PT_PWRE: return ppt_pwre;
	case HWPROF_PT_PWRX: return ppt_pwrx;
	case HWPROF_PT_PTWRITE: return ppt_ptw;
	default: return -1;
	}
}

/* Do our raw fields mean what libipt decoded? 0 if so. */
static int payload_differs(const struct hwprof_pt_packet *p, const struct pt_packet *q)
{
	uint64_t v = p->payload;
	switch (p->type) {
	case HWPROF_PT_TNT:
		return q->payload.tnt.bit_size != p->count ||
		       q->payload.tnt.payload != (p->count ? v >> (64 - p->count) : 0);
	case HWPROF_PT_TIP: case HWPROF_PT_TIP_PGE: case HWPROF_PT_TIP_PGD:
	case HWPROF_PT_FUP:
		return (unsigned)q->payload.ip.ipc != p->count || q->payload.ip.ip != v;
	case HWPROF_PT_MODE_EXEC:
		return q->payload.mode.leaf != pt_mol_exec ||
		       q->payload.mode.bits.exec.csl != (p->count & 1) ||
		       q->payload.mode.bits.exec.csd != ((p->count >> 1) & 1);
	case HWPROF_PT_MODE_TSX:
		return q->payload.mode.leaf != pt_mol_tsx ||
		       q->payload.mode.bits.tsx.intx != (v & 1) ||
		       q->payload.mode.bits.tsx.abrt != ((v >> 1) & 1);
	case HWPROF_PT_PIP:
		return q->payload.pip.cr3 != (v & ~1ULL) << 4 || q->payload.pip.nr != (v & 1);
	case HWPROF_PT_VMCS: return q->payload.vmcs.base != v << 12;
	case HWPROF_PT_CBR: return q->payload.cbr.ratio != (v & 0xff);
	case HWPROF_PT_TSC: return q->payload.tsc.tsc != v;
	case HWPROF_PT_TMA: return q->payload.tma.ctc != v || q->payload.tma.fc != p->count;
	case HWPROF_PT_MTC: return q->payload.mtc.ctc != v;
	case HWPROF_PT_CYC: return q->payload.cyc.value != v;
	case HWPROF_PT_MNT: return q->payload.mnt.payload != v;
	case HWPROF_PT_EXSTOP: return q->payload.exstop.ip != p->ip;
	case HWPROF_PT_MWAIT:
		return q->payload.mwait.hints != (uint32_t)v || q->payload.mwait.ext != v >> 32;
	case HWPROF_PT_PWRE:
		/* libipt reads the HW flag from payload bit 3, perf (and the SDM's
		 * byte 2 bit 7) from bit 7: compare libipt's own reading */
		return q->payload.pwre.state != ((v >> 12) & 0xf) ||
		       q->payload.pwre.sub_state != ((v >> 8) & 0xf) ||
		       q->payload.pwre.hw != ((v >> 3) & 1);
	case HWPROF_PT_PWRX:
		return q->payload.pwrx.last != ((v >> 4) & 0xf) ||
		       q->payload.pwrx.deepest != (v & 0xf) ||
		       q->payload.pwrx.interrupt != ((v >> 8) & 1) ||
		       q->payload.pwrx.store != ((v >> 10) & 1) ||
		       q->payload.pwrx.autonomous != ((v >> 11) & 1);
	case HWPROF_PT_PTWRITE:
		return q->payload.ptw.payload != v || q->payload.ptw.plc != p->count ||
		       q->payload.ptw.ip != p->ip;
	default:
		return 0;
	}
}

int main(int argc, char **argv)
{
	uint8_t *buf;
	size_t len;
	if (argc == 4 && !strcmp(argv[1], "gen")) {
		uint64_t seed = strtoull(argv[2], NULL, 0) * 2 + 1; /* odd: never 0 */
		long n = atol(argv[3]);
		if (n <= 0)
			return 2;
		len = (size_t)n * 16 + 16;
		buf = malloc(len);
		struct hwprof_pt_encoder enc;
		hwprof_pt_encoder_init(&enc, buf, len);
		hwprof_pt_encode_psb(&enc);
		for (long i = 0; i < n; i++)
			if (gen_packet(&enc, &seed) <= 0) {
				fprintf(stderr, "encoder failed at packet %ld\n", i);
				return 1;
			}
		len = hwprof_pt_encoder_offset(&enc);
	} else if (argc == 2) {
		FILE *f = fopen(argv[1], "rb");
		if (!f) { perror(argv[1]); return 2; }
		fseek(f, 0, SEEK_END);
		len = (size_t)ftell(f);
		rewind(f);
		buf = malloc(len ? len : 1);
		if (fread(buf, 1, len, f) != len) { perror(argv[1]); return 2; }
		fclose(f);
	} else {
		fprintf(stderr, "usage: pt_libipt_diff FILE | gen SEED N\n");
		return 2;
	}

	struct pt_config cfg;
	pt_config_init(&cfg);
	cfg.begin = buf;
	cfg.end = buf + len;
	struct pt_packet_decoder *ipt = pt_pkt_alloc_decoder(&cfg);
	if (!ipt || pt_pkt_sync_set(ipt, 0) < 0) {
		fprintf(stderr, "libipt: cannot start\n");
		return 2;
	}
	struct hwprof_pt_decoder dec;
	hwprof_pt_decoder_init(&dec, buf, len, 0);

	long packets = 0;
	for (;;) {
		struct hwprof_pt_packet p;
		struct pt_packet q;
		uint64_t qoff = 0;
		size_t off = hwprof_pt_decoder_offset(&dec);
		pt_pkt_get_offset(ipt, &qoff);
		int r1 = hwprof_pt_decoder_next(&dec, &p);
		int r2 = pt_pkt_next(ipt, &q, sizeof(q));
		if (r1 == 0 && r2 == -pte_eos)
			break;
		if (r1 <= 0 || r2 < 0) {
			printf("mismatch at offset %#zx: ours %s, libipt %s (after %ld packets)\n",
			       off, r1 < 0 ? hwprof_strerror(r1) : r1 ? "packet" : "end",
			       r2 < 0 ? pt_errstr(pt_errcode(r2)) : "packet", packets);
			return 1;
		}
		if (qoff != off || q.size != p.size || (int)q.type != ipt_type(&p) ||
		    payload_differs(&p, &q)) {
			printf("mismatch at offset %#zx (libipt %#" PRIx64 "): ours %s size %u "
			       "count %u payload %#" PRIx64 "; libipt type %d size %u\n",
			       off, qoff, hwprof_pt_type_name(p.type), p.size, p.count,
			       p.payload, (int)q.type, q.size);
			return 1;
		}
		packets++;
	}
	printf("%ld packets, %zu bytes agree\n", packets, len);
	pt_pkt_free_decoder(ipt);
	free(buf);
	return 0;
}
