#!/usr/bin/env bash
# hwprof list against perf list on this machine (software events and the
# sections before the tracepoints, byte for byte), hwprof list on the fake
# sysfs trees (HWPROF_SYSFS), and record --dry-run -e with the full event
# grammar against perf record -vv for software events.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/common.sh
H=$HWPROF

if have_perf; then
  perf list sw >"$TMP/p" 2>/dev/null; "$H" list sw >"$TMP/h"
  if cmp -s "$TMP/p" "$TMP/h"; then pass "list sw equals perf list sw"; else fail "list sw differs"; diff "$TMP/p" "$TMP/h" | head; fi
  # perf list up to the tracepoints (hwprof lists no tracepoints, SDT or metrics)
  perf list 2>/dev/null | grep -v '\[Tracepoint event\]\|\[SDT event\]' | sed '/^$/,$d' >"$TMP/p"
  "$H" list >"$TMP/h"
  if cmp -s "$TMP/p" "$TMP/h"; then pass "list equals perf list (without tracepoints)"; else fail "list differs"; diff "$TMP/p" "$TMP/h" | head; fi
  for s in hw cache pmu; do
    perf list $s >"$TMP/p" 2>/dev/null; "$H" list $s >"$TMP/h"
    if [ -n "$(ls /sys/bus/event_source/devices | grep -x 'cpu\|cpu_core\|armv8_pmuv3_0')" ] && [ "$s" != pmu ]; then
      skip "list $s (this machine has a hardware PMU: perf lists only what opens)"
    elif cmp -s "$TMP/p" "$TMP/h"; then pass "list $s equals perf list $s"; else fail "list $s differs"; diff "$TMP/p" "$TMP/h" | head; fi
  done
else
  skip "list vs perf list (perf not installed)"
fi

# fake trees
out=$(HWPROF_SYSFS=tests/data/sysfs/intel "$H" list hw)
[ "$(echo "$out" | wc -l)" -eq 10 ] && echo "$out" | grep -qx '  cpu-cycles OR cycles                               \[Hardware event\]' &&
  pass "intel tree: 10 hardware events" || fail "intel tree: hardware events"
out=$(HWPROF_SYSFS=tests/data/sysfs/intel "$H" list cache)
[ "$(echo "$out" | wc -l)" -eq 32 ] && echo "$out" | head -1 | grep -q '^  L1-dcache-load-misses  *\[Hardware cache event\]$' &&
  pass "intel tree: 32 cache events, sorted" || fail "intel tree: cache events"
out=$(HWPROF_SYSFS=tests/data/sysfs/intel "$H" list pmu)
echo "$out" | grep -q '^  cpu/mem-loads/  *\[Kernel PMU event\]$' && ! echo "$out" | grep -q scale &&
  pass "intel tree: Kernel PMU events from events/" || fail "intel tree: Kernel PMU events"
out=$(HWPROF_SYSFS=tests/data/sysfs/neoverse "$H" list pmu)
echo "$out" | grep -q '^  armv8_pmuv3_0/cpu_cycles/ ' && pass "neoverse tree: armv8_pmuv3_0 events" || fail "neoverse tree: pmu events"
out=$(HWPROF_SYSFS="$TMP/none" "$H" list hw)
[ -z "$out" ] && pass "no core PMU: no hardware events" || fail "no core PMU: hardware events listed"
out=$(HWPROF_SYSFS=tests/data/sysfs/intel "$H" list '*cycles*')
[ "$(echo "$out" | wc -l)" -eq 8 ] && pass "glob filter" || { fail "glob filter"; echo "$out"; }

