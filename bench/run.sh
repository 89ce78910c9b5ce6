#!/usr/bin/env bash
# make bench: throughput of hwprof against perf (and libipt where a bench
# program exists) on the same input, in the same run. Prints MB/s, records/s
# and ratios; never fails on speed.
set -uo pipefail
cd "$(dirname "$0")/.."
HW=build/hwprof
out=build/bench
mkdir -p "$out"
mb() { echo "scale=1; $1 / 1048576" | bc; }

echo "== report -D: hwprof vs perf 6.1 on a perf.data of at least 200 MB (samples with DWARF stacks and regs)"
big="$out/big.data"
if [ ! -s "$big" ] || [ "$(stat -c %s "$big")" -lt $((200 << 20)) ]; then
  n=30000
  for attempt in 1 2 3 4; do
    perf record -q -o "$big" -e cpu-clock -c 50000 --call-graph dwarf,4096 -I -- \
      bash -c "find /usr -type f 2>/dev/null | head -$n | xargs cat >/dev/null 2>&1" >/dev/null 2>&1
    [ "$(stat -c %s "$big" 2>/dev/null || echo 0)" -ge $((200 << 20)) ] && break
    n=$((n * 2))
  done
fi
size=$(stat -c %s "$big")
echo "input: $big, $(mb "$size") MB"
t0=$(date +%s.%N); perf report -D -i "$big" >/dev/null 2>&1; t1=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$out/hw.rss" "$HW" report -D -i "$big" >/dev/null; t2=$(date +%s.%N)
perf_s=$(echo "$t1 - $t0" | bc); hw_s=$(echo "$t2 - $t1" | bc)
records=$("$HW" report -D -i "$big" | sed -n 's/^ *TOTAL events: *\([0-9]*\).*/\1/p')
echo "perf report -D:   $perf_s s  ($(echo "scale=1; $size / 1048576 / $perf_s" | bc) MB/s, $(echo "$records / $perf_s" | bc) records/s)"
echo "hwprof report -D: $hw_s s  ($(echo "scale=1; $size / 1048576 / $hw_s" | bc) MB/s, $(echo "$records / $hw_s" | bc) records/s), max RSS $(( $(cat "$out/hw.rss") / 1024 )) MB"
echo "ratio: hwprof is $(echo "scale=1; $perf_s / $hw_s" | bc)x faster than perf"

echo
echo "== script: hwprof vs perf 6.1 on the same file (-G: perf would unwind the DWARF stacks otherwise)"
t0=$(date +%s.%N); perf script -G -i "$big" >"$out/script.perf" 2>/dev/null; t1=$(date +%s.%N)
"$HW" script -G -i "$big" >"$out/script.hw" 2>/dev/null; t2=$(date +%s.%N)
perf_s=$(echo "$t1 - $t0" | bc); hw_s=$(echo "$t2 - $t1" | bc)
samples=$(wc -l <"$out/script.hw")
echo "perf script:   $perf_s s  ($(echo "$samples / $perf_s" | bc) samples/s)"
echo "hwprof script: $hw_s s  ($(echo "$samples / $hw_s" | bc) samples/s)"
if cmp -s "$out/script.perf" "$out/script.hw"; then echo "outputs identical ($samples lines)"; else echo "outputs differ"; fi
echo "ratio: hwprof is $(echo "scale=1; $perf_s / $hw_s" | bc)x faster than perf"
rm -f "$out/script.perf" "$out/script.hw"

echo; echo "== report --stdio: hwprof vs perf 6.1 on the same files"; bench/report_bench.sh "$big" "$out"
echo
echo "== script with DWARF unwinding: hwprof vs perf 6.1 (libunwind) on one process's --call-graph dwarf file"
dw="$out/dwarf.data"
if [ ! -s "$dw" ]; then
  # one process, no exec inside it (perf 6.1's libunwind keeps stale
  # unwind state across an exec, so its output differs there)
  perf record -q -o "$dw" -e cpu-clock -c 100000 --call-graph dwarf -- \
    xz -6 -c /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/bin/bash /usr/bin/perf >/dev/null 2>&1
fi
echo "input: $dw, $(mb "$(stat -c %s "$dw")") MB"
t0=$(date +%s.%N); perf script -i "$dw" >"$out/dw.perf" 2>/dev/null; t1=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$out/dw.rss" "$HW" script -i "$dw" >"$out/dw.hw" 2>/dev/null; t2=$(date +%s.%N)
perf_s=$(echo "$t1 - $t0" | bc); hw_s=$(echo "$t2 - $t1" | bc)
samples=$(grep -c "cpu-clock:" "$out/dw.hw")
echo "perf script:   $perf_s s  ($(echo "$samples / $perf_s" | bc) samples/s)"
echo "hwprof script: $hw_s s  ($(echo "$samples / $hw_s" | bc) samples/s), max RSS $(( $(cat "$out/dw.rss") / 1024 )) MB"
if cmp -s "$out/dw.perf" "$out/dw.hw"; then echo "outputs identical ($(wc -l <"$out/dw.hw") lines)"; else echo "outputs differ"; fi
echo "ratio: hwprof is $(echo "scale=1; $perf_s / $hw_s" | bc)x faster than perf"
rm -f "$out/dw.perf" "$out/dw.hw"

for b in build/bench/*; do
  [ -x "$b" ] && [ -f "$b" ] || continue
  echo; echo "== $(basename "$b")"
  # the packet bench also reads the emulated program trace that
  # pt_flow_bench.sh (below) leaves from an earlier run
  if [ "$(basename "$b")" = pt_packet_bench ] && [ -s build/bench/ptb.raw ]; then
    "$b" 256 build/bench/ptb.raw
  else
    "$b"
  fi
done

echo; echo "== Intel PT flow: hwprof (1 thread, all CPUs) vs libipt's block decoder and perf"; bench/pt_flow_bench.sh
echo; echo "== Arm SPE: perf script --itrace=i1i vs hwprof synthesis"; bench/spe_bench.sh
echo; echo "== Intel PT: perf script --itrace=b / i100i / --insn-trace vs hwprof"; bench/pt_script_bench.sh
echo; ./bench/record_overhead.sh
