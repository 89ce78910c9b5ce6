# Differential: `hwprof report --stdio --itrace=...` over Intel PT perf.data
# files against Debian perf 6.1: branch and instruction samples (periods
# in instructions, c/r filters, s skips, Z, g callchains: children and
# call graphs) summed per symbol, with sort keys and -n; timeless and timed traces (several threads: the sums do
# not depend on perf's interleaving); a trace with flipped bytes and e
# (its "instruction trace errors" warning on stderr); perf's per-cpu layout;
# l[N] branch stacks in perf's branch view (its default with l or L);
# q / qq quick decoding (Z: without timestamps); a file with samples of its
# own (perf's default G, and L). The files come from
# the ptrace emulator (tests/tools/pt_emulate). Output must be identical
# (the random tip line aside). Options report does not make samples for
# are refused in one line.
source tests/lib/common.sh
emu="$GEN/pt_emulate"
if [ ! -x "$emu" ]; then skip "PT report (no $emu)"; finish; fi
if ! command -v gcc >/dev/null 2>&1; then skip "PT report (no gcc)"; finish; fi
if ! have_perf; then skip "PT report (no perf)"; finish; fi

compare() { # name file report-args...
  local name=$1 f=$2; shift 2
  perf report --stdio -i "$f" "$@" 2>"$TMP/pe" | report_filter >"$TMP/p.txt"; local prc=${PIPESTATUS[0]}
  "$HWPROF" report --stdio -i "$f" "$@" 2>"$TMP/he" | report_filter >"$TMP/h.txt"; local hrc=${PIPESTATUS[0]}
  if [ "$prc" != "$hrc" ]; then fail "$name: exit $hrc, perf $prc"; return; fi
  if [ "$(wc -l <"$TMP/p.txt")" -gt 12 ] && cmp -s "$TMP/p.txt" "$TMP/h.txt" && cmp -s "$TMP/pe" "$TMP/he"; then
    pass "$name: identical ($(wc -l <"$TMP/p.txt") lines)"
  elif [ -n "$ties_by_heap" ] && cmp -s "$TMP/pe" "$TMP/he" && equal_but_tied_siblings "$TMP/p.txt" "$TMP/h.txt"; then
    # perf orders call-graph siblings with equal counts by its DSO
    # objects' heap addresses (match_chain_dso_addresses); we use their
    # creation order, which is right most of the time but not always.
    # The same lines, and a tie in perf's output, pass.
    pass "$name: identical but for the order of siblings with equal counts in different DSOs"
  else
    fail "$name: differs: $(diff "$TMP/p.txt" "$TMP/h.txt" | head -4 | cut -c1-160 | tr '\n' ' ') $(diff "$TMP/pe" "$TMP/he" | head -3 | tr '\n' ' ')"
  fi
}

# The same lines in both (tree glyphs aside, in any order) and, in perf's
# output, two adjacent siblings with the same value.
equal_but_tied_siblings() {
  python3 - "$1" "$2" <<'PY'
import re, sys
def norm(path):
    return sorted(re.sub(r"[| ]", "", l) for l in open(path))
p, h = sys.argv[1], sys.argv[2]
if norm(p) != norm(h):
    sys.exit(1)
last = {}
for l in open(p):
    if not l.startswith(" "):
        last = {}
    m = re.search(r"--([0-9.]+%?)--", l)
    if not m:
        continue
    col = m.start()
    if last.get(col) == m.group(1):
        sys.exit(0)
    last = {c: v for c, v in last.items() if c < col}
    last[col] = m.group(1)
sys.exit(1)
PY
}

cases=("loops tests/data/pt/loops.c -O0 -static|"
       "jumps tests/data/pt/jumps.c -O0 -static|--timing --time-zero --long-tnt"
       "signals tests/data/pt/signals.c -O2|--noretcomp --psb 100"
       "threads tests/data/pt/threads.c -O0 -static|--timing --time-zero"
       "dl tests/data/pt/dl.c -O2|--timing --time-zero --defer-tip"
       "percpu tests/data/pt/threads.c -O0 -static|--timing --time-zero --per-cpu")
