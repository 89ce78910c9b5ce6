# Differential: `hwprof report --stdio` against Debian perf 6.1
# `perf report --stdio` on files recorded here (perf record with software
# events: one and two events, -a, pipe mode, compressed, callchains; hwprof
# record; the bundled demo file; Arm SPE files from tests/tools/spe_mkperf)
# and many option sets. Zero differing bytes
# is the bar, except the closing "# (Tip: ...)" line, which perf picks at
# random (seeded with the second it starts): there hwprof's line must be
# one of perf's tips.
source tests/lib/common.sh
if ! have_perf; then skip "report differential (perf not installed)"; finish; fi
TIPS=/usr/share/doc/linux-perf/tips.txt

# the tip line replaced by a marker (and perf's stray "[...] (inlined)",
# see report_filter in tests/lib/common.sh)
untip() { sed 's/^# (Tip: .*)$/# (TIP)/; s/\[\.\.\.\] (inlined)$/[...]/' "$1"; }

compare() { # name, file, report args...
  local name=$1 f=$2; shift 2
  perf report --stdio -i "$f" "$@" >"$TMP/p.out" 2>"$TMP/p.err"; local prc=$?
  "$HWPROF" report --stdio -i "$f" "$@" >"$TMP/h.out" 2>"$TMP/h.err"; local hrc=$?
  if [ "$prc" != "$hrc" ] || ! cmp -s <(untip "$TMP/p.out") <(untip "$TMP/h.out"); then
    # once more: a system-wide recording holds other tests' programs,
    # which may be deleted between perf's run and ours
    perf report --stdio -i "$f" "$@" >"$TMP/p.out" 2>"$TMP/p.err"; prc=$?
    "$HWPROF" report --stdio -i "$f" "$@" >"$TMP/h.out" 2>"$TMP/h.err"; hrc=$?
  fi
  if [ "$prc" -ne 0 ] || [ "$hrc" -ne 0 ]; then
    fail "$name: exit $hrc, perf $prc: $(head -1 "$TMP/h.err")"; return
  fi
  if ! cmp -s <(untip "$TMP/p.out") <(untip "$TMP/h.out"); then
    fail "$name: report differs"; diff <(untip "$TMP/p.out") <(untip "$TMP/h.out") | head -10; return
  fi
  local tip; tip=$(sed -n 's/^# (Tip: \(.*\))$/\1/p' "$TMP/h.out")
  if [ -n "$tip" ] && ! grep -qxF -- "$tip" "$TIPS"; then
    fail "$name: tip line not from $TIPS: $tip"; return
  fi
  pass "$name: report identical ($(wc -l <"$TMP/p.out") lines)"
}

# hwprof must refuse (non-zero exit, one message) what it does not support
refuse() { # name, file, args...
  local name=$1 f=$2; shift 2
  if "$HWPROF" report --stdio -i "$f" "$@" >"$TMP/r.out" 2>"$TMP/r.err"; then
    fail "$name: accepted: $(head -3 "$TMP/r.out")"
  elif [ -s "$TMP/r.out" ]; then
    fail "$name: refused but printed a table"
  else
    pass "$name: refused ($(head -1 "$TMP/r.err"))"
  fi
}

rec() { # name, perf record args...
  local name=$1; shift
  if ! perf record -q -o "$TMP/$name.data" "$@" >/dev/null 2>"$TMP/$name.rec.err"; then
    fail "$name: perf record failed: $(head -1 "$TMP/$name.rec.err")"; return 1
  fi
}

W="ls -R /usr/share/doc/bash /usr/share/doc/coreutils /usr/lib/python3"
OPTS=(
  ""
  "-n"
  "--sort pid,sym"
  "--sort sym,comm,cpu"
  "--sort dso"
  "--sort comm"
  "--sort dso,sym"
  "--sort cpu,pid -n"
  "--sort sample,comm"
  "--sort period,dso -n"
  "--sort time"
  "--sort time,comm --time-quantum 10ms"
  "--sort comm,time -n --ns --time-quantum 1ms"
  "--sort symbol_size"
  "--sort dso,dso_size -n"
  "--sort addr"
  "-F overhead,addr,dso_size,sym"
  "-F overhead,sample,period,comm"
  "-F sample,comm"
  "-F comm,overhead"
  "-F overhead,sym --sort dso"
  "-F overhead,period,dso,sym"
  "--percent-limit 1"
  "--percent-limit 5 -n --sort dso,sym"
  "-q"
  "-q -n --sort comm,dso"
  "--header"
  "--children"
)

