#!/usr/bin/env bash
# make demo: records a short workload with perf if it can (else uses the
# bundled tests/data/demo.data) and shows what hwprof reads from it.
set -euo pipefail
cd "$(dirname "$0")/.."
HW=build/hwprof
out=build/demo
mkdir -p "$out"
data=tests/data/demo.data
if command -v perf >/dev/null 2>&1 &&
   perf record -q -e cpu-clock -c 100000 -g -o "$out/perf.data" -- ls -R /usr/share/doc >/dev/null 2>&1; then
  data="$out/perf.data"
  echo "== recorded 'ls -R /usr/share/doc' with perf into $data"
else
  echo "== perf cannot record here; using the bundled $data"
fi
echo
echo "== hwprof report --header-only: the file's header and feature sections, as perf prints them"
"$HW" report --header-only -i "$data"
echo
echo "== hwprof report -D (first 60 lines): every record decoded, byte-identical to perf report -D"
"$HW" report -D -i "$data" >"$out/dump.txt"
sed -n 1,60p "$out/dump.txt"
echo "..."
echo
echo "== hwprof report -D (last lines): record statistics"
sed -n '/^Aggregated stats:/,$p' "$out/dump.txt"
if command -v perf >/dev/null 2>&1; then
  echo
  perf report -D -i "$data" >"$out/dump.perf.txt" 2>/dev/null || true
  if cmp -s "$out/dump.txt" "$out/dump.perf.txt"; then
    echo "== hwprof report -D and perf report -D are identical on $data"
  else
    echo "== hwprof report -D differs from perf report -D on $data (please report this)"
  fi
fi
