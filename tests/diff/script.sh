# Differential: `hwprof script` against Debian perf 6.1 `perf script` on
# files recorded here by perf (software events: callchains, -a, two events,
# regs, page faults with addresses, pipe mode, a C++ program for
# demangling), default output and many -F field sets. Zero differing bytes
# is the bar; for bad -F requests the message and exit code must match.
source tests/lib/common.sh
if ! have_perf; then skip "script differential (perf not installed)"; finish; fi

compare() { # name, file, script args...
  local name=${1//\//_} f=$2; shift 2 # the name is a file name
  perf script -i "$f" "$@" >"$TMP/$name.perf" 2>"$TMP/$name.perf.err"; local prc=$?
  "$HWPROF" script -i "$f" "$@" >"$TMP/$name.hw" 2>"$TMP/$name.hw.err"; local hrc=$?
  if [ "$prc" -ne "$hrc" ]; then
    fail "$name: exit $hrc, perf $prc: $(head -1 "$TMP/$name.hw.err")"; return
  fi
  if [ "$prc" -ne 0 ]; then # the same first message line
    if [ "$(head -1 "$TMP/$name.perf.err")" = "$(head -1 "$TMP/$name.hw.err")" ]; then
      pass "$name: same error ($(head -1 "$TMP/$name.perf.err"))"
    else
      fail "$name: error differs"; head -2 "$TMP/$name.perf.err" "$TMP/$name.hw.err"
    fi
    return
  fi
  if cmp -s "$TMP/$name.perf" "$TMP/$name.hw"; then
    pass "$name: script identical ($(wc -l <"$TMP/$name.perf") lines)"
  else
    fail "$name: script differs"; diff "$TMP/$name.perf" "$TMP/$name.hw" | head -10
  fi
}

rec() { # name, perf record args...
  local name=$1; shift
  if ! perf record -q -o "$TMP/$name.data" "$@" >/dev/null 2>"$TMP/$name.rec.err"; then
    fail "$name: perf record failed: $(head -1 "$TMP/$name.rec.err")"; return 1
  fi
}

W="ls -R /usr/share/doc/bash /usr/share/doc/coreutils"
FIELDS=(
  "comm,tid,time,ip,sym"
  "comm,pid,tid,time,event,ip,sym,symoff,dso"
  "ip,sym,dso"
  "ip"
  "comm,sym"
  "pid"
  "tid,period,event"
  "+pid"
  "-period"
  "-dso,-symoff"
  "sw:comm,ip,sym"
  "hw:comm"
  "time,misc,ip"
  "comm,ip,symoff"
  "comm,addr"
  "comm,cpu"
  "comm,iregs"
  "comm,uregs"
  "comm,weight"
  "comm,phys_addr"
  "nosuchfield"
  "comm,+pid"
)

if rec plain -e cpu-clock -c 100000 -- $W; then
  compare plain "$TMP/plain.data"
  for F in "${FIELDS[@]}"; do compare "plain -F $F" "$TMP/plain.data" -F "$F"; done
  compare "plain --ns" "$TMP/plain.data" --ns
fi
if rec fp -e cpu-clock -c 50000 -g -- $W; then
  compare fp-callchain "$TMP/fp.data"
  compare "fp -G" "$TMP/fp.data" -G
  for F in "comm,tid,ip,sym" "ip,dso" "comm,ip" "ip,sym,symoff" "-ip"; do
    compare "fp -F $F" "$TMP/fp.data" -F "$F"
  done
fi
rec freq -e task-clock -F 2000 -g -- $W && compare task-clock-freq "$TMP/freq.data"
if rec sw -e cpu-clock -c 1000000 -a -- sleep 0.1; then
  compare system-wide "$TMP/sw.data"
  compare "system-wide -F comm,cpu,time,ip,sym" "$TMP/sw.data" -F comm,cpu,time,ip,sym
fi
if rec two -e cpu-clock,task-clock -c 100000 -- $W; then
  compare two-events "$TMP/two.data"
  compare "two-events -F event,ip" "$TMP/two.data" -F event,ip
fi
if rec regs -e cpu-clock -c 100000 -I --user-regs=ax,bx,sp,ip -- $W; then
  compare "regs -F ip,sym,iregs,uregs" "$TMP/regs.data" -F ip,sym,iregs,uregs
  compare "regs -F comm,+iregs" "$TMP/regs.data" -F comm,iregs
fi
if rec pf -e page-faults -c 1 -d -- $W; then
  compare page-faults "$TMP/pf.data"
  compare "page-faults -F comm,addr,ip,sym,dso" "$TMP/pf.data" -F comm,addr,ip,sym,dso
  compare "page-faults -F addr,sym,symoff,dso" "$TMP/pf.data" -F addr,ip,sym,symoff,dso
fi
rec comp -z -e cpu-clock -c 100000 -- $W && compare compressed "$TMP/comp.data"
if rec dwarf -e cpu-clock -c 200000 --call-graph dwarf,4096 -- $W; then
  compare "dwarf -G" "$TMP/dwarf.data" -G
  compare "dwarf -F comm,tid,time" "$TMP/dwarf.data" -F comm,tid,time
  compare "dwarf (unwound callchains, more in script_dwarf.sh)" "$TMP/dwarf.data"
fi

# pipe mode, from a file and from stdin
if perf record -q -e cpu-clock -c 100000 -o - -- $W >"$TMP/pipe.data" 2>/dev/null; then
  compare pipe-file "$TMP/pipe.data"
  perf script -i - <"$TMP/pipe.data" >"$TMP/pipe.perf" 2>/dev/null
  if cat "$TMP/pipe.data" | "$HWPROF" script >"$TMP/pipe.hw" 2>&1 && cmp -s "$TMP/pipe.perf" "$TMP/pipe.hw"; then
    pass "pipe stream on stdin: script identical"
  else fail "pipe stream on stdin: script differs"; diff "$TMP/pipe.perf" "$TMP/pipe.hw" | head; fi
fi

# PLT stubs: perf 6.1 synthesizes name@plt symbols after extending the
# zero-sized _init over the whole .plt, so which of the two it names
# depends on its symbol tree's search path (an exact replay here)
cat >"$TMP/nop.c" <<'C'
void nop(void) {}
C
cat >"$TMP/pltmain.c" <<'C'
#include <stdlib.h>
void nop(void);
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	for (long i = 0; i < n; i++)
		nop();
	return 0;
}
C
if cc -O2 -fPIC -shared -o "$TMP/libnop.so" "$TMP/nop.c" &&
   cc -O2 -o "$TMP/pltmain" "$TMP/pltmain.c" -L"$TMP" -lnop -Wl,-rpath,"$TMP" &&
   rec plt -e cpu-clock:u -c 100000 -g -- "$TMP/pltmain"; then
  if perf script -i "$TMP/plt.data" -F ip,sym 2>/dev/null | grep -q "_init\|@plt"; then pass "plt: samples in the PLT"
  else fail "plt: no samples in the PLT"; fi
  compare plt-stubs "$TMP/plt.data" -F ip,sym,symoff,dso
  compare plt-stubs-chain "$TMP/plt.data"
