/* perf 6.1's x86 instruction length decoding (see x86_insn_len.h):
 * legacy prefixes (four distinct at most), one REX, VEX/EVEX, the opcode
 * through its escape tables, ModRM with the group tables it selects,
 * SIB, displacement and immediates, each as wide as the operand and
 * address sizes make it. The attribute tables (x86_insn_tab.h) hold what
 * the opcode maps say of each encoding, with undefined ones as empty. */
#include <string.h>

#include "cli/x86_insn_len.h"

/* attribute bits */
#define A_IMM(a) ((a) & 7u)          /* immediate kind: */
enum { IMM_B = 1, IMM_W, IMM_D, IMM_Q, IMM_PTR, IMM_Z, IMM_V };
#define A_MODRM (1u << 3)
#define A_F64 (1u << 4)              /* 64-bit operands by default */
#define A_SCNDIMM (1u << 5)          /* a second byte immediate */
#define A_MOFFSET (1u << 6)          /* an address-sized offset */
#define A_VARIANT (1u << 7)          /* the last 66/F3/F2 picks the entry */
#define A_VEXOK (1u << 8)
#define A_VEXONLY (1u << 9)
#define A_EVEXONLY (1u << 10)
#define A_PFX(a) ((a) >> 11 & 15u)   /* prefix kind: */
enum { P_OPND = 1, P_REPE, P_REPNE, P_LOCK, P_CS, P_DS, P_ES, P_FS, P_GS, P_SS, P_ADDR, P_REX, P_VEX2, P_VEX3,
       P_EVEX };
#define A_GRP(a) ((a) >> 16 & 63u)    /* with A_MODRM: a group has one */
#define A_ESC(a) ((a) >> 22 & 3u)

#include "cli/x86_insn_tab.h"

struct dec {
	const uint8_t *p, *end;
	unsigned opnd, addr;
	uint8_t last_pfx;            /* the last legacy prefix byte */
	uint8_t vex[4], nvex;
	uint8_t op[3], nop, modrm;
	bool has_modrm;
	uint32_t attr;
};

static bool have(const struct dec *d, size_t n)
{
	return (size_t)(d->end - d->p) >= n;
}

/* the prefix id of the last legacy prefix, or VEX's pp bits */
static unsigned last_id(const struct dec *d)
{
	if (d->nvex)
		return (d->nvex == 2 ? d->vex[1] : d->vex[2]) & 3u;
	if (!d->last_pfx)
		return 0;
	unsigned k = A_PFX(esc_tabs[0][0][d->last_pfx]);
	return k == P_OPND ? 1 : k == P_REPE ? 2 : k == P_REPNE ? 3 : 0;
}

static int prefixes(struct dec *d)
{
	/* perf's decoder skips Xen's and KVM's emulation markers (ud2 + name) */
	static const uint8_t xen[5] = { 0x0f, 0x0b, 0x78, 0x65, 0x6e }, kvm[5] = { 0x0f, 0x0b, 0x6b, 0x76, 0x6d };
	if (have(d, 5) && (!memcmp(d->p, xen, 5) || !memcmp(d->p, kvm, 5)))
		d->p += 5;
	uint8_t seen[4];
	unsigned nb = 0;
	for (;;) {
		if (!have(d, 1))
			return -1;
		uint8_t b = *d->p;
		unsigned k = A_PFX(esc_tabs[0][0][b]);
		if (k < P_OPND || k > P_ADDR)
			break;
		bool dup = false;
		for (unsigned i = 0; i < nb; i++)
			dup |= seen[i] == b;
		if (!dup) {
			if (nb == 4) /* a fifth kind: the opcode from here */
				break;
			seen[nb++] = b;
			if (k == P_ADDR)
				d->addr ^= 12;
			else if (k == P_OPND)
				d->opnd ^= 6;
		}
		d->last_pfx = b;
		d->p++;
	}
	if (!have(d, 1))
		return -1;
	if (A_PFX(esc_tabs[0][0][*d->p]) == P_REX) {
		if (*d->p & 8)
			d->opnd = 8;
		d->p++;
	}
	if (!have(d, 1))
		return -1;
	unsigned k = A_PFX(esc_tabs[0][0][*d->p]);
	if (k == P_VEX2 || k == P_VEX3 || k == P_EVEX) {
		d->nvex = k == P_EVEX ? 4 : k == P_VEX3 ? 3 : 2;
		if (!have(d, d->nvex))
			return -1;
		memcpy(d->vex, d->p, d->nvex);
		/* VEX3's W bit; for EVEX perf tests the same bit of the
		 * fourth byte (EVEX.z), not EVEX.W */
		if (d->nvex > 2 && (d->vex[d->nvex - 1] & 0x80))
			d->opnd = 8;
		d->p += d->nvex;
	}
	return 0;
}