for c in "${cases[@]}"; do
  build=${c%%|*} eopts=${c#*|}
  set -- $build
  name=$1 src=$2; shift 2
  # the signals program's trace changes from run to run (a timer), so
  # its call graphs sometimes hold siblings with equal counts
  ties_by_heap=; [ "$name" = signals ] && ties_by_heap=1
  if [[ $HWPROF_BUILD == *san* ]] && [ "$name" != loops ] && [ "$name" != percpu ]; then continue; fi
  if ! gcc "$@" -pthread -o "$TMP/$name" "$src" -lm 2>/dev/null ||
     ! "$emu" $eopts "$TMP/$name" "$TMP/$name" >/dev/null 2>&1; then
    skip "PT report $name (cannot build or emulate)"; continue
  fi
  f="$TMP/$name.data"
  # s<N> skips perf's first samples in its time order across queues
  # no --itrace: perf report's default (instructions every 100 us with
  # callchains, power events, errors)
  for args in "--itrace=i1i" "--itrace=i1iZ" "--itrace=i100i" "--itrace=b" "--itrace=cr -n" \
              "--itrace=bi7i --sort dso,sym" "--itrace=i3is50 --sort comm,sym" "--itrace=i100ig" \
              "--itrace=i10ig4 --no-children" "--itrace=i100ig -g caller,0.5,callee --sort sym" \
              "--stdio" "--no-children -n" "--itrace=i1usgp" "--itrace=i100tpG --sort sym" "--itrace=bp" \
              "--itrace=i100il" "--itrace=bpi3il8 -n" "--itrace=i10il4 --sort dso_from,dso_to" \
              "--itrace=i50tl --no-branch-stack" "--itrace=i300igl2" "--itrace=i7il3 --comms loops,threads" \
              "--itrace=i1iqZ" "--itrace=bpiqZ -n" "--itrace=i10iqgZ" "--itrace=piqqZ --sort dso,sym"; do
    # shellcheck disable=SC2086
    compare "$name ($eopts) $args" "$f" $args
  done
done

# per cpu with the kernel traced on another machine (no kernel symbols:
# perf goes by the switch records; tests/diff/pt_script.sh has more)
if [ -x "$TMP/percpu" ] && "$emu" --timing --time-zero --per-cpu --kernel-bid "$TMP/kb" "$TMP/percpu" >/dev/null 2>&1; then
  for args in "--itrace=b" "--itrace=i100ig" "--itrace=i10il4 --sort dso_from,dso_to"; do
    # shellcheck disable=SC2086
    compare "kernel traced, another machine's kernel: $args" "$TMP/kb.data" $args
  done
fi

# flipped trace bytes: errors counted into the warning, periods as perf's
# (seeds whose recovery we do as perf does; env -i and mktemp's fixed-length
# directory keep the trace the same on every run; perf may loop on some
# corruptions, hence its time limit)
if gcc -O0 -static -o "$TMP/flip" tests/data/pt/loops.c 2>/dev/null &&
   (cd "$TMP" && env -i "$emu" --timing --time-zero --long-tnt flip ./flip >/dev/null 2>&1); then
  for seed in 5 7 9; do
    python3 tests/lib/pt_flip.py "$TMP/flip.data" "$TMP/bad.data" "$seed"
    timeout 120 perf report --stdio -i "$TMP/bad.data" --itrace=i1ie 2>"$TMP/pe" | report_filter >"$TMP/p.txt"
    prc=${PIPESTATUS[0]}
    "$HWPROF" report --stdio -i "$TMP/bad.data" --itrace=i1ie 2>"$TMP/he" | report_filter >"$TMP/h.txt"
    hrc=${PIPESTATUS[0]}
    if [ "$prc" = 124 ]; then
      skip "flipped bytes (seed $seed): perf did not finish"
    elif [ "$prc" = "$hrc" ] && cmp -s "$TMP/p.txt" "$TMP/h.txt" && cmp -s "$TMP/pe" "$TMP/he" &&
         grep -q "instruction trace errors" "$TMP/he"; then
      pass "flipped bytes (seed $seed), --itrace=i1ie: identical, $(tr '\n' ' ' <"$TMP/he")"
    else
      fail "flipped bytes (seed $seed): exit $hrc, perf $prc; $(diff "$TMP/p.txt" "$TMP/h.txt" | head -3 | tr '\n' ' ') $(diff "$TMP/pe" "$TMP/he" | head -3 | tr '\n' ' ')"
    fi
  done
  # overflows (every 100th MTC made an OVF): e-o leaves their errors out,
  # and the error is at the instruction the decoder had reached, as perf's
  "$HWPROF" report -D -i "$TMP/flip.data" | python3 tests/lib/pt_ovf.py "$TMP/flip.data" "$TMP/ovf.data" 100
  "$HWPROF" script -i "$TMP/ovf.data" --itrace=e >"$TMP/h.e" 2>/dev/null
  "$HWPROF" script -i "$TMP/ovf.data" --itrace=e-o >"$TMP/h.eo" 2>/dev/null
  perf script -i "$TMP/ovf.data" --itrace=e 2>/dev/null | grep -m1 Overflow >"$TMP/p.first"
  n=$(grep -c 'code 7: Overflow packet' "$TMP/h.e")
  if [ "$n" -gt 1 ] && grep -v 'code 7: Overflow packet' "$TMP/h.e" | cmp -s - "$TMP/h.eo" &&
     grep -m1 Overflow "$TMP/h.e" | cmp -s - "$TMP/p.first"; then
    pass "overflows: $n errors, none with e-o; the first as perf's"
  else
    fail "overflows: $n errors; e-o: $(grep -c Overflow "$TMP/h.eo"); first: $(grep -m1 Overflow "$TMP/h.e") / perf $(cat "$TMP/p.first")"
  fi
  # an AUXTRACE_ERROR of the file's own next to the decoder's: perf counts
  # both in one warning
  python3 tests/lib/pt_flip.py "$TMP/flip.data" "$TMP/bad.data" 7
  python3 tests/lib/add_aux_error.py "$TMP/bad.data" "$TMP/bad2.data"
  for c in "report --stdio" script; do
    timeout 120 perf $c -i "$TMP/bad2.data" --itrace=i1ie 2>"$TMP/pe" >"$TMP/p.txt"
    "$HWPROF" $c -i "$TMP/bad2.data" --itrace=i1ie 2>"$TMP/he" >"$TMP/h.txt"
    n=$(grep -c ' error type ' "$TMP/h.txt")
    if cmp -s "$TMP/pe" "$TMP/he" && cmp -s <(report_filter <"$TMP/p.txt") <(report_filter <"$TMP/h.txt") &&
       grep -q "instruction trace errors" "$TMP/he" && { [ "$c" != script ] || [ "$n" -gt 1 ]; }; then
      pass "flipped bytes and a file's AUXTRACE_ERROR, $c: $(tr '\n' ' ' <"$TMP/he")"
    else
      fail "flipped bytes and a file's AUXTRACE_ERROR, $c: $(diff "$TMP/pe" "$TMP/he" | tr '\n' ' ') $(diff "$TMP/p.txt" "$TMP/h.txt" | head -3 | tr '\n' ' ')"
    fi
  done
fi

# L alone: the branch view (perf's default with l or L) takes only samples
# with a branch stack, and the trace's own samples have none here: perf's
# "no samples" lines, compared whole
for args in "--itrace=i100iL" "--itrace=bL -b"; do
  # shellcheck disable=SC2086
  perf report --stdio -i "$TMP/loops.data" $args 2>"$TMP/pe" >"$TMP/p.txt"; prc=$?
  # shellcheck disable=SC2086
  "$HWPROF" report --stdio -i "$TMP/loops.data" $args 2>"$TMP/he" >"$TMP/h.txt"; hrc=$?
  if [ "$prc" = "$hrc" ] && cmp -s "$TMP/p.txt" "$TMP/h.txt" && cmp -s "$TMP/pe" "$TMP/he" && [ -s "$TMP/pe" ]; then
    pass "report $args: as perf ($(head -2 "$TMP/pe" | tail -1))"
  else
    fail "report $args: exit $hrc, perf $prc; $(diff "$TMP/p.txt" "$TMP/h.txt" | head -3 | tr '\n' ' ') $(diff "$TMP/pe" "$TMP/he" | head -3 | tr '\n' ' ')"
  fi
done

# the file's own samples (a cpu-clock event) with the trace, per cpu and
# per thread, timed and not: perf decodes the queues up to each sample, and its default
# (G) gives the samples callchains from their thread's stack as the trace
# stands then (L: branch stacks, the branch view); -g none drops g and G
for lay in "--timing --time-zero --per-cpu" "--timing --time-zero" "--per-cpu"; do
  [ -x "$TMP/percpu" ] || break
  # shellcheck disable=SC2086
  "$emu" $lay --samples "$TMP/sm" "$TMP/percpu" >/dev/null 2>&1 || { fail "emulate --samples $lay"; continue; }
  for args in "" "--no-children" "-g none" "--itrace=i100iG --sort sym" "--itrace=bL --sort dso_from,dso_to" \
              "--itrace=i100ilG" "--itrace=bgp" "--itrace=i100iG --max-stack 2"; do
    # untimed, perf decodes at the end: the samples' stacks are empty
    # (G: their own ip; L: no branches, so no entries to compare)
    [[ $lay != --timing* && $args == *L* ]] && continue
    # shellcheck disable=SC2086
    compare "cpu-clock samples ($lay), G/L: ${args:-(default)}" "$TMP/sm.data" $args
  done
  # --time: timed, perf's decoder starts at the last PSB before the range
  # (pt_script.sh has more); timeless, the trace's samples have no time
  # and count whatever the range
  # (the cpu-clock samples' times: timeless, perf cannot show the trace's)
  mapfile -t T < <(perf script -i "$TMP/sm.data" --itrace=e -F time --ns 2>/dev/null | tr -d ' :')
  n=${#T[@]}
  if [ "$n" -lt 8 ]; then fail "--time ($lay): perf shows $n lines"; continue; fi
  for args in "" "--itrace=bG --sort sym" "--itrace=i100ns --no-children"; do
    # shellcheck disable=SC2086
    compare "cpu-clock samples ($lay), --time: ${args:-(default)}" "$TMP/sm.data" $args \
      --time "${T[$((n / 4))]},${T[$((n * 3 / 4))]}"
  done
  # -C: perf decodes no trace of the other cpus
  if [[ $lay == *per-cpu* ]]; then
    compare "cpu-clock samples ($lay), -C 0,2" "$TMP/sm.data" -C 0,2
    compare "cpu-clock samples ($lay), -C 1 --itrace=i100ns" "$TMP/sm.data" -C 1 --itrace=i100ns
  fi
done

# what report does not do yet: one line, non-zero exit, nothing on stdout
for args in "--itrace=i1il --sort symbol_from"; do
  # shellcheck disable=SC2086
  "$HWPROF" report --stdio -i "$TMP/loops.data" $args >"$TMP/o" 2>"$TMP/e"; rc=$?
  if [ $rc != 0 ] && [ ! -s "$TMP/o" ] && [ "$(wc -l <"$TMP/e")" = 1 ]; then
    pass "report ${args:-(no --itrace)} refused: $(cat "$TMP/e")"
  else
    fail "report ${args:-(no --itrace)}: exit $rc, $(head -c 200 "$TMP/o") $(head -2 "$TMP/e")"
  fi
done
finish