all_opts() { # name, file, extra args...
  local name=$1 f=$2; shift 2
  for O in "${OPTS[@]}"; do
    # shellcheck disable=SC2086
    compare "$name $O" "$f" "$@" $O
  done
}

rec plain -e cpu-clock -c 100000 -- $W && all_opts plain "$TMP/plain.data"
rec sw -e cpu-clock -c 200000 -a -- sleep 0.2 && all_opts system-wide "$TMP/sw.data"
if rec two -e cpu-clock,task-clock -c 100000 -- $W; then
  compare two-events "$TMP/two.data"
  compare "two-events -n --sort pid" "$TMP/two.data" -n --sort pid
  compare "two-events -q --percent-limit 2" "$TMP/two.data" -q --percent-limit 2
fi
rec comp -z -e cpu-clock -c 100000 -- $W && compare compressed "$TMP/comp.data"

# a thread whose comm changes: widths follow the thread's last comm
cp /bin/dash "$TMP/longname_shell_abcdef"
if rec comm -e cpu-clock -c 100000 -- "$TMP/longname_shell_abcdef" -c \
     'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exec ls -R /usr/share/doc >/dev/null'; then
  compare comm-change "$TMP/comm.data"
  compare "comm-change --sort pid,comm" "$TMP/comm.data" --sort pid,comm
  compare "comm-change --sort pid,sym" "$TMP/comm.data" --sort pid,sym
fi

# pipe mode, from a file and from stdin
if perf record -q -e cpu-clock -c 100000 -o - -- $W >"$TMP/pipe.data" 2>/dev/null; then
  compare pipe-file "$TMP/pipe.data"
  cat "$TMP/pipe.data" | perf report --stdio -n 2>/dev/null | untip /dev/stdin >"$TMP/pipe.perf"
  cat "$TMP/pipe.data" | "$HWPROF" report --stdio -n 2>&1 | untip /dev/stdin >"$TMP/pipe.hw"
  if [ -s "$TMP/pipe.perf" ] && cmp -s "$TMP/pipe.perf" "$TMP/pipe.hw"; then
    pass "pipe stream on stdin: report identical"
  else fail "pipe stream on stdin: report differs"; diff "$TMP/pipe.perf" "$TMP/pipe.hw" | head; fi
  # -g on a pipe without callchains: no refusal (perf learns the events later)
  compare "pipe-file -g caller" "$TMP/pipe.data" -g caller
fi
# a pipe with callchains: graphs (callee order: perf never accumulates
# children there)
if perf record -q -g -e cpu-clock -c 100000 -o - -- $W >"$TMP/pipeg.data" 2>/dev/null; then
  for o in "" "-g caller" "--children" "--sort dso,sym -g folded"; do
    # shellcheck disable=SC2086
    compare "pipe-file with callchains $o" "$TMP/pipeg.data" $o
  done
fi

# hwprof record's own files
if "$HWPROF" record -q -o "$TMP/hw.data" -e cpu-clock -- $W >/dev/null 2>"$TMP/hw.err"; then
  all_opts hwprof-record "$TMP/hw.data"
else
  fail "hwprof record failed: $(head -1 "$TMP/hw.err")"
fi

# callchain files: children mode and call graphs by default
GRAPH_OPTS=(
  ""
  "--sort time,comm --time-quantum 20ms"
  "--no-children"
  "-g none"
  "--no-children -g none"
  "-G --no-children"
  "-g callee"
  "-g caller --no-children"
  "-g graph,2"
  "-g graph,0.1,callee --no-children"
  "--percent-limit 5"
  "--percent-limit 0.1"
  "--percent-limit 2 -g graph,0.1"
  "-n"
  "--sort sym"
  "--sort sym --no-children"
  "--sort dso,sym"
  "--sort pid"
  "-q"
  "-F overhead,sym"
  "-F sample,sym"
  "-F overhead_children,overhead,comm"
  "-g --no-children"
  "--no-children -g"
  "--call-graph=none"
  "--max-stack 5"
  "--max-stack 1 --no-children"
  "--max-stack 0"
)
graph_opts() { # name, file
  for O in "${GRAPH_OPTS[@]}"; do
    # shellcheck disable=SC2086
    compare "$1 $O" "$2" $O
  done
}
rec fp -e cpu-clock -c 100000 -g -- $W && graph_opts fp "$TMP/fp.data"
rec freq -e task-clock -F 2000 -g -- $W && graph_opts task-clock-freq "$TMP/freq.data"
if rec swg -e cpu-clock -c 200000 -a -g -- sleep 0.2; then
  compare "system-wide -g" "$TMP/swg.data"
  compare "system-wide -g --no-children" "$TMP/swg.data" --no-children
  compare "system-wide -g -g callee --sort pid,sym" "$TMP/swg.data" -g callee --sort pid,sym
