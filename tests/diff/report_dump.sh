# Differential: `hwprof report -D` against Debian perf 6.1 `perf report -D`
# on files recorded here by perf with software events, many option mixes,
# file and pipe mode. Zero differing lines is the bar.
source tests/lib/common.sh
if ! have_perf; then skip "report -D differential (perf not installed)"; # pipe mode with a tracepoint: HEADER_TRACING_DATA and its payload
if perf record -q -e sched:sched_switch -a -o - -- sleep 0.1 >"$TMP/tpp.data" 2>/dev/null; then
  perf report -D -i "$TMP/tpp.data" >"$TMP/tpp.perf" 2>/dev/null
  "$HWPROF" report -D -i "$TMP/tpp.data" >"$TMP/tpp.hw" 2>"$TMP/tpp.err" # stdout against perf's, as check() does
  if diff -q "$TMP/tpp.perf" "$TMP/tpp.hw" >/dev/null; then pass "pipe tracepoint: report -D identical"
  else fail "pipe tracepoint: report -D differs"; diff "$TMP/tpp.perf" "$TMP/tpp.hw" | head; fi
else
  fail "pipe tracepoint: perf record failed"
fi
finish; fi

check() { # name, perf record args...
  local name=$1; shift
  local f="$TMP/$name.data"
  if ! perf record -q -o "$f" "$@" >/dev/null 2>"$TMP/$name.rec.err"; then
    fail "$name: perf record failed: $(head -1 "$TMP/$name.rec.err")"; return
  fi
  perf report -D -i "$f" >"$TMP/$name.perf" 2>/dev/null
  vdso_fix "$TMP/$name.perf"
  if ! "$HWPROF" report -D -i "$f" >"$TMP/$name.hw" 2>"$TMP/$name.err"; then
    fail "$name: hwprof exited non-zero: $(head -1 "$TMP/$name.err")"; return
  fi
  if diff -q "$TMP/$name.perf" "$TMP/$name.hw" >/dev/null; then
    pass "$name: report -D identical ($(wc -l <"$TMP/$name.perf") lines)"
  else
    fail "$name: report -D differs"; diff "$TMP/$name.perf" "$TMP/$name.hw" | head -20
  fi
}

W="ls -R /usr/share/doc/bash /usr/share/doc/coreutils"
check fp-callchain -e cpu-clock -c 50000 -g -- $W
check plain -e cpu-clock -c 100000 -- $W
check data-cpu-time -e cpu-clock -c 100000 -d --sample-cpu -T -- $W
check stat -e cpu-clock -c 100000 -s -- $W
check switch -e cpu-clock -c 100000 --switch-events -- $W
check system-wide -e cpu-clock -c 1000000 -a -- sleep 0.1
check two-events -e cpu-clock,task-clock -c 100000 -- $W
check group-read -e '{cpu-clock,task-clock}:S' -c 100000 -- $W
check task-clock-freq -e task-clock -F 2000 -g -- $W
check page-faults -e page-faults -c 1 -d -- $W
check dwarf-callchain -e cpu-clock -c 200000 --call-graph dwarf,4096 -- $W
check regs -e cpu-clock -c 100000 -I --user-regs=ax,bx,sp,ip -- $W
check regs-intr-subset -e task-clock -c 100000 -Iax,bx,r8,r15,flags -- $W
check compressed -z -e cpu-clock -c 100000 -- $W
check namespaces -e cpu-clock -c 100000 --namespaces -- $W
check cgroups -e cpu-clock -c 100000 --all-cgroups -- $W
check page-sizes-phys -e cpu-clock -c 100000 --data-page-size --code-page-size --phys-data -d -W -- $W

check threads-dir --threads -e cpu-clock -c 100000 -g -- $W
check threads-dir-compressed --threads -z -e cpu-clock -c 100000 -- $W
check tracepoint -e sched:sched_switch -a -- sleep 0.1

