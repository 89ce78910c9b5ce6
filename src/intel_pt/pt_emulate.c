/* Intel PT emulator: runs a program under PTRACE_SINGLESTEP and writes the
 * packets a CPU tracing its user-mode execution would (TNT for conditional
 * branches and compressed returns, TIP for indirect branches, TIP.PGD/PGE
 * around the kernel, FUP + TIP.PGD for signals, PSB+ every N bytes). The
 * stepped instructions are the ground truth decoders are tested against.
 * x86-64 user mode; each thread gets its own trace, as perf's per-thread
 * mode records it. Test infrastructure, not a decoding path. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "intel_pt/pt_flow_int.h"

#define RETSTACK 64
#define MAX_THREADS 64

/* Per-thread state: the thread's "CPU" (TNT buffer, return stack, enable
 * state) and the instruction single-stepped last. */
struct emu {
	const struct hwprof_pt_emu_config *cfg;
	struct hwprof_pt_emu_thread *out;
	struct hwprof_pt_insn pend;
	int have_pend, started;
	uint64_t *all_steps;     /* steps over all threads (max_steps) */
	struct hwprof_pt_encoder enc;
	size_t cap_trace, cap_insn;
	int err;
	int enabled, in_kernel;
	size_t last_psb;
	uint64_t tnt;
	unsigned ntnt, tnt_max;
	uint64_t stack[RETSTACK];
	unsigned sp, depth;
	uint64_t steps, last_cyc_step, last_mtc;
	uint64_t deferred[64];   /* TIP targets held behind the TNT */
	unsigned ndeferred;
};

/* The encoder writes into a buffer we grow. */
static int reserve_trace(struct emu *e, size_t more)
{
	if (e->enc.pos + more <= e->cap_trace)
		return 0;
	size_t n = e->cap_trace ? e->cap_trace * 2 : 1 << 16;
	while (n < e->enc.pos + more)
		n *= 2;
	uint8_t *p = realloc(e->out->trace, n);
	if (!p)
		return e->err = -HWPROF_E_NOMEM;
	e->out->trace = p;
	e->enc.buf = p;
	e->enc.len = n;
	e->cap_trace = n;
	return 0;
}

static void flush_tnt(struct emu *e)
{
	if (!e->ntnt || reserve_trace(e, 64 + 16 * e->ndeferred))
		return;
	hwprof_pt_encode_tnt(&e->enc, e->tnt, e->ntnt);
	e->tnt = 0;
	e->ntnt = 0;
	for (unsigned i = 0; i < e->ndeferred; i++)
		hwprof_pt_encode_ip(&e->enc, HWPROF_PT_TIP, e->deferred[i]);
	e->ndeferred = 0;
}

/* Fake clocks: TSC ticks 4 per instruction, the crystal clock (CTC) once per
 * 32 TSC ticks (TSC:CTC = 32:1 in AUXTRACE_INFO), CYC = instructions. */
static uint64_t fake_tsc(const struct emu *e)
{
	return 0x100000 + e->steps * 4;
}

static void timing(struct emu *e)
{
	if (!(e->cfg->flags & HWPROF_PT_EMU_TIMING) || reserve_trace(e, 64))
		return;
	uint64_t ctc = fake_tsc(e) / 32, mtc = ctc >> e->cfg->mtc_freq;
	if (mtc != e->last_mtc) {
		hwprof_pt_encode_mtc(&e->enc, (uint8_t)mtc);
		e->last_mtc = mtc;
	}
	if (e->steps != e->last_cyc_step && !(e->cfg->flags & HWPROF_PT_EMU_NO_CYC)) {
		hwprof_pt_encode_cyc(&e->enc, e->steps - e->last_cyc_step);
		e->last_cyc_step = e->steps;
	}
}

static void tnt_bit(struct emu *e, int taken)
{
	if (!e->ntnt)
		timing(e);
	e->tnt = e->tnt << 1 | (uint64_t)(taken != 0);
	if (++e->ntnt == e->tnt_max)
		flush_tnt(e);
}

static void ip_pkt(struct emu *e, enum hwprof_pt_type t, uint64_t ip, int suppress)
{
	flush_tnt(e);
	timing(e);
	if (reserve_trace(e, 64))
		return;
	if (suppress) {
		struct hwprof_pt_packet p = { .type = (uint8_t)t };
		hwprof_pt_encode(&e->enc, &p);
	} else {
		hwprof_pt_encode_ip(&e->enc, t, ip);
	}
}

