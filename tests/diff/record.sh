# Differential: files recorded here by the library (tests/tools/record_try)
# must be read by Debian perf 6.1 (report -D, script, report --stdio) and
# `perf report -D` must equal `hwprof report -D` on them; the sample count
# the recorder reports must be what both readers see. Pipe mode both saved
# and streamed straight into each reader.
source tests/lib/common.sh
REC="$TOOLS/record_try"
if ! have_perf; then skip "record differential (perf not installed)"; finish; fi
if [ ! -x "$REC" ]; then fail "record_try not built"; finish; fi
W="ls -R /usr/share/doc/bash /usr/share/doc/coreutils /usr/share/doc/perl"

samples_in_dump() { # the "SAMPLE events:" count of the Aggregated stats
  sed -n '/^Aggregated stats:/,/stats:$/p' "$1" | awk '/ SAMPLE events:/ {print $3; exit}'
}

check() { # name, record_try args...
  local name=$1; shift
  local f="$TMP/$name.data"
  if ! "$REC" -v -o "$f" "$@" >/dev/null 2>"$TMP/$name.rec"; then
    fail "$name: record_try failed: $(head -1 "$TMP/$name.rec")"; return
  fi
  local n; n=$(sed -n 's/^samples=\([0-9]*\).*/\1/p' "$TMP/$name.rec")
  if ! perf report -D -i "$f" >"$TMP/$name.perf" 2>"$TMP/$name.perr"; then
    fail "$name: perf report -D failed: $(head -1 "$TMP/$name.perr")"; return
  fi
  if grep -q "WARNING\|Processed .* events and lost" "$TMP/$name.perr"; then
    fail "$name: perf warns: $(head -1 "$TMP/$name.perr")"
  fi
  vdso_fix "$TMP/$name.perf"
  "$HWPROF" report -D -i "$f" >"$TMP/$name.hw" 2>&1
  if diff -q "$TMP/$name.perf" "$TMP/$name.hw" >/dev/null; then
    pass "$name: perf and hwprof report -D identical ($(wc -l <"$TMP/$name.perf") lines)"
  else
    fail "$name: report -D differs"; diff "$TMP/$name.perf" "$TMP/$name.hw" | head -10
  fi
  local d; d=$(samples_in_dump "$TMP/$name.perf")
  if [ -n "$n" ] && [ "${d:-0}" = "$n" ] && [ "$n" -gt 0 ]; then
    pass "$name: $n samples recorded, $d in perf's dump"
  else
    fail "$name: recorder wrote ${n:-?} samples, perf's dump has ${d:-none}"
  fi
  if perf script -G -i "$f" >"$TMP/$name.script" 2>"$TMP/$name.serr"; then
    local s; s=$(grep -c . "$TMP/$name.script")
    if [ "$s" = "$n" ]; then pass "$name: perf script shows $s samples"
    else fail "$name: perf script shows $s samples, expected $n"; fi
  else
    fail "$name: perf script failed: $(head -1 "$TMP/$name.serr")"
  fi
  if perf report --stdio -i "$f" >"$TMP/$name.rep" 2>"$TMP/$name.rerr" && grep -q "^# Samples: " "$TMP/$name.rep"; then
    pass "$name: perf report --stdio reads it"
  else
    fail "$name: perf report --stdio failed: $(head -1 "$TMP/$name.rerr")"
  fi
}

check cpu-clock -e cpu-clock -- $W
check task-clock -e task-clock -c 100000 -- $W
check callchain -g -e cpu-clock -F 10000 -- $W
check regs -e cpu-clock -c 100000 -I 0xff0fff -- $W
check two-events -e cpu-clock,task-clock -c 100000 -- $W
check compressed -z -e cpu-clock -c 50000 -- $W
check no-inherit --no-inherit -e task-clock -c 100000 -- $W
check small-ring -m 8 -e cpu-clock -c 50000 -- $W
check system-wide -a -e cpu-clock -c 200000 -- $W
check cpu-list -C 0 -e cpu-clock -c 100000 -- taskset -c 0 $W

