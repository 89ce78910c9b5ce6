# `hwprof report -D` on perf.data files holding Intel PT AUXTRACE data
# (generated streams wrapped by tests/tools/pt_perfdata_wrap), compared in
# full with perf 6.1's `perf report -D`: AUXTRACE_INFO fields, AUXTRACE
# lines and every packet line.
source tests/lib/common.sh
if ! have_perf; then skip "PT report -D (perf not installed)"; finish; fi
pad8() { local n; n=$(stat -c %s "$1"); head -c $(( (8 - n % 8) % 8 )) /dev/zero >>"$1"; }
check() { # name raw [nr_priv [filter]]
  local name=$1 raw=$2; shift 2
  "$GEN/pt_perfdata_wrap" "$raw" "$TMP/$name.data" "$@" || { fail "$name: wrap"; return; }
  perf report -D -i "$TMP/$name.data" >"$TMP/$name.perf" 2>/dev/null
  "$HWPROF" report -D -i "$TMP/$name.data" >"$TMP/$name.hw" 2>"$TMP/$name.err"
  if diff -q "$TMP/$name.perf" "$TMP/$name.hw" >/dev/null; then
    pass "$name: report -D identical ($(wc -l <"$TMP/$name.perf") lines)"
  else fail "$name: report -D differs"; diff "$TMP/$name.perf" "$TMP/$name.hw" | head -10; fi
}
for seed in 11 12; do
  "$GEN/pt_gen" packets $seed 2000 "$TMP/p$seed.raw" && pad8 "$TMP/p$seed.raw"
  check "packets-$seed" "$TMP/p$seed.raw"
  "$GEN/pt_gen" bytes $seed 4096 "$TMP/b$seed.raw"
  check "bytes-$seed" "$TMP/b$seed.raw"
done
check "info-10-fields" "$TMP/p11.raw" 10
check "info-15-fields" "$TMP/p11.raw" 15
check "info-16-fields" "$TMP/p11.raw" 16
check "info-filter" "$TMP/p11.raw" 17 "filter main @ /bin/ls"
finish