/* TIP of an indirect JMP/CALL: may wait behind a filling TNT. An
 * uncompressed RET never does: the SDM says there is no in-progress TNT
 * then, which is how a decoder tells it from a compressed one. */
static void tip_indirect(struct emu *e, uint64_t ip)
{
	if (e->ntnt && (e->cfg->flags & HWPROF_PT_EMU_DEFER_TIP) && e->ndeferred < 64)
		e->deferred[e->ndeferred++] = ip;
	else
		ip_pkt(e, HWPROF_PT_TIP, ip, 0);
}

static void psb_plus(struct emu *e, uint64_t ip)
{
	flush_tnt(e);
	if (reserve_trace(e, 128))
		return;
	hwprof_pt_encode_psb(&e->enc);
	if (e->cfg->flags & HWPROF_PT_EMU_TIMING) {
		uint64_t tsc = fake_tsc(e);
		hwprof_pt_encode_tsc(&e->enc, tsc);
		hwprof_pt_encode_tma(&e->enc, (uint16_t)(tsc / 32), (uint16_t)(tsc % 32));
		e->last_mtc = (tsc / 32) >> e->cfg->mtc_freq;
		e->last_cyc_step = e->steps;
		if (e->cfg->flags & HWPROF_PT_EMU_NO_CYC) { /* the core:bus ratio */
			struct hwprof_pt_packet c = { .type = HWPROF_PT_CBR, .payload = 24 };
			hwprof_pt_encode(&e->enc, &c);
		}
	}
	struct hwprof_pt_packet p = { .type = HWPROF_PT_MODE_EXEC, .payload = 64, .count = 0 };
	hwprof_pt_encode(&e->enc, &p);
	if (e->enabled)
		hwprof_pt_encode_ip(&e->enc, HWPROF_PT_FUP, ip);
	p = (struct hwprof_pt_packet){ .type = HWPROF_PT_PSBEND };
	hwprof_pt_encode(&e->enc, &p);
	e->last_psb = e->enc.pos;
	/* our choice: the return-compression stack restarts at every PSB, so a
	 * decoder that syncs there never meets a compressed RET it cannot pop */
	e->depth = 0;
}

static void ground_truth(struct emu *e, uint64_t ip)
{
	struct hwprof_pt_emu_thread *r = e->out;
	if (r->ninsn == e->cap_insn) {
		size_t n = e->cap_insn ? e->cap_insn * 2 : 1 << 14;
		uint64_t *p = realloc(r->insns, n * sizeof(*p));
		if (!p) {
			e->err = -HWPROF_E_NOMEM;
			return;
		}
		r->insns = p;
		e->cap_insn = n;
	}
	r->insns[r->ninsn++] = ip;
}

static void kernel_walk(struct emu *e, uint64_t user_next);

/* The instruction `in` completed; the next one is at `next`. */
static void retire(struct emu *e, const struct hwprof_pt_insn *in, uint64_t next)
{
	uint64_t fall = in->ip + in->len;
	ground_truth(e, in->ip);
	e->steps++;
	(*e->all_steps)++;
	switch (in->iclass) {
	case HWPROF_PT_IC_JCC:
		tnt_bit(e, next != fall);
		break;
	case HWPROF_PT_IC_CALL: case HWPROF_PT_IC_CALL_IND:
		e->sp = (e->sp + 1) % RETSTACK;
		e->stack[e->sp] = fall;
		if (e->depth < RETSTACK)
			e->depth++;
		if (in->iclass == HWPROF_PT_IC_CALL_IND)
			tip_indirect(e, next);
		break;
	case HWPROF_PT_IC_JMP_IND:
		tip_indirect(e, next);
		break;
	case HWPROF_PT_IC_RET: {
		int match = e->depth && e->stack[e->sp] == next;
		if (e->depth) {
			e->sp = (e->sp + RETSTACK - 1) % RETSTACK;
			e->depth--;
		}
		/* compress only when the target is the pushed one, so the trace
		 * is right whatever a decoder assumes about mismatches */
		if (match && !(e->cfg->flags & HWPROF_PT_EMU_NORETCOMP))
			tnt_bit(e, 1);
		else
			ip_pkt(e, HWPROF_PT_TIP, next, 0);
		break;
	}
	case HWPROF_PT_IC_SYSCALL:
		if (e->cfg->kcode && next && !e->in_kernel) {
			kernel_walk(e, next);
			break;
		}
		/* fall through */
	case HWPROF_PT_IC_SYSRET: case HWPROF_PT_IC_INT:
	case HWPROF_PT_IC_IRET: case HWPROF_PT_IC_FAR:
		if (in->iclass == HWPROF_PT_IC_SYSRET && e->in_kernel) {
			ip_pkt(e, HWPROF_PT_TIP, next, 0); /* back to user space */
			break;
		}
		/* into the kernel, which is not traced */
		ip_pkt(e, HWPROF_PT_TIP_PGD, 0, 1);
		e->enabled = 0;
		break;
	default:
		break;
	}
}

