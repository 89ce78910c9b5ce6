# Differential: `hwprof script` on `--call-graph dwarf` files against
# Debian perf 6.1 `perf script` (which unwinds with libunwind and names
# inlined frames and source lines through binutils' addr2line). Programs
# built here (-O0/-O2, with and without frame pointers and debuginfo, a
# shared library, inlined helpers, recursion) are recorded by perf and by
# hwprof; the default output, -G, --no-inline, --max-stack and field sets
# with sym/symoff/dso/srcline must be byte-identical.
source tests/lib/common.sh
if ! have_perf; then skip "script dwarf differential (perf not installed)"; finish; fi
if ! command -v cc >/dev/null 2>&1; then skip "script dwarf differential (no C compiler)"; finish; fi

cat >"$TMP/work.c" <<'C'
static volatile double acc;
static inline __attribute__((always_inline)) void spin(int n)
{
	for (int i = 0; i < n; i++)
		acc += i * 0.25;
}
__attribute__((noinline)) void lib_inner(int n) { spin(n); acc += 1; }
__attribute__((noinline)) void lib_work(int n) { for (int i = 0; i < 4; i++) lib_inner(n); acc += 2; }
C
cat >"$TMP/main.c" <<'C'
#include <stdlib.h>
void lib_work(int n);
static volatile long sink;
static inline __attribute__((always_inline)) void hot(int n)
{
	for (int i = 0; i < n; i++)
		sink += i ^ (i >> 3);
}
__attribute__((noinline)) void leaf(int n) { hot(n); sink++; }
__attribute__((noinline)) void rec(int d, int n)
{
	if (d > 0)
		rec(d - 1, n);
	else
		leaf(n);
	sink++;
}
__attribute__((noinline)) void both(int n) { rec(6, n); lib_work(n); }
int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 150;
	for (int r = 0; r < reps; r++)
		both(20000);
	return 0;
}
C

build() { # name cflags...
  local name=$1; shift
  mkdir -p "$TMP/$name"
  cc "$@" -fPIC -shared -o "$TMP/$name/libwork.so" "$TMP/work.c" &&
    cc "$@" -o "$TMP/$name/prog" "$TMP/main.c" -L"$TMP/$name" -lwork -Wl,-rpath,"$TMP/$name"
}

# report over the same files: unwound frames and their inlined functions
# in children entries and call graphs, as perf report shows them
compare_report() { # name file report-args...
  local name=$1 f=$2; shift 2
  perf report --stdio -i "$f" "$@" 2>/dev/null | report_filter >"$TMP/rp.txt"
  "$HWPROF" report --stdio -i "$f" "$@" 2>"$TMP/rh.err" | report_filter >"$TMP/rh.txt"
  if [ ! -s "$TMP/rp.txt" ]; then fail "$name: perf report printed nothing"; return; fi
  if cmp -s "$TMP/rp.txt" "$TMP/rh.txt"; then
    pass "$name: report identical ($(wc -l <"$TMP/rp.txt") lines)"
  else
    fail "$name: report differs $(head -1 "$TMP/rh.err")"; diff "$TMP/rp.txt" "$TMP/rh.txt" | head -8
  fi
}

compare() { # name file script-args...
  local name=$1 f=$2; shift 2
  perf script -i "$f" "$@" >"$TMP/p.txt" 2>"$TMP/p.err"; local prc=$?
  "$HWPROF" script -i "$f" "$@" >"$TMP/h.txt" 2>"$TMP/h.err"; local hrc=$?
  if [ $prc -ne $hrc ]; then fail "$name: exit $hrc, perf $prc: $(head -1 "$TMP/h.err")"; return; fi
  if [ ! -s "$TMP/p.txt" ]; then fail "$name: perf printed nothing"; return; fi
  if cmp -s "$TMP/p.txt" "$TMP/h.txt"; then
    pass "$name: identical ($(wc -l <"$TMP/p.txt") lines)"
  else
    fail "$name: differs"; diff "$TMP/p.txt" "$TMP/h.txt" | head -8
  fi
}

# the unwound part must be there: main, the caller of every sampled
# function, which only DWARF unwinding of the stack copy can find
has_deep_chains() { # file
  perf script -i "$1" -F ip,sym 2>/dev/null | grep -q " main$"
}