# pipe mode streamed into both readers
"$REC" -v -o - -e task-clock -c 100000 -- $W 2>"$TMP/ps.rec" | perf report -D -i - >"$TMP/ps.perf" 2>/dev/null
rc1=$?
"$REC" -v -o - -e task-clock -c 100000 -- $W 2>"$TMP/ps2.rec" | "$HWPROF" report -D -i - >"$TMP/ps.hw" 2>&1
rc2=$?
n1=$(samples_in_dump "$TMP/ps.perf"); n2=$(samples_in_dump "$TMP/ps.hw")
e1=$(sed -n 's/^samples=\([0-9]*\).*/\1/p' "$TMP/ps.rec"); e2=$(sed -n 's/^samples=\([0-9]*\).*/\1/p' "$TMP/ps2.rec")
if [ $rc1 = 0 ] && [ "$n1" = "$e1" ] && [ -n "$e1" ]; then pass "pipe stream | perf report -D -i -: $n1 samples"
else fail "pipe stream | perf report -D -i -: rc=$rc1 samples ${n1:-none} vs ${e1:-?}"; fi
if [ $rc2 = 0 ] && [ "$n2" = "$e2" ] && [ -n "$e2" ]; then pass "pipe stream | hwprof report -D -i -: $n2 samples"
else fail "pipe stream | hwprof report -D -i -: rc=$rc2 samples ${n2:-none} vs ${e2:-?}"; fi

# pipe mode saved to a file
if "$REC" -v -o - -e cpu-clock -c 100000 -- $W >"$TMP/pf.data" 2>"$TMP/pf.rec" &&
   perf report -D -i "$TMP/pf.data" >"$TMP/pf.perf" 2>/dev/null; then
  "$HWPROF" report -D -i "$TMP/pf.data" >"$TMP/pf.hw" 2>&1
  if diff -q "$TMP/pf.perf" "$TMP/pf.hw" >/dev/null; then pass "pipe file: perf and hwprof report -D identical"
  else fail "pipe file: report -D differs"; diff "$TMP/pf.perf" "$TMP/pf.hw" | head; fi
  n=$(sed -n 's/^samples=\([0-9]*\).*/\1/p' "$TMP/pf.rec")
  if [ "$(samples_in_dump "$TMP/pf.perf")" = "$n" ]; then pass "pipe file: $n samples"; else fail "pipe file: sample count"; fi
  if perf script -i "$TMP/pf.data" >/dev/null 2>&1; then pass "pipe file: perf script reads it"; else fail "pipe file: perf script"; fi
else fail "pipe file: record or perf report -D failed"; fi

# options that change the attrs: perf reads the files and agrees with hwprof
check dwarf --call-graph dwarf,4096 -e cpu-clock -c 200000 -- $W
check data-cpu-stat -d --sample-cpu -s -e task-clock -c 100000 -- $W
check switch --switch-events -e cpu-clock -c 100000 -- $W

# the cycles event falls back to cpu-clock like perf, saying so with -v
if "$REC" -v -e cycles -o "$TMP/cyc.data" -- true >/dev/null 2>"$TMP/cyc.err" &&
   grep -q "^The cycles event is not supported, trying to fall back to cpu-clock-ticks$" "$TMP/cyc.err" &&
   perf evlist -i "$TMP/cyc.data" 2>/dev/null | grep -q "^cpu-clock$"; then pass "cycles falls back to cpu-clock"
else fail "cycles fallback: $(head -2 "$TMP/cyc.err")"; fi
# perf's summary lines, the workload's exit code
"$REC" -o "$TMP/sum.data" -- sh -c 'exit 3' >/dev/null 2>"$TMP/sum.err"; rc=$?
ns=$(perf report -D -i "$TMP/sum.data" 2>/dev/null | sed -n '/^Aggregated stats:/,/stats:$/p' | awk '/ SAMPLE events:/ {print $3; exit}')
if [ "${ns:-0}" -gt 0 ]; then suffix=" ($ns samples)"; else suffix=""; fi # perf omits "(0 samples)"
if [ $rc = 3 ] && grep -q '^\[ hwprof record: Woken up [0-9]* times to write data \]$' "$TMP/sum.err" &&
   grep -qF "[ hwprof record: Captured and wrote " "$TMP/sum.err" &&
   grep -q "^\[ hwprof record: Captured and wrote [0-9.]* MB $TMP/sum.data$suffix \]$" "$TMP/sum.err"; then
  pass "summary lines as perf's, workload exit code 3 returned"