/* A system call into the traced kernel code: the SYSCALL's TIP, then the
 * code from kentry run by a fixed rule (conditional branches taken when
 * they go forward, so every loop ends) up to its SYSRET, whose TIP goes
 * back to user_next. */
static void kernel_walk(struct emu *e, uint64_t user_next)
{
	const struct hwprof_pt_emu_config *c = e->cfg;
	uint64_t calls[256], ip = c->kentry;
	unsigned ncalls = 0;
	unsigned period = c->psb_period ? c->psb_period : 4096;
	ip_pkt(e, HWPROF_PT_TIP, ip, 0);
	e->in_kernel = 1;
	struct hwprof_pt_emu_thread *t = e->out;
	if (!(t->nsyscalls & (t->nsyscalls + 1))) { /* 0, 1, 3, 7...: grow */
		void *g = realloc(t->syscalls, 2 * (t->nsyscalls + 1) * sizeof(*t->syscalls));
		if (!g) {
			e->err = -HWPROF_E_NOMEM;
			return;
		}
		t->syscalls = g;
	}
	uint64_t *sc = t->syscalls[t->nsyscalls++];
	sc[0] = sc[1] = fake_tsc(e);
	for (unsigned n = 0; n < 1000000 && !e->err; n++) {
		struct hwprof_pt_insn in;
		uint64_t off = ip - c->kbase;
		if (ip < c->kbase || off >= c->kcode_len ||
		    hwprof_pt_insn_decode(c->kcode + off, c->kcode_len - off, ip, 64, &in) < 0)
			break;
		if (e->enc.pos - e->last_psb >= period)
			psb_plus(e, ip);
		uint64_t next = ip + in.len;
		switch (in.iclass) {
		case HWPROF_PT_IC_JCC:
			if (in.target > ip)
				next = in.target;
			break;
		case HWPROF_PT_IC_JMP:
			next = in.target;
			break;
		case HWPROF_PT_IC_CALL:
			if (ncalls == 256)
				goto out;
			calls[ncalls++] = next;
			next = in.target;
			break;
		case HWPROF_PT_IC_RET:
			if (!ncalls)
				goto out;
			next = calls[--ncalls];
			break;
		case HWPROF_PT_IC_SYSRET:
			sc[1] = fake_tsc(e);
			retire(e, &in, user_next);
			e->in_kernel = 0;
			return;
		case HWPROF_PT_IC_OTHER:
		case HWPROF_PT_IC_PTWRITE:
			break;
		default:
			goto out;
		}
		retire(e, &in, next);
		ip = next;
	}
out:
	/* no way on: tracing stops here, and starts again in user space */
	ip_pkt(e, HWPROF_PT_TIP_PGD, 0, 1);
	e->enabled = 0;
	e->in_kernel = 0;
}

static int read_code(int memfd, uint64_t ip, uint8_t *buf, size_t len)
{
	/* pread stops at an unmapped page; read up to the page end first */
	size_t first = 4096 - (ip & 4095);
	if (first > len)
		first = len;
	ssize_t n = pread(memfd, buf, first, (off_t)ip);
	if (n <= 0)
		return -1;
	if ((size_t)n == first && first < len) {
		ssize_t m = pread(memfd, buf + first, len - first, (off_t)(ip + first));
		if (m > 0)
			n += m;
	}
	return (int)n;
}

static int caught(pid_t pid, int sig)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	unsigned long long mask = 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigCgt:", 7))
			mask = strtoull(line + 7, NULL, 16);
	fclose(f);
	return sig >= 1 && sig <= 64 && (mask >> (sig - 1)) & 1;
}