fi

# system-wide with call graphs: kernel init text past the kernel map's
# length (the idle task's start_kernel), whatever else runs meanwhile
if rec sysg -e cpu-clock -c 200000 -a -g -- sleep 0.3; then
  compare system-wide-g "$TMP/sysg.data"
fi

# C++: demangled names as perf prints them
if command -v g++ >/dev/null; then
  cat >"$TMP/cpp.cc" <<'CC'
#include <cstdio>
namespace ns { template<class T> struct W { static T __attribute__((noinline)) spin(T n) { volatile T s = 0; for (T i = 0; i < n; i++) s += i; return s; } }; }
int main() { printf("%ld\n", (long)ns::W<long>::spin(100000000L)); }
CC
  if g++ -O1 -o "$TMP/cpp" "$TMP/cpp.cc" && rec cpp -e cpu-clock -c 1000000 -g -- "$TMP/cpp"; then
    compare cpp-demangle "$TMP/cpp.data"
    if grep -q 'ns::W<long>::spin' "$TMP/cpp-demangle.hw"; then pass "cpp: demangled name present"
    else fail "cpp: no demangled name in the output"; fi
  fi
else
  skip "cpp demangling (g++ not installed)"
fi
# branch stacks (perf record -b, --call-graph lbr): -F brstack, brstacksym
# and brstackoff (offsets only in DSOs perf has no ELF file for, the
# kernel's map too), with and without dso; --call-graph lbr chains are
# the kernel part then the LBR call stack
for fx in branch branch-syms lbr; do
  if ! "$GEN/mkperfdata" $fx "$TMP/$fx.data"; then fail "mkperfdata $fx"; continue; fi
  for fl in ip,brstack ip,brstacksym ip,brstackoff ip,sym,dso,brstack ip,brstacksym,dso ip,brstackoff,dso \
            +brstack ip,brstack,brstacksym; do
    compare "$fx-$fl" "$TMP/$fx.data" -F "$fl"
  done
  compare "$fx-default" "$TMP/$fx.data"