else fail "summary/exit code: rc=$rc $(cat "$TMP/sum.err")"; fi
# Ctrl-C ends cleanly with a valid file
"$REC" -o "$TMP/int.data" -- sleep 10 >/dev/null 2>&1 & p=$!
sleep 0.5; kill -INT $p; wait $p; rc=$?
if [ $rc = 0 ] && perf report -D -i "$TMP/int.data" >/dev/null 2>&1; then pass "SIGINT: clean stop, perf reads the file"
else fail "SIGINT: rc=$rc"; fi
# a full disk: an error, and a file readers accept up to the last whole record
if [ -e /dev/full ]; then
  "$REC" -o /dev/full -- true >/dev/null 2>"$TMP/full.err"; rc=$?
  if [ $rc != 0 ] && grep -q "No space left on device" "$TMP/full.err"; then pass "disk full: error reported ($rc)"
  else fail "disk full: rc=$rc $(head -1 "$TMP/full.err")"; fi
fi

# a disk that fills up mid-recording (a 256 KiB tmpfs, when we may mount
# one): perf's error line, and a file both readers take, with the same
# samples, up to the last whole record
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=256k tmpfs "$TMP/small" 2>/dev/null; then
  "$REC" -v -e task-clock -c 20000 -o "$TMP/small/x.data" -- sh -c 'head -c 300000000 /dev/zero | md5sum' \
    >/dev/null 2>"$TMP/small.err"; rc=$?
  if [ $rc != 0 ] && grep -q "^failed to write perf data, error: No space left on device$" "$TMP/small.err"; then
    pass "tmpfs full: perf's error line, exit $rc"
  else fail "tmpfs full: rc=$rc $(head -2 "$TMP/small.err")"; fi
  perf report -D -i "$TMP/small/x.data" >"$TMP/small.perf" 2>"$TMP/small.perr"; prc=$?
  "$HWPROF" report -D -i "$TMP/small/x.data" >"$TMP/small.hw" 2>&1; hrc=$?
  n=$(samples_in_dump "$TMP/small.perf")
  if [ $prc = 0 ] && [ $hrc = 0 ] && [ "${n:-0}" -gt 0 ] && diff -q "$TMP/small.perf" "$TMP/small.hw" >/dev/null &&
     ! grep -q "WARNING" "$TMP/small.perr"; then
    pass "tmpfs full: the truncated file reads in perf and hwprof alike ($n samples)"
  else fail "tmpfs full: perf rc=$prc hwprof rc=$hrc samples=${n:-none} $(head -1 "$TMP/small.hw")"; fi
  umount "$TMP/small"
else
  skip "tmpfs full (cannot mount a tmpfs here; test_record's t_disk_full covers the writer)"
fi