fi
if rec twog -e cpu-clock,task-clock -c 200000 -g -- $W; then
  compare "two-events -g" "$TMP/twog.data"
  compare "two-events -g --no-children -n" "$TMP/twog.data" --no-children -n
fi
graph_opts demo.data tests/data/demo.data
if "$HWPROF" record -q -g -o "$TMP/hwg.data" -e cpu-clock -- $W >/dev/null 2>"$TMP/hwg.err"; then
  graph_opts "hwprof-record -g" "$TMP/hwg.data"
else
  fail "hwprof record -g failed: $(head -1 "$TMP/hwg.err")"
fi

# C++: demangled names in entries and call graphs
if command -v g++ >/dev/null; then
  cat >"$TMP/cpp.cc" <<'CC'
#include <cstdio>
namespace ns { template<class T> struct W { static T __attribute__((noinline)) spin(T n) { volatile T s = 0; for (T i = 0; i < n; i++) s += i; return s; } }; }
int main() { printf("%ld\n", (long)ns::W<long>::spin(100000000L)); }
CC
  if g++ -O1 -o "$TMP/cpp" "$TMP/cpp.cc" && rec cpp -e cpu-clock -c 1000000 -g -- "$TMP/cpp"; then
    compare cpp-demangle "$TMP/cpp.data"
    compare "cpp-demangle --no-children" "$TMP/cpp.data" --no-children
  fi
fi

# a data object in a callchain (a fake frame whose return address is in
# .data; -d records the data map): perf shows it as name+offset
if command -v gcc >/dev/null && [ "$(uname -m)" = x86_64 ]; then
  cat >"$TMP/obj.c" <<'CC'
#include <stdint.h>
char data_object[256] = { 1 };
uintptr_t fake_frame[2];
int main(void) {
	fake_frame[0] = 0;
	fake_frame[1] = (uintptr_t)(data_object + 0x20);
	volatile unsigned long x = 0;
	__asm__ volatile("mov %0, %%rbp" :: "r"(fake_frame) : "rbp");
	for (unsigned long i = 0; i < 100000000UL; i++) x += i;
	return (int)(x & 1);
}
CC
  if gcc -O1 -fomit-frame-pointer -o "$TMP/obj" "$TMP/obj.c" && rec obj -d -e cpu-clock -c 1000000 -g -- "$TMP/obj"; then
    compare "data object in chains" "$TMP/obj.data"
    if grep -q 'data_object+0x20' "$TMP/h.out"; then pass "data object shown as name+offset"
    else fail "data object: no name+offset entry"; fi
    compare "data object in chains --sort sym,dso" "$TMP/obj.data" --sort sym,dso
  fi
fi

# code in an anonymous mapping moved after it was written (JIT engines):
# its MMAP record's pgoff is not its start, and perf's addresses there
# are the identity (found on a system-wide recording with node's JIT)
if command -v gcc >/dev/null && [ "$(uname -m)" = x86_64 ]; then
  cat >"$TMP/jit.c" <<'CC'
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
int main(void)
{
	/* dec %rdi; jnz .-3; ret: a loop in anonymous memory, written, moved
	 * (the mapping keeps its first page offset) and made executable, as
	 * JIT engines do: the MMAP record's pgoff is not its start */
	static const unsigned char code[] = { 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };
	size_t len = 1 << 22;
	unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	for (int i = 0; i < 4; i++)
		memcpy(m + 0x1000 + i * 64, code, sizeof(code));
	unsigned char *t = mmap((void *)0x1000000000, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED || mremap(m, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, t) == MAP_FAILED ||
	    mprotect(t, len, PROT_READ | PROT_EXEC))
		return 1;
	for (int r = 0; r < 4; r++)
		((void (*)(long))(t + 0x1000 + r * 64))(60000000L);
	return 0;
}
CC
  if gcc -O1 -o "$TMP/jit" "$TMP/jit.c" && rec jit -e cpu-clock -c 200000 -- "$TMP/jit"; then
    compare "moved JIT code --sort addr" "$TMP/jit.data" --sort addr
    compare "moved JIT code -F overhead,addr,dso_size,sym" "$TMP/jit.data" -F overhead,addr,dso_size,sym
  fi
