# hwprof script --itrace on Intel PT perf.data files against perf 6.1's
# perf script, byte for byte (stdout and exit status). The files come from
# the ptrace emulator (tests/tools/pt_emulate) over tests/data/pt programs,
# as in pt_flow.sh. Per program, several --itrace sets and -F field lists.
# Dynamic binaries are compared without symbol names: perf 6.1 shows their
# .plt entries under the overlapping _init symbol (its symbol tree walk),
# which is the symbol library's business, not this synthesis'.
# l[N] branch stacks (-F brstack, brstacksym, brstackoff) on instruction and power
# samples; q / qq quick decoding (without timestamps: Z). Also: options we do not synthesize fail with one line; flipped trace
# bytes give error lines in perf's format and no crash. (x, w, o and I are
# taken: the emulator makes no TSX, PTWRITE, PEBS or event-trace data.)
source tests/lib/common.sh
emu="$GEN/pt_emulate"
if [ ! -x "$emu" ]; then skip "PT script (no $emu)"; finish; fi
if ! command -v gcc >/dev/null 2>&1; then skip "PT script (no gcc)"; finish; fi
if ! have_perf; then skip "PT script (no perf)"; finish; fi

# perf script and hwprof script on FILE with --itrace=ARGS (split): the
# same non-empty output and the same messages
same_itrace() { # name, file, itrace args
  local name=$1 f=$2 it=$3
  # shellcheck disable=SC2086
  perf script -i "$f" --itrace=$it >"$TMP/perf.out" 2>"$TMP/perf.err"
  # shellcheck disable=SC2086
  "$HWPROF" script -i "$f" --itrace=$it >"$TMP/ours.out" 2>"$TMP/ours.err"
  if [ -s "$TMP/perf.out" ] && cmp -s "$TMP/perf.out" "$TMP/ours.out" && cmp -s "$TMP/perf.err" "$TMP/ours.err"; then
    pass "$name, --itrace=$it ($(wc -l <"$TMP/perf.out") lines)"
  else
    fail "$name, --itrace=$it: $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -2 "$TMP/ours.err")"
  fi
}

cases=("loops-O0-static tests/data/pt/loops.c -O0 -static"
       "jumps-O0-static tests/data/pt/jumps.c -O0 -static"
       "signals-O0-static tests/data/pt/signals.c -O0 -static"
       "threads-O0-static tests/data/pt/threads.c -O0 -static"
       "loops-O2 tests/data/pt/loops.c -O2"
       "signals-O2 tests/data/pt/signals.c -O2"
       "asm tests/data/pt/asm.S -nostdlib -static")
variants=("" "--noretcomp" "--defer-tip --psb 100" "--long-tnt --timing --psb 256")

# itrace set | -F list ('' = perf's default fields)
static_checks=("b|" "c|" "r|" "cr|" "i1i|" "i7i|" "bi3i|" "be|" "bZ|" "p|" "bpe|" "i3ip|+synth" "b|+callindent" "cr|tid,callindent,dso" "pb|+insn" "b|+ipc" "bs3|" "i1is7|" "pbs3|" "i2is5|+flags" "i7ig|" "bi9ig2|ip,sym,flags,addr,insn"
	       "b|+flags" "i1i|+flags,+addr,+insn,+insnlen"
	       "b|ip,sym,symoff,dso,addr,flags,insn,insnlen"
	       "i1i|comm,tid,pid,event,period,ip,sym,symoff,addr,flags"
	       "cr|tid,ip,sym,dso,flags" "b|-period,+insnlen" "i3t|" "i37t|+flags"
	       "i1il3|+brstack" "i7il|+brstacksym,+insn" "bpi5il5|+brstack,+flags" "i9igl4|+brstack"
	       "i3il2|ip,brstacksym,brstack" "i11il2|brstacksym" "i5iL|+brstack" "i13tl6|+brstacksym"
	       "i1iqZ|+flags,+addr" "bpiqZ|+flags" "bpqqZ|+flags" "crqZ|" "i3iqgl3Z|+brstack"
	       "i5il3|+brstackoff" "i9il2|ip,dso,brstackoff")
dyn_checks=("b|comm,tid,period,event,ip,dso,addr,flags" "i1i|tid,ip,addr,flags,insn,insnlen" "pb|tid,event,ip,synth"
	    "cr|tid,event,ip,addr,flags" "bi5i|comm,pid,tid,event,period,ip,dso,addr"
	    "i3il4|tid,ip,dso,brstack" "bpi9il|tid,event,ip,brstack" "bpiqZ|tid,event,ip,dso,addr,flags"
	    "piqqZ|tid,event,ip,dso" "i3il4|tid,ip,dso,brstackoff")

