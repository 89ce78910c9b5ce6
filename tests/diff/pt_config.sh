#!/usr/bin/env bash
# Intel PT configuration on fake sysfs trees of several CPU generations
# (tests/data/sysfs/{intel,broadwell,icelake,alderlake}):
#   - perf's default config terms and the config words of intel_pt events,
#     against perf 6.1 itself with the tree bind-mounted over
#     /sys/bus/event_source/devices in a private mount namespace (needs root
#     and unshare; perf on a non-Intel CPU skips its own config checks,
#     so those are checked against perf's messages as fixed strings);
#   - perf's config value checks and the kernel capability checks:
#     rejected with perf's message, one line, non-zero exit;
#   - --filter: hwprof record --dry-run -v against perf record --dry-run -v
#     ("Address filter: ..." and every error message);
#   - AUXTRACE_INFO from the library's builder in a perf.data written by the
#     library's writer (tests/tools/pt_info_perfdata): perf report -D and
#     hwprof report -D print the same record, and perf script --itrace=i1i
#     decodes the trace to the emulator's ground truth.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/common.sh
H=$HWPROF
TREES=$PWD/tests/data/sysfs

# perf with a fake tree in place of the machine's PMUs
can_mount=0
if have_perf && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
   unshare -m sh -c "mount --bind '$TREES/intel/bus/event_source/devices' /sys/bus/event_source/devices" 2>/dev/null; then
  can_mount=1
fi
perf_tree() { # TREE perf-args...
  local t=$1; shift
  unshare -m sh -c 'mount --bind "$0/bus/event_source/devices" /sys/bus/event_source/devices && exec perf "$@"' \
    "$TREES/$t" "$@"
}
hw_tree() { local t=$1; shift; HWPROF_SYSFS="$TREES/$t" "$H" "$@"; }

