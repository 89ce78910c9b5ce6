#!/usr/bin/env bash
# Recording overhead: the same CPU-bound workload run bare, under
# `perf record -F 10000 -g` and under our recorder (build/tools/record_try,
# which is record_run()) with the same options, in the same run. Prints
# wall times, slowdowns and lost samples of both; never fails on speed.
set -uo pipefail
cd "$(dirname "$0")/.."
REC=build/tools/record_try
out=build/bench
mkdir -p "$out"
[ -x "$REC" ] || { echo "record_overhead: $REC not built (make test-build)"; exit 0; }
W=(bash -c 'for i in $(seq 1 6); do find /usr/share -type f 2>/dev/null | head -4000 | xargs cat 2>/dev/null | gzip -1 >/dev/null; done')
runs=${RECORD_BENCH_RUNS:-3}
now() { date +%s.%N; }
best() { sort -n | head -1; }
lost_in() { perf report -D -i "$1" 2>/dev/null | awk '/^ *LOST events:/ {l=$3} /^ *LOST_SAMPLES events:/ {s=$3} END {printf "%d LOST, %d LOST_SAMPLES records", l, s}'; }

echo "== record overhead: workload under perf record -F 10000 -g vs hwprof's recorder, best of $runs"
: >"$out/bare.t"; : >"$out/perf.t"; : >"$out/hw.t"
for r in $(seq 1 "$runs"); do
  t0=$(now); "${W[@]}" >/dev/null 2>&1; t1=$(now); echo "$t1 - $t0" | bc >>"$out/bare.t"
  t0=$(now); perf record -q -F 10000 -g -o "$out/ovh-perf.data" -- "${W[@]}" >/dev/null 2>&1; t1=$(now)
  echo "$t1 - $t0" | bc >>"$out/perf.t"
  t0=$(now); "$REC" -q -v -F 10000 -g -o "$out/ovh-hw.data" -- "${W[@]}" >/dev/null 2>"$out/ovh-hw.err"; t1=$(now)
  echo "$t1 - $t0" | bc >>"$out/hw.t"
done
b=$(best <"$out/bare.t"); p=$(best <"$out/perf.t"); h=$(best <"$out/hw.t")
echo "bare workload:      $b s"
echo "perf record:        $p s  (slowdown $(echo "scale=3; $p / $b" | bc)x), $(lost_in "$out/ovh-perf.data")"
echo "hwprof recorder:    $h s  (slowdown $(echo "scale=3; $h / $b" | bc)x), $(lost_in "$out/ovh-hw.data")"
echo "samples: perf $(perf report -D -i "$out/ovh-perf.data" 2>/dev/null | awk '/^ *SAMPLE events:/ {print $3; exit}'), hwprof $(sed -n 's/^samples=\([0-9]*\).*/\1/p' "$out/ovh-hw.err")"
