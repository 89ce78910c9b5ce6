/* Text of one Intel PT packet exactly as perf 6.1 writes it in
 * `perf report -D` (checked against Debian's perf by tests/diff/pt_dump.sh).
 * This formats a decoded struct into a caller's buffer; it never prints. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "intel_pt/pt_int.h"

static const char *const type_names[HWPROF_PT_TYPE_COUNT] = {
	[HWPROF_PT_BAD] = "BAD", [HWPROF_PT_PAD] = "PAD", [HWPROF_PT_TNT] = "TNT",
	[HWPROF_PT_TIP_PGD] = "TIP.PGD", [HWPROF_PT_TIP_PGE] = "TIP.PGE",
	[HWPROF_PT_TSC] = "TSC", [HWPROF_PT_TMA] = "TMA",
	[HWPROF_PT_MODE_EXEC] = "MODE.Exec", [HWPROF_PT_MODE_TSX] = "MODE.TSX",
	[HWPROF_PT_MTC] = "MTC", [HWPROF_PT_TIP] = "TIP", [HWPROF_PT_FUP] = "FUP",
	[HWPROF_PT_CYC] = "CYC", [HWPROF_PT_VMCS] = "VMCS", [HWPROF_PT_PSB] = "PSB",
	[HWPROF_PT_PSBEND] = "PSBEND", [HWPROF_PT_CBR] = "CBR",
	[HWPROF_PT_TRACESTOP] = "TraceSTOP", [HWPROF_PT_PIP] = "PIP",
	[HWPROF_PT_OVF] = "OVF", [HWPROF_PT_MNT] = "MNT",
	[HWPROF_PT_PTWRITE] = "PTWRITE", [HWPROF_PT_EXSTOP] = "EXSTOP",
	[HWPROF_PT_MWAIT] = "MWAIT", [HWPROF_PT_PWRE] = "PWRE",
	[HWPROF_PT_PWRX] = "PWRX", [HWPROF_PT_BBP] = "BBP", [HWPROF_PT_BIP] = "BIP",
	[HWPROF_PT_BEP] = "BEP", [HWPROF_PT_CFE] = "CFE", [HWPROF_PT_EVD] = "EVD",
	[HWPROF_PT_TRIG] = "TRIG",
};

HWPROF_API const char *hwprof_pt_type_name(unsigned type)
{
	return type < HWPROF_PT_TYPE_COUNT ? type_names[type] : "BAD";
}

/* The texts of the packets a dump mostly consists of (TNT, IP packets,
 * "NAME 0x<hex>" and bare names) are built by hand: `report -D` and
 * `pt dump` spend most of their time formatting, and snprintf's format
 * parsing per packet was a good part of it. The rest use snprintf. A fast
 * text is at most FAST_MAX bytes; smaller buffers take snprintf, which
 * truncates. */
#define FAST_MAX 96

static char *put_str(char *o, const char *s)
{
	size_t n = strlen(s);
	memcpy(o, s, n);
	return o + n;
}

/* %PRIx64 after "0x" */
static char *put_hex(char *o, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char t[16];
	int n = 0;
	do {
		t[n++] = hex[v & 15];
		v >>= 4;
	} while (v);
	*o++ = '0';
	*o++ = 'x';
	while (n)
		*o++ = t[--n];
	return o;
}

/* %u */
static char *put_udec(char *o, uint32_t v)
{
	char t[10];
	int n = 0;
	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*o++ = t[--n];
	return o;
}

/* "TNT " then T/N per branch, oldest (bit 63) first, then " (count)". */
static char *tnt_text(char *o, const struct hwprof_pt_packet *p)
{
	unsigned n = p->count > 64 ? 64 : p->count;
	uint64_t v = p->payload;
	o = put_str(o, "TNT ");
	for (unsigned i = 0; i < n; i++, v <<= 1)
		*o++ = (v >> 63) ? 'T' : 'N';
	*o++ = ' ';
	*o++ = '(';
	o = put_udec(o, p->count);
	*o++ = ')';
	return o;
}

/* The text of p into o (FAST_MAX bytes) if it is one of the common
 * packets; returns its end, or NULL for snprintf's packets. */
static char *fast_text(char *o, const struct hwprof_pt_packet *p, const char *name)
{
	switch (p->type) {
	case HWPROF_PT_BAD: case HWPROF_PT_PAD: case HWPROF_PT_PSB:
	case HWPROF_PT_PSBEND: case HWPROF_PT_TRACESTOP: case HWPROF_PT_OVF:
		return put_str(o, name);
	case HWPROF_PT_TNT:
		return tnt_text(o, p);
	case HWPROF_PT_TIP_PGD: case HWPROF_PT_TIP_PGE: case HWPROF_PT_TIP:
	case HWPROF_PT_FUP:
		o = put_str(o, name);
		if (!p->count)
			return put_str(o, " no ip");
		*o++ = ' ';
		return put_hex(o, p->payload);
	case HWPROF_PT_CYC: case HWPROF_PT_VMCS: case HWPROF_PT_MTC:
	case HWPROF_PT_MNT: case HWPROF_PT_CBR: case HWPROF_PT_TSC:
		o = put_str(o, name);
		*o++ = ' ';
		return put_hex(o, p->payload);
	default:
		return NULL;
	}
}

