/* Intel PT instruction layer: Zydis finds each instruction's length and its
 * branch class (nothing else is needed to follow PT), and a per-image cache
 * keeps decoded blocks so each instruction is decoded once per run. */
#include <stdlib.h>
#include <string.h>

#include "intel_pt/pt_flow_int.h"

#define BLOCK_MAX_INSN 1024
#define CACHE_MAX_BLOCKS (1u << 22)  /* then start over: bounded memory */
#define CACHE_MAX_LENS (1u << 26)
#define LENS_PAGE (1u << 16)         /* bytes; a block's lengths in one */

static const char *const iclass_names[HWPROF_PT_IC_COUNT] = {
	"other", "jcc", "jmp", "jmp-ind", "call", "call-ind", "ret",
	"syscall", "sysret", "int", "iret", "far", "ptwrite",
};

HWPROF_API const char *hwprof_pt_iclass_name(unsigned iclass)
{
	return iclass < HWPROF_PT_IC_COUNT ? iclass_names[iclass] : "?";
}

int ipt_insn_classify(const ZydisDecodedInstruction *zi, uint64_t ip, struct hwprof_pt_insn *out)
{
	uint64_t next = ip + zi->length;
	int rel = zi->raw.imm[0].is_relative;
	int far = zi->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR;
	uint8_t c = HWPROF_PT_IC_OTHER;
	uint64_t target = 0;

	switch (zi->mnemonic) {
	case ZYDIS_MNEMONIC_IRET: case ZYDIS_MNEMONIC_IRETD: case ZYDIS_MNEMONIC_IRETQ:
		c = HWPROF_PT_IC_IRET;
		goto done;
	case ZYDIS_MNEMONIC_PTWRITE:
		c = HWPROF_PT_IC_PTWRITE;
		goto done;
	case ZYDIS_MNEMONIC_XBEGIN: /* no TNT: aborts show as FUP + TIP */
		goto done;
	default:
		break;
	}
	switch (zi->meta.category) {
	case ZYDIS_CATEGORY_COND_BR:
		c = HWPROF_PT_IC_JCC;
		break;
	case ZYDIS_CATEGORY_UNCOND_BR:
		c = far ? HWPROF_PT_IC_FAR : rel ? HWPROF_PT_IC_JMP : HWPROF_PT_IC_JMP_IND;
		break;
	case ZYDIS_CATEGORY_CALL:
		c = far ? HWPROF_PT_IC_FAR : rel ? HWPROF_PT_IC_CALL : HWPROF_PT_IC_CALL_IND;
		break;
	case ZYDIS_CATEGORY_RET:
		c = far ? HWPROF_PT_IC_FAR : HWPROF_PT_IC_RET;
		break;
	case ZYDIS_CATEGORY_SYSCALL:
		c = HWPROF_PT_IC_SYSCALL;
		break;
	case ZYDIS_CATEGORY_SYSRET:
		c = HWPROF_PT_IC_SYSRET;
		break;
	case ZYDIS_CATEGORY_INTERRUPT:
		c = HWPROF_PT_IC_INT;
		break;
	default:
		break;
	}
	if ((c == HWPROF_PT_IC_JCC || c == HWPROF_PT_IC_JMP || c == HWPROF_PT_IC_CALL) && rel) {
		target = next + (uint64_t)zi->raw.imm[0].value.s;
		if (zi->operand_width == 16) /* 16-bit operand size truncates EIP */
			target &= 0xffff;
		else if (zi->machine_mode != ZYDIS_MACHINE_MODE_LONG_64)
			target &= 0xffffffff;
	}
done:
	out->ip = ip;
	out->len = zi->length;
	out->iclass = c;
	out->target = target;
	return zi->length;
}

static int zd_init(ZydisDecoder *zd, unsigned mode)
{
	ZyanStatus s;
	if (mode == 16)
		s = ZydisDecoderInit(zd, ZYDIS_MACHINE_MODE_LEGACY_16, ZYDIS_STACK_WIDTH_16);
	else if (mode == 32)
		s = ZydisDecoderInit(zd, ZYDIS_MACHINE_MODE_LEGACY_32, ZYDIS_STACK_WIDTH_32);
	else
		s = ZydisDecoderInit(zd, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	return ZYAN_SUCCESS(s) ? 0 : -HWPROF_E_UNSUPPORTED;
}

static unsigned mode_index(unsigned mode)
{
	return mode == 16 ? 0 : mode == 32 ? 1 : 2;
}

HWPROF_API int hwprof_pt_insn_decode(const uint8_t *buf, size_t len, uint64_t ip,
				     unsigned mode, struct hwprof_pt_insn *insn)
{
	if (!buf || !insn || (mode != 16 && mode != 32 && mode != 64))
		return -HWPROF_E_INVAL;
	ZydisDecoder zd;
	if (zd_init(&zd, mode))
		return -HWPROF_E_UNSUPPORTED;
	ZydisDecoderContext ctx;
	ZydisDecodedInstruction zi;
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&zd, &ctx, buf, len, &zi)))
		return -HWPROF_E_BAD_PACKET;
	return ipt_insn_classify(&zi, ip, insn);
}

