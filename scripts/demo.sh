#!/usr/bin/env bash
# make demo: what hwprof does, in a few seconds, on this machine.
#   1. a profile recorded here (hwprof record, else perf record, else the
#      bundled tests/data/demo.data) shown as perf's report, a flame graph
#      and the raw dump, checked against perf report -D
#   2. a SIMD register sample dump from a bundled file (tests/data/demo/simd.data)
#   3. an Intel PT call trace: this machine has no PT, so the trace comes
#      from hwprof's ptrace PT emulator on a small program built here
#   4. an Arm SPE memory view from a bundled SPE trace (tests/data/demo/spe.data)
set -eu  # no pipefail: `... | head` cuts its writers short on purpose
cd "$(dirname "$0")/.."
HW=$PWD/build/hwprof
out=build/demo
mkdir -p "$out"
say() { printf '\n== %s\n' "$*"; }

# ---- 1. a profile ----------------------------------------------------------
data=tests/data/demo.data
workload=(ls -R /usr/share/doc)
if "$HW" record -q -e cpu-clock -F 4000 -g -o "$out/hw.data" -- "${workload[@]}" >/dev/null 2>"$out/record.err"; then
  data="$out/hw.data"
  say "recorded '${workload[*]}' with hwprof record -e cpu-clock -F 4000 -g into $data"
elif command -v perf >/dev/null 2>&1 &&
     perf record -q -e cpu-clock -F 4000 -g -o "$out/perf.data" -- "${workload[@]}" >/dev/null 2>&1; then
  data="$out/perf.data"
  say "hwprof record could not record here ($(head -1 "$out/record.err")); recorded with perf into $data"
else
  say "recording is not possible here; using the bundled $data"
fi

say "hwprof report --stdio --no-children --sort dso,sym (top 15 lines): where the time went"
if "$HW" report --stdio --no-children --sort dso,sym -i "$data" >"$out/report.txt" 2>"$out/report.err"; then
  grep -v '^#' "$out/report.txt" | grep -v '^$' | head -15
else
  echo "(hwprof report --stdio: $(tail -1 "$out/report.err"))"
  echo "hwprof script (first 10 samples):"
  "$HW" script -G -i "$data" | head -10
fi

"$HW" flamegraph -i "$data" -o "$out/flamegraph.svg"
say "hwprof flamegraph: an interactive SVG flame graph in $out/flamegraph.svg ($(wc -c <"$out/flamegraph.svg") bytes; open it in a browser)"

say "hwprof report --header-only (first 12 lines): the header and feature sections, as perf prints them"
"$HW" report --header-only -i "$data" | head -12

"$HW" report -D -i "$data" >"$out/dump.txt"
say "hwprof report -D (statistics at the end): every record decoded, as perf report -D prints it"
sed -n '/^Aggregated stats:/,$p' "$out/dump.txt" | head -12
if command -v perf >/dev/null 2>&1; then
  perf report -D -i "$data" >"$out/dump.perf.txt" 2>/dev/null || true
  if cmp -s "$out/dump.txt" "$out/dump.perf.txt"; then
    echo "   -> identical to perf report -D on $data ($(wc -l <"$out/dump.txt") lines)"
  else
    echo "   -> differs from perf report -D on $data (please report this)"
  fi
fi

# ---- 2. SIMD registers -----------------------------------------------------
say "SIMD register sampling (ZMM, OPMASK, APX R16-R31, SSP) from the bundled tests/data/demo/simd.data, dumped by hwprof report -D"
"$HW" report -D -i tests/data/demo/simd.data >"$out/simd.txt"
awk '/intr regs: mask .* SIMD/ {p = 1} p && n < 14 {print; n++}' "$out/simd.txt"
echo "   ... (ZMM0-31, 8 qwords each, then OPMASK0-7)"
echo "   as hwprof script -F iregs prints it (whole registers, most significant qword first):"
"$HW" script -F iregs -i tests/data/demo/simd.data | head -1 | tr ' ' '\n' | grep -E '^(zmm0|k1|R16|SSP)[:=]' | sed 's/^/     /'

# ---- 3. Intel PT -----------------------------------------------------------
say "Intel PT call trace: a program built here, traced by hwprof's PT emulator (hwprof record --pt-emulate; no PT on this machine)"
cat >"$out/fib.c" <<'C'
#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(void) { printf("fib(5) = %d\n", fib(5)); return 0; }
C
if command -v gcc >/dev/null 2>&1 && gcc -O1 -fno-inline -o "$out/fib" "$out/fib.c" &&
   "$HW" record --pt-emulate -q -o "$out/pt.data" -- "$out/fib" >/dev/null 2>"$out/pt.err"; then
  if "$HW" script --call-trace -i "$out/pt.data" >"$out/pt.txt" 2>"$out/pt.script.err"; then
    echo "hwprof script --call-trace, from main on (first 16 lines of $(wc -l <"$out/pt.txt")):"
    awk '$NF == "main" {p = 1} p' "$out/pt.txt" | head -16
  else
    echo "(hwprof script --call-trace: $(tail -1 "$out/pt.script.err"))"
    echo "the executed branches of main and fib (hwprof pt insn --branches), first 12:"
    "$HW" pt insn -i "$out/pt.data" --branches | head -12
  fi
  echo "   $("$HW" pt insn -i "$out/pt.data" | wc -l) instructions decoded from $(stat -c %s "$out/pt.data") bytes of perf.data"
else
  echo "(cannot build or trace the program here: $(head -1 "$out/pt.err" 2>/dev/null))"
fi

# ---- 4. Arm SPE ------------------------------------------------------------
say "Arm SPE memory view of the bundled tests/data/demo/spe.data (a Neoverse N1 recording layout made by hwprof's SPE encoder), hwprof report --mem-mode"
if "$HW" report --stdio --mem-mode -i tests/data/demo/spe.data >"$out/spe.txt" 2>"$out/spe.err"; then
  grep -v '^$' "$out/spe.txt" | head -20
else
  echo "(hwprof report --mem-mode: $(tail -1 "$out/spe.err"))"
  echo "memory samples with data address, data source and latency (hwprof script --itrace=M), first 10:"
  "$HW" script --itrace=M -F comm,tid,event,ip,addr,data_src,weight -i tests/data/demo/spe.data | head -10
fi
echo
echo "Next: build/hwprof --help; the README lists every command."