FIELDS=("ip,sym" "comm,tid,ip,sym,symoff,dso" "ip,sym,srcline" "ip,sym,symoff,dso,srcline" "ip,dso" "time,ip"
        "ip,sym,insn,insnlen" "comm,flags,ip,sym" "ip,sym,srcline,insnlen")

run_variant() { # name recorder event [perf record options...]
  local name=$1 recorder=$2 ev=$3; shift 3
  local d="$TMP/$name.data"
  if [ "$recorder" = perf ]; then
    perf record -q --call-graph dwarf -e "$ev" -c 1000000 "$@" -o "$d" -- "$TMP/$BIN/prog" >/dev/null 2>"$TMP/rec.err"
  else
    "$HWPROF" record -q --call-graph dwarf -e "$ev" -c 1000000 -o "$d" -- "$TMP/$BIN/prog" >/dev/null 2>"$TMP/rec.err"
  fi || { fail "$name: $recorder record failed: $(head -1 "$TMP/rec.err")"; return; }
  if has_deep_chains "$d"; then pass "$name: perf unwinds the file (callers present)"
  else fail "$name: no unwound frames in perf's output"; fi
  compare "$name" "$d"
  compare "$name -G" "$d" -G
  compare "$name --no-inline" "$d" --no-inline
  compare "$name --max-stack 4" "$d" --max-stack 4
  compare "$name --max-stack 0" "$d" --max-stack 0
  compare "$name --max-stack 1" "$d" --max-stack 1
  compare "$name -G -F ip,sym,srcline" "$d" -G -F ip,sym,srcline
  for F in "${FIELDS[@]}"; do compare "$name -F $F" "$d" -F "$F"; done
  compare_report "$name report" "$d"
  compare_report "$name report --no-children" "$d" --no-children
  compare_report "$name report -G --sort pid,dso,sym" "$d" -G --sort pid,dso,sym
  compare_report "$name report --no-children -g caller --max-stack 5" "$d" --no-children -g caller --max-stack 5
}

# user-mode samples (cpu-clock:u) and, below, with kernel frames too
BIN=o0fp;   build $BIN -O0 -g -fno-omit-frame-pointer && run_variant o0-fp-g perf cpu-clock:u
BIN=o2;     build $BIN -O2 -g -fomit-frame-pointer && run_variant o2-nofp-g perf cpu-clock:u
BIN=o2nodbg; build $BIN -O2 -fomit-frame-pointer && run_variant o2-nodebug perf cpu-clock:u
BIN=o2;     run_variant o2-hwprof-record hwprof cpu-clock:u
BIN=o0fp;   run_variant o0-fp-hwprof-record hwprof cpu-clock:u
# with kernel frames above the user stack (system calls through libc's
# assembly wrappers, the dynamic loader's start-up)
BIN=o2;     run_variant o2-kernel perf cpu-clock
BIN=o0fp;   run_variant o0-kernel-hwprof-record hwprof cpu-clock
# a system program: stripped, libraries without debuginfo, PLT entries
if perf record -q --call-graph dwarf -e cpu-clock -c 200000 -o "$TMP/ls.data" -- \
     ls -lR /usr/share/doc/bash /usr/share/doc/coreutils >/dev/null 2>&1; then
  for F in "" "ip,sym,srcline" "ip,sym,symoff,dso,srcline" "ip,sym,insn,insnlen"; do
    if [ -n "$F" ]; then compare "ls -lR -F $F" "$TMP/ls.data" -F "$F"; compare "ls -lR -G -F $F" "$TMP/ls.data" -G -F "$F"
    else compare "ls -lR" "$TMP/ls.data"; fi
  done
  compare_report "ls -lR report" "$TMP/ls.data"
  compare_report "ls -lR report --no-children --sort dso,sym" "$TMP/ls.data" --no-children --sort dso,sym
else fail "ls record"; fi

# a function without CFI (hand-written assembly, like .init/.fini or old
# asm): perf's libunwind guesses its caller from rbp with its own stack
# pointer arithmetic, which then decides every frame above it
cat >"$TMP/mid.s" <<'S'
	.text
	.globl	nocfi_mid
	.type	nocfi_mid, @function
nocfi_mid:
	push	%rbp
	mov	%rsp, %rbp
	sub	$32, %rsp
	mov	%edi, -4(%rbp)
	mov	$200000, %ecx
1:	dec	%ecx
	jnz	1b
	mov	-4(%rbp), %edi
	call	leaf
	leave
	ret
	.size	nocfi_mid, .-nocfi_mid
	.section .note.GNU-stack,"",@progbits