# perf stat record: events without sample_id_all (perf's unordered
# processing and its warning) and per-thread cpu maps holding (u16)-1
stat_check() { # name, perf stat record args...
  local name=$1; shift
  if ! perf stat record -o "$TMP/$name.data" "$@" >/dev/null 2>&1; then fail "$name: perf stat record failed"; return; fi
  perf report -D -i "$TMP/$name.data" >"$TMP/$name.perf" 2>/dev/null
  "$HWPROF" report -D -i "$TMP/$name.data" >"$TMP/$name.hw" 2>&1
  if [ -s "$TMP/$name.perf" ] && diff -q "$TMP/$name.perf" "$TMP/$name.hw" >/dev/null; then
    pass "$name: report -D identical ($(wc -l <"$TMP/$name.perf") lines)"
  else fail "$name: report -D differs"; diff "$TMP/$name.perf" "$TMP/$name.hw" | head; fi
}
stat_check stat-record -e cpu-clock,task-clock -- $W
stat_check stat-record-interval -a -I 100 -e cpu-clock -- sleep 0.25
if perf stat record -o - -e cpu-clock -- $W >"$TMP/statpipe.data" 2>/dev/null; then
  perf report -D -i - <"$TMP/statpipe.data" >"$TMP/statpipe.perf" 2>/dev/null
  "$HWPROF" report -D -i - <"$TMP/statpipe.data" >"$TMP/statpipe.hw" 2>&1
  if [ -s "$TMP/statpipe.perf" ] && diff -q "$TMP/statpipe.perf" "$TMP/statpipe.hw" >/dev/null; then pass "stat-record pipe: report -D identical"
  else fail "stat-record pipe: report -D differs"; diff "$TMP/statpipe.perf" "$TMP/statpipe.hw" | head; fi
else fail "stat-record pipe: perf stat record failed"; fi

# pipe mode: saved to a file and read back, and streamed through stdin
if perf record -q -e cpu-clock -c 100000 -o - -- $W >"$TMP/pipe.data" 2>/dev/null; then
  perf report -D -i "$TMP/pipe.data" >"$TMP/pipe.perf" 2>/dev/null
  "$HWPROF" report -D -i "$TMP/pipe.data" >"$TMP/pipe.hw" 2>&1
  if diff -q "$TMP/pipe.perf" "$TMP/pipe.hw" >/dev/null; then pass "pipe file: report -D identical"
  else fail "pipe file: report -D differs"; diff "$TMP/pipe.perf" "$TMP/pipe.hw" | head; fi
  "$HWPROF" report -D -i - <"$TMP/pipe.data" >"$TMP/pipe2.hw" 2>&1
  if cat "$TMP/pipe.data" | "$HWPROF" report -D -i - >"$TMP/pipe3.hw" 2>&1 &&
     diff -q "$TMP/pipe.perf" "$TMP/pipe3.hw" >/dev/null && diff -q "$TMP/pipe.perf" "$TMP/pipe2.hw" >/dev/null; then
    pass "pipe stream on stdin: report -D identical"
  else fail "pipe stream on stdin: report -D differs"; diff "$TMP/pipe.perf" "$TMP/pipe3.hw" | head; fi
else
  fail "pipe: perf record -o - failed"
fi
# pipe mode with a tracepoint: HEADER_TRACING_DATA and its payload
if perf record -q -e sched:sched_switch -a -o - -- sleep 0.1 >"$TMP/tpp.data" 2>/dev/null; then
  perf report -D -i "$TMP/tpp.data" >"$TMP/tpp.perf" 2>/dev/null
  "$HWPROF" report -D -i "$TMP/tpp.data" >"$TMP/tpp.hw" 2>"$TMP/tpp.err" # stdout against perf's, as check() does
  if diff -q "$TMP/tpp.perf" "$TMP/tpp.hw" >/dev/null; then pass "pipe tracepoint: report -D identical"
  else fail "pipe tracepoint: report -D differs"; diff "$TMP/tpp.perf" "$TMP/tpp.hw" | head; fi
else
  fail "pipe tracepoint: perf record failed"
fi
# progress bar: on a terminal (script(1) gives one; start delay 0 so the
# check does not depend on speed), silenced by -q, never on a plain pipe
if command -v script >/dev/null 2>&1; then
  f="$TMP/fp-callchain.data"
  HWPROF_PROGRESS_DELAY=0 script -qc "$HWPROF report -D -i $f >/dev/null" "$TMP/tty.log" >/dev/null 2>&1
  HWPROF_PROGRESS_DELAY=0 script -qc "$HWPROF report -D -q -i $f >/dev/null" "$TMP/ttyq.log" >/dev/null 2>&1
  HWPROF_PROGRESS_DELAY=0 "$HWPROF" report -D -i "$f" 2>"$TMP/plain.err" >/dev/null
  if grep -q 'reading \[' "$TMP/tty.log" && ! grep -q 'reading \[' "$TMP/ttyq.log" && [ ! -s "$TMP/plain.err" ]; then
    pass "report -D progress bar on a terminal only, -q silences it"
  else fail "report -D progress bar"; fi
else
  skip "progress bar (script(1) not installed)"
fi
finish