# the other way: hwprof reads perf's recordings of the same kinds (report_dump.sh
# covers the full mix); perf's file and ours agree on the record kinds
perf record -q -e cpu-clock -c 100000 -o "$TMP/perf.data" -- $W >/dev/null 2>&1
"$REC" -e cpu-clock -c 100000 -o "$TMP/ours.data" -- $W >/dev/null 2>&1
kinds() { perf report -D -i "$1" 2>/dev/null | sed -n '/^Aggregated stats:/,/stats:$/p' | awk '/events:/ {print $1}' | sort | tr '\n' ' '; }
k1=$(kinds "$TMP/perf.data"); k2=$(kinds "$TMP/ours.data")
if [ "$k1" = "$k2" ]; then pass "same record kinds as perf record: $k1"
else fail "record kinds differ: perf [$k1] ours [$k2]"; fi
h1=$(perf report --header-only -i "$TMP/perf.data" | grep -c '^# \(hostname\|os release\|arch\|nrcpus\|cpudesc\|cpuid\|total memory\|cmdline\|event\|pmu mappings\|time of\)')
h2=$(perf report --header-only -i "$TMP/ours.data" | grep -c '^# \(hostname\|os release\|arch\|nrcpus\|cpudesc\|cpuid\|total memory\|cmdline\|event\|pmu mappings\|time of\)')
if [ "$h1" = "$h2" ]; then pass "header features perf shows: $h2 lines like perf's"
else fail "header features: perf's file $h1 lines, ours $h2"; perf report --header-only -i "$TMP/ours.data" | head -30; fi
for f in hostname "os release" arch "nrcpus online" "nrcpus avail" cpudesc cpuid "total memory"; do
  a=$(perf report --header-only -i "$TMP/perf.data" | grep "^# $f ")
  b=$(perf report --header-only -i "$TMP/ours.data" | grep "^# $f ")
  if [ "$a" = "$b" ]; then pass "header $f equal"; else fail "header $f: perf '$a' ours '$b'"; fi
done
if "$HWPROF" report --header-only -I -i "$TMP/ours.data" >"$TMP/ho.hw" 2>&1 &&
   perf report --header-only -I -i "$TMP/ours.data" >"$TMP/ho.perf" 2>&1 &&
   diff -q <(grep -v "captured on" "$TMP/ho.perf") <(grep -v "captured on" "$TMP/ho.hw") >/dev/null; then
  pass "report --header-only -I identical on our file"
else fail "report --header-only -I differs on our file"; diff "$TMP/ho.perf" "$TMP/ho.hw" | head; fi

# SIMD registers through the recorder's open: a kernel without the SIMD
# series refuses the size-176 attr with E2BIG (writing back its own size),
# one with it refuses them on cpu-clock with EOPNOTSUPP. Either way the
# recording must stop with the explanation, not open a cut-down attr.
rm -f "$TMP/simd.data"
if "$REC" -e cpu-clock -I 0x3 --simd zmm -o "$TMP/simd.data" -- true >/dev/null 2>"$TMP/simd.err"; then
  fail "SIMD request: record_try succeeded (SIMD fields dropped?)"
elif [ -e "$TMP/simd.data" ]; then fail "SIMD request: refused but $TMP/simd.data left behind"
elif grep -Eq "^the kernel's perf_event_attr is [0-9]+ bytes, ours is 176: this kernel predates SIMD|^this event's PMU cannot sample SIMD" "$TMP/simd.err"; then
  pass "SIMD request refused with the explanation: $(tail -1 "$TMP/simd.err" | cut -c1-60)..."
else fail "SIMD request: $(tail -1 "$TMP/simd.err")"; fi
# A hardware PMU without the SIMD capability (EOPNOTSUPP): no fallback to
# cpu-clock, which could never sample them; the reason names the PMU.
rm -f "$TMP/simd.data"
if "$REC" -e cycles -I 0x3 --simd zmm --no-simd-pmu -o "$TMP/simd.data" -- true >/dev/null 2>"$TMP/simd.err"; then
  fail "SIMD on a PMU without the capability: record_try succeeded"
elif [ ! -e "$TMP/simd.data" ] && grep -q "^this event's PMU has no SIMD/eGPR/SSP register sampling; drop" "$TMP/simd.err"; then
  pass "SIMD on a PMU without the capability: refused for cycles, no cpu-clock fallback, no file"
else fail "SIMD on a PMU without the capability: $(tail -1 "$TMP/simd.err")"; fi

# a workload that cannot be started
if "$REC" -o "$TMP/bad.data" -- /nonexistent/prog >/dev/null 2>"$TMP/bad.err"; then
  fail "missing workload: record_try succeeded"
elif grep -q "workload: No such file or directory" "$TMP/bad.err"; then pass "missing workload: error says so"
else fail "missing workload: $(head -1 "$TMP/bad.err")"; fi
finish
