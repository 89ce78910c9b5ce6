/* Arm SPE packet descriptions, worded exactly as Debian perf 6.1 prints
 * them in `perf report -D`. Newer perf words some packets differently
 * (PBT addresses, MTE/MEMCPY/GCS op types, more EVENTS bits); 6.1 is the
 * oracle, so those fall back to its raw "NAME 0x<payload> (<index>)". */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "hwprof/arm_spe.h"

/* Growing string in a fixed buffer; `len` counts what would have been
 * written, like snprintf, so the caller can report the full size. */
struct spe_str {
	char *buf;
	size_t size;
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static void spe_out(struct spe_str *s, const char *fmt, ...)
{
	va_list ap;
	size_t room = s->len < s->size ? s->size - s->len : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? s->buf + s->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->len += (size_t)n;
}

/* perf's names per type, used by the raw fallback and a few formats. */
static const char *const spe_type_name[] = {
	[HWPROF_SPE_BAD] = "BAD", [HWPROF_SPE_PAD] = "PAD", [HWPROF_SPE_END] = "END",
	[HWPROF_SPE_TIMESTAMP] = "TS", [HWPROF_SPE_ADDRESS] = "ADDR",
	[HWPROF_SPE_COUNTER] = "LAT", [HWPROF_SPE_CONTEXT] = "CONTEXT",
	[HWPROF_SPE_OP_TYPE] = "OP-TYPE", [HWPROF_SPE_EVENTS] = "EVENTS",
	[HWPROF_SPE_DATA_SOURCE] = "DATA-SOURCE",
};

/* EVENTS bits perf 6.1 knows, in its print order (ascending). */
static const struct { uint8_t bit; const char *name; } spe_ev_names[] = {
	{ HWPROF_SPE_EV_EXCEPTION_GEN, " EXCEPTION-GEN" },
	{ HWPROF_SPE_EV_RETIRED, " RETIRED" },
	{ HWPROF_SPE_EV_L1D_ACCESS, " L1D-ACCESS" },
	{ HWPROF_SPE_EV_L1D_REFILL, " L1D-REFILL" },
	{ HWPROF_SPE_EV_TLB_ACCESS, " TLB-ACCESS" },
	{ HWPROF_SPE_EV_TLB_WALK, " TLB-REFILL" },
	{ HWPROF_SPE_EV_NOT_TAKEN, " NOT-TAKEN" },
	{ HWPROF_SPE_EV_MISPRED, " MISPRED" },
	{ HWPROF_SPE_EV_LLC_ACCESS, " LLC-ACCESS" },
	{ HWPROF_SPE_EV_LLC_MISS, " LLC-REFILL" },
	{ HWPROF_SPE_EV_REMOTE_ACCESS, " REMOTE-ACCESS" },
	{ HWPROF_SPE_EV_ALIGNMENT, " ALIGNMENT" },
	{ HWPROF_SPE_EV_PARTIAL_PRED, " SVE-PARTIAL-PRED" },
	{ HWPROF_SPE_EV_EMPTY_PRED, " SVE-EMPTY-PRED" },
};

static void spe_desc_events(struct spe_str *s, uint64_t p)
{
	spe_out(s, "EV");
	for (size_t i = 0; i < sizeof(spe_ev_names) / sizeof(spe_ev_names[0]); i++)
		if (p & (1ull << spe_ev_names[i].bit))
			spe_out(s, "%s", spe_ev_names[i].name);
}

/* SVE effective vector length: 32 << payload[6:4]. */
static int spe_evlen(uint64_t p)
{
	return 32 << ((p >> 4) & 7);
}

/* Returns 0, or -1 for a class perf 6.1 cannot name (raw fallback). */
static int spe_desc_op(struct spe_str *s, unsigned cls, uint64_t p)
{
	switch (cls) {
	case HWPROF_SPE_OP_CLASS_OTHER:
		if ((p & 0x89) == 0x08) { /* SVE data processing */
			spe_out(s, "SVE-OTHER EVLEN %d", spe_evlen(p));
			if (p & 0x2)
				spe_out(s, " FP");
			if (p & 0x4)
				spe_out(s, " PRED");
		} else {
			spe_out(s, "OTHER %s", (p & 1) ? "COND-SELECT" : "INSN-OTHER");
		}
		return 0;
	case HWPROF_SPE_OP_CLASS_LDST:
		spe_out(s, "%s", (p & 1) ? "ST" : "LD");
		if ((p & 0xe2) == 0x02) { /* atomic / exclusive / acquire-release */
			if (p & 0x04)
				spe_out(s, " AT");
			if (p & 0x08)
				spe_out(s, " EXCL");
			if (p & 0x10)
				spe_out(s, " AR");
		}
		switch (p & 0xfe) {
		case 0x04: spe_out(s, " SIMD-FP"); break;
		case 0x00: spe_out(s, " GP-REG"); break;
		case 0x10: spe_out(s, " UNSPEC-REG"); break;
		case 0x30: spe_out(s, " NV-SYSREG"); break;
		default: break;
		}
		if ((p & 0x0a) == 0x08) { /* SVE load/store */
			spe_out(s, " EVLEN %d", spe_evlen(p));
			if (p & 0x04)
				spe_out(s, " PRED");
			if (p & 0x80)
				spe_out(s, " SG");
		}
		return 0;
	case HWPROF_SPE_OP_CLASS_BRANCH:
		spe_out(s, "B");
		if (p & 1)
			spe_out(s, " COND");
		if ((p & 0xfe) == 0x02)
			spe_out(s, " IND");
		return 0;
	default:
		return -1;
	}
}

/* Returns 0, or -1 for an index perf 6.1 does not know (raw fallback). */
static int spe_desc_addr(struct spe_str *s, unsigned idx, uint64_t p)
{
	switch (idx) {
	case HWPROF_SPE_ADDR_INS:
	case HWPROF_SPE_ADDR_BRANCH:
		spe_out(s, "%s 0x%" PRIx64 " el%u ns=%u", idx ? "TGT" : "PC",
			HWPROF_SPE_ADDR_VA(p), HWPROF_SPE_ADDR_EL(p), HWPROF_SPE_ADDR_NS(p));
		return 0;
	case HWPROF_SPE_ADDR_DATA_VIRT:
		/* perf prints the VA payload whole, tag included. */
		spe_out(s, "VA 0x%" PRIx64, p);
		return 0;
	case HWPROF_SPE_ADDR_DATA_PHYS:
		spe_out(s, "PA 0x%" PRIx64 " ns=%u ch=%u pat=%x", HWPROF_SPE_ADDR_VA(p),
			HWPROF_SPE_ADDR_NS(p), HWPROF_SPE_ADDR_CH(p), HWPROF_SPE_ADDR_PAT(p));
		return 0;
	default:
		return -1;
	}
}

static void spe_desc_counter(struct spe_str *s, unsigned idx, uint64_t p)
{
	static const char *const kind[] = { "TOT", "ISSUE", "XLAT" };

	/* Unknown kinds keep the trailing space, as perf does. */
	spe_out(s, "LAT %d %s", (int)(uint16_t)p, idx < 3 ? kind[idx] : "");
}

HWPROF_API int hwprof_spe_pkt_desc(const struct hwprof_spe_pkt *pkt, char *buf, size_t size)
{
	struct spe_str s = { buf, size, 0 };
	uint64_t p;
	int err = 0;

	if (!pkt || (!buf && size) || pkt->type > HWPROF_SPE_DATA_SOURCE)
		return -HWPROF_E_INVAL;
	if (size)
		buf[0] = '\0';
	p = pkt->payload;
	switch (pkt->type) {
	case HWPROF_SPE_BAD:
	case HWPROF_SPE_PAD:
	case HWPROF_SPE_END:
		spe_out(&s, "%s", spe_type_name[pkt->type]);
		break;
	case HWPROF_SPE_EVENTS:
		spe_desc_events(&s, p);
		break;
	case HWPROF_SPE_OP_TYPE:
		err = spe_desc_op(&s, pkt->index, p);
		break;
	case HWPROF_SPE_DATA_SOURCE:
	case HWPROF_SPE_TIMESTAMP:
		/* perf prints these signed (%lld). */
		spe_out(&s, "%s %lld", spe_type_name[pkt->type], (long long)p);
		break;
	case HWPROF_SPE_ADDRESS:
		err = spe_desc_addr(&s, pkt->index, p);
		break;
	case HWPROF_SPE_CONTEXT:
		spe_out(&s, "CONTEXT 0x%" PRIx64 " el%d", p, pkt->index + 1);
		break;
	case HWPROF_SPE_COUNTER:
		spe_desc_counter(&s, pkt->index, p);
		break;
	}
	if (err) {
		s.len = 0;
		spe_out(&s, "%s 0x%" PRIx64 " (%d)", spe_type_name[pkt->type], p, pkt->index);
	}
	return s.len > (size_t)INT32_MAX ? INT32_MAX : (int)s.len;
}
