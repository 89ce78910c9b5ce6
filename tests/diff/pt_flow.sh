# Intel PT flow decoding against ground truth and two oracles. Each program
# in tests/data/pt (C at -O0 static and -O2 dynamic, plus asm.S) runs under
# the ptrace emulator (tests/tools/pt_emulate), which writes the PT bytes,
# the single-stepped instruction list and a perf.data. Checks per program:
#   hwprof pt insn on the raw trace and on the perf.data == ground truth
#   perf 6.1 `script --itrace=i1i -F ip` == ground truth
#   perf 6.1 `script --itrace=b` branches == hwprof pt insn --branches
#   libipt's block decoder (tests/tools/pt_libipt_block) lines up with it
source tests/lib/common.sh
emu="$TOOLS/pt_emulate"
blk="$TOOLS/pt_libipt_block"
if [ ! -x "$emu" ]; then skip "PT flow (no $emu)"; finish; fi
if ! command -v gcc >/dev/null 2>&1; then skip "PT flow (no gcc to build the test programs)"; finish; fi

# builds: name source flags
cases=()
for src in tests/data/pt/*.c; do
  base=$(basename "$src" .c)
  cases+=("$base-O2 $src -O2")
  # dlopen needs the dynamic loader
  [ "$base" != dl ] && cases+=("$base-O0-static $src -O0 -static")
done
cases+=("asm tests/data/pt/asm.S -nostdlib -static")

# emulator options rotate over the cases so each variant is exercised
variants=("" "--noretcomp" "--long-tnt --timing --psb 256" "--defer-tip --psb 100")
i=0
for c in "${cases[@]}"; do
  set -- $c
  name=$1 src=$2; shift 2
  opts=${variants[$((i % ${#variants[@]}))]}; i=$((i + 1))
  # single-stepping dominates the run time: the sanitizer build (same
  # decoder code) takes every other program
  if [[ $HWPROF_BUILD == *san* ]] && (( i % 2 == 0 )); then continue; fi
  label="$name${opts:+ ($opts)}"
  if ! gcc "$@" -o "$TMP/$name" "$src" -lm 2>"$TMP/cc.err"; then
    skip "$label (cannot build: $(head -1 "$TMP/cc.err"))"; continue
  fi
  if ! "$emu" $opts "$TMP/$name" "$TMP/$name" >/dev/null 2>"$TMP/emu.err"; then
    if grep -q -i 'perm' "$TMP/emu.err"; then skip "$label (ptrace not permitted)"; continue; fi
    fail "$label: emulator: $(cat "$TMP/emu.err")"; continue
  fi
  p="$TMP/$name"
  if [ ! -s "$p.gt" ]; then fail "$label: empty ground truth"; continue; fi
  n=$(wc -l <"$p.gt")

  "$HWPROF" pt insn "$p.raw" --maps "$p.maps" >"$p.ours" 2>"$p.err"
  if cmp -s "$p.ours" "$p.gt"; then pass "$label: raw trace decodes to the $n stepped instructions"
  else fail "$label: raw decode differs from ground truth: $(diff "$p.ours" "$p.gt" | head -3 | tr '\n' ' ') $(head -2 "$p.err")"; fi

  "$HWPROF" pt insn -i "$p.data" >"$p.ours2" 2>"$p.err"
  if cmp -s "$p.ours2" "$p.gt"; then pass "$label: perf.data decodes to the stepped instructions"
  else fail "$label: perf.data decode differs: $(diff "$p.ours2" "$p.gt" | head -3 | tr '\n' ' ') $(head -2 "$p.err")"; fi

  if have_perf; then
    perf script -i "$p.data" --itrace=i1i -F ip 2>"$p.perr" | awk '{print $1}' >"$p.perf"
    if cmp -s "$p.perf" "$p.gt"; then pass "$label: perf --itrace=i1i agrees"
    else fail "$label: perf --itrace=i1i differs: $(diff "$p.perf" "$p.gt" | head -3 | tr '\n' ' ') $(head -2 "$p.perr")"; fi
    perf script -i "$p.data" --itrace=b 2>/dev/null |
      awk '{for (i = 1; i <= NF; i++) if ($i == "=>") print $(i-3), "=>", $(i+1)}' >"$p.perfb"
    "$HWPROF" pt insn -i "$p.data" --branches >"$p.oursb" 2>/dev/null
    if [ -s "$p.perfb" ] && cmp -s "$p.perfb" "$p.oursb"; then
      pass "$label: perf --itrace=b branches agree ($(wc -l <"$p.oursb"))"
    else fail "$label: perf --itrace=b differs: $(diff "$p.perfb" "$p.oursb" | head -3 | tr '\n' ' ')"; fi
  else
    skip "$label: perf comparisons (no perf)"
  fi

  if [ -x "$blk" ]; then
    if out=$("$blk" "$p.raw" "$p.maps" "$p.ours" 2>&1); then pass "$label: libipt block decoder agrees: $out"
    else fail "$label: libipt block decoder: $out"; fi
  else
    skip "$label: libipt comparison (no $blk)"
  fi
done
finish
