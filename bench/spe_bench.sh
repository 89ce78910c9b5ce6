#!/usr/bin/env bash
# Arm SPE synthesis throughput: a >= 200 MB SPE perf.data written by the
# library's writer and SPE encoder (tests/tools/spe_mkperf), decoded with
# `perf script --itrace=i1i` and `hwprof script --itrace=i1i` in the same
# run, both writing to /dev/null (the terminal or disk would dominate);
# wall and CPU (user+sys) time of each, best of $RUNS runs, since the
# machine may be shared. The outputs are then written to files once and
# compared. The library alone (tests/tools/spe_synth_print --quiet) shows
# what synthesis without printing costs. Never fails on speed.
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/bench
RUNS=${RUNS:-3}
mkdir -p "$out"
make -s build/hwprof build/tools/spe_mkperf build/tools/spe_synth_print >/dev/null || exit 1
big="$out/spe_big.data"
if [ ! -s "$big" ] || [ "$(stat -c %s "$big")" -lt $((200 << 20)) ]; then
  build/tools/spe_mkperf --cpus 8 --records 550000 --bufsize 1048576 "$big" || exit 1
fi
size=$(stat -c %s "$big")
mbs() { echo "scale=1; $size / 1048576 / $1" | bc; }
# best wall and cpu seconds of $RUNS runs of a command (stdout to /dev/null)
best() {
  local bw=999999 bc=999999 w c
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %U %S" -o "$out/time.txt" "$@" >/dev/null 2>/dev/null
    read -r w u s <"$out/time.txt"
    c=$(echo "$u + $s" | bc)
    [ "$(echo "$w < $bw" | bc)" = 1 ] && bw=$w
    [ "$(echo "$c < $bc" | bc)" = 1 ] && bc=$c
  done
  echo "$bw $bc"
}
echo "input: $big, $(echo "scale=1; $size / 1048576" | bc) MB, best of $RUNS runs"
read -r pw pc < <(best perf script -i "$big" --itrace=i1i)
read -r hw hc < <(best build/hwprof script -i "$big" --itrace=i1i)
read -r qw qc < <(best build/tools/spe_synth_print --quiet --itrace=i1i "$big")
echo "perf script --itrace=i1i:   wall $pw s ($(mbs "$pw") MB/s), cpu $pc s"
echo "hwprof script --itrace=i1i: wall $hw s ($(mbs "$hw") MB/s), cpu $hc s"
echo "ratio: hwprof script is $(echo "scale=1; $pw / $hw" | bc)x faster than perf (wall), $(echo "scale=1; $pc / $hc" | bc)x (cpu)"
echo "hwprof synthesis without printing: wall $qw s ($(mbs "$qw") MB/s), cpu $qc s"
perf script -i "$big" --itrace=i1i >"$out/spe_perf.txt" 2>/dev/null
build/hwprof script -i "$big" --itrace=i1i >"$out/spe_cli.txt" 2>/dev/null
echo "$(wc -l <"$out/spe_perf.txt") samples;" \
  "$(cmp -s "$out/spe_perf.txt" "$out/spe_cli.txt" && echo "hwprof script output identical to perf" || echo "hwprof script output DIFFERS")"
rm -f "$out/spe_perf.txt" "$out/spe_cli.txt" "$out/time.txt"