HWPROF_API int hwprof_pt_packet_desc(const struct hwprof_pt_packet *p,
				     char *buf, size_t len)
{
	if (!p || (!buf && len))
		return -HWPROF_E_INVAL;
	const char *name = hwprof_pt_type_name(p->type);
	uint64_t v = p->payload;

	char tmp[FAST_MAX], *o = len >= FAST_MAX ? buf : tmp;
	char *end = fast_text(o, p, name);
	if (end) {
		int n = (int)(end - o);
		*end = 0;
		if (o == tmp && len) { /* as snprintf truncates */
			size_t c = (size_t)n < len - 1 ? (size_t)n : len - 1;
			memcpy(buf, tmp, c);
			buf[c] = 0;
		}
		return n;
	}

	switch (p->type) {
	case HWPROF_PT_TMA:
		return snprintf(buf, len, "%s CTC 0x%x FC 0x%x", name, (unsigned)v, p->count);
	case HWPROF_PT_MODE_EXEC:
		return snprintf(buf, len, "%s IF:%d %" PRId64, name, (p->count & 4) ? 1 : 0,
				(int64_t)v);
	case HWPROF_PT_MODE_TSX:
		return snprintf(buf, len, "%s TXAbort:%u InTX:%u", name,
				(unsigned)(v >> 1) & 1, (unsigned)v & 1);
	case HWPROF_PT_PIP: /* bit 0 is the NR flag; perf shows the rest >> 1 */
		return snprintf(buf, len, "%s 0x%" PRIx64 " (NR=%d)", name,
				(uint64_t)((v & ~(uint64_t)1) >> 1), (int)(v & 1));
	case HWPROF_PT_PTWRITE:
		return snprintf(buf, len, "%s 0x%" PRIx64 " IP:%d", name, v, p->ip ? 1 : 0);
	case HWPROF_PT_EXSTOP: case HWPROF_PT_BEP:
		return snprintf(buf, len, "%s IP:%d", name, p->ip ? 1 : 0);
	case HWPROF_PT_MWAIT:
		return snprintf(buf, len, "%s 0x%" PRIx64 " Hints 0x%x Extensions 0x%x",
				name, v, (unsigned)(v & 0xff), (unsigned)((v >> 32) & 3));
	case HWPROF_PT_PWRE:
		return snprintf(buf, len, "%s 0x%" PRIx64 " HW:%u CState:%u Sub-CState:%u",
				name, v, (v & 0x80) ? 1u : 0u,
				(unsigned)((v >> 12) & 0xf), (unsigned)((v >> 8) & 0xf));
	case HWPROF_PT_PWRX:
		return snprintf(buf, len,
				"%s 0x%" PRIx64 " Last CState:%u Deepest CState:%u Wake Reason 0x%x",
				name, v, (unsigned)((v >> 4) & 0xf), (unsigned)(v & 0xf),
				(unsigned)((v >> 8) & 0xf));
	case HWPROF_PT_BBP:
		return snprintf(buf, len, "%s SZ %s-byte Type 0x%" PRIx64, name,
				p->count ? "4" : "8", v);
	case HWPROF_PT_BIP:
		return snprintf(buf, len, "%s ID 0x%02x Value 0x%" PRIx64, name, p->count, v);
	case HWPROF_PT_CFE:
		return snprintf(buf, len, "%s IP:%d Type 0x%02x Vector 0x%" PRIx64, name,
				p->ip ? 1 : 0, p->count, v);
	case HWPROF_PT_EVD:
		return snprintf(buf, len, "%s Type 0x%02x Payload 0x%" PRIx64, name, p->count, v);
	case HWPROF_PT_TRIG: {
		int n = snprintf(buf, len, "%s TRBV 0x%02x IP:%d MULT:%d", name, p->count,
				 p->ip ? 1 : 0, (p->flags & HWPROF_PT_TRIG_MULT) ? 1 : 0);
		if (!(p->flags & HWPROF_PT_TRIG_ICNTV) || n < 0)
			return n;
		size_t used = (size_t)n < len ? (size_t)n : (len ? len - 1 : 0);
		int m = snprintf(buf ? buf + used : NULL, len - used, " ICNT 0x%" PRIx64, v);
		return m < 0 ? m : n + m;
	}
	default:
		return snprintf(buf, len, "%s 0x%" PRIx64 " (%u)", name, v, p->count);
	}
}
