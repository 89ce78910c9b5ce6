#!/usr/bin/env bash
# Arm SPE synthesis throughput: a >= 200 MB SPE perf.data written by the
# library's writer and SPE encoder (tests/tools/spe_mkperf), decoded with
# `perf script --itrace=i1i`, with `hwprof script --itrace=i1i` and with the
# library alone (tests/tools/spe_synth_print, same line format) in the same
# run. Never fails on speed.
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/bench
mkdir -p "$out"
make -s build/hwprof build/tools/spe_mkperf build/tools/spe_synth_print >/dev/null || exit 1
big="$out/spe_big.data"
if [ ! -s "$big" ] || [ "$(stat -c %s "$big")" -lt $((200 << 20)) ]; then
  build/tools/spe_mkperf --cpus 8 --records 550000 --bufsize 1048576 "$big" || exit 1
fi
size=$(stat -c %s "$big")
mbs() { echo "scale=1; $size / 1048576 / $1" | bc; }
echo "input: $big, $(echo "scale=1; $size / 1048576" | bc) MB"
t0=$(date +%s.%N); perf script -i "$big" --itrace=i1i >"$out/spe_perf.txt" 2>/dev/null; t1=$(date +%s.%N)
build/tools/spe_synth_print --itrace=i1i "$big" >"$out/spe_hw.txt"; t2=$(date +%s.%N)
perf_s=$(echo "$t1 - $t0" | bc); hw_s=$(echo "$t2 - $t1" | bc)
n=$(wc -l <"$out/spe_hw.txt")
echo "perf script --itrace=i1i:  $perf_s s  ($(mbs "$perf_s") MB/s), $(wc -l <"$out/spe_perf.txt") samples"
echo "hwprof SPE synthesis:      $hw_s s  ($(mbs "$hw_s") MB/s), $n samples"
cmp -s "$out/spe_perf.txt" "$out/spe_hw.txt" && echo "outputs identical" || echo "outputs DIFFER"
echo "ratio: hwprof is $(echo "scale=1; $perf_s / $hw_s" | bc)x faster than perf"
t5=$(date +%s.%N); build/hwprof script -i "$big" --itrace=i1i >"$out/spe_cli.txt" 2>/dev/null; t6=$(date +%s.%N)
cli_s=$(echo "$t6 - $t5" | bc)
echo "hwprof script --itrace=i1i: $cli_s s  ($(mbs "$cli_s") MB/s), $(wc -l <"$out/spe_cli.txt") samples"
cmp -s "$out/spe_perf.txt" "$out/spe_cli.txt" && echo "hwprof script output identical to perf" || echo "hwprof script output DIFFERS"
echo "ratio: hwprof script is $(echo "scale=1; $perf_s / $cli_s" | bc)x faster than perf"
t3=$(date +%s.%N); build/tools/spe_synth_print --quiet --itrace=i1i "$big" >/dev/null; t4=$(date +%s.%N)
q=$(echo "$t4 - $t3" | bc)
echo "hwprof synthesis without printing: $q s ($(mbs "$q") MB/s)"
rm -f "$out/spe_perf.txt" "$out/spe_hw.txt" "$out/spe_cli.txt"