static int opcode(struct dec *d)
{
	if (!have(d, 1))
		return -1;
	uint8_t op = *d->p++;
	d->op[d->nop++] = op;
	if (d->nvex) {
		unsigned m = d->nvex == 2 ? 1 : d->nvex == 4 ? d->vex[1] & 7u : d->vex[1] & 0x1fu;
		unsigned pp = last_id(d);
		const uint32_t *t = m < 7 ? avx_tabs[m][0] : NULL;
		uint32_t a = 0;
		if (t) {
			a = t[op];
			if (!A_GRP(a) && pp)
				a = avx_tabs[m][pp] ? avx_tabs[m][pp][op] : 0;
		}
		if (((a & A_EVEXONLY) && d->nvex != 4) || (!(a & A_VEXOK) && !A_GRP(a)))
			return -1;
		d->attr = a;
		return 0;
	}
	uint32_t a = esc_tabs[0][0][op];
	while (A_ESC(a)) {
		unsigned e = A_ESC(a), id = last_id(d);
		if (!have(d, 1))
			return -1;
		op = *d->p++;
		d->op[d->nop++] = op;
		const uint32_t *t = esc_tabs[e][0];
		a = t ? t[op] : 0;
		if (t && (a & A_VARIANT) && id)
			a = esc_tabs[e][id] ? esc_tabs[e][id][op] : 0;
	}
	if (a & A_VEXONLY)
		return -1;
	d->attr = a;
	return 0;
}

static int modrm(struct dec *d)
{
	if (d->attr & A_MODRM) {
		if (!have(d, 1))
			return -1;
		d->modrm = *d->p++;
		d->has_modrm = true;
		unsigned g = A_GRP(d->attr);
		if (g) {
			uint32_t common = d->attr & ~(63u << 16);
			unsigned reg = d->modrm >> 3 & 7u, id = last_id(d);
			const uint32_t *t = grp_tabs[g][0];
			uint32_t a = common;
			if (t) {
				if ((t[reg] & A_VARIANT) && id)
					t = grp_tabs[g][id];
				if (t)
					a = t[reg] | common;
			}
			d->attr = a;
			if (d->nvex && !(a & A_VEXOK))
				return -1;
		}
	}
	if (d->attr & A_F64)
		d->opnd = 8;
	return 0;
}

static int take(struct dec *d, size_t n)
{
	if (!have(d, n))
		return -1;
	d->p += n;
	return 0;
}

static int operands(struct dec *d)
{
	if (d->has_modrm) {
		unsigned mod = d->modrm >> 6, rm = d->modrm & 7u, base = 0;
		if (mod != 3 && rm == 4) { /* a SIB byte (addresses are never 16-bit here) */
			if (!have(d, 1))
				return -1;
			base = *d->p++ & 7u;
		}
		if (mod == 1 && take(d, 1))
			return -1;
		if (((mod == 0 && rm == 5) || mod == 2 || (mod == 0 && base == 5)) && take(d, 4))
			return -1;
	}
	uint32_t a = d->attr;
	if (a & A_MOFFSET)
		return take(d, d->addr);
	switch (A_IMM(a)) {
	case 0: return 0;
	case IMM_B: if (take(d, 1)) return -1; break;
	case IMM_W: if (take(d, 2)) return -1; break;
	case IMM_D: if (take(d, 4)) return -1; break;
	case IMM_Q: if (take(d, 8)) return -1; break;
	case IMM_PTR: /* ptr16:16 or ptr16:32; there is no ptr16:64 */
		if (d->opnd == 8 || take(d, d->opnd + 2u)) return -1;
		break;
	case IMM_Z: if (take(d, d->opnd == 2 ? 2 : 4)) return -1; break;
	case IMM_V: if (take(d, d->opnd)) return -1; break;
	}
	if ((a & A_SCNDIMM) && take(d, 1))
		return -1;
	return 0;
}

/* perf's branch classes (after its x86 LBR branch_type()): Jcc, JMP,
 * CALL, RET near and far, INT3/INT/INTO, IRET, LOOP/JrCXZ, SYSCALL,
 * SYSRET, SYSENTER, SYSEXIT, VMLAUNCH, VMRESUME; nothing VEX-encoded */
static bool branch(const struct dec *d)
{
	if (d->nvex)
		return false;
	uint8_t o = d->op[0];
	if (o == 0x0f && d->nop > 1) {
		uint8_t o2 = d->op[1];
		if (o2 == 0x01)
			return d->has_modrm && (d->modrm == 0xc2 || d->modrm == 0xc3);
		return o2 == 0x05 || o2 == 0x34 || o2 == 0x07 || o2 == 0x35 || (o2 >= 0x80 && o2 <= 0x8f);
	}
	if ((o >= 0x70 && o <= 0x7f) || o == 0xc2 || o == 0xc3 || o == 0xca || o == 0xcb || o == 0xcf ||
	    (o >= 0xcc && o <= 0xce) || o == 0xe8 || o == 0x9a || (o >= 0xe0 && o <= 0xe3) || o == 0xe9 ||
	    o == 0xeb || o == 0xea)
		return true;
	if (o == 0xff) {
		unsigned ext = d->modrm >> 3 & 7u;
		return ext >= 2 && ext <= 5;
	}
	return false;
}

int x86_insn_decode(const uint8_t *code, size_t len, struct x86_insn *out)
{
	struct dec d = { .p = code, .end = code + (len > 15 ? 15 : len), .opnd = 4, .addr = 8 };
	if (prefixes(&d) || opcode(&d) || modrm(&d) || operands(&d))
		return -1;
	out->len = (unsigned)(d.p - code);
	out->branch = branch(&d);
	return 0;
}
