#!/usr/bin/env bash
# Intel PT control-flow decoding throughput, same trace, same run: a real
# program (bench/workloads/pt_work.c) traced by the ptrace PT emulator, its
# trace repeated to >= 100 MB; hwprof's flow decoder on one thread and on
# every CPU, libipt's block decoder, and perf 6.1 `script --itrace=b` against
# `hwprof pt insn --branches` on a slice perf can get through in reasonable
# time. Never fails on speed.
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/bench
mkdir -p "$out"
make -s build/hwprof build/tools/pt_emulate build/tools/pt_libipt_block >/dev/null || exit 1
gcc -O2 -o "$out/pt_work" bench/workloads/pt_work.c || exit 1
secs() { /usr/bin/time -f %e -o "$out/t" "$@" >/dev/null 2>&1; tail -1 "$out/t"; }
ratio() { echo "scale=2; $1 / $2" | bc; }

big="$out/ptb"
if [ ! -s "$big.raw" ] || [ "$(stat -c %s "$big.raw")" -lt $((100 << 20)) ]; then
  build/tools/pt_emulate --max 1000000 "$big.one" "$out/pt_work" >/dev/null 2>&1 || { echo "emulator failed (ptrace?)"; exit 0; }
  one=$(stat -c %s "$big.one.raw")
  build/tools/pt_emulate --max 1000000 --repeat $(( (100 << 20) / one + 1 )) "$big" "$out/pt_work" >/dev/null 2>&1
fi
size=$(stat -c %s "$big.raw")
mb=$(echo "scale=1; $size / 1048576" | bc)
ninsn=$(build/hwprof pt insn "$big.raw" --maps "$big.maps" --quiet --stats -j 1 2>&1 | sed -n 's/.* events, \([0-9]*\) instructions.*/\1/p')
echo "input: $big.raw, $mb MB of PT, $ninsn instructions"
cpus=$(nproc)
t1=$(secs build/hwprof pt insn "$big.raw" --maps "$big.maps" --quiet -j 1)
tn=$(secs build/hwprof pt insn "$big.raw" --maps "$big.maps" --quiet -j "$cpus")
tl=$(secs build/tools/pt_libipt_block "$big.raw" "$big.maps" -)
echo "hwprof flow decoder, 1 thread:   $t1 s  ($(echo "scale=1; $size / 1048576 / $t1" | bc) MB/s, $(echo "$ninsn / $t1 / 1000000" | bc) M insn/s)"
echo "hwprof flow decoder, $cpus threads:  $tn s  (speed-up $(ratio "$t1" "$tn")x on $cpus CPUs; parallel decoding copies every event once more, so it pays only with idle CPUs)"
echo "libipt block decoder:            $tl s"
echo "ratio: hwprof (1 thread) is $(ratio "$tl" "$t1")x libipt's block decoder"

# perf: one run of the workload (perf needs minutes for the whole stream)
if command -v perf >/dev/null 2>&1; then
  small="$big.one.data"
  tp=$(secs perf script -i "$small" --itrace=b)
  th=$(secs build/hwprof pt insn -i "$small" --branches)
  echo "perf script --itrace=b on one run ($(stat -c %s "$big.one.raw") bytes of PT): $tp s; hwprof pt insn --branches: $th s; ratio $(ratio "$tp" "$th")x"
  tp=$(secs perf script -i "$small" --itrace=i1i -F ip)
  th=$(secs build/hwprof pt insn -i "$small")
  echo "perf script --itrace=i1i -F ip: $tp s; hwprof pt insn: $th s; ratio $(ratio "$tp" "$th")x"
fi
