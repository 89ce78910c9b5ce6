#!/usr/bin/env bash
# Recording overhead: the same CPU-bound workload run bare, under
# `perf record -F 10000 -g` and under our recorder (build/tools/record_try,
# which is record_run()) with the same options, in the same run. Noise on
# a shared 2-core machine is large, so: several rounds (RECORD_BENCH_RUNS,
# default 7), the three runs of a round in a rotating order (drift hits
# each alike), medians, and the median of the per-round hwprof/perf
# ratios (each from runs seconds apart). RECORD_BENCH_ITERS (default 2)
# sizes the workload. Prints wall times, slowdowns and
# lost samples of both; never fails on speed.
set -uo pipefail
cd "$(dirname "$0")/.."
REC=build/tools/record_try
out=build/bench
mkdir -p "$out"
[ -x "$REC" ] || { echo "record_overhead: $REC not built (make test-build)"; exit 0; }
iters=${RECORD_BENCH_ITERS:-2}
W=(bash -c 'for i in $(seq 1 '"$iters"'); do find /usr/share -type f 2>/dev/null | head -4000 | xargs cat 2>/dev/null | gzip -1 >/dev/null; done')
runs=${RECORD_BENCH_RUNS:-7}
now() { date +%s.%N; }
median() { sort -n | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.4f\n", (v[NR/2]+v[NR/2+1])/2}'; }
lost_in() { perf report -D -i "$1" 2>/dev/null | awk '/^ *LOST events:/ {l=$3} /^ *LOST_SAMPLES events:/ {s=$3} END {printf "%d LOST, %d LOST_SAMPLES records", l, s}'; }
lost_sum() { perf report -D -i "$1" 2>/dev/null | awk -F: '/PERF_RECORD_LOST_SAMPLES/ {n+=$NF} END {print n+0}'; }

run_one() { # kind -> seconds on stdout
  local t0 t1
  case $1 in
    bare) t0=$(now); "${W[@]}" >/dev/null 2>&1; t1=$(now) ;;
    perf) t0=$(now); perf record -q -F 10000 -g -o "$out/ovh-perf.data" -- "${W[@]}" >/dev/null 2>&1; t1=$(now) ;;
    hw) t0=$(now); "$REC" -q -v -F 10000 -g -o "$out/ovh-hw.data" -- "${W[@]}" >/dev/null 2>"$out/ovh-hw.err"; t1=$(now) ;;
  esac
  echo "$t1 - $t0" | bc
}

echo "== record overhead: workload under perf record -F 10000 -g vs hwprof's recorder, median of $runs rounds"
: >"$out/bare.t"; : >"$out/perf.t"; : >"$out/hw.t"; : >"$out/ratio.t"; : >"$out/lost.t"
orders=("bare perf hw" "perf hw bare" "hw bare perf")
for r in $(seq 1 "$runs"); do
  declare -A t=()
  for k in ${orders[$((r % 3))]}; do t[$k]=$(run_one "$k"); echo "${t[$k]}" >>"$out/$k.t"; done
  awk -v h="${t[hw]}" -v p="${t[perf]}" 'BEGIN {printf "%.4f\n", h / p}' >>"$out/ratio.t"
  echo "$(lost_sum "$out/ovh-perf.data") $(lost_sum "$out/ovh-hw.data")" >>"$out/lost.t"
  unset t
done
b=$(median <"$out/bare.t"); p=$(median <"$out/perf.t"); h=$(median <"$out/hw.t")
echo "bare workload:      $b s   (runs: $(sort -n "$out/bare.t" | tr '\n' ' '))"
echo "perf record:        $p s  (slowdown $(awk -v a="$p" -v b="$b" 'BEGIN {printf "%.3f", a / b}')x; runs: $(sort -n "$out/perf.t" | tr '\n' ' ')), last run: $(lost_in "$out/ovh-perf.data")"
echo "hwprof recorder:    $h s  (slowdown $(awk -v a="$h" -v b="$b" 'BEGIN {printf "%.3f", a / b}')x; runs: $(sort -n "$out/hw.t" | tr '\n' ' ')), last run: $(lost_in "$out/ovh-hw.data")"
echo "hwprof/perf time ratio, median of per-round ratios: $(median <"$out/ratio.t")  (ratios: $(sort -n "$out/ratio.t" | tr '\n' ' '))"
echo "samples lost per round (perf hwprof): $(tr '\n' ',' <"$out/lost.t" | sed 's/,$//')"
echo "samples in the last round: perf $(perf report -D -i "$out/ovh-perf.data" 2>/dev/null | awk '/^ *SAMPLE events:/ {print $3; exit}'), hwprof $(sed -n 's/^samples=\([0-9]*\).*/\1/p' "$out/ovh-hw.err")"