int ipt_bcache_init(struct ipt_bcache *c)
{
	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < 3; i++)
		if (zd_init(&c->zd[i], 16u << i))
			return -HWPROF_E_UNSUPPORTED;
	return 0;
}

static void free_pages(uint8_t **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
}

void ipt_bcache_fini(struct ipt_bcache *c)
{
	free(c->blk);
	free(c->tab);
	free_pages(c->pages, c->npages);
	free_pages(c->old_pages, c->nold_pages);
	c->blk = NULL;
	c->tab = NULL;
	c->pages = c->old_pages = NULL;
	c->npages = c->nold_pages = c->cappages = 0;
}

/* Starts over. The lengths the blocks had stay for now: events of
 * decoders paused mid-block still read them. */
static void clear(struct ipt_bcache *c)
{
	c->nblk = 0;
	c->nlens = 0;
	if (c->tab)
		memset(c->tab, 0, c->tabsize * sizeof(*c->tab));
	free_pages(c->old_pages, c->nold_pages);
	c->old_pages = c->pages;
	c->nold_pages = c->npages;
	c->pages = NULL;
	c->npages = c->cappages = 0;
	c->page_used = LENS_PAGE;
}

/* The image changed from generation c->gen to gen: the blocks in or next
 * to each section put in are decoded again (one that stopped where code
 * could not be read may go on now); the image forgot older changes: all. */
static void sync_gen(struct ipt_bcache *c, const struct hwprof_pt_image *img, uint64_t gen)
{
	for (uint64_t g = c->gen + 1; g <= gen && c->nblk; g++) {
		uint64_t s, e;
		if (!ipt_image_change(img, g, &s, &e)) {
			clear(c);
			break;
		}
		for (size_t k = 0; k < c->nblk; k++) {
			struct ipt_block *b = &c->blk[k];
			if (b->ip <= e && b->end_ip + b->last_len >= s) {
				b->ip = UINT64_MAX; /* matches no lookup or link */
				b->mode = 0;
			}
		}
	}
	c->gen = gen;
}

static size_t hash(uint64_t ip, unsigned mode, size_t size)
{
	uint64_t h = (ip ^ ((uint64_t)mode << 56)) * 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 32) & (size - 1);
}

static long lookup(const struct ipt_bcache *c, uint64_t ip, unsigned mode)
{
	if (!c->tabsize)
		return -1;
	for (size_t i = hash(ip, mode, c->tabsize);; i = (i + 1) & (c->tabsize - 1)) {
		uint32_t v = c->tab[i];
		if (!v)
			return -1;
		const struct ipt_block *b = &c->blk[v - 1];
		if (b->ip == ip && b->mode == mode)
			return (long)(v - 1);
	}
}

static int grow_tab(struct ipt_bcache *c)
{
	size_t n = c->tabsize ? c->tabsize * 2 : 1024;
	uint32_t *t = calloc(n, sizeof(*t));
	if (!t)
		return -HWPROF_E_NOMEM;
	for (size_t k = 0; k < c->nblk; k++) {
		size_t i = hash(c->blk[k].ip, c->blk[k].mode, n);
		while (t[i])
			i = (i + 1) & (n - 1);
		t[i] = (uint32_t)k + 1;
	}
	free(c->tab);
	c->tab = t;
	c->tabsize = n;
	return 0;
}

/* Room for a block's lengths on the last page (a new one if needed). */
static uint8_t *lens_room(struct ipt_bcache *c)
{
	if (c->npages && c->page_used + BLOCK_MAX_INSN <= LENS_PAGE)
		return c->pages[c->npages - 1] + c->page_used;
	if (c->npages == c->cappages) {
		size_t n = c->cappages ? c->cappages * 2 : 16;
		uint8_t **p = realloc(c->pages, n * sizeof(*p));
		if (!p)
			return NULL;
		c->pages = p;
		c->cappages = n;
	}
	if (!(c->pages[c->npages] = malloc(LENS_PAGE)))
		return NULL;
	c->page_used = 0;
	return c->pages[c->npages++];
}