S
cat >"$TMP/nocfi.c" <<'C'
#include <stdlib.h>
void nocfi_mid(int n);
static volatile long sink;
__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) sink += i ^ (i >> 3); }
__attribute__((noinline)) void outer(int n)
{
	volatile char pad[64];
	pad[0] = (char)n;
	nocfi_mid(n + pad[0] - (char)n);
	sink++;
}
int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 300;
	for (int r = 0; r < reps; r++)
		outer(20000);
	return 0;
}
C
if cc -O2 -g -fomit-frame-pointer -o "$TMP/nocfi" "$TMP/nocfi.c" "$TMP/mid.s" &&
   perf record -q --call-graph dwarf -e cpu-clock:u -c 1000000 -o "$TMP/nocfi.data" -- "$TMP/nocfi" >/dev/null 2>&1; then
  if perf script -i "$TMP/nocfi.data" 2>/dev/null | grep -q "nocfi_mid"; then pass "no-CFI frames sampled"
  else fail "no-CFI frames sampled"; fi
  compare "no CFI (libunwind's frame guess)" "$TMP/nocfi.data"
  compare "no CFI -F ip,sym,srcline" "$TMP/nocfi.data" -F ip,sym,srcline
  compare_report "no CFI report" "$TMP/nocfi.data"
else fail "no-CFI program record"; fi

# a stripped program whose debuginfo sits in perf's build-id cache as
# "debug" beside the cached "elf": symbols, inlines and source lines come
# from there
mkdir -p "$TMP/strip" "$TMP/home"
if cp "$TMP/o2/prog" "$TMP/strip/prog" && objcopy --only-keep-debug "$TMP/strip/prog" "$TMP/strip/prog.debug" &&
   strip --strip-all "$TMP/strip/prog" &&
   HOME="$TMP/home" perf record -q --call-graph dwarf -e cpu-clock:u -c 1000000 -o "$TMP/strip.data" -- \
     "$TMP/strip/prog" >/dev/null 2>&1; then
  # perf record caches the DSOs it sampled; make sure of this one
  HOME="$TMP/home" perf buildid-cache -a "$TMP/strip/prog" >/dev/null 2>&1
  cached=$(find "$TMP/home/.debug" -path "*strip/prog/*" -name elf)
  copied=0
  for c in $cached; do cp "$TMP/strip/prog.debug" "${c%/elf}/debug" && copied=1; done
  if [ "$copied" = 1 ]; then
    saved_home=$HOME; export HOME="$TMP/home"
    if perf script -i "$TMP/strip.data" -F ip,sym 2>/dev/null | grep -qE " (leaf|rec|both|main)$"; then
      pass "cached debuginfo used by perf"
    else fail "cached debuginfo not used by perf"; fi
    compare "stripped, debuginfo in the build-id cache" "$TMP/strip.data"
    compare "stripped, cache debuginfo -F ip,sym,srcline" "$TMP/strip.data" -F ip,sym,srcline
    export HOME="$saved_home"
  else fail "stripped program not in perf's build-id cache"; fi
else fail "stripped program record"; fi

# code without DWARF in a program with it (gcc's crtstuff, objects built
# without -g): binutils' addr2line names a local function's file from the
# symbol table's STT_FILE entry ("nodbg.c:0"), which perf prints
cat >"$TMP/nodbg.c" <<'C'
volatile long nsink;
static __attribute__((noinline)) void nodbg_local(int n) { for (int i = 0; i < n; i++) nsink += i ^ (i >> 2); }
void nodbg_spin(int n) { nodbg_local(n); nsink++; }
C
cat >"$TMP/wmain.c" <<'C'
void nodbg_spin(int n);
int main(void) { for (int r = 0; r < 300; r++) nodbg_spin(200000); return 0; }
C
if cc -O2 -c "$TMP/nodbg.c" -o "$TMP/nodbg.o" && cc -O0 -g "$TMP/wmain.c" "$TMP/nodbg.o" -o "$TMP/wprog" &&
   perf record -q --call-graph dwarf -e cpu-clock:u -c 500000 -o "$TMP/w.data" -- "$TMP/wprog" >/dev/null 2>&1; then
  compare "symbol-table file (STT_FILE) -F ip,sym,srcline" "$TMP/w.data" -F ip,sym,srcline
  compare_report "symbol-table file report --sort srcline" "$TMP/w.data" --no-children --sort srcline
  if perf script -i "$TMP/w.data" -F ip,sym,srcline 2>/dev/null | grep -q "nodbg.c:0"; then pass "perf names nodbg.c:0"
  else fail "perf does not name nodbg.c:0"; fi