static void read_maps(struct hwprof_pt_emu_result *r, pid_t pid)
{
	char path[64], line[4096];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, en, off;
		char perm[8];
		int pos = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &s, &en, perm, &off, &pos) < 4)
			continue;
		char *p = line + pos;
		while (*p == ' ')
			p++;
		p[strcspn(p, "\n")] = 0;
		if (perm[2] != 'x' || *p != '/' || strlen(p) >= sizeof(r->maps->path))
			continue;
		struct hwprof_pt_emu_map *m = realloc(r->maps, (r->nmaps + 1) * sizeof(*m));
		if (!m)
			break;
		r->maps = m;
		m += r->nmaps++;
		m->start = s;
		m->end = en;
		m->pgoff = off;
		snprintf(m->path, sizeof(m->path), "%s", p);
	}
	fclose(f);
}

static void comm(struct hwprof_pt_emu_result *r, pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fgets(r->comm, sizeof(r->comm), f))
			r->comm[strcspn(r->comm, "\n")] = 0;
		fclose(f);
	}
}

struct proc {
	const struct hwprof_pt_emu_config *cfg;
	struct hwprof_pt_emu_result *res;
	struct emu th[MAX_THREADS];
	size_t n;
	uint64_t steps;
	int memfd;
	int err;
};

static struct emu *thread_get(struct proc *P, int tid)
{
	for (size_t i = 0; i < P->n; i++)
		if (P->th[i].out->tid == tid)
			return &P->th[i];
	if (P->n == MAX_THREADS)
		return NULL;
	struct emu *e = &P->th[P->n];
	memset(e, 0, sizeof(*e));
	e->cfg = P->cfg;
	e->out = &P->res->threads[P->n];
	e->out->tid = tid;
	e->all_steps = &P->steps;
	e->tnt_max = (P->cfg->flags & (HWPROF_PT_EMU_LONG_TNT | HWPROF_PT_EMU_DEFER_TIP)) ? 47 : 6;
	hwprof_pt_encoder_init(&e->enc, NULL, 0);
	P->n++;
	P->res->nthreads = P->n;
	if (reserve_trace(e, 1 << 12))
		return NULL;
	return e;
}

/* A stopped thread is about to run the instruction at its rip: packets
 * due before it (PSB+, TIP.PGE), then one step. */
static void step(struct proc *P, struct emu *e, int sig)
{
	pid_t tid = e->out->tid;
	struct user_regs_struct regs;
	if (ptrace(PTRACE_GETREGS, tid, 0, &regs) < 0) {
		ptrace(PTRACE_SINGLESTEP, tid, 0, sig);
		return;
	}
	uint64_t rip = regs.rip;
	unsigned period = P->cfg->psb_period ? P->cfg->psb_period : 4096;
	if (e->enc.pos - e->last_psb >= period || e->enc.pos == 0)
		psb_plus(e, rip);
	if (!e->enabled) {
		ip_pkt(e, HWPROF_PT_TIP_PGE, rip, 0);
		e->enabled = 1;
	}
	uint8_t code[16];
	int n = read_code(P->memfd, rip, code, sizeof(code));
	if (n <= 0 || hwprof_pt_insn_decode(code, (size_t)n, rip, 64, &e->pend) < 0)
		e->pend = (struct hwprof_pt_insn){ .ip = rip, .len = 1 };
	e->have_pend = 1;
	ptrace(PTRACE_SINGLESTEP, tid, 0, sig);
}