i=0
for c in "${cases[@]}"; do
  set -- $c
  name=$1 src=$2; shift 2
  opts=${variants[$((i % ${#variants[@]}))]}; i=$((i + 1))
  if [[ $HWPROF_BUILD == *san* ]] && (( i % 2 == 0 )); then continue; fi
  label="$name${opts:+ ($opts)}"
  if ! gcc "$@" -pthread -o "$TMP/$name" "$src" -lm 2>"$TMP/cc.err"; then
    skip "$label (cannot build: $(head -1 "$TMP/cc.err"))"; continue
  fi
  if ! "$emu" $opts "$TMP/$name" "$TMP/$name" >/dev/null 2>"$TMP/emu.err"; then
    if grep -q -i 'perm' "$TMP/emu.err"; then skip "$label (ptrace not permitted)"; continue; fi
    fail "$label: emulator: $(cat "$TMP/emu.err")"; continue
  fi
  data="$TMP/$name.data"
  checks=("${static_checks[@]}")
  [[ $name == *-O2 ]] && checks=("${dyn_checks[@]}")
  for chk in "${checks[@]}"; do
    it=${chk%%|*} fl=${chk#*|}
    args=(-i "$data" --itrace="$it")
    [ -n "$fl" ] && args+=(-F "$fl")
    perf script "${args[@]}" >"$TMP/perf.out" 2>/dev/null; prc=$?
    "$HWPROF" script "${args[@]}" >"$TMP/ours.out" 2>"$TMP/ours.err"; orc=$?
    what="$label: --itrace=$it${fl:+ -F $fl}"
    if [ $prc = $orc ] && [ -s "$TMP/perf.out" ] && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
      pass "$what ($(wc -l <"$TMP/perf.out") lines)"
    else
      fail "$what: exit $orc vs perf $prc; $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -1 "$TMP/ours.err")"
    fi
  done
  # no --itrace (perf script's default set), a bare --itrace, call traces
  if [[ $name != *-O2 ]]; then
    for bare in "" "--itrace" "--call-trace" "--call-ret-trace"; do
      perf script -i "$data" $bare >"$TMP/perf.out" 2>/dev/null; prc=$?
      "$HWPROF" script -i "$data" $bare >"$TMP/ours.out" 2>"$TMP/ours.err"; orc=$?
      if [ $prc = $orc ] && [ -s "$TMP/perf.out" ] && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
        pass "$label: ${bare:-no --itrace} ($(wc -l <"$TMP/perf.out") lines)"
      else
        fail "$label: ${bare:-no --itrace}: exit $orc vs perf $prc; $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -1 "$TMP/ours.err")"
      fi
    done
  fi
  # --insn-trace: perf's i0ns with +insn,-event,-period and --ns
  perf script -i "$data" --insn-trace >"$TMP/perf.out" 2>/dev/null; prc=$?
  "$HWPROF" script -i "$data" --insn-trace >"$TMP/ours.out" 2>"$TMP/ours.err"; orc=$?
  if [ $prc = $orc ] && [ -s "$TMP/perf.out" ] && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
    pass "$label: --insn-trace ($(wc -l <"$TMP/perf.out") lines)"
  elif [[ $name == *-O2 ]]; then
    skip "$label: --insn-trace (symbols of .plt entries differ, see above)"
  else
    fail "$label: --insn-trace: exit $orc vs perf $prc; $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -1 "$TMP/ours.err")"
  fi
  last=$data
done

# traces perf decodes with timestamps (cap_user_time_zero): the sample
# times come from perf's TSC/MTC/CYC estimate (MTC after CYC calibrates
# the cycle time, trace begins take its instruction estimate), compared to
# the nanosecond; Z decodes without them like perf does. Per program and
# emulator variant, several --itrace sets; several threads in perf's
# order across their queues.
timed_cases=("loops tests/data/pt/loops.c -O0 -static|--long-tnt"
             "jumps tests/data/pt/jumps.c -O0 -static|--noretcomp --psb 100"
             "signals tests/data/pt/signals.c -O2|--psb 256"
             "dl tests/data/pt/dl.c -O2|--long-tnt --defer-tip")
for tc in "${timed_cases[@]}"; do
  build=${tc%%|*} eopts=${tc#*|}
  set -- $build
  name=$1 src=$2; shift 2
  if ! gcc "$@" -pthread -o "$TMP/tz_$name" "$src" -lm 2>/dev/null ||
     ! "$emu" --timing --time-zero $eopts "$TMP/tz_$name" "$TMP/tz_$name" >/dev/null 2>&1; then
    skip "timed trace $name (cannot build or emulate)"; continue
  fi
  # periods in time: perf's decoder clock plus a tick per instruction
  for it in "b|--ns" "i1i|--ns" "cr|--ns" "i7ig|--ns" "b|" "bZ|" "i1iZ|" "crZ|" \
            "i1us|--ns" "i100ns|--ns" "i10t|" "i3t|" "i1000tg|--ns" "i200nsZ|" "bi500ns|--ns" \
            "i1il3|--ns -F +brstack" "pi300nsl|-F +brstacksym"; do
    iset=${it%%|*} extra=${it#*|}
    perf script -i "$TMP/tz_$name.data" --itrace=$iset $extra -F +flags,+insn >"$TMP/perf.out" 2>/dev/null
    "$HWPROF" script -i "$TMP/tz_$name.data" --itrace=$iset $extra -F +flags,+insn >"$TMP/ours.out" 2>"$TMP/ours.err"
    if [ -s "$TMP/perf.out" ] && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
      pass "timed trace $name ($eopts), --itrace=$iset $extra ($(wc -l <"$TMP/perf.out") lines)"
    else
      fail "timed trace $name ($eopts), --itrace=$iset $extra: $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -1 "$TMP/ours.err")"
    fi
  done
  tz="$TMP/tz_$name.data"
done
if [ -n "${tz:-}" ]; then
  # q on a timed trace: refused (Z decodes it without timestamps)
  "$HWPROF" script -i "$tz" --itrace=iq >"$TMP/o" 2>"$TMP/e"; rc=$?
  if [ $rc != 0 ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ]; then
    pass "q with timestamps refused: $(cat "$TMP/e")"
  else
    fail "q with timestamps: exit $rc, $(head -c 200 "$TMP/o") $(head -2 "$TMP/e")"
  fi
fi
# several threads, timed: perf's order across the queues (its auxtrace
# heap, runs limited by the file's event times)
if gcc -O0 -static -pthread -o "$TMP/tz_threads" tests/data/pt/threads.c 2>/dev/null &&
   "$emu" --timing --time-zero "$TMP/tz_threads" "$TMP/tz_threads" >/dev/null 2>&1; then
  for it in "b|--ns" "i1i|--ns" "cr|" "i3is100|--ns" "bZ|" "i100ns|--ns" "i5t|" "i3il5|-F +brstack"; do
    iset=${it%%|*} extra=${it#*|}
    perf script -i "$TMP/tz_threads.data" --itrace=$iset $extra -F +flags >"$TMP/perf.out" 2>/dev/null
    "$HWPROF" script -i "$TMP/tz_threads.data" --itrace=$iset $extra -F +flags >"$TMP/ours.out" 2>"$TMP/ours.err"
    if [ -s "$TMP/perf.out" ] && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
      pass "timed trace of several threads, --itrace=$iset $extra ($(wc -l <"$TMP/perf.out") lines)"
    else
      fail "timed trace of several threads, --itrace=$iset $extra: $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -1 "$TMP/ours.err")"
    fi
  done
fi

# perf's per-cpu layout (the emulator puts thread n on cpu n after a
# context switch to it): the thread each cpu runs comes from the switch
# records, timed (through perf's queue order) and timeless; -C: perf
# decodes no trace of the other cpus (their errors do not show)
if gcc -O0 -static -pthread -o "$TMP/pc_threads" tests/data/pt/threads.c 2>/dev/null &&
   "$emu" --timing --time-zero --per-cpu "$TMP/pc_threads" "$TMP/pc_threads" >/dev/null 2>&1 &&
   "$emu" --per-cpu "$TMP/pc_notime" "$TMP/pc_threads" >/dev/null 2>&1; then
  for it in "pc_threads|b|--ns" "pc_threads|i1i|" "pc_threads|cr|-F +flags" "pc_threads|bZ|" "pc_notime|b|" "pc_notime|i3i|-F +flags" \
            "pc_threads|i300ns|--ns" "pc_notime|i64t|" "pc_threads|i7il3|-F +brstack" "pc_notime|i5il|-F +brstacksym" \
            "pc_threads|be|-C 0,2" "pc_notime|i3ie|-C 1"; do
    IFS='|' read -r f iset extra <<<"$it"
    # shellcheck disable=SC2086
    perf script -i "$TMP/$f.data" --itrace=$iset $extra >"$TMP/perf.out" 2>/dev/null
    # shellcheck disable=SC2086
    "$HWPROF" script -i "$TMP/$f.data" --itrace=$iset $extra >"$TMP/ours.out" 2>"$TMP/ours.err"
    if [ -s "$TMP/perf.out" ] && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
      pass "per-cpu trace $f, --itrace=$iset $extra ($(wc -l <"$TMP/perf.out") lines)"
    else
      fail "per-cpu trace $f, --itrace=$iset $extra: $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -1 "$TMP/ours.err")"
    fi
  done
fi

# IPC (-F ipc): perf's cycle count from CYC packets, or without them (perf's
# default intel_pt//: TSC, MTC and a CBR in PSB+) from the time and the core
# ratio; counted per state where its decoder takes a new count, per event
# kind; branch and instruction samples, timed per thread and per cpu (with
# samples: decoded as the events are read) and timeless; A (approximate
# IPC): every state, with the count of its sample time
if [ -x "$TMP/pc_threads" ] &&
   "$emu" --timing --time-zero "$TMP/ipc_cyc" "$TMP/pc_threads" >/dev/null 2>&1 &&
   "$emu" --timing --no-cyc --time-zero --psb 256 "$TMP/ipc_mtc" "$TMP/pc_threads" >/dev/null 2>&1 &&
   "$emu" --timing --no-cyc --time-zero --per-cpu --samples "$TMP/ipc_cpu" "$TMP/pc_threads" >/dev/null 2>&1; then
  for chk in "ipc_cyc|be|" "ipc_cyc|i1i|" "ipc_cyc|cr|" "ipc_cyc|bi10i|" "ipc_cyc|i10t|" "ipc_cyc|bZ|" \
             "ipc_mtc|b|" "ipc_mtc|i1i|" "ipc_mtc|i100ns|" "ipc_mtc|bi10i|--time-skip" "ipc_mtc|pb|" "ipc_mtc|bs5|" \
             "ipc_cpu|b|" "ipc_cpu|i100i|" "ipc_cpu|bi10i|" "ipc_mtc|bA|" "ipc_cyc|i10iA|" "ipc_cpu|bi10iA|"; do
    IFS='|' read -r f iset extra <<<"$chk"
    targs=()
    if [ "$extra" = --time-skip ]; then
      mapfile -t T < <(perf script -i "$TMP/$f.data" --itrace=b -F time --ns 2>/dev/null | tr -d ' :')
      targs=(--time "${T[$((${#T[@]} / 3))]},")
    fi
    perf script -i "$TMP/$f.data" --itrace=$iset "${targs[@]}" -F +ipc >"$TMP/perf.out" 2>/dev/null
    "$HWPROF" script -i "$TMP/$f.data" --itrace=$iset "${targs[@]}" -F +ipc >"$TMP/ours.out" 2>"$TMP/ours.err"
    n=$(grep -c 'IPC:' "$TMP/perf.out")
    if [ "$n" -gt 0 ] && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
      pass "$f --itrace=$iset ${targs[*]} -F +ipc ($n IPC values in $(wc -l <"$TMP/perf.out") lines)"
    else
      fail "$f --itrace=$iset ${targs[*]} -F +ipc ($n IPC values): $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -1 "$TMP/ours.err")"
    fi
  done
fi

# --time: perf's decoder starts each range at the last PSB before it (its
# fast forward: the first PSB of each buffer, then the PSBs of one; moved
# within a buffer, its TSCs set no time until MTCs give one), makes no
# samples outside the ranges and stops after the last; --deltatime shifts
# the shown times (--reltime with --time needs the file's first sample
# time, which emulated files lack). PSBs every 256 bytes, per thread and
# per cpu (with samples: decoded as the events are read).
if [ -x "$TMP/pc_threads" ] &&
   "$emu" --timing --time-zero --psb 256 "$TMP/ff_thr" "$TMP/pc_threads" >/dev/null 2>&1 &&
   "$emu" --timing --time-zero --per-cpu --samples --psb 256 "$TMP/ff_cpu" "$TMP/pc_threads" >/dev/null 2>&1; then
  for f in ff_thr ff_cpu; do
    mapfile -t T < <(perf script -i "$TMP/$f.data" --itrace=b -F time --ns 2>/dev/null | tr -d ' :')
    n=${#T[@]}
    if [ "$n" -lt 100 ]; then fail "--time on $f: perf shows $n branches"; continue; fi
    t1=${T[$((n / 4))]} t2=${T[$((n * 45 / 100))]} t3=${T[$((n * 6 / 10))]} t4=${T[$((n * 8 / 10))]}
    for chk in "b|$t1,$t2|--ns" "i1i|$t3,|" "cr|,$t1|-F +flags" "i100ns|$t1,$t2 $t3,$t4|--ns" "i3il5|$t1,$t2 $t3,$t4|-F +brstack" \
               "bg|$t3,$t4|" "pe|$t1,$t2 $t3,$t4|" "b|$t1,$t2|--deltatime" "i100ns|$t3,|--deltatime --ns"; do
      IFS='|' read -r iset range extra <<<"$chk"
      # shellcheck disable=SC2086
      perf script -i "$TMP/$f.data" --itrace=$iset --time "$range" $extra >"$TMP/perf.out" 2>/dev/null
      # shellcheck disable=SC2086
      "$HWPROF" script -i "$TMP/$f.data" --itrace=$iset --time "$range" $extra >"$TMP/ours.out" 2>"$TMP/ours.err"
      if [ -s "$TMP/perf.out" ] && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
        pass "$f --itrace=$iset --time '$range' $extra ($(wc -l <"$TMP/perf.out") lines)"
      else
        fail "$f --itrace=$iset --time '$range' $extra: $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -1 "$TMP/ours.err")"
      fi
    done
  done
fi

# recorded with the kernel traced (intel_pt//, per cpu, with time): on a
# kernel whose symbols perf has (this machine's kallsyms) it follows the
# context switches through the trace at __switch_to (tests/diff/vmlinux.sh
# has traces that go there); with another machine's build id it has none
# and goes by the switch records alone
if "$emu" --timing --time-zero --per-cpu --kernel-bid "$TMP/kb" "$TMP/pc_threads" >/dev/null 2>&1 &&
   "$emu" --timing --time-zero --per-cpu --kernel "$TMP/kn" "$TMP/pc_threads" >/dev/null 2>&1; then
  # this machine's kernel: the trace never reaches __switch_to, so a
  # switch record seen while tracing waits for it, its thread never taken
  # (as perf does)
  sets=("kb|another machine's kernel|b cr i100i")
  grep -q ' T __switch_to$' /proc/kallsyms 2>/dev/null && sets+=("kn|this machine's kernel|b i100i")
  for set in "${sets[@]}"; do
    IFS='|' read -r f what isets <<<"$set"
    for iset in $isets; do
      same_itrace "per-cpu trace with the kernel traced, $what" "$TMP/$f.data" "$iset"
    done
  done
fi

# the file's own samples (a cpu-clock event) among the trace's: perf runs
# the queues up to each event's time, so its lines come in between
for lay in "--per-cpu" ""; do
  if "$emu" --timing --time-zero $lay --samples "$TMP/sm" "$TMP/pc_threads" >/dev/null 2>&1; then
    isets=(b i100i i1000ns)
    # G and L per cpu (pt_report.sh has them per thread too)
    [ -n "$lay" ] && isets+=(G bG "i50igG" "i20il4L6 -F +brstack" "GL8 -F +brstacksym" "G --max-stack 3") &&
      cp "$TMP/sm.data" "$TMP/sf.data" # for the filters below
    for iset in "${isets[@]}"; do
      # shellcheck disable=SC2086
      perf script -i "$TMP/sm.data" --itrace=$iset >"$TMP/perf.out" 2>"$TMP/perf.err"
      # shellcheck disable=SC2086
      "$HWPROF" script -i "$TMP/sm.data" --itrace=$iset >"$TMP/ours.out" 2>"$TMP/ours.err"
      if [ -s "$TMP/perf.out" ] && cmp -s "$TMP/perf.out" "$TMP/ours.out" && grep -q cpu-clock "$TMP/perf.out"; then
        pass "trace with cpu-clock samples ${lay:-per-thread}, --itrace=$iset ($(wc -l <"$TMP/perf.out") lines)"
      else
        fail "trace with cpu-clock samples ${lay:-per-thread}, --itrace=$iset: $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -2 "$TMP/ours.err")"
      fi
    done
  fi
done

# perf script's filters apply to the trace's samples (their thread is the
# queue's, their comm the one it had then), and --show-*-events records
# come among them in time order (decoded as the events are read)
for lay in "--per-cpu"; do
  [ -s "$TMP/sf.data" ] || continue
  t2=$(perf script -i "$TMP/sf.data" -F tid 2>/dev/null | tr -d ' ' | sort -u | sed -n 2p)
  mapfile -t T < <(perf script -i "$TMP/sf.data" --itrace=b -F time --ns 2>/dev/null | tr -d ' :')
  tr="${T[$((${#T[@]} / 3))]},${T[$((${#T[@]} * 2 / 3))]}"
  for it in "b --tid $t2" "i100i --comms pc_threads" "bG --tid $t2" "b -S work" "b --dsos pc_threads" \
            "b --show-task-events" "i100i --show-mmap-events --show-switch-events" "be --show-task-events --pid $t2" \
            "i100i --itrace=b" "b --itrace=i100i" "b --show-switch-events --time $tr" "i100i --tid $t2 --time $tr" \
            "be -C 1" "bG -C 0,2 --show-switch-events"; do
    same_itrace "filters and side events ${lay:-per-thread}" "$TMP/sf.data" "$it"
  done
done

# the same traces with their program gone: perf scans for a full IP after
# failing to get an instruction, reports a file it cannot open twice and
# then goes on quietly, and a PSB's FUP it resyncs at is no branch
# (once when perf tried to read the file before: a [vdso] mapping makes it
# open the thread's files for their ELF class, and script reads each
# printed sample's instruction)
gone=("pc_threads|be|" "pc_threads||" "pc_threads|cre|" "pc_notime|be|" "pc_threads|i3ie|")
if [ -s "$TMP/pc_threads.data" ] && "$emu" --timing --time-zero --per-cpu --vdso --samples "$TMP/pv" "$TMP/pc_threads" >/dev/null 2>&1; then
  gone+=("pv|be|" "pv|e|" "pv|G|")
fi
if [ -s "$TMP/pc_threads.data" ] && mv "$TMP/pc_threads" "$TMP/pc_threads.gone"; then
  for it in "${gone[@]}"; do
    IFS='|' read -r f iset extra <<<"$it"
    # shellcheck disable=SC2086
    perf script -i "$TMP/$f.data" ${iset:+--itrace=$iset} $extra >"$TMP/perf.out" 2>"$TMP/perf.err"
    # shellcheck disable=SC2086
    "$HWPROF" script -i "$TMP/$f.data" ${iset:+--itrace=$iset} $extra >"$TMP/ours.out" 2>"$TMP/ours.err"
    if [ -s "$TMP/perf.out" ] && cmp -s "$TMP/perf.out" "$TMP/ours.out" && cmp -s "$TMP/perf.err" "$TMP/ours.err"; then
      pass "per-cpu trace $f without its program, --itrace=$iset ($(wc -l <"$TMP/perf.out") lines, same warning)"
    else
      fail "per-cpu trace $f without its program, --itrace=$iset: $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(diff "$TMP/perf.err" "$TMP/ours.err" | head -3 | tr '\n' ' ')"
    fi
  done
  mv "$TMP/pc_threads.gone" "$TMP/pc_threads"
fi

# -F srcline on the trace's lines (a program with debug info): after the
# symbol, or last on a branch line, as perf prints it
if gcc -O0 -g -o "$TMP/lsrc" tests/data/pt/loops.c 2>/dev/null &&
   "$emu" --timing --time-zero "$TMP/lsrc" "$TMP/lsrc" >/dev/null 2>&1; then
  for it in "b -F +srcline" "i100i -F +srcline,+addr" "cr -F +srcline"; do
    # shellcheck disable=SC2086
    perf script -i "$TMP/lsrc.data" --itrace=$it >"$TMP/perf.out" 2>"$TMP/perf.err"
    # shellcheck disable=SC2086
    "$HWPROF" script -i "$TMP/lsrc.data" --itrace=$it >"$TMP/ours.out" 2>"$TMP/ours.err"
    if grep -q 'loops.c:' "$TMP/perf.out" && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
      pass "srcline on the trace's lines, --itrace=$it ($(wc -l <"$TMP/perf.out") lines)"
    else
      fail "srcline on the trace's lines, --itrace=$it: $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ') $(head -2 "$TMP/ours.err")"
    fi
  done
fi

# snapshot mode (perf record -S; the emulator's --snapshot SIZE,STEP: the
# last SIZE bytes of the ring every STEP bytes of trace): perf cuts off
# what the queue's previous buffer holds too (by the TSCs of their PSB+s,
# or without TSC by the bytes), goes on where a buffer continues the one
# before and starts afresh where it does not (a gap), walking no further
# than a buffer's last packet; the PSB of a synchronisation shows perf's
# last PSB offset. Overlapping, with gaps, without TSC, per cpu with
# samples, with --time, -C, IPC and report.
if [ -x "$TMP/pc_threads" ]; then
  for sn in "sn_over|--timing --time-zero --psb 256 --snapshot 2048,1536" \
            "sn_gaps|--timing --time-zero --psb 256 --snapshot 1024,1536" \
            "sn_notsc|--psb 256 --snapshot 2048,1536" \
            "sn_cpu|--timing --no-cyc --time-zero --per-cpu --samples --psb 256 --snapshot 700,1900"; do
    IFS='|' read -r f eopts <<<"$sn"
    # shellcheck disable=SC2086
    if ! "$emu" $eopts "$TMP/$f" "$TMP/pc_threads" >/dev/null 2>&1; then fail "emulate $f"; continue; fi
    mapfile -t T < <(perf script -i "$TMP/$f.data" --itrace=b -F time --ns 2>/dev/null | tr -d ' :')
    n=${#T[@]}
    checks=("be" "i1i" "crg" "pe" "i10iZ")
    [[ $f != sn_notsc ]] && checks+=("bi10i -F +ipc" "be --time ${T[$((n / 4))]},${T[$((n * 3 / 4))]}")
    [[ $f == sn_cpu ]] && checks+=("i100iG" "be -C 1,2")
    for chk in "${checks[@]}"; do
      same_itrace "snapshot mode $f" "$TMP/$f.data" "$chk"
    done
    perf report --stdio -i "$TMP/$f.data" 2>/dev/null | grep -v '^# (Tip' >"$TMP/perf.out"
    "$HWPROF" report --stdio -i "$TMP/$f.data" 2>/dev/null | grep -v '^# (Tip' >"$TMP/ours.out"
    if [ "$(wc -l <"$TMP/perf.out")" -gt 12 ] && cmp -s "$TMP/perf.out" "$TMP/ours.out"; then
      pass "snapshot mode $f report ($(wc -l <"$TMP/perf.out") lines)"
    else
      fail "snapshot mode $f report: $(diff "$TMP/perf.out" "$TMP/ours.out" | head -3 | cut -c1-200 | tr '\n' ' ')"
    fi
  done
fi

# e's flags: as perf, +flags change nothing, -o/-l leave out overflow
# and lost-data errors (none in this trace)
for it in "be+o" "be-o-l"; do
  same_itrace "error flags" "$last" "$it"
done
# d: the decoder's log in intel_pt.log (our format), the output unchanged
(
  cd "$TMP" || exit 1
  rm -f intel_pt.log
  "$HWPROF" script -i "$last" --itrace=bed >"$TMP/d.out" 2>&1
  "$HWPROF" script -i "$last" --itrace=be >"$TMP/nod.out" 2>&1
  n=$(grep -c '^          [0-9a-f]\{16\}:' intel_pt.log 2>/dev/null)
  want=$(perf script -i "$last" --itrace=i1i 2>/dev/null | wc -l)
  if cmp -s "$TMP/d.out" "$TMP/nod.out" && grep -q '^queue 0 decoding cpu' intel_pt.log && [ "$n" = "$want" ] &&
     grep -q '^event ' intel_pt.log; then
    pass "--itrace=d: intel_pt.log with the $n instructions perf walks, output unchanged"
  else
    fail "--itrace=d: $n instructions logged (perf walks $want); output $(cmp "$TMP/d.out" "$TMP/nod.out")"
  fi
  "$HWPROF" script -i "$last" --itrace=bed-a >/dev/null 2>&1
  grep -q '^event ' intel_pt.log && fail "--itrace=d-a: perf events logged" || pass "--itrace=d-a: no perf events"
)

# flipped trace bytes (5 per buffer, seeded): the run completes, every
# error line is in perf's format; for the seeds below (corruptions whose
# recovery we do as perf does: bad packets, TNT/TIP mismatches, resync at
# the next IP) output and warning equal perf's byte for byte. Other seeds
# (a flip that makes an indirect call go to 0, ...) may still differ.
# env -i, a fixed argv[0] and mktemp's fixed-length directory (static
# glibc reads /proc/self/exe): the trace is then the same on every run, so
# the seeds hit the same packets.
same_seeds=" 3 5 6 7 9 10 11 16 17 18 19 21 22 24 "
if gcc -O0 -static -o "$TMP/flip" tests/data/pt/loops.c 2>/dev/null &&
   (cd "$TMP" && env -i "$emu" flip ./flip >/dev/null 2>&1); then
  for seed in $(seq 1 24); do
    python3 tests/lib/pt_flip.py "$TMP/flip.data" "$TMP/bad.data" "$seed"
    args=(-i "$TMP/bad.data" --itrace=be -F +flags,+addr)
    "$HWPROF" script "${args[@]}" >"$TMP/o" 2>"$TMP/e"; rc=$?
    nerr=$(grep -c '^ instruction trace error' "$TMP/o")
    bad=$(grep '^ instruction trace error' "$TMP/o" |
          grep -v -c -E '^ instruction trace error type 1 time 0 cpu -1 pid [0-9]+ tid [0-9]+ ip (0|0x[0-9a-f]+) code [0-9]+: [A-Z].*$')
    if [ $rc != 0 ] || [ "$nerr" = 0 ] || [ "$bad" != 0 ] || ! grep -q "^Warning:" "$TMP/e"; then
      fail "flipped bytes (seed $seed): exit $rc, $nerr errors, $bad malformed; $(head -2 "$TMP/e")"
      continue
    fi
    if [[ $same_seeds == *" $seed "* ]]; then
      perf script "${args[@]}" >"$TMP/p" 2>"$TMP/pe"
      if cmp -s "$TMP/p" "$TMP/o" && cmp -s "$TMP/pe" "$TMP/e"; then
        pass "flipped bytes (seed $seed): $nerr error lines, output and warning as perf's"
      else
        fail "flipped bytes (seed $seed): differs from perf: $(diff "$TMP/p" "$TMP/o" | head -3 | cut -c1-160 | tr '\n' ' ')"
      fi
      # tick periods across the errors (a sample due at a failed branch
      # moves the period on; a resync at TIP.PGD restarts it)
      perf script -i "$TMP/bad.data" --itrace=i10te >"$TMP/p" 2>/dev/null
      "$HWPROF" script -i "$TMP/bad.data" --itrace=i10te >"$TMP/o" 2>/dev/null
      if cmp -s "$TMP/p" "$TMP/o"; then pass "flipped bytes (seed $seed): --itrace=i10te as perf's"
      else fail "flipped bytes (seed $seed): --itrace=i10te differs: $(diff "$TMP/p" "$TMP/o" | head -3 | cut -c1-160 | tr '\n' ' ')"; fi
      # quick decoding across the errors
      perf script -i "$TMP/bad.data" --itrace=bi1iqe -F +flags >"$TMP/p" 2>/dev/null
      "$HWPROF" script -i "$TMP/bad.data" --itrace=bi1iqe -F +flags >"$TMP/o" 2>/dev/null
      if cmp -s "$TMP/p" "$TMP/o"; then pass "flipped bytes (seed $seed): --itrace=bi1iqe as perf's"
      else fail "flipped bytes (seed $seed): --itrace=bi1iqe differs: $(diff "$TMP/p" "$TMP/o" | head -3 | cut -c1-160 | tr '\n' ' ')"; fi
      # branch stacks across the errors (the ring is kept, errors add none)
      perf script -i "$TMP/bad.data" --itrace=i5iel4 -F +brstack >"$TMP/p" 2>/dev/null
      "$HWPROF" script -i "$TMP/bad.data" --itrace=i5iel4 -F +brstack >"$TMP/o" 2>/dev/null
      if cmp -s "$TMP/p" "$TMP/o"; then pass "flipped bytes (seed $seed): --itrace=i5iel4 -F +brstack as perf's"
      else fail "flipped bytes (seed $seed): --itrace=i5iel4 differs: $(diff "$TMP/p" "$TMP/o" | head -3 | cut -c1-160 | tr '\n' ' ')"; fi
    else
      pass "flipped bytes (seed $seed): $nerr error lines in perf's format, decoding went on"
    fi
  done
fi
finish
