# `hwprof report -D` on perf.data files holding Arm SPE AUXTRACE data
# (tests/tools/spe_mkdata around encoder-made and random buffers), compared
# in full with perf 6.1's `perf report -D`.
source tests/lib/common.sh
if ! have_perf; then skip "SPE report -D (perf not installed)"; finish; fi
check() { # name buffer [--shift8]
  local name=$1 buf=$2
  "$GEN/spe_mkdata" ${3:-} "$buf" "$TMP/$name.data" >/dev/null || { fail "$name: spe_mkdata"; return; }
  perf report -D -i "$TMP/$name.data" >"$TMP/$name.perf" 2>/dev/null
  "$HWPROF" report -D -i "$TMP/$name.data" >"$TMP/$name.hw" 2>"$TMP/$name.err"
  if diff -q "$TMP/$name.perf" "$TMP/$name.hw" >/dev/null; then
    pass "$name: report -D identical ($(wc -l <"$TMP/$name.perf") lines)"
  else fail "$name: report -D differs"; diff "$TMP/$name.perf" "$TMP/$name.hw" | head -10; fi
}
"$GEN/spe_mkbuf" records "$TMP/rec.bin" && check records "$TMP/rec.bin"
"$GEN/spe_mkbuf" allkinds "$TMP/all.bin" && check allkinds "$TMP/all.bin"
for seed in 21 22; do
  "$GEN/spe_mkbuf" random $seed 4000 "$TMP/r$seed.bin" && check "random-$seed" "$TMP/r$seed.bin"
done
"$GEN/spe_mkbuf" random 23 4000 "$TMP/s23.bin" && check "random-shift8" "$TMP/s23.bin" --shift8
# a file with the AUXTRACE index feature, as perf record writes them: the
# stats line says AUX-decoded events are not counted
if "$GEN/spe_mkperf" --cpus 2 --records 200 "$TMP/indexed.data" >/dev/null; then
  perf report -D -i "$TMP/indexed.data" >"$TMP/indexed.perf" 2>/dev/null
  "$HWPROF" report -D -i "$TMP/indexed.data" >"$TMP/indexed.hw" 2>/dev/null
  if cmp -s "$TMP/indexed.perf" "$TMP/indexed.hw"; then
    pass "indexed (AUXTRACE feature): report -D identical ($(wc -l <"$TMP/indexed.perf") lines)"
  else fail "indexed (AUXTRACE feature): report -D differs"; diff "$TMP/indexed.perf" "$TMP/indexed.hw" | head -10; fi
else fail "spe_mkperf"; fi
finish
