# Arm SPE sample synthesis against Debian perf 6.1: perf.data files written
# by tests/tools/spe_mkperf (our writer + SPE encoder: loads, stores, SIMD/SVE,
# branches, chosen events, latencies, data sources; Neoverse N1, V2 (generic
# in 6.1) and Cortex-A76 MIDRs; CONTEXT packets or switch events; timeless;
# records spanning AUXTRACE buffers; bad bytes), decoded by `perf script
# --itrace=...` and by tests/tools/spe_synth_print (library synthesis + the
# CLI's line printer). Lines must be identical: sample counts per group,
# order, ips, addresses, weights, periods, pids/tids and data_src text.
source tests/lib/common.sh
if ! have_perf; then skip "SPE script (perf not installed)"; finish; fi
F_TIMED=comm,tid,pid,cpu,time,event,ip,addr,phys_addr,data_src,weight,period
F_TIMELESS=comm,tid,pid,cpu,event,ip,addr,phys_addr,data_src,weight,period
cmp_run() { # name file fields itrace-option...
  local name=$1 f=$2 fields=$3; shift 3
  perf script -i "$f" "$@" ${fields:+-F "$fields"} >"$TMP/p.txt" 2>/dev/null
  "$TOOLS/spe_synth_print" "$@" ${fields:+-F "$fields"} "$f" >"$TMP/h.txt" 2>"$TMP/h.err" ||
    { fail "$name: spe_synth_print failed: $(head -1 "$TMP/h.err")"; return; }
  if [ ! -s "$TMP/p.txt" ]; then fail "$name: perf printed nothing"; return; fi
  if cmp -s "$TMP/p.txt" "$TMP/h.txt"; then
    pass "$name: identical ($(wc -l <"$TMP/p.txt") samples)"
  else
    fail "$name: differs"; diff "$TMP/p.txt" "$TMP/h.txt" | head -6
  fi
}
variant() { # name fields spe_mkperf-args...
  local name=$1 fields=$2; shift 2
  "$GEN/spe_mkperf" "$@" "$TMP/$name.data" || { fail "$name: spe_mkperf"; return; }
  for it in "" --itrace=i1i --itrace=bxofmtMa --itrace=i100i --itrace=bxofmtMai100i --itrace=fi3i --itrace=Mb; do
    cmp_run "$name ${it:-(default itrace)}" "$TMP/$name.data" "$fields" $it
  done
}
variant n1-context "$F_TIMED"
variant n1-phys "$F_TIMED" --phys --seed 5
variant generic-a76 "$F_TIMED" --midr 0x00000000413fd0b0 --seed 2
variant v2-is-generic-in-6.1 "$F_TIMED" --midr 0x00000000410fd4f0 --seed 9
variant switch-events "$F_TIMED" --no-context --cpus 3 --seed 4
variant split-buffers "$F_TIMED" --cpus 4 --bufsize 301 --seed 6
variant bad-bytes "$F_TIMED" --garbage --bufsize 777 --seed 7
variant timeless "$F_TIMELESS" --timeless --seed 8
variant timeless-switch "$F_TIMELESS" --timeless --no-context --cpus 3 --garbage
# a mapping named by a relative path (the test runs from the tree's top):
# perf opens it from the current directory and finds its symbols. The
# plain build's tool is the mapped file (in a sanitizer build, text at the
# tool's fixed file offset holds no symbols)
if [ ! -x build/tools/spe_mkperf ]; then
  skip "relative dso path (no build/tools/spe_mkperf)"
elif "$GEN/spe_mkperf" --seed 12 --cpus 2 --records 3000 --dso build/tools/spe_mkperf "$TMP/rel.data"; then
  perf script -i "$TMP/rel.data" --itrace=i1i >"$TMP/p.txt" 2>/dev/null
  "$HWPROF" script -i "$TMP/rel.data" --itrace=i1i >"$TMP/h.txt" 2>"$TMP/h.err"
  if grep -q '+0x[0-9a-f]* (.*spe_mkperf)' "$TMP/p.txt" && cmp -s "$TMP/p.txt" "$TMP/h.txt"; then
    pass "relative dso path: symbols found, output identical ($(wc -l <"$TMP/p.txt") lines)"
  else
    fail "relative dso path: $(diff "$TMP/p.txt" "$TMP/h.txt" | head -3 | cut -c1-160 | tr '\n' ' ') $(head -1 "$TMP/h.err")"
  fi
fi
# default field set (comm tid cpu time period event ip sym dso): no symbols here
"$GEN/spe_mkperf" --seed 11 "$TMP/dflt.data" && cmp_run "default fields" "$TMP/dflt.data" ""
cmp_run "default fields, i1i" "$TMP/dflt.data" "" --itrace=i1i
# perf report's per-event sample counts ("# Samples: N  of event 'x'")
for it in --itrace=i1i ""; do
  perf report -i "$TMP/dflt.data" --stdio $it 2>/dev/null |
    sed -n "s/^# Samples: \([0-9]*\)  of event '\(.*\)'/\1 \2/p" | grep -v -e arm_spe -e dummy | sort >"$TMP/pc.txt"
  "$TOOLS/spe_synth_print" --counts $it "$TMP/dflt.data" | awk '$1 > 0' | sort >"$TMP/hc.txt"
  if [ -s "$TMP/pc.txt" ] && cmp -s "$TMP/pc.txt" "$TMP/hc.txt"; then
    pass "report counts per group ${it:-default}: $(tr '\n' ' ' <"$TMP/pc.txt")"
  else fail "report counts per group ${it:-default}"; diff "$TMP/pc.txt" "$TMP/hc.txt" | head -5; fi
done
# hand-made records for perf 6.1's op quirks (SVE-other is a load, load+store
# packets, unknown OP class fails the record, two EVENTS packets)
python3 - "$TMP/probe.bin" <<'PY'
import struct, sys
out = b''; ts = 1000000
def rec(*pk):
    global out, ts
    b = b'\xb0' + struct.pack('<Q', 0x8000aaaad0001000 + len(out))
    for p in pk: b += p
    b += b'\x98' + struct.pack('<H', 7) + b'\x71' + struct.pack('<Q', ts); ts += 1000
    out += b
ds = lambda v: b'\x53' + struct.pack('<H', v)
ev = lambda v: b'\x52' + struct.pack('<H', v)
va = b'\xb2' + struct.pack('<Q', 0x0000ffffe0001000)
for r in [(ev(6),), (ev(6), b'\x48\x00'), (ev(6), b'\x4a\x01'), (ev(6), b'\x49\x00', va),
          (ev(6), b'\x49\x01', va), (ev(6), b'\x49\x00', b'\x48\x00'), (ev(6), b'\x48\x00', b'\x49\x01'),
          (ds(8),), (ev(6), b'\x49\x04', ds(9)), (ev(0x36), b'\x49\x0a', ds(14)), (ev(6), b'\x49\x1c', ds(14)),
          (ev(2), ev(4)), (ev(6), b'\x4b\x55'), (ev(6), b'\x49\x01', b'\x49\x00'), (b'\x48\x0e', ds(11)),
          (b'\x48\x08', b'\x49\x01', ds(12)), (ev(0x402), b'\x49\x00', ds(13))]:
    rec(*r)
open(sys.argv[1], 'wb').write(out)
PY
"$GEN/spe_mkperf" --cpus 1 --raw "$TMP/probe.bin" "$TMP/probe.data" &&
  for it in --itrace=i1i "" --itrace=M; do cmp_run "op quirks ${it:-default}" "$TMP/probe.data" "$F_TIMED" $it; done
finish