/* Decodes a new block at ip and enters it. */
static int decode_block(struct ipt_bcache *c, const struct hwprof_pt_image *img, uint64_t ip,
			unsigned mode, long *idx)
{
	if (c->nblk >= CACHE_MAX_BLOCKS || c->nlens >= CACHE_MAX_LENS)
		clear(c);
	if ((c->nblk + 1) * 2 > c->tabsize && grow_tab(c))
		return -HWPROF_E_NOMEM;
	if (c->nblk == c->capblk) {
		size_t n = c->capblk ? c->capblk * 2 : 256;
		struct ipt_block *b = realloc(c->blk, n * sizeof(*b));
		if (!b)
			return -HWPROF_E_NOMEM;
		c->blk = b;
		c->capblk = n;
	}
	uint8_t *lens = lens_room(c);
	if (!lens)
		return -HWPROF_E_NOMEM;
	struct ipt_block b = { .ip = ip, .end_ip = ip, .lens = lens, .mode = (uint8_t)mode };
	const ZydisDecoder *zd = &c->zd[mode_index(mode)];
	uint64_t cur = ip;
	for (;;) {
		uint8_t bytes[ZYDIS_MAX_INSTRUCTION_LENGTH];
		int n = hwprof_pt_image_read(img, cur, bytes, sizeof(bytes));
		if (n <= 0)
			break;
		ZydisDecoderContext ctx;
		ZydisDecodedInstruction zi;
		if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(zd, &ctx, bytes, (size_t)n, &zi)))
			break;
		struct hwprof_pt_insn in;
		ipt_insn_classify(&zi, cur, &in);
		lens[b.ninsn++] = in.len;
		b.end_ip = cur;
		b.iclass = in.iclass;
		b.target = in.target;
		b.last_len = in.len;
		cur += in.len;
		if (in.iclass != HWPROF_PT_IC_OTHER || b.ninsn >= BLOCK_MAX_INSN ||
		    lookup(c, cur, mode) >= 0)
			break;
	}
	c->decoded++;
	c->page_used += b.ninsn;
	c->nlens += b.ninsn;
	c->blk[c->nblk] = b;
	size_t i = hash(ip, mode, c->tabsize);
	while (c->tab[i])
		i = (i + 1) & (c->tabsize - 1);
	c->tab[i] = (uint32_t)c->nblk + 1;
	*idx = (long)c->nblk++;
	return 0;
}

int ipt_bcache_get(struct ipt_bcache *c, const struct hwprof_pt_image *img, uint64_t ip,
		   unsigned mode, const struct ipt_block **out)
{
	uint64_t gen = ipt_image_generation(img);
	if (gen != c->gen)
		sync_gen(c, img, gen);
	long idx = lookup(c, ip, mode);
	if (idx >= 0) {
		c->hits++;
	} else {
		int ret = decode_block(c, img, ip, mode, &idx);
		if (ret)
			return ret;
	}
	*out = &c->blk[idx];
	return 0;
}

int ipt_bcache_next(struct ipt_bcache *c, const struct hwprof_pt_image *img, long *from, uint64_t ip,
		    unsigned mode, const struct ipt_block **out)
{
	uint64_t gen = ipt_image_generation(img);
	long f = *from;
	unsigned slot = 0;
	if (gen == c->gen && f >= 0 && (size_t)f < c->nblk) {
		const struct ipt_block *p = &c->blk[f];
		slot = ip != p->end_ip + p->last_len;
		uint32_t v = p->next[slot];
		/* blocks are unique per (ip, mode): a link that still leads to
		 * this one is what the table would give */
		if (v && v <= c->nblk && c->blk[v - 1].ip == ip && c->blk[v - 1].mode == mode) {
			c->hits++;
			*from = (long)(v - 1);
			*out = &c->blk[v - 1];
			return 0;
		}
	} else {
		f = -1;
	}
	size_t n0 = c->nblk;
	int ret = ipt_bcache_get(c, img, ip, mode, out);
	if (ret)
		return ret;
	long idx = *out - c->blk;
	/* a cache that started over has other blocks at those indices */
	if (f >= 0 && c->nblk >= n0)
		c->blk[f].next[slot] = (uint32_t)idx + 1;
	*from = idx;
	return 0;
}
