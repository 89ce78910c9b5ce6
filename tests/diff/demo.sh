# make demo's script runs to the end and shows each of its views (run once,
# against the gcc build it uses).
source tests/lib/common.sh
if [ "$HWPROF_BUILD" != build ]; then skip "demo (runs against build/ only)"; finish; fi
if ! bash scripts/demo.sh >"$TMP/demo.out" 2>&1; then
  fail "demo: scripts/demo.sh failed: $(tail -3 "$TMP/demo.out" | tr '\n' ' ')"; finish
fi
pass "demo: scripts/demo.sh exits 0"
for want in "hwprof report --stdio" "hwprof flamegraph" "hwprof report --header-only" \
            "hwprof report -D" "SIMD register sampling" "Intel PT call trace" "Arm SPE memory view"; do
  if grep -q "^== .*$want" "$TMP/demo.out"; then pass "demo shows: $want"
  else fail "demo: no '$want' section"; fi
done
if grep -q '^# Overhead  Local Weight  Memory access' "$TMP/demo.out"; then pass "demo: the SPE memory report (--mem-mode)"
else fail "demo: no --mem-mode table in the SPE section"; fi
if grep -q 'differs from perf report -D\|please report' "$TMP/demo.out"; then fail "demo: -D differs from perf"
else pass "demo: no difference from perf reported"; fi
if grep -q '^\.\.\. SIMD ABI nr_vectors 32 vector_qwords 8' "$TMP/demo.out" && grep -q 'zmm0=0x' "$TMP/demo.out"; then
  pass "demo: SIMD dump and whole-register form"
else fail "demo: SIMD section incomplete"; fi
finish
