#!/usr/bin/env bash
# Intel PT synthesis throughput: `perf script --itrace=b`, `--itrace=i100i`,
# `--insn-trace` and (timed trace) periods in time (`i100ns`, `i1us`)
# against hwprof's on the same perf.data, in the same
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
# times perf script and hwprof script over a file into /dev/null (the
# outputs are GBs: the disk would dominate), then compares the outputs
# through pipes. $1 file, $2 label, the rest the options
run_pair() {
  local f=$1 label=$2; shift 2
  local t0 t1 t2 perf_s hw_s same=DIFFER
  t0=$(date +%s.%N); perf script -i "$f" "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
  build/hwprof script -i "$f" "$@" >/dev/null 2>&1; t2=$(date +%s.%N)
  perf_s=$(echo "$t1 - $t0" | bc); hw_s=$(echo "$t2 - $t1" | bc)
  cmp -s <(perf script -i "$f" "$@" 2>/dev/null) <(build/hwprof script -i "$f" "$@" 2>/dev/null) && same=identical
  echo "${label}script $*: perf $perf_s s, hwprof $hw_s s ($(echo "scale=1; $insns / $hw_s / 1000000" | bc) M insn/s),"\
       "outputs $same; hwprof is $(echo "scale=1; $perf_s / $hw_s" | bc)x faster"
}
for what in "--itrace=b" "--itrace=i100i" "--insn-trace"; do
  run_pair "$data.data" "" $what
done
# the same with timing packets (TSC/MTC/CYC) that perf decodes with time
tdata="$out/pt_work_timed.r$rounds.x$repeat"
if [ ! -s "$tdata.data" ]; then
  build/tools/pt_emulate --timing --time-zero --repeat "$repeat" "$tdata" "$out/pt_work" "$rounds" >/dev/null 2>&1 || {
    echo "pt_emulate failed (ptrace not permitted?)"; exit 0; }
fi
for what in "--itrace=b --ns" "--itrace=i100i --ns" "--itrace=i100ns --ns" "--itrace=i1us"; do
  run_pair "$tdata.data" "timed trace, " $what
done
t0=$(date +%s.%N); build/hwprof pt insn -i "$data.data" --quiet --stats 2>"$out/pt_stats.txt"; t1=$(date +%s.%N)
echo "flow decoder alone (hwprof pt insn --quiet): $(cat "$out/pt_stats.txt")"
