# The recorder's AUX path without an AUX PMU: tests/unit/test_record_aux
# records through a fake kernel (AUX area, aux_head moved by the test,
# PERF_RECORD_AUX with truncated/partial/collision flags, an Arm SPE v1
# AUXTRACE_INFO) and leaves the file here; perf 6.1 must read it, show
# the AUXTRACE and AUX records and warn about the truncated one, and
# hwprof report -D must dump it as perf does.
source tests/lib/common.sh
T="$PWD/$HWPROF_BUILD/tests/test_record_aux"
if ! have_perf; then skip "record AUX (perf not installed)"; finish; fi
if [ ! -x "$T" ]; then fail "test_record_aux not built"; finish; fi
f="$TMP/aux.data"
if ! TEST_RECORD_AUX_OUT="$f" "$T" >"$TMP/unit.out" 2>&1; then fail "test_record_aux failed"; tail -5 "$TMP/unit.out"; finish; fi
if command perf report -D -i "$f" >"$TMP/aux.perf" 2>"$TMP/aux.perr"; then pass "perf report -D reads the fake-kernel AUX recording"
else fail "perf report -D: $(head -2 "$TMP/aux.perr")"; finish; fi
n=$(grep -c ': PERF_RECORD_AUXTRACE size: ' "$TMP/aux.perf")
[ "$n" = 2 ] && pass "2 AUXTRACE records: $(grep ': PERF_RECORD_AUXTRACE size: ' "$TMP/aux.perf" | sed 's/.*size: \([0-9a-fx]*\)  offset: \([0-9a-fx]*\).*/\2+\1/' | tr '\n' ' ')" || fail "AUXTRACE records: $n"
if grep -q 'PERF_RECORD_AUX offset: 0x1388 size: 0x1b58 flags: 0x5 \[TP\]$' "$TMP/aux.perf" &&
   grep -q 'PERF_RECORD_AUX offset: 0x2ee0 size: 0 flags: 0x8 \[\]$' "$TMP/aux.perf"; then
  pass "AUX records keep their flags (truncated+partial, collision)"
else fail "AUX flags not as recorded"; fi
if grep -q "^AUX data lost 1 times out of 3!" "$TMP/aux.perr"; then pass "perf warns about the truncated AUX record"
else fail "perf's AUX warning missing: $(cat "$TMP/aux.perr")"; fi
"$HWPROF" report -D -i "$f" >"$TMP/aux.hw" 2>"$TMP/aux.herr"
# compared in full, perf's "(excludes AUX area ...)" stats note included
if diff -q "$TMP/aux.perf" "$TMP/aux.hw" >/dev/null; then
  pass "hwprof report -D dumps it as perf ($(wc -l <"$TMP/aux.hw") lines, SPE packets included)"
else fail "hwprof report -D differs"; diff "$TMP/aux.perf" "$TMP/aux.hw" | head; fi
# and warns as perf does
if cmp -s "$TMP/aux.perr" "$TMP/aux.herr"; then pass "hwprof report -D warns about the AUX records as perf"
else fail "hwprof report -D's warnings differ"; diff "$TMP/aux.perr" "$TMP/aux.herr" | head; fi
finish
