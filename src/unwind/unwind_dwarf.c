/* DWARF unwinding of sampled user stacks with libdwfl (see unwind.h).
 *
 * libdwfl does the CFI work; we give it the process: registers from the
 * sample, memory from the sample's stack copy or the mapped ELF files, and
 * modules reported from the session's maps as the unwinder reaches them.
 * One Dwfl per process is kept (the few most recent), so a DSO's ELF and
 * CFI are parsed once per process, not once per sample as in perf. */
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

#include "hwprof/session.h"
#include "hwprof/symbols.h"
#include "hwprof/unwind.h"

#define NPROCS 8

struct uw_proc {
	int32_t pid;
	Dwfl *dwfl;                /* NULL: free slot */
	uint64_t used;             /* LRU tick */
};

struct hwprof_unwinder {
	struct hwprof_session *s;
	struct hwprof_symbols *syms;
	enum hwprof_arch arch;
	unsigned char ehdr[64];    /* an ELF header naming the machine, for */
	Elf *machine_elf;          /* dwfl_attach_state before any module */
	struct uw_proc procs[NPROCS];
	uint64_t tick;
	/* the sample being unwound */
	const struct hwprof_sample *cur;
	struct uw_proc *cp;
	uint64_t regs[32];
	int nregs;
	uint64_t ip, sp, stack_len;
	uint64_t *ips;
	size_t n, max;
	bool stale;                /* a module no longer matches the maps */
	bool read_failed;          /* a read failed since the last frame */
	uint64_t last_pc;          /* the last frame's pc, unadjusted */
	bool last_activation;
	/* libunwind's fallback for a frame without CFI (x86-64): the state
	 * it guesses for the caller, from which libdwfl starts over */
	bool restart;              /* frame_cb asks for a new run from g_* */
	bool resumed;              /* the run's first frame is a guessed one */
	uint64_t g_regs[17];       /* DWARF registers rax..r15 */
	uint32_t g_known;          /* which of g_regs are known */
	uint64_t g_pc;             /* initial pc of the run */
	unsigned g_adjust;         /* 1: g_pc is already the return address - 1 */
};

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	/* CFI comes from the file run (.eh_frame), like perf's libunwind */
	return -1;
}

static const Dwfl_Callbacks dwfl_cbs = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* Report the module mapped at addr, if the maps have one with a file. */
static bool report_module(struct hwprof_unwinder *u, uint64_t addr)
{
	Dwfl *dwfl = u->cp->dwfl;
	struct hwprof_map_info mi;
	char level;
	if (hwprof_session_find_map(u->s, (int32_t)u->cur->pid, (int32_t)u->cur->tid, HWPROF_MISC_USER, addr, &mi,
				    &level) != 1) {
		/* nothing mapped there now: a module left from an earlier
		 * image of the process must not be unwound through */
		if (dwfl_addrmodule(dwfl, addr))
			u->stale = true;
		return false;
	}
	uint64_t base = mi.start - mi.pgoff;
	Dwfl_Module *m = dwfl_addrmodule(dwfl, addr);
	void **ud;
	if (m) {
		/* the module must be this map's file at this map's base: after
		 * an exec or a dlclose the process may have another there */
		const char *name = dwfl_module_info(m, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
		if (name && !strcmp(name, mi.dso) && *ud == (void *)(uintptr_t)base)
			return true;
		u->stale = true;
		return false;
	}
	struct hwprof_dso *d = NULL;
	if (hwprof_symbols_dso(u->syms, mi.dso, &d) < 0 || !d || !hwprof_dso_runfile(d))
		return false;
	dwfl_report_begin_add(dwfl);
	m = dwfl_report_elf(dwfl, mi.dso, hwprof_dso_runfile(d), -1, base, false);
	dwfl_report_end(dwfl, NULL, NULL);
	if (!m)
		return false;
	dwfl_module_info(m, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	*ud = (void *)(uintptr_t)base; /* remembered for the check above */
	return true;
}

/* A word of a mapped file's contents (code, read-only data). */
static bool file_word(struct hwprof_unwinder *u, uint64_t addr, uint64_t *val)
{
	if (!report_module(u, addr))
		return false;
	Dwfl_Module *m = dwfl_addrmodule(u->cp->dwfl, addr);
	Dwarf_Addr bias;
	Elf *e = m ? dwfl_module_getelf(m, &bias) : NULL;
	size_t size, n;
	char *raw = e ? elf_rawfile(e, &size) : NULL;
	if (!raw || elf_getphdrnum(e, &n))
		return false;
	uint64_t va = addr - bias;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || va < ph.p_vaddr ||
		    ph.p_filesz < 8 || va - ph.p_vaddr > ph.p_filesz - 8)
			continue;
		uint64_t off = ph.p_offset + (va - ph.p_vaddr);
		if (off > size || size - off < 8)
			return false;
		memcpy(val, raw + off, 8);
		return true;
	}
	return false;
}