# record --dry-run -e against perf record -vv (software events run here)
attrs() { # perf record -vv's attr blocks without the trailing dummy event
  awk '/^perf_event_attr:/{inb=1; blk=$0 "\n"; next}
       inb && /^-----/{inb=0; if (blk !~ /watermark/) printf "%s", blk; next}
       inb {blk=blk $0 "\n"}'
}
if have_perf; then
  specs=('cpu-clock:u' 'task-clock:k' 'cpu-clock:ppp' 'cpu-clock/period=1000/' 'cpu-clock,task-clock'
      '{cpu-clock,task-clock}:S' '{cpu-clock,task-clock}:u' 'cpu-clock:k,task-clock:u' 'cpu-clock/call-graph=dwarf,stack-size=4096/'
      'cpu-clock/no-inherit/' 'cpu-clock:G' 'cpu-clock:D' 'cpu-clock:I' 'page-faults/freq=100/' 'cpu-clock/call-graph=fp/,task-clock'
      'cpu-clock/max-stack=5,call-graph=fp/' 'cpu-clock/time=0/' '{cpu-clock,task-clock/period=7/}' 'cs:u'
      'dummy' 'dummy,cpu-clock' 'bpf-output' 'cpu-clock/max-stack=3/' 'cpu-clock/call-graph=dwarf/,task-clock')
  # option spellings, the global call graph against per-event terms, a
  # thread target (no inherit), -F max
  arglist=("-c100 -e cpu-clock" "--count=100 -e cpu-clock" "-F99 -e cpu-clock" "--freq=99 -e cpu-clock"
      "-F max -e cpu-clock" "-t $$ -e cpu-clock" "-g -e cpu-clock/stack-size=4096/"
      "--call-graph dwarf -e cpu-clock/max-stack=3/" "--call-graph dwarf -e cpu-clock/call-graph=fp/,task-clock"
      "-e bpf-output -c 100" "-e cpu-clock -e task-clock:u" "-c 1000 -e cpu-clock")
  # perf record of `true` spends about a second in its BPF side-band
  # thread, idle: the runs go side by side, eight at a time
  n=0
  for spec in "${specs[@]}"; do
    perf record -vv -e "$spec" -o "$TMP/x$n.data" -- true 2>&1 >/dev/null | attrs >"$TMP/p$n" &
    n=$((n + 1)); [ $((n % 8)) = 0 ] && wait
  done
  for args in "${arglist[@]}"; do
    # shellcheck disable=SC2086
    perf record -vv $args -o "$TMP/x$n.data" -- true 2>&1 >/dev/null | attrs >"$TMP/p$n" &
    n=$((n + 1)); [ $((n % 8)) = 0 ] && wait
  done
  wait
  n=0
  for spec in "${specs[@]}"; do
    "$H" record --dry-run -e "$spec" | grep -v '^-----' >"$TMP/h"
    if [ -s "$TMP/p$n" ] && cmp -s "$TMP/p$n" "$TMP/h"; then pass "dry-run -e '$spec' equals perf -vv"
    else fail "dry-run -e '$spec' differs from perf -vv"; diff "$TMP/p$n" "$TMP/h" | head -6; fi
    n=$((n + 1))
  done
  for args in "${arglist[@]}"; do
    # shellcheck disable=SC2086
    "$H" record --dry-run $args 2>/dev/null | grep -v '^-----' >"$TMP/h"
    if [ -s "$TMP/p$n" ] && cmp -s "$TMP/p$n" "$TMP/h"; then pass "dry-run $args equals perf -vv"
    else fail "dry-run $args differs from perf -vv"; diff "$TMP/p$n" "$TMP/h" | head -6; fi
    n=$((n + 1))
  done
fi

# arm64 EL summary and errors
out=$(HWPROF_SYSFS=tests/data/sysfs/neoverse "$H" record --dry-run --arch arm64 -e inst_retired:u)
echo "$out" | grep -qx 'arm64 EL, VHE host:     host EL0; guest none' && echo "$out" | grep -qx '  type                             8' &&
  pass "dry-run --arch arm64 prints the EL summary" || { fail "dry-run --arch arm64"; echo "$out"; }
out=$("$H" record --dry-run -e cpu-clock:u)
echo "$out" | grep -q 'arm64 EL' && fail "EL summary printed without --arch arm64" || pass "no EL summary on x86 without --arch"
err=$(HWPROF_SYSFS=tests/data/sysfs/neoverse "$H" record --dry-run -e 'arm_spe_0/min_latency=5000/' 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q "out of range for term 'min_latency'" &&
  pass "out-of-range term: one line, exit $rc" || fail "out-of-range term error: $err"
err=$("$H" record --dry-run -e cyclez 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$err" = "hwprof record: unknown event 'cyclez' (did you mean 'cycles'?)" ] &&
  pass "unknown event: closest name, exit $rc" || fail "unknown event error: $err"
finish
