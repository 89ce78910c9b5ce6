# `hwprof script` on Arm SPE perf.data files against Debian perf 6.1's
# `perf script`: files from tests/tools/spe_mkperf (CONTEXT packets or switch
# events, timeless, buffers split mid-record, bad bytes, PHYS_ADDR, several
# MIDRs, a real ELF mapped so SPE ips get symbols, cpu-clock samples mixed
# in). stdout must be byte-identical, stderr (perf's SPE warnings) and the
# exit status too; option errors (--itrace letters, -F fields) likewise.
source tests/lib/common.sh
if ! have_perf; then skip "SPE hwprof script (perf not installed)"; finish; fi
F_TIMED=comm,tid,pid,cpu,time,event,ip,addr,phys_addr,data_src,weight,period
F_TIMELESS=comm,tid,pid,cpu,event,ip,addr,phys_addr,data_src,weight,period
# perf prints this when a 64-bit ELF is mapped in an arm64 recording (its
# libunwind lacks arm64); hwprof does not unwind, so it is left out
filter_err() { grep -v '^unwind: target platform=arm64 is not supported$' "$1" >"$1.f"; mv "$1.f" "$1"; }
cmp_run() { # name file args...
  local name=$1 f=$2; shift 2
  perf script -i "$f" "$@" >"$TMP/p.txt" 2>"$TMP/p.err"; local prc=$?
  "$HWPROF" script -i "$f" "$@" >"$TMP/h.txt" 2>"$TMP/h.err"; local hrc=$?
  filter_err "$TMP/p.err"
  if [ "$prc" != "$hrc" ]; then
    fail "$name: exit $hrc, perf $prc: $(head -2 "$TMP/h.err")"
  elif ! cmp -s "$TMP/p.txt" "$TMP/h.txt"; then
    fail "$name: output differs"; diff "$TMP/p.txt" "$TMP/h.txt" | head -6
  elif ! cmp -s "$TMP/p.err" "$TMP/h.err"; then
    fail "$name: stderr differs"; diff "$TMP/p.err" "$TMP/h.err" | head -6
  else
    pass "$name: identical ($(wc -l <"$TMP/p.txt") lines, exit $prc)"
  fi
}
variant() { # name fields spe_mkperf-args...
  local name=$1 fields=$2; shift 2
  "$GEN/spe_mkperf" "$@" "$TMP/$name.data" || { fail "$name: spe_mkperf"; return; }
  local d="$TMP/$name.data"
  cmp_run "$name (default)" "$d"
  cmp_run "$name --itrace=i1i" "$d" --itrace=i1i
  cmp_run "$name --itrace=bxofmtMa" "$d" --itrace=bxofmtMa
  cmp_run "$name -F fields" "$d" -F "$fields"
  cmp_run "$name -F fields --itrace=i1i" "$d" -F "$fields" --itrace=i1i
  cmp_run "$name --itrace" "$d" --itrace
}
variant n1-context "$F_TIMED"
variant n1-phys "$F_TIMED" --phys --seed 5
variant generic-a76 "$F_TIMED" --midr 0x00000000413fd0b0 --seed 2
variant switch-events "$F_TIMED" --no-context --cpus 3 --seed 4
variant split-buffers "$F_TIMED" --cpus 4 --bufsize 301 --seed 6
variant bad-bytes "$F_TIMED" --garbage --bufsize 777 --seed 7
variant timeless "$F_TIMELESS" --timeless --seed 8
variant timeless-switch "$F_TIMELESS" --timeless --no-context --cpus 3 --garbage
# symbols: user ips fall in a real ELF (this test's own tool), cpu-clock
# samples are printed among the synthesized ones
variant symbols-clock "$F_TIMED" --dso "$GEN/spe_mkperf" --clock 80 --seed 12
variant timeless-clock "$F_TIMELESS" --timeless --dso "$GEN/spe_mkperf" --clock 40 --seed 13
d="$TMP/symbols-clock.data"
cmp_run "symbols -F ip,sym,symoff,dso" "$d" -F ip,sym,symoff,dso --itrace=i1i
cmp_run "symbols -F +addr" "$d" -F +addr --itrace=fm
cmp_run "-F misc" "$d" -F comm,tid,misc,time,event,ip --itrace=i1i
cmp_run "--ns --itrace=ti1i" "$d" --ns --itrace=ti1i
cmp_run "--itrace=i100i" "$d" --itrace=i100i
cmp_run "--itrace=i10us (not instruction-based)" "$d" --itrace=i10us
cmp_run "--no-itrace" "$d" --no-itrace
cmp_run "--no-itrace, switch events" "$TMP/switch-events.data" --no-itrace
cmp_run "bad --itrace letter" "$d" --itrace=z
cmp_run "bad --itrace period" "$d" --itrace=i1q
cmp_run "timeless -F time (missing TIME)" "$TMP/timeless.data" -F comm,time --itrace=i1i
# perf script's checks on the synthesized samples: --time (several ranges
# too), --reltime/--deltatime, the thread, comm, cpu, DSO and symbol
# filters, and --show-*-events records among the samples in perf's order
for f in switch-events n1-context; do
  d="$TMP/$f.data"
  cmp_run "$f --time" "$d" -F "$F_TIMED" --time 1.0400,1.0420
  cmp_run "$f --time, two ranges, i1i" "$d" -F "$F_TIMED" --itrace=i1i --time "1.0401,1.0402 1.0430,1.0440"
  cmp_run "$f --pid/--tid" "$d" -F "$F_TIMED" --pid 100 --tid 101
  cmp_run "$f --comms" "$d" --comms other
  cmp_run "$f -C" "$d" -F "$F_TIMED" -C 1,2
  cmp_run "$f -S" "$d" -S 0xaaaad0001040
  cmp_run "$f --reltime" "$d" --reltime
  cmp_run "$f --deltatime --ns" "$d" --deltatime --ns
  cmp_run "$f --show-switch-events --time -C" "$d" -F "$F_TIMED" --show-switch-events --time 1.0400,1.0420 -C 0
  cmp_run "$f --show-task-events --pid" "$d" --show-task-events --pid 100
done
cmp_run "timeless --time (no sample time: all kept)" "$TMP/timeless.data" -F "$F_TIMELESS" --time 1.0401,1.0402
# perf's decoder messages: address packets of indexes 4-7 and an OP_TYPE
# packet of an unknown class, each reported every time it is decoded
python3 - "$TMP/msgs.bin" <<'PY'
import struct, sys
out = b''
for i in range(6):
    out += b'\xb0' + struct.pack('<Q', 0x8000aaaad0001000 + 4 * i)
    out += bytes([0xb4 + i % 4]) + struct.pack('<Q', 0x1234)
    if i == 3: out += b'\x4b\x55'
    out += b'\x71' + struct.pack('<Q', 1000000 + 1000 * i)
open(sys.argv[1], 'wb').write(out)
PY
if "$GEN/spe_mkperf" --cpus 2 --raw "$TMP/msgs.bin" "$TMP/msgs.data"; then
  cmp_run "decoder messages" "$TMP/msgs.data" --itrace=i1i
  cmp_run "decoder messages (default itrace)" "$TMP/msgs.data"
else fail "decoder messages: spe_mkperf"; fi
finish