done
# tod (the time of day from CLOCK_DATA; perf's refusal without it) and
# srccode (the source line once per thread and line, addr2line's path:
# relative ones under the unit's directory), on a -g -O1 program of ours
cat >"$TMP/src.c" <<'EOF2'
static volatile long sink;
__attribute__((noinline)) static void leaf(long n) { for (long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) static void mid(long n) { leaf(n); leaf(n / 3); }
int main(void) { for (int r = 0; r < 40; r++) mid(400000); return (int)(sink & 1); }
EOF2
if (cd "$TMP" && cc -g -O1 -fno-omit-frame-pointer -o src src.c) &&
   rec src -k CLOCK_MONOTONIC -e cpu-clock -c 100000 -g -- "$TMP/src"; then
  for fl in ip,srccode comm,tid,ip,sym,srccode tod ip,tod ip,srccode,tod; do
    compare "src-$fl" "$TMP/src.data" -F "$fl"
  done
  compare "src-ns-tod" "$TMP/src.data" --ns -F tod,time,ip
  # --time ranges and --reltime / --deltatime
  T0=$(perf script -i "$TMP/src.data" -F time 2>/dev/null | head -1 | tr -d ' :')
  T1=$(perf script -i "$TMP/src.data" -F time 2>/dev/null | tail -1 | tr -d ' :')
  MID=$(echo "scale=6; ($T0 + $T1) / 2" | bc)
  for a in "--time=0%-50%" "--time=10%/2,10%/3" "--time=$MID," "--time=abc" "--reltime" "--deltatime" \
           "--reltime --deltatime" "--reltime --time=0.01,0.05" "--deltatime --ns"; do
    # shellcheck disable=SC2086
    compare "src-time-$a" "$TMP/src.data" $a
  done
fi
[ -s "$TMP/branch-syms.data" ] && compare "branch-syms-srccode" "$TMP/branch-syms.data" -F tid,ip,srccode
[ -s "$TMP/branch.data" ] && compare "no-clock-tod" "$TMP/branch.data" -F ip,tod
[ -s "$TMP/src.data" ] && compare "no-any-brstackinsn" "$TMP/src.data" -F ip,brstackinsn
# the --comms, --pid, --tid and -C filters (perf's lists: -C reads while a
# token starts with a digit, refuses CPUs past the file's NRCPUS, and needs
# CPUs in every event)
if rec cpus -a -e cpu-clock -c 200000 -- sh -c 'ls -R /usr/share/doc >/dev/null; sleep 0.1'; then
  PID=$(perf script -i "$TMP/cpus.data" -F pid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR==1{print $2}')
  for a in "-C 0" "-C 0-1,x" "-C 1a" "-C 3000" "-C 0x1" "--comms ls,sleep" "-c swapper" "--pid $PID" "--tid $PID,1" \
           "--pid abc" "--tid 1x" "--comms ls -C 1"; do
    # shellcheck disable=SC2086
    compare "filter $a" "$TMP/cpus.data" $a
  done
  # --dsos and -S/--symbols (perf's setup_addrlist: entries that read as
  # hex, "add" too, match the sample's address, or a range of it)
  IP=$(perf script -i "$TMP/cpus.data" -F ip 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR==1{print $2}')
  SYM=$(perf script -i "$TMP/cpus.data" -F ip,sym 2>/dev/null | awk 'NF>1 && $2!="[unknown]"{print $2}' |
        sort | uniq -c | sort -rn | awk 'NR==1{print $2}')
  LOW=$(printf '%x' $((0x$IP - 8)))
  for a in "--dsos [kernel.kallsyms]" "--dsos libc.so.6,ls" "--dsos nothing" "-S $SYM" "-S $SYM,add,0x$IP" \
           "-S $IP -F ip,sym" "-S $LOW" "-S $LOW --addr-range 16" "-S $SYM --dsos libc.so.6" "--addr-range x"; do
    # shellcheck disable=SC2086
    compare "filter $a" "$TMP/cpus.data" $a
  done
fi
[ -s "$TMP/src.data" ] && compare "filter -C without CPUs" "$TMP/src.data" -C 0
# a kernel 512 MB above the running one (another boot, another machine):
# perf relocates the running kallsyms by the recorded _text; module frames
# print at their address, named [mod] when no build-id entry names them;
# a foreign kernel build id: perf's "No kallsyms or vmlinux" message
for k in kreloc pipekreloc kreloc-bid; do
  if "$GEN/mkperfdata" $k "$TMP/$k.data" 2>"$TMP/mk.err"; then
    compare "$k" "$TMP/$k.data"
    for o in "" "--no-children -g caller"; do
      # shellcheck disable=SC2086
      perf report --stdio -i "$TMP/$k.data" $o 2>"$TMP/pe" | report_filter >"$TMP/p.txt"
      # shellcheck disable=SC2086
      "$HWPROF" report --stdio -i "$TMP/$k.data" $o 2>"$TMP/he" | report_filter >"$TMP/h.txt"
      if cmp -s "$TMP/p.txt" "$TMP/h.txt" && cmp -s "$TMP/pe" "$TMP/he"; then pass "$k report $o: identical"
      else fail "$k report $o"; diff "$TMP/p.txt" "$TMP/h.txt" | head -4; diff "$TMP/pe" "$TMP/he" | head -2; fi
    done
  elif grep -q kptr_restrict "$TMP/mk.err"; then skip "$k: $(cat "$TMP/mk.err")"
  else fail "mkperfdata $k: $(cat "$TMP/mk.err")"; fi
done
# --show-*-events: side-band records after the start fields of their event
# (processed first, as perf does, except EXIT, LOST and switches)
if rec side --switch-events --namespaces --all-cgroups -a -e cpu-clock -c 500000 -- sh -c 'ls -R /usr/share/doc/bash >/dev/null; sleep 0.1'; then
  for a in "--show-task-events" "--show-mmap-events" "--show-switch-events" "--show-namespace-events --show-cgroup-events" \
           "--show-task-events --show-mmap-events --show-switch-events -F comm,tid,time,cpu,misc,event" \
           "--show-switch-events -C 1" "--show-task-events --reltime" "--show-lost-events --show-bpf-events"; do
    # shellcheck disable=SC2086
    compare "side $a" "$TMP/side.data" $a
  done
fi
for fx in branch-syms lbr; do
  [ -s "$TMP/$fx.data" ] && compare "$fx --show-task-events --show-mmap-events" "$TMP/$fx.data" --show-task-events --show-mmap-events
done
[ -s "$TMP/src.data" ] && compare "src --show-task-events --show-mmap-events" "$TMP/src.data" --show-task-events --show-mmap-events
# brstackinsn/brstackinsnlen: each block between a sample's branches
# replayed from the DSO's code with perf's own x86 decoder (undefined
# encodings included: branch-syms' random blocks start mid-instruction),
# symbol and source lines, flags, cycles and IPC, the kernel/user patch-up,
# the block up to the sample, --max-blocks; branch-flow's stacks follow
# mkperfdata's own jumps, so its blocks hold real code
if [ -s "$TMP/branch-syms.data" ]; then
  for fl in ip,brstackinsn +brstackinsn ip,sym,brstackinsnlen ip,insn,insnlen,brstackinsn ip,insn,insnlen; do
    compare "branch-syms-$fl" "$TMP/branch-syms.data" -F "$fl"
  done
  compare "branch-syms-maxblocks" "$TMP/branch-syms.data" -F ip,brstackinsn --max-blocks 2
fi
for fx in branch lbr; do
  [ -s "$TMP/$fx.data" ] && compare "$fx-brstackinsn" "$TMP/$fx.data" -F ip,brstackinsn,brstackinsnlen
done
if "$GEN/mkperfdata" branch-flow "$TMP/branch-flow.data"; then
  for fl in ip,brstackinsn +brstackinsn ip,sym,brstackinsnlen ip,brstackinsn,srccode ip,sym,srcline,brstackinsn \
            ip,srcline,brstackinsnlen,srccode ip,sym,symoff,dso,brstack,brstackinsn brstackinsn,srccode; do
    compare "branch-flow-$fl" "$TMP/branch-flow.data" -F "$fl"
  done
  compare "branch-flow-maxblocks-1" "$TMP/branch-flow.data" -F ip,brstackinsnlen --max-blocks 1
  compare "branch-flow-maxblocks-3" "$TMP/branch-flow.data" -F ip,brstackinsn --max-blocks 3
  if grep -q 'IPC$' "$TMP/branch-flow-ip,brstackinsn.hw" && grep -q '^	main+' "$TMP/branch-flow-ip,brstackinsn.hw"; then
    pass "branch-flow: blocks with symbol lines and IPC"
  else
    fail "branch-flow: no symbol lines or IPC in brstackinsn"
  fi
else
  fail "mkperfdata branch-flow"
fi
finish