static void trace_loop(struct proc *P, pid_t pid, int status)
{
	uint64_t max = P->cfg->max_steps ? P->cfg->max_steps : 5000000;
	int killed = 0;
	pid_t tid = pid;
	for (int first = 1;; first = 0) {
		if (!first && (tid = waitpid(-1, &status, __WALL)) < 0) {
			if (errno == ECHILD)
				return;
			P->err = -HWPROF_E_IO;
			return;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == pid) {
				P->res->status = status;
				return;
			}
			continue;
		}
		struct emu *e = thread_get(P, tid);
		if (!e) { /* too many threads: let it run untraced */
			ptrace(PTRACE_DETACH, tid, 0, 0);
			continue;
		}
		if (e->err) {
			P->err = e->err;
			kill(pid, SIGKILL);
		}
		unsigned event = (unsigned)status >> 16;
		int sig = WSTOPSIG(status);
		if (event == PTRACE_EVENT_EXIT) {
			/* a pending syscall (exit, or one cut short by exit_group)
			 * entered the kernel; anything else never ran */
			if (e->have_pend && e->pend.iclass == HWPROF_PT_IC_SYSCALL)
				retire(e, &e->pend, 0);
			e->have_pend = 0;
			flush_tnt(e);
			if (tid == pid)
				read_maps(P->res, pid);
			ptrace(PTRACE_CONT, tid, 0, 0);
			continue;
		}
		if (event == PTRACE_EVENT_CLONE) { /* still inside clone: go on */
			ptrace(PTRACE_SINGLESTEP, tid, 0, 0);
			continue;
		}
		if (!e->started) { /* exec stop, or a new thread's SIGSTOP */
			e->started = 1;
			if (tid == pid)
				comm(P->res, pid);
			step(P, e, 0);
			continue;
		}
		struct user_regs_struct regs;
		if (ptrace(PTRACE_GETREGS, tid, 0, &regs) < 0)
			continue;
		uint64_t rip = regs.rip;
		if (sig == SIGTRAP) {
			if (e->have_pend && e->pend.iclass == HWPROF_PT_IC_OTHER && rip == e->pend.ip) {
				/* a REP string instruction stops per iteration but
				 * retires once, as PT reports it */
				ptrace(PTRACE_SINGLESTEP, tid, 0, 0);
				continue;
			}
			if (e->have_pend)
				retire(e, &e->pend, rip);
			e->have_pend = 0;
			sig = 0;
		} else {
			/* signal stop: the pending instruction did not run if rip is
			 * still on it (it faulted) */
			if (e->have_pend && rip != e->pend.ip)
				retire(e, &e->pend, rip);
			e->have_pend = 0;
			if (sig == SIGSTOP)
				sig = 0; /* ours (thread start), not the program's */
			if (sig && caught(pid, sig)) {
				if (e->enabled) {
					ip_pkt(e, HWPROF_PT_FUP, rip, 0);
					ip_pkt(e, HWPROF_PT_TIP_PGD, 0, 1);
					e->enabled = 0;
				}
				/* stops again at the handler's first instruction */
				ptrace(PTRACE_SINGLESTEP, tid, 0, sig);
				continue;
			}
		}
		if (P->steps >= max && !killed) {
			P->res->truncated = 1;
			killed = 1;
			for (size_t i = 0; i < P->n; i++)
				flush_tnt(&P->th[i]);
			kill(pid, SIGKILL);
		}
		if (killed) {
			ptrace(PTRACE_CONT, tid, 0, 0);
			continue;
		}
		step(P, e, sig);
	}
}

HWPROF_API int hwprof_pt_emulate(char *const argv[], const struct hwprof_pt_emu_config *cfg,
				 struct hwprof_pt_emu_result *res)
{
	if (!argv || !argv[0] || !cfg || !res)
		return -HWPROF_E_INVAL;
	memset(res, 0, sizeof(*res));
	if (access(argv[0], X_OK) < 0)
		return errno == ENOENT || errno == ENOTDIR ? -HWPROF_E_NOENT : -HWPROF_E_IO;
	res->threads = calloc(MAX_THREADS, sizeof(*res->threads));
	struct proc *P = calloc(1, sizeof(*P));
	if (!res->threads || !P) {
		free(P);
		free(res->threads);
		res->threads = NULL;
		return -HWPROF_E_NOMEM;
	}
	P->cfg = cfg;
	P->res = res;

	pid_t pid = fork();
	if (pid < 0) {
		free(P);
		hwprof_pt_emu_result_free(res);
		return -HWPROF_E_IO;
	}
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	res->pid = pid;
	int status, ret = 0;
	if (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status)) {
		free(P);
		hwprof_pt_emu_result_free(res);
		return -HWPROF_E_IO;
	}
	ptrace(PTRACE_SETOPTIONS, pid, 0,
	       PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL | PTRACE_O_TRACECLONE);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	P->memfd = open(path, O_RDONLY | O_CLOEXEC);
	if (P->memfd < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		free(P);
		hwprof_pt_emu_result_free(res);
		return -HWPROF_E_IO;
	}
	/* the exec stop is the first stop: stepping starts there */
	trace_loop(P, pid, status);
	close(P->memfd);
	for (size_t i = 0; i < P->n; i++) {
		res->threads[i].trace_len = P->th[i].enc.pos;
		if (P->th[i].err && !ret)
			ret = P->th[i].err;
	}
	if (P->err)
		ret = P->err;
	free(P);
	if (ret < 0)
		hwprof_pt_emu_result_free(res); /* nothing half-made for the caller */
	return ret;
}

HWPROF_API void hwprof_pt_emu_result_free(struct hwprof_pt_emu_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; res->threads && i < res->nthreads; i++) {
		free(res->threads[i].trace);
		free(res->threads[i].insns);
		free(res->threads[i].syscalls);
	}
	free(res->threads);
	free(res->maps);
	memset(res, 0, sizeof(*res));
}
