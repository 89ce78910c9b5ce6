# Intel PT flow decoding against ground truth and two oracles. Each program
# in tests/data/pt (C at -O0 static and -O2 dynamic, plus asm.S) runs under
# the ptrace emulator (tests/tools/pt_emulate), which writes the PT bytes,
# the single-stepped instruction list and a perf.data (one trace per thread,
# perf's per-thread mode). Checks per program:
#   hwprof pt insn on the raw traces and on the perf.data == ground truth
#   perf 6.1 `script --itrace=i1i -F tid,ip` == ground truth, per thread
#   perf 6.1 `script --itrace=b` branches == hwprof pt insn --branches
#   libipt's block decoder (tests/tools/pt_libipt_block) lines up with it
source tests/lib/common.sh
emu="$GEN/pt_emulate"
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
  if ! gcc "$@" -pthread -o "$TMP/$name" "$src" -lm 2>"$TMP/cc.err"; then
    skip "$label (cannot build: $(head -1 "$TMP/cc.err"))"; continue
  fi
  if ! "$emu" $opts "$TMP/$name" "$TMP/$name" >/dev/null 2>"$TMP/emu.err"; then
    if grep -q -i 'perm' "$TMP/emu.err"; then skip "$label (ptrace not permitted)"; continue; fi
    fail "$label: emulator: $(cat "$TMP/emu.err")"; continue
  fi
  p="$TMP/$name"
  if [ ! -s "$p.gt" ] || [ ! -s "$p.tids" ]; then fail "$label: no ground truth"; continue; fi
  nthr=$(wc -l <"$p.tids")
  # per thread: files $p.gt / $p.tN.gt; the perf.data decodes them in order
  : >"$p.all"
  raw_ok=1 blk_ok=1 perf_ok=1 msg="" n=0
  while read -r idx tid; do
    base=$p; [ "$idx" != 0 ] && base=$p.t$idx
    cat "$base.gt" >>"$p.all"
    n=$((n + $(wc -l <"$base.gt")))
    "$HWPROF" pt insn "$base.raw" --maps "$p.maps" >"$base.ours" 2>"$base.err"
    if ! cmp -s "$base.ours" "$base.gt"; then
      raw_ok=0; msg="thread $idx: $(diff "$base.ours" "$base.gt" | head -3 | tr '\n' ' ') $(head -2 "$base.err")"
    fi
    if [ -x "$blk" ] && ! out=$("$blk" "$base.raw" "$p.maps" "$base.ours" 2>&1); then
      blk_ok=0; blkmsg="thread $idx: $out"
    fi
    if have_perf; then
      perf script -i "$p.data" --itrace=i1i -F tid,ip 2>/dev/null |
        awk -v t="$tid" '$1 == t {print $2}' >"$base.perf"
      if ! cmp -s "$base.perf" "$base.gt"; then
        perf_ok=0; perfmsg="thread $idx: $(diff "$base.perf" "$base.gt" | head -3 | tr '\n' ' ')"
      fi
    fi
  done <"$p.tids"
  what="$n stepped instructions, $nthr thread(s)"

  if [ $raw_ok = 1 ]; then pass "$label: raw traces decode to the $what"
  else fail "$label: raw decode differs from ground truth: $msg"; fi

  "$HWPROF" pt insn -i "$p.data" >"$p.ours2" 2>"$p.err"
  if cmp -s "$p.ours2" "$p.all"; then pass "$label: perf.data decodes to the stepped instructions"
  else fail "$label: perf.data decode differs: $(diff "$p.ours2" "$p.all" | head -3 | tr '\n' ' ') $(head -2 "$p.err")"; fi

  if have_perf; then
    if [ $perf_ok = 1 ]; then pass "$label: perf --itrace=i1i agrees ($what)"
    else fail "$label: perf --itrace=i1i differs: $perfmsg"; fi
    perf script -i "$p.data" --itrace=b 2>/dev/null |
      awk '{for (i = 1; i <= NF; i++) if ($i == "=>") print $(i-3), "=>", $(i+1)}' >"$p.perfb"
    "$HWPROF" pt insn -i "$p.data" --branches >"$p.oursb" 2>/dev/null
    # perf may interleave threads' queues: compare as sorted multisets when
    # there are several, in order when there is one
    if [ "$nthr" -gt 1 ]; then sort -o "$p.perfb" "$p.perfb"; sort -o "$p.oursb" "$p.oursb"; fi
    if [ -s "$p.perfb" ] && cmp -s "$p.perfb" "$p.oursb"; then
      pass "$label: perf --itrace=b branches agree ($(wc -l <"$p.oursb"))"
    else fail "$label: perf --itrace=b differs: $(diff "$p.perfb" "$p.oursb" | head -3 | tr '\n' ' ')"; fi
  else
    skip "$label: perf comparisons (no perf)"
  fi

  # parallel decoding (small segments so the trace has many cuts) gives the
  # serial decoder's instructions and branches, intact or corrupted
  par_ok=1 parmsg=""
  "$HWPROF" pt insn -i "$p.data" -j 1 --branches >"$p.serb" 2>/dev/null
  for seg in 300 1000; do
    "$HWPROF" pt insn -i "$p.data" -j 2 --segment $seg >"$p.par" 2>/dev/null
    "$HWPROF" pt insn -i "$p.data" -j 2 --segment $seg --branches >"$p.parb" 2>/dev/null
    if ! cmp -s "$p.par" "$p.ours2" || ! cmp -s "$p.parb" "$p.serb"; then
      par_ok=0; parmsg="segment $seg: $(diff "$p.par" "$p.ours2" | head -3 | tr '\n' ' ')"
    fi
  done
  # flip bytes of the first trace: the parallel decoder reports the errors
  # and resynchronises like the serial one. (Its output may differ where a
  # corrupted compressed return reaches back past a cut: the serial decoder
  # pops a call from before the PSB, a segment decoder has none.)
  cp "$p.raw" "$p.bad"
  size=$(stat -c %s "$p.bad")
  for off in $((size / 3)) $((size / 2)) $((size * 3 / 4)); do
    printf '\x5a' | dd of="$p.bad" bs=1 seek=$off conv=notrunc 2>/dev/null
  done
  e1=$("$HWPROF" pt insn "$p.bad" --maps "$p.maps" -j 1 --quiet --stats 2>&1 | sed -n 's/.* \([0-9]*\) errors.*/\1/p')
  e2=$("$HWPROF" pt insn "$p.bad" --maps "$p.maps" -j 2 --segment 256 --quiet --stats 2>&1 | sed -n 's/.* \([0-9]*\) errors.*/\1/p')
  if [ -z "$e2" ] || { [ "${e1:-0}" -gt 0 ] && [ "${e2:-0}" -eq 0 ]; }; then
    par_ok=0; parmsg="corrupted trace: serial found ${e1:-?} errors, parallel ${e2:-none (failed)}"
  fi
  if [ $par_ok = 1 ]; then pass "$label: parallel decode (2 threads, many cuts) = serial; corrupted trace decoded with errors"
  else fail "$label: parallel decode differs: $parmsg"; fi

  if [ ! -x "$blk" ]; then skip "$label: libipt comparison (no $blk)"
  elif [ $blk_ok = 1 ]; then pass "$label: libipt block decoder agrees ($what)"
  else fail "$label: libipt block decoder: $blkmsg"; fi
done
finish