else fail "symbol-table file program"; fi

# CFI that puts the return address where no map is (CFA from rbx = 8):
# perf's libunwind reader fails there and the stack ends at that frame;
# in the heap (unreadable, mapped or not) it reads 0: one more frame, 0 - 1
cat >"$TMP/cfa.c" <<'C'
#include <stdlib.h>
void cfa_spin(long n, long base);
__asm__(".text\n.globl cfa_spin\n.type cfa_spin,@function\ncfa_spin:\n.cfi_startproc\n"
	"push %rbx\n.cfi_def_cfa_offset 16\n.cfi_offset rbx, -16\n"
	"mov %rsi, %rbx\n.cfi_def_cfa rbx, 16\n"
	"1: dec %rdi\njnz 1b\n"
	"mov %rsp, %rbx\n.cfi_def_cfa rsp, 16\n"
	"pop %rbx\n.cfi_def_cfa_offset 8\n.cfi_restore rbx\nret\n.cfi_endproc\n.size cfa_spin, .-cfa_spin\n");
int main(void)
{
	char *heap = malloc(1 << 20);
	cfa_spin(300000000, 8);
	cfa_spin(300000000, (long)(heap + (1 << 19)));
	free(heap);
	return 0;
}
C
if [ "$(uname -m)" = x86_64 ] && cc -O2 -o "$TMP/cfa" "$TMP/cfa.c"; then
  for d in "" -d; do
    # shellcheck disable=SC2086
    if perf record -q $d --call-graph dwarf -e cpu-clock:u -c 1000000 -o "$TMP/cfa.data" -- "$TMP/cfa" >/dev/null 2>&1; then
      compare "return address in no map / in the heap $d" "$TMP/cfa.data"
    else fail "CFA program record $d"; fi
  done
fi

# a stack copy too small for the whole stack: perf stops where the copy ends
BIN=o2
if perf record -q --call-graph dwarf,512 -e cpu-clock:u -c 1000000 -o "$TMP/small.data" -- "$TMP/$BIN/prog" \
     >/dev/null 2>&1; then
  compare "small stack copy (512 bytes)" "$TMP/small.data"
else fail "small stack record"; fi
# the vDSO (clock_gettime): its code and CFI come from perf's build-id cache
cat >"$TMP/vd.c" <<'C'
#include <stdio.h>
#include <time.h>
int main(void)
{
	struct timespec t;
	long s = 0;
	for (int i = 0; i < 2000000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		s += t.tv_nsec;
	}
	printf("%ld\n", s);
	return 0;
}
C
if cc -O2 -o "$TMP/vd" "$TMP/vd.c" &&
   perf record -q --call-graph dwarf -e cpu-clock:u -c 200000 -o "$TMP/vd.data" -- "$TMP/vd" >/dev/null 2>&1; then
  compare "vdso" "$TMP/vd.data"
  compare "vdso -F ip,sym,srcline,insnlen" "$TMP/vd.data" -F ip,sym,srcline,insnlen
  compare_report "vdso report" "$TMP/vd.data"
else fail "vdso program record"; fi

# the new fields on files without DWARF stacks: no callchain, and frame
# pointers (perf expands no inlines there)
W="ls -lR /usr/share/doc/bash /usr/share/doc/coreutils"
for mode in plain fp; do
  opt=; [ $mode = fp ] && opt=-g
  if perf record -q $opt -e cpu-clock -c 100000 -o "$TMP/$mode.data" -- $W >/dev/null 2>&1 &&
     perf record -q $opt -e cpu-clock -c 100000 -o "$TMP/${mode}2.data" -- "$TMP/o2/prog" 20 >/dev/null 2>&1; then
    for d in $mode ${mode}2; do
      for F in "+srcline" "+insn,+insnlen" "+flags" "ip,sym,srcline,insn" "comm,tid,flags,ip,sym,dso,insnlen,srcline"; do
        compare "$d -F $F" "$TMP/$d.data" -F "$F"
      done
    done
  else fail "$mode record"; fi
done
finish
