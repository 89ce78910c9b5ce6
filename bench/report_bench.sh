#!/usr/bin/env bash
# hwprof report --stdio against perf 6.1's on the same files, in one run:
# the large DWARF file of run.sh flat (--no-children -g none: perf would
# unwind otherwise), and a frame-pointer callchain file with perf's default
# children mode and call graphs. Prints times, ratios and whether the
# outputs are identical (the random tip line aside); never fails on speed.
# usage: bench/report_bench.sh BIG.data [OUTDIR]
set -uo pipefail
cd "$(dirname "$0")/.."
HW=build/hwprof
big=$1
out=${2:-build/bench}
mkdir -p "$out"
mb() { echo "scale=1; $1 / 1048576" | bc; }
untip() { sed 's/^# (Tip: .*)$/# (TIP)/' "$1"; }

run() { # label, file, args...
  local label=$1 f=$2; shift 2
  local t0 t1 t2
  t0=$(date +%s.%N); perf report --stdio -i "$f" "$@" >"$out/rep.perf" 2>/dev/null; t1=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$out/rep.rss" "$HW" report --stdio -i "$f" "$@" >"$out/rep.hw" 2>/dev/null
  t2=$(date +%s.%N)
  local perf_s hw_s
  perf_s=$(echo "$t1 - $t0" | bc); hw_s=$(echo "$t2 - $t1" | bc)
  echo "$label: $(mb "$(stat -c %s "$f")") MB, args: ${*:-(none)}"
  echo "  perf report --stdio:   $perf_s s"
  echo "  hwprof report --stdio: $hw_s s, max RSS $(( $(cat "$out/rep.rss") / 1024 )) MB"
  if cmp -s <(untip "$out/rep.perf") <(untip "$out/rep.hw"); then
    echo "  outputs identical ($(wc -l <"$out/rep.hw") lines)"
  else
    echo "  outputs differ"
  fi
  echo "  ratio: hwprof is $(echo "scale=1; $perf_s / $hw_s" | bc)x faster than perf"
  rm -f "$out/rep.perf" "$out/rep.hw" "$out/rep.rss"
}

run "large DWARF file, flat" "$big" --no-children -g none
run "large DWARF file, flat -n --sort pid,dso,sym" "$big" --no-children -g none -n --sort pid,dso,sym

fp="$out/fp.data"
if [ ! -s "$fp" ]; then
  perf record -q -o "$fp" -e cpu-clock -c 20000 -g -- \
    bash -c "find /usr -type f 2>/dev/null | head -20000 | xargs cat >/dev/null 2>&1" >/dev/null 2>&1
fi
run "frame-pointer callchains, children + graph (perf's default)" "$fp"
run "frame-pointer callchains, --no-children graph" "$fp" --no-children