fi

# perf's error for -g on a file without callchains
perf report --stdio -i "$TMP/plain.data" -g >"$TMP/g.pout" 2>"$TMP/g.perf"; prc=$?
"$HWPROF" report --stdio -i "$TMP/plain.data" -g graph >"$TMP/g.out" 2>"$TMP/g.hw"; hrc=$?
if [ "$prc" = "$hrc" ] && cmp -s "$TMP/g.pout" "$TMP/g.out" && [ "$(head -4 "$TMP/g.perf")" = "$(head -4 "$TMP/g.hw")" ]; then
  pass "-g without callchains: perf's error and exit code ($hrc)"
else
  fail "-g without callchains: exit $hrc (perf $prc)"; head -4 "$TMP/g.perf" "$TMP/g.hw"
fi

# options and keys hwprof does not implement: an error, never a table
# (unknown keys get perf's own refusal: report_keys.sh compares it)
refuse "pipeline-stage key by a prefix" "$TMP/plain.data" --sort local_p_stage
refuse "--tui" "$TMP/plain.data" --tui
if rec dwarf -e cpu-clock -c 200000 --call-graph dwarf,4096 -- $W; then
  compare "dwarf --no-children -g none" "$TMP/dwarf.data" --no-children -g none
  # unwound user stacks with perf's inline expansion (more in script_dwarf.sh)
  compare "dwarf (children, graph)" "$TMP/dwarf.data"
  compare "dwarf --no-children" "$TMP/dwarf.data" --no-children
  compare "dwarf -G --sort pid,sym" "$TMP/dwarf.data" -G --sort pid,sym
fi

# Arm SPE files written by tests/tools/spe_mkperf: samples synthesized by
# the library, perf's default --itrace (children mode) and others
SPE_OPTS=(
  ""
  "--itrace=i1i"
  "--itrace=bftmMa -n --sort pid,dso,sym"
  "--itrace=fm -n --sort dso,sym"
  "--itrace=fg"
  "--no-children -q"
  "--percent-limit 1 -g none"
  "--no-itrace"
)
spe_variant() { # name, spe_mkperf args...
  local name=$1; shift
  if ! "$GEN/spe_mkperf" "$@" "$TMP/$name.data" >/dev/null 2>&1; then fail "$name: spe_mkperf"; return; fi
  for O in "${SPE_OPTS[@]}"; do
    # shellcheck disable=SC2086
    compare "spe $name $O" "$TMP/$name.data" $O
  done
}
if [ -x "$GEN/spe_mkperf" ]; then
  spe_variant n1-context --seed 11
  spe_variant n1-phys --phys --seed 5
  spe_variant generic-a76 --midr 0x00000000413fd0b0 --seed 2
  spe_variant switch-events --no-context --cpus 3 --seed 4
  spe_variant split-buffers --cpus 4 --bufsize 301 --seed 6
  spe_variant bad-bytes --garbage --bufsize 777 --seed 7
  spe_variant timeless --timeless --seed 8
  spe_variant timeless-switch --timeless --no-context --cpus 3 --garbage
  spe_variant symbols-clock --dso "$GEN/spe_mkperf" --clock 80 --seed 12
else
  skip "Arm SPE reports (tests/tools/spe_mkperf not built)"
fi

# no samples at all: perf's first lines and message, exit 0
if rec empty -e cpu-clock -c 1000000000 -- true; then
  compare "no samples" "$TMP/empty.data"
  compare "no samples --header" "$TMP/empty.data" --header
fi
refuse "-g branch" "$TMP/fp.data" -g graph,0.5,caller,branch
finish