# ---- default config and config words against perf ---------------------------
if [ $can_mount = 1 ]; then
  for t in intel broadwell icelake alderlake; do
    p=$(perf_tree $t record -vv -e intel_pt//u -o "$TMP/x.data" -- true 2>&1 | grep -m1 'default config')
    h=$(hw_tree $t record -vv --dry-run -e intel_pt//u 2>&1 >/dev/null | grep 'default config')
    [ -n "$p" ] && [ "$p" = "$h" ] && pass "$t: $h" || fail "$t default config: perf '$p' hwprof '$h'"
  done
  check_cfg() { # tree spec
    local p h
    p=$(perf_tree $1 record -vv -e "$2" -o "$TMP/x.data" -- true 2>&1 | grep -m1 '^  config ')
    h=$(hw_tree $1 record --dry-run -e "$2" 2>/dev/null | grep -m1 '^  config ')
    [ -n "$p" ] && [ "$p" = "$h" ] && pass "$1 $2: config as perf's (${h##* })" ||
      fail "$1 $2: config perf '$p' hwprof '$h'"
  }
  for s in 'intel_pt//u' 'intel_pt/cyc,cyc_thresh=3/u' 'intel_pt/noretcomp/u' 'intel_pt/tsc=0,mtc=0/k' \
           'intel_pt/psb_period=0,mtc_period=6/u' 'intel_pt/branch=0/u' 'intel_pt/cyc/'; do
    check_cfg intel "$s"
  done
  check_cfg broadwell 'intel_pt//u'
  check_cfg broadwell 'intel_pt/noretcomp,tsc=0/u'
  check_cfg icelake 'intel_pt/ptw,fup_on_ptw/u'
  check_cfg alderlake 'intel_pt/pwr_evt,ptw/u'
else
  skip "intel_pt config against perf (needs perf, root and unshare -m)"
fi

# ---- rejections: perf's messages (tools/perf/arch/x86/util/intel-pt.c) -------
reject() { # tree spec expected-line
  local out rc
  out=$(hw_tree $1 record --dry-run -e "$2" 2>&1 >/dev/null); rc=$?
  [ $rc -ne 0 ] && [ "$out" = "$3" ] && pass "$1 $2 rejected: $3" ||
    fail "$1 $2: exit $rc, got '$out', want '$3'"
}
accept() { # tree spec
  local out rc
  out=$(hw_tree $1 record --dry-run -e "$2" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 0 ] && [ -z "$out" ] && pass "$1 $2 accepted" || fail "$1 $2: exit $rc '$out'"
}
reject intel 'intel_pt/psb_period=15/u' 'Invalid psb_period for intel_pt. Valid values are: 0-5'
reject intel 'intel_pt/mtc_period=15/u' 'Invalid mtc_period for intel_pt. Valid values are: 0,3,6,9'
reject intel 'intel_pt/mtc_period=1/u' 'Invalid mtc_period for intel_pt. Valid values are: 0,3,6,9'
reject intel 'intel_pt/cyc,cyc_thresh=15/u' 'Invalid cyc_thresh for intel_pt. Valid values are: 0-13'
reject broadwell 'intel_pt/psb_period=1/u' 'Invalid psb_period for intel_pt. Valid values are: 0'
reject broadwell 'intel_pt/mtc_period=3/u' 'Invalid mtc_period for intel_pt. Valid values are: 0'
reject broadwell 'intel_pt/cyc_thresh=1/u' 'Invalid cyc_thresh for intel_pt. Valid values are: 0'
reject broadwell 'intel_pt/cyc/u' 'intel_pt: cyc is not supported by this CPU (caps/psb_cyc is 0 or missing); the kernel refuses the event'
reject broadwell 'intel_pt/mtc/u' 'intel_pt: mtc is not supported by this CPU (caps/mtc is 0 or missing); the kernel refuses the event'
reject intel 'intel_pt/ptw/u' 'intel_pt: ptw is not supported by this CPU (caps/ptwrite is 0 or missing); the kernel refuses the event'
reject icelake 'intel_pt/pwr_evt/u' 'intel_pt: pwr_evt is not supported by this CPU (caps/power_event_trace is 0 or missing); the kernel refuses the event'
reject icelake 'intel_pt/fup_on_ptw/u' 'intel_pt: fup_on_ptw without ptw; the kernel refuses the event'
reject alderlake 'intel_pt/event/u' 'intel_pt: event is not supported by this CPU (caps/event_trace is 0 or missing); the kernel refuses the event'
reject alderlake 'intel_pt/notnt/u' 'intel_pt: notnt is not supported by this CPU (caps/tnt_disable is 0 or missing); the kernel refuses the event'
reject intel 'intel_pt//u,intel_pt//k' 'There may be only one intel_pt event'
reject intel '{intel_pt//u,cycles/aux-output/,instructions/aux-output/}' 'intel_pt supports at most one event with aux-output'
accept icelake 'intel_pt/ptw,fup_on_ptw/u'
accept alderlake 'intel_pt/pwr_evt,ptw/u'
accept intel 'intel_pt/cyc,cyc_thresh=3/u'
accept broadwell 'intel_pt/noretcomp/u'
out=$(hw_tree intel record --dry-run -m 8,1 -e 'intel_pt//u' 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] && [ "$out" = "Invalid mmap size for Intel Processor Trace: must be at least 8KiB and a power of 2" ] &&
  pass "AUX area of one page rejected with perf's message" || fail "-m 8,1: $rc '$out'"
wm=$(hw_tree intel record --dry-run -m 8,16 -e 'intel_pt//u' 2>/dev/null | grep '^  aux_watermark')
[ "${wm##* }" = $((16 * $(getconf PAGESIZE) / 4)) ] && pass "aux_watermark is a quarter of the AUX area" ||
  fail "aux_watermark: '$wm'"
out=$(hw_tree intel record --dry-run -e 'intel_pt/pt=0/u' 2>&1 >/dev/null)
cfg=$(hw_tree intel record --dry-run -e 'intel_pt/pt=0/u' 2>/dev/null | grep '^  config ')
[ "$out" = "pt=0 doesn't make sense, forcing pt=1" ] && [ "${cfg##* }" = 0x300e601 ] &&
  pass "pt=0 forced to pt=1 with perf's warning" || fail "pt=0: '$out' '$cfg'"

# ---- address filters against perf --dry-run -v --------------------------------
if ! command -v gcc >/dev/null 2>&1; then
  skip "address filters (no gcc)"
else
  gcc -O0 -o "$TMP/pie" tests/data/pt/loops.c && gcc -O0 -static -o "$TMP/static" tests/data/pt/loops.c &&
    gcc -O0 -c -o "$TMP/obj.o" tests/data/pt/loops.c
  cp "$TMP/pie" "$TMP/stripped" && strip "$TMP/stripped"
  # two static functions of one name: perf's "Multiple symbols" listing
  printf 'static int dup(int x) { return x + 1; }\nint one(int x) { return dup(x); }\n' >"$TMP/d1.c"
  printf 'static int dup(int x) { return x * 3; }\nint two(int x) { return dup(x); }\nint one(int);\nint main(void) { return one(1) + two(2); }\n' >"$TMP/d2.c"
  gcc -O0 -o "$TMP/dup" "$TMP/d1.c" "$TMP/d2.c"
  # C++: perf matches demangled names, with parameters only under -v
  printf 'namespace ns { int work(int x) { return x * 2; } int work(double x) { return (int)x; } }\nstruct K { static int go(int y) { return ns::work(y) + 1; } };\nint main() { return K::go(3) + ns::work(1.5); }\n' >"$TMP/cx.cpp"
  command -v g++ >/dev/null 2>&1 && g++ -O0 -o "$TMP/cx" "$TMP/cx.cpp"
  kdup=$(awk '$2 ~ /^[tT]$/ && NF == 3 {print $3}' /proc/kallsyms 2>/dev/null | sort | uniq -d | head -1)
  printf 'not an elf\n' >"$TMP/text"
  filters=(
    "filter main @ $TMP/pie" "start fib @ $TMP/pie" "stop neg @$TMP/pie" "filter fib / main @ $TMP/pie"
    "filter main / fib @ $TMP/pie" "filter 0x1000 / main @ $TMP/pie" "filter 0x2000 / fib @ $TMP/pie"
    "tracestop 0x1000/0x20 @ $TMP/pie" "filter * @ $TMP/pie" "filter 0x401000/0x100"
    "filter main @ $TMP/static" "filter fib @ $TMP/static,stop main @ $TMP/static" "filter main @ $TMP/obj.o"
    "filter main #1 @ $TMP/pie" "filter main #g @ $TMP/pie" "filter fib #0 @ $TMP/pie" "filter fib #2 @ $TMP/pie"
    "filter nosuch @ $TMP/pie" "filter main @ $TMP/stripped" "filter main @ $TMP/text" "filter main @ $TMP/none"
    "filter * @ $TMP/none" "filter 0x10/4 @ $TMP/none" "bogus 0x10" "filter" "filter 0x10 @ 123" "12 filter"
    "filter 0x1/2,stop 0x3 tracestop 0x5/6" "filter 0x1/2 , start 0x4" "filter main@$TMP/pie"
    "filter schedule" "start do_sys_open" "filter do_sys_open / schedule" "filter schedule / do_sys_open"
    "filter no_such_kernel_fn" "filter *" "stop schedule #g" "filter schedule #1"
    "filter dup @ $TMP/dup" "filter dup #2 @ $TMP/dup" "filter dup #1 / two @ $TMP/dup" "filter dup #g @ $TMP/dup"
    ${kdup:+"filter $kdup"} ${kdup:+"filter $kdup #2"}
    "filter ns::work(int) @ $TMP/cx" "filter ns::work @ $TMP/cx" "start K::go(int) / main @ $TMP/cx"
  )
  if [ $can_mount = 1 ]; then
    for f in "${filters[@]}"; do
      perf_tree icelake record --dry-run -v -e intel_pt//u --filter "$f" -- true 2>&1 >/dev/null |
        grep -v '^Using CPUID\|^DEBUGINFOD_URLS\|^no symbols found in\|^symsrc__init\|continuing without symbols$' >"$TMP/p"
      prc=${PIPESTATUS[0]} # (without perf's -v symbol-loader chatter)
      hw_tree icelake record --dry-run -v -e intel_pt//u --filter "$f" 2>&1 >/dev/null >/dev/null |
        grep -v '^intel_pt default config' >"$TMP/h"; hrc=${PIPESTATUS[0]}
      if cmp -s "$TMP/p" "$TMP/h" && { [ $prc -eq 0 ] && [ $hrc -eq 0 ] || { [ $prc -ne 0 ] && [ $hrc -ne 0 ]; }; }; then
        pass "--filter '$f': $(head -1 "$TMP/h")"
      else
        fail "--filter '$f' differs from perf (exit $prc/$hrc)"; diff "$TMP/p" "$TMP/h" | head -8
      fi
    done
    # without -v perf's names have no parameters (only errors are printed)
    for f in "filter ns::work @ $TMP/cx" "filter K::go @ $TMP/cx" "filter ns::work(int) @ $TMP/cx" "filter ns::work #2 @ $TMP/cx"; do
      perf_tree icelake record --dry-run -e intel_pt//u --filter "$f" -- true >"$TMP/p" 2>&1; prc=$?
      hw_tree icelake record --dry-run -e intel_pt//u --filter "$f" >/dev/null 2>"$TMP/h"; hrc=$?
      if cmp -s "$TMP/p" "$TMP/h" && { [ $prc -eq 0 ] && [ $hrc -eq 0 ] || { [ $prc -ne 0 ] && [ $hrc -ne 0 ]; }; }; then
        pass "--filter '$f' (no -v): $([ $prc -eq 0 ] && echo accepted || head -1 "$TMP/h")"
      else
        fail "--filter '$f' (no -v) differs from perf (exit $prc/$hrc)"; diff "$TMP/p" "$TMP/h" | head -8
      fi
    done
    # two --filter options for one event, and a PMU without address filters
    perf_tree icelake record --dry-run -v -e intel_pt//u --filter 'filter main @ '"$TMP/pie" \
      --filter 'stop fib @ '"$TMP/pie" -- true 2>&1 | grep '^Address filter' >"$TMP/p"
    hw_tree icelake record --dry-run -v -e intel_pt//u --filter 'filter main @ '"$TMP/pie" \
      --filter 'stop fib @ '"$TMP/pie" 2>&1 >/dev/null | grep '^Address filter' >"$TMP/h"
    [ -s "$TMP/p" ] && cmp -s "$TMP/p" "$TMP/h" && pass "two --filter options joined as perf's" ||
      { fail "two --filter options"; diff "$TMP/p" "$TMP/h"; }
    perf_tree broadwell record --dry-run -e intel_pt//u --filter 'filter 0x10/4' -- true 2>&1 |
      sed 's/perf record/hwprof record/' >"$TMP/p"
    hw_tree broadwell record --dry-run -e intel_pt//u --filter 'filter 0x10/4' >"$TMP/h" 2>&1; rc=$?
    [ $rc -eq 129 ] && cmp -s "$TMP/p" "$TMP/h" && pass "Broadwell: no address filtering, as perf" ||
      { fail "Broadwell --filter (exit $rc)"; diff "$TMP/p" "$TMP/h"; }
  else
    skip "address filters against perf (needs perf, root and unshare -m)"
  fi
  out=$("$H" record --dry-run --filter 'filter 0x10/4' -e cpu-clock 2>&1); rc=$?
  [ $rc -eq 129 ] && [ "$(echo "$out" | head -1)" = "--filter option should follow a -e tracepoint or HW tracer option" ] &&
    pass "--filter before any -e: perf's message, exit 129" || fail "--filter before -e: $rc '$out'"
fi

# ---- AUXTRACE_INFO from the builder, through perf ---------------------------
emu="$GEN/pt_emulate" mk="$TOOLS/pt_info_perfdata"
if [ ! -x "$emu" ] || [ ! -x "$mk" ]; then
  skip "AUXTRACE_INFO (no $emu or $mk: make test-build)"
elif ! have_perf || ! [ -x "$TMP/static" ]; then
  skip "AUXTRACE_INFO (needs perf and gcc)"
elif ! "$emu" "$TMP/emu" "$TMP/static" >/dev/null 2>"$TMP/emu.err"; then
  skip "AUXTRACE_INFO (emulator: $(head -1 "$TMP/emu.err"))"
else
  info() { grep -A19 'PERF_RECORD_AUXTRACE_INFO' "$1"; }
  n=0
  for args in "icelake" "alderlake --ctc 2/168 --time 10,123456,789 --switch 2" "broadwell --snapshot --switch 3" \
              "intel --filter 'filter main @ $TMP/static,start fib @ $TMP/static' --ctc 3/250"; do
    n=$((n + 1))
    eval "set -- $args"
    t=$1; shift
    if ! "$mk" "$TREES/$t" "$TMP/emu" "$TMP/i$n.data" "$@" 2>"$TMP/mk.err"; then
      fail "pt_info_perfdata $args: $(head -1 "$TMP/mk.err")"; continue
    fi
    perf report -D -i "$TMP/i$n.data" 2>/dev/null | info /dev/stdin >"$TMP/p"
    "$H" report -D -i "$TMP/i$n.data" 2>/dev/null | info /dev/stdin >"$TMP/h"
    if [ "$(wc -l <"$TMP/p")" -ge 19 ] && cmp -s "$TMP/p" "$TMP/h"; then
      pass "AUXTRACE_INFO ($args): perf report -D == hwprof report -D"
    else
      fail "AUXTRACE_INFO ($args) differs"; diff "$TMP/p" "$TMP/h" | head -8
    fi
  done
  grep -q 'Max non-turbo ratio 20' "$TMP/h" 2>/dev/null || true
  perf report -D -i "$TMP/i2.data" 2>/dev/null | grep -q '^  Max non-turbo ratio 20$' &&
    perf report -D -i "$TMP/i2.data" 2>/dev/null | grep -q '^  PMU Type            10$' &&
    pass "PMU type and max_nonturbo_ratio come from the tree" || fail "PMU type / max non-turbo ratio"
  perf script -i "$TMP/i1.data" --itrace=i1i -F ip 2>/dev/null | awk '{print $1}' >"$TMP/ips"
  sed 's/^0*//' "$TMP/emu.gt" >"$TMP/gt"
  if [ -s "$TMP/gt" ] && cmp -s "$TMP/gt" "$TMP/ips"; then
    pass "perf script --itrace=i1i decodes the builder's file: $(wc -l <"$TMP/gt") instructions = ground truth"
  else
    fail "perf script --itrace=i1i on the builder's file: $(wc -l <"$TMP/ips") of $(wc -l <"$TMP/gt")"
  fi
fi
finish