/* A word of the process as perf's libunwind reader (access_mem) sees it:
 * the stack copy, else the mapped file's contents. Its fallback reports
 * success with 0 for an address in a map it cannot read (anonymous
 * memory, [stack] beyond the copy: a return address there gives one last
 * frame at 0 - 1) and fails only where no map is, which ends the stack
 * without that frame. */
static bool read_word(struct hwprof_unwinder *u, uint64_t addr, uint64_t *v)
{
	if (hwprof_unwind_stack_word(u->cur->stack_data, u->stack_len, u->sp, addr, v) || file_word(u, addr, v))
		return true;
	struct hwprof_map_info mi;
	char level;
	*v = 0;
	return hwprof_session_find_map(u->s, (int32_t)u->cur->pid, (int32_t)u->cur->tid, HWPROF_MISC_USER, addr, &mi,
				       &level) == 1;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct hwprof_unwinder *u = arg;
	uint64_t v;
	if (!read_word(u, addr, &v)) {
		u->read_failed = true; /* libdwfl may still end the stack as if normally */
		return false;
	}
	*result = v;
	return true;
}

static pid_t next_thread(Dwfl *dwfl, void *dwfl_arg, void **thread_argp)
{
	return 0; /* threads are asked for by tid only */
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *dwfl_arg, void **thread_argp)
{
	*thread_argp = dwfl_arg;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct hwprof_unwinder *u = thread_arg;
	Dwarf_Word regs[32];
	if (u->resumed) {
		/* a guessed caller: only the registers the guess knows */
		for (unsigned i = 0; i < 17; i++) {
			Dwarf_Word v = u->g_regs[i];
			if ((u->g_known >> i & 1) && !dwfl_thread_state_registers(thread, (int)i, 1, &v))
				return false;
		}
		dwfl_thread_state_register_pc(thread, u->g_pc);
		return true;
	}
	for (int i = 0; i < u->nregs; i++)
		regs[i] = u->regs[i];
	if (!dwfl_thread_state_registers(thread, 0, (unsigned)u->nregs, regs))
		return false;
	dwfl_thread_state_register_pc(thread, u->ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* The CFI row for pc in its module: 1 and *frame (to free) when an FDE
 * covers pc; 0 when the module has unwind tables but none covers pc; -1
 * when it has none (or pc is in no module). */
static int cfi_frame(struct hwprof_unwinder *u, uint64_t pc, Dwarf_Frame **frame)
{
	Dwfl_Module *m = dwfl_addrmodule(u->cp->dwfl, pc);
	Dwarf_Addr bias;
	int have = -1;
	*frame = NULL;
	if (!m)
		return -1;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(m, &bias);
	if (cfi) {
		have = 0;
		if (dwarf_cfi_addrframe(cfi, pc - bias, frame) == 0)
			return 1;
	}
	cfi = dwfl_module_dwarf_cfi(m, &bias);
	if (cfi) {
		have = 0;
		if (dwarf_cfi_addrframe(cfi, pc - bias, frame) == 0)
			return 1;
	}
	return have;
}

/* Whether the bytes at pc are a lazy-binding PLT entry (jmp *x(%rip);
 * push $n; jmp), which libunwind recognises when it finds no CFI. */
static bool plt_entry_at(struct hwprof_unwinder *u, uint64_t pc)
{
	uint64_t w0, w1;
	return read_word(u, pc, &w0) && read_word(u, pc + 8, &w1) && (w0 & 0xffff) == 0x25ff &&
	       (w0 >> 48 & 0xff) == 0x68 && (w1 >> 24 & 0xff) == 0xe9;
}

/* The caller of an x86-64 frame the CFI does not cover, guessed the way
 * perf's libunwind (1.6) guesses it, so that the stacks come out the
 * same: in a PLT entry the return address is on top of the stack;
 * elsewhere rbp is taken for a frame pointer when it points a little
 * above the stack pointer, and the caller's stack pointer is then this
 * frame's plus 16 (not rbp + 16: libunwind's own arithmetic). false when
 * the stack ends here. pc is the frame's own (unadjusted) address, adj
 * 1 when its CFI was looked up at pc - 1. */
static bool guess_caller(struct hwprof_unwinder *u, Dwfl_Frame *state, uint64_t pc, unsigned adj)
{
	Dwarf_Word rsp, rbp, ra;
	if (dwfl_frame_reg(state, 7, &rsp) != 0 || dwfl_frame_reg(state, 6, &rbp) != 0)
		return false; /* libunwind: an unknown rbp ends the stack */
	if (plt_entry_at(u, pc)) {
		if (!read_word(u, rsp, &ra))
			return false;
		u->g_known = 0;
		for (unsigned i = 0; i < 17; i++)
			if (dwfl_frame_reg(state, i, &u->g_regs[i]) == 0)
				u->g_known |= 1u << i;
		u->g_regs[7] = rsp + 8;
		u->g_adjust = adj; /* libunwind keeps looking up as before */
	} else {
		Dwarf_Word rbp1;
		if (!rbp || !read_word(u, rbp, &rbp1) || rbp < rsp || rbp - rsp > 0x4000 || !read_word(u, rbp + 8, &ra))
			return false;
		u->g_known = 1u << 6 | 1u << 7;
		u->g_regs[6] = rbp1;
		u->g_regs[7] = rsp + 16;
		u->g_adjust = 1;
	}
	if (!ra) {
		/* perf reports a return address of 0 as 0 - 1, then stops */
		u->ips[u->n++] = UINT64_MAX;
		return false;
	}
	u->g_pc = ra - u->g_adjust;
	return true;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct hwprof_unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;
	if (u->n >= u->max || !dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/* asking whether the frame is an activation unwinds it already, so
	 * its module (at pc - 1 for a return address) must be known first;
	 * only the first frame of a run (and signal frames, rare) look up pc
	 * itself (a guessed frame's pc is already adjusted) */
	bool resumed = u->resumed;
	bool first = u->n == 0 || resumed;
	bool ok = report_module(u, first ? pc : pc - 1);
	u->read_failed = false; /* the reads that unwind this frame follow */
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (activation && !first)
		ok = report_module(u, pc);
	/* callers: the call instruction, not the return address (perf) */
	unsigned adj = resumed ? u->g_adjust : activation ? 0 : 1;
	uint64_t own = resumed ? pc + u->g_adjust : pc;
	uint64_t ip = resumed ? own - 1 : activation ? pc : pc - 1;
	u->resumed = false;
	u->ips[u->n++] = ip;
	u->last_pc = pc;
	u->last_activation = activation;
	/* perf's libunwind goes no further than a frame outside any mapped
	 * file (it finds no unwind table there); libdwfl would go on by
	 * frame pointers */
	if (u->n >= u->max || !ok)
		return DWARF_CB_ABORT;
	if (u->arch == HWPROF_ARCH_X86_64) {
		/* without CFI libdwfl would follow frame pointers its own way;
		 * perf's libunwind stops where the file has no unwind table at
		 * all, and guesses (guess_caller) where the table has no entry */
		Dwarf_Frame *frame;
		int c = cfi_frame(u, own - adj, &frame);
		free(frame);
		if (c < 0)
			return DWARF_CB_ABORT;
		if (c == 0) {
			u->restart = guess_caller(u, state, own, adj);
			return DWARF_CB_ABORT;
		}
	}
	return DWARF_CB_OK;
}

/* Whether the last frame's CFI says it has no caller (the return address
 * column undefined, as in _start). libdwfl also ends a stack when a
 * return address reads as 0; perf's libunwind then still reports that
 * frame (as 0 - 1), so the caller needs to tell the two apart. */
static bool ra_undefined(struct hwprof_unwinder *u)
{
	uint64_t pc = u->last_activation ? u->last_pc : u->last_pc - 1;
	Dwarf_Frame *frame;
	if (cfi_frame(u, pc, &frame) != 1)
		return false;
	Dwarf_Op ops_mem[3], *ops = NULL;
	size_t nops = 0;
	int ra = dwarf_frame_info(frame, NULL, NULL, NULL);
	bool undef = ra >= 0 && dwarf_frame_register(frame, ra, ops_mem, &ops, &nops) == 0 && nops == 0 &&
		     ops == ops_mem; /* "undefined"; a null ops is "same value" */
	free(frame);
	return undef;
}

static unsigned elf_machine(enum hwprof_arch a)
{
	return a == HWPROF_ARCH_X86_64 ? EM_X86_64 : a == HWPROF_ARCH_ARM64 ? EM_AARCH64 : EM_NONE;
}

HWPROF_API int hwprof_unwinder_new(struct hwprof_unwinder **out, struct hwprof_session *s,
				   struct hwprof_symbols *syms, enum hwprof_arch arch)
{
	struct hwprof_unwinder *u = calloc(1, sizeof(*u));
	*out = NULL;
	if (!u)
		return -HWPROF_E_NOMEM;
	u->s = s;
	u->syms = syms;
	u->arch = arch;
	if (elf_machine(arch) != EM_NONE) {
		Elf64_Ehdr eh = { 0 };
		memcpy(eh.e_ident, ELFMAG, SELFMAG);
		eh.e_ident[EI_CLASS] = ELFCLASS64;
		eh.e_ident[EI_DATA] = ELFDATA2LSB;
		eh.e_ident[EI_VERSION] = EV_CURRENT;
		eh.e_type = ET_CORE;
		eh.e_machine = (Elf64_Half)elf_machine(arch);
		eh.e_version = EV_CURRENT;
		eh.e_ehsize = sizeof(eh);
		memcpy(u->ehdr, &eh, sizeof(eh));
		elf_version(EV_CURRENT);
		u->machine_elf = elf_memory((char *)u->ehdr, sizeof(u->ehdr));
	}
	*out = u;
	return 0;
}

static void proc_drop(struct uw_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
}

HWPROF_API void hwprof_unwinder_free(struct hwprof_unwinder *u)
{
	if (!u)
		return;
	for (int i = 0; i < NPROCS; i++)
		proc_drop(&u->procs[i]);
	if (u->machine_elf)
		elf_end(u->machine_elf);
	free(u);
}

/* The process's Dwfl, made (evicting the least recently used) if new. */
static struct uw_proc *proc_get(struct hwprof_unwinder *u, int32_t pid)
{
	struct uw_proc *victim = &u->procs[0];
	u->tick++;
	for (int i = 0; i < NPROCS; i++) {
		struct uw_proc *p = &u->procs[i];
		if (p->dwfl && p->pid == pid) {
			p->used = u->tick;
			return p;
		}
		if (!p->dwfl || (victim->dwfl && p->used < victim->used))
			victim = p;
	}
	proc_drop(victim);
	victim->dwfl = dwfl_begin(&dwfl_cbs);
	if (!victim->dwfl)
		return NULL;
	if (!dwfl_attach_state(victim->dwfl, u->machine_elf, pid > 0 ? pid : 1, &thread_cbs, u)) {
		proc_drop(victim);
		return NULL;
	}
	victim->pid = pid;
	victim->used = u->tick;
	return victim;
}

HWPROF_API int hwprof_unwind_sample(struct hwprof_unwinder *u, const struct hwprof_sample *s, uint64_t *ips,
				    size_t max_stack)
{
	if (!max_stack || !s->user_regs.abi || !s->stack_data || !s->stack_size)
		return 0;
	uint64_t len = s->stack_dyn_size < s->stack_size ? s->stack_dyn_size : s->stack_size;
	if (!len)
		return 0;
	int nregs = hwprof_unwind_dwarf_regs(u->arch, &s->user_regs, u->regs, 32, &u->ip, &u->sp);
	if (nregs < 0)
		return 0; /* no IP/SP, or an architecture we do not unwind */
	ips[0] = u->ip;
	if (!u->machine_elf || max_stack == 1)
		return 1;
	u->nregs = nregs;
	u->cur = s;
	u->stack_len = len;
	u->ips = ips;
	u->max = max_stack;
	for (int attempt = 0; attempt < 2; attempt++) {
		u->cp = proc_get(u, (int32_t)s->pid);
		if (!u->cp)
			return -HWPROF_E_NOMEM;
		u->n = 0;
		u->read_failed = false;
		u->stale = false;
		u->resumed = false;
		report_module(u, u->ip);
		int rc;
		do {
			/* each run adds a frame at least, so this ends by max */
			u->restart = false;
			rc = dwfl_getthread_frames(u->cp->dwfl, s->tid > 0 ? (pid_t)s->tid : 1, frame_cb, u);
			u->resumed = u->restart;
		} while (u->restart && !u->stale && u->n < u->max);
		u->resumed = false;
		if (!u->stale) {
			/* rc 0: the end of the stack (not a frame we stopped at);
			 * libdwfl ends it so too when the return address could
			 * not be read, where perf's libunwind fails instead */
			if (rc == 0 && u->n > 0 && u->n < u->max && !u->read_failed && !ra_undefined(u))
				u->ips[u->n++] = UINT64_MAX; /* a return address of 0, minus 1 */
			break;
		}
		/* the process's maps changed under a cached module: start over */
		proc_drop(u->cp);
	}
	u->cur = NULL;
	if (u->n == 0) {
		ips[0] = u->ip;
		return 1;
	}
	return (int)u->n;
}
