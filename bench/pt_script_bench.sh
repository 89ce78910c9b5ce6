#!/usr/bin/env bash
# Intel PT synthesis throughput: `perf script --itrace=b`, `--itrace=i100i`
# and `--insn-trace` against hwprof's on the same perf.data, in the same
# run. The trace comes from the ptrace emulator (tests/tools/pt_emulate)
# over bench/pt_work/work.c, written REPEAT times in a row (single-stepping
# is slow: ~30k instructions/s). Prints times, ratios and whether the
# outputs are identical; never fails on speed.
# Usage: bench/pt_script_bench.sh [ROUNDS [REPEAT]]
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/bench
mkdir -p "$out"
rounds=${1:-30} repeat=${2:-20}
make -s build/hwprof build/tools/pt_emulate >/dev/null || exit 1
data="$out/pt_work.r$rounds.x$repeat"
if [ ! -s "$data.data" ]; then
  gcc -O2 -static -o "$out/pt_work" bench/pt_work/work.c || exit 1
  build/tools/pt_emulate --repeat "$repeat" "$data" "$out/pt_work" "$rounds" >/dev/null 2>&1 || {
    echo "pt_emulate failed (ptrace not permitted?)"; exit 0; }
fi
size=$(stat -c %s "$data.data")
insns=$(( $(wc -l <"$data.gt") * repeat ))
echo "input: $data.data, $(echo "scale=1; $size / 1048576" | bc) MB, $insns instructions"
for what in "--itrace=b" "--itrace=i100i" "--insn-trace"; do
  # timed into /dev/null (the outputs are GBs: the disk would dominate),
  # compared afterwards through pipes
  t0=$(date +%s.%N); perf script -i "$data.data" $what >/dev/null 2>&1; t1=$(date +%s.%N)
  build/hwprof script -i "$data.data" $what >/dev/null 2>&1; t2=$(date +%s.%N)
  perf_s=$(echo "$t1 - $t0" | bc); hw_s=$(echo "$t2 - $t1" | bc)
  same=DIFFER
  cmp -s <(perf script -i "$data.data" $what 2>/dev/null) <(build/hwprof script -i "$data.data" $what 2>/dev/null) &&
    same=identical
  echo "script $what: perf $perf_s s, hwprof $hw_s s ($(echo "scale=1; $insns / $hw_s / 1000000" | bc) M insn/s),"\
       "outputs $same; hwprof is $(echo "scale=1; $perf_s / $hw_s" | bc)x faster"
done
# the same with timing packets (TSC/MTC/CYC) that perf decodes with time
tdata="$out/pt_work_timed.r$rounds.x$repeat"
if [ ! -s "$tdata.data" ]; then
  build/tools/pt_emulate --timing --time-zero --repeat "$repeat" "$tdata" "$out/pt_work" "$rounds" >/dev/null 2>&1 || {
    echo "pt_emulate failed (ptrace not permitted?)"; exit 0; }
fi
for what in "--itrace=b --ns" "--itrace=i100i --ns"; do
  t0=$(date +%s.%N); perf script -i "$tdata.data" $what >/dev/null 2>&1; t1=$(date +%s.%N)
  build/hwprof script -i "$tdata.data" $what >/dev/null 2>&1; t2=$(date +%s.%N)
  perf_s=$(echo "$t1 - $t0" | bc); hw_s=$(echo "$t2 - $t1" | bc)
  same=DIFFER
  cmp -s <(perf script -i "$tdata.data" $what 2>/dev/null) <(build/hwprof script -i "$tdata.data" $what 2>/dev/null) &&
    same=identical
  echo "timed trace, script $what: perf $perf_s s, hwprof $hw_s s, outputs $same;"\
       "hwprof is $(echo "scale=1; $perf_s / $hw_s" | bc)x faster"
done
t0=$(date +%s.%N); build/hwprof pt insn -i "$data.data" --quiet --stats 2>"$out/pt_stats.txt"; t1=$(date +%s.%N)
echo "flow decoder alone (hwprof pt insn --quiet): $(cat "$out/pt_stats.txt")"
