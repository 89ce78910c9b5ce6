# Differential: `hwprof report --stdio --mem-mode` and the memory sort keys
# (local_weight weight mem symbol_daddr dso_daddr snoop tlb locked blocked
# local_ins_lat dcacheline) against Debian perf 6.1: x86 memory samples as `perf
# record -d -W` writes them (tests/tools/mkperfdata mem: heap, stack,
# library data and kernel addresses, several data sources and weights)
# and Arm SPE files (tests/tools/spe_mkperf) whose memory samples perf
# synthesizes; perf recordings with -d and call graphs. The table must be byte-identical (the random tip aside;
# perf's warnings about this machine's kernel maps are not compared).
source tests/lib/common.sh
if ! have_perf; then skip "report --mem-mode differential (perf not installed)"; finish; fi

compare() { # name file report-args...
  local name=$1 f=$2; shift 2
  perf report --stdio -i "$f" "$@" 2>/dev/null | report_filter >"$TMP/p.txt"; local prc=${PIPESTATUS[0]}
  "$HWPROF" report --stdio -i "$f" "$@" 2>"$TMP/he" | report_filter >"$TMP/h.txt"; local hrc=${PIPESTATUS[0]}
  # perf 6.1 dies of SIGPIPE when its addr2line child exits (a DSO that
  # is not a file, e.g. [vdso]): no reference output then
  if [ "$prc" = 141 ]; then skip "$name: perf died of SIGPIPE (its addr2line child exited)"; return; fi
  if [ "$prc" != "$hrc" ]; then fail "$name: exit $hrc, perf $prc: $(head -1 "$TMP/he")"; return; fi
  if cmp -s "$TMP/p.txt" "$TMP/h.txt"; then pass "$name: identical ($(wc -l <"$TMP/p.txt") lines)"
  else fail "$name: differs"; diff "$TMP/p.txt" "$TMP/h.txt" | head -8; fi
}

MEM_OPTS=(
  "--mem-mode"
  "--mem-mode -n"
  "--mem-mode --sort mem,sym,tlb"
  "--mem-mode --sort symbol_daddr,dso_daddr"
  "--mem-mode --sort local_weight,snoop,locked,blocked,local_ins_lat"
  "--mem-mode --sort dso_daddr,mem -n"
  "--mem-mode -t ,"
  "--mem-mode --percent-limit 5"
  "--mem-mode --comm worker --sort sym,mem"
  "--mem-mode --sort weight"
  "--mem-mode --sort sym,weight -n"
  "--sort weight"
  "--sort local_weight,weight"
  "--sort comm,weight,local_ins_lat"
  "--sort ins_lat,sym"
  "--mem-mode --sort addr,ins_lat"
  "-F overhead,weight,sym"
  "--mem-mode --sort dcacheline"
  "--mem-mode --sort pid,dcacheline,mem -n"
  "--mem-mode -F overhead,dcacheline,symbol_daddr"
)
if "$GEN/mkperfdata" mem "$TMP/mem.data"; then
  for o in "${MEM_OPTS[@]}"; do
    # shellcheck disable=SC2086
    compare "x86 mem $o" "$TMP/mem.data" $o
  done
  # perf 6.1 appends its IPC column to sort orders naming "symbol"
  compare "x86 mem --sort symbol" "$TMP/mem.data" --sort symbol
else fail "mkperfdata mem"; fi

SPE_OPTS=(
  "--mem-mode"
  "--mem-mode --itrace=i1i"
  "--mem-mode --itrace=m"
  "--mem-mode -n --sort mem,tlb,snoop"
  "--mem-mode --sort symbol_daddr,dso_daddr"
  "--mem-mode --sort weight,sym"
  "--sort weight"
  "--sort comm,local_weight"
  "--mem-mode --sort dcacheline,sym"
)
if "$GEN/spe_mkperf" --cpus 2 --records 1500 --seed 5 "$TMP/spe.data" >/dev/null 2>&1 &&
   "$GEN/spe_mkperf" --dso "$GEN/spe_mkperf" --clock 80 --seed 12 "$TMP/spe-syms.data" >/dev/null 2>&1; then
  for d in spe spe-syms; do
    for o in "${SPE_OPTS[@]}"; do
      # shellcheck disable=SC2086
      compare "$d $o" "$TMP/$d.data" $o
    done
    # --time: perf synthesizes every record and drops the samples outside
    # (times at fifths of the file's span; a bad list; percentages need
    # SAMPLE_TIME, which these files lack)
    read -r q1 q2 q3 q4 < <(perf script -i "$TMP/$d.data" -F time 2>/dev/null | tr -d ' :' | sed -n '1p;$p' |
                           paste -sd' ' | awk '{d = ($2 - $1) / 5; printf "%.6f %.6f %.6f %.6f\n", $1 + d, $1 + 2 * d, $1 + 3 * d, $1 + 4 * d}')
    for o in "--time $q1,$q3" "--time $q2,$q3 --mem-mode" "--itrace=i1i --time $q2, --sort sym" \
             "--time $q1,$q2 --time $q3,$q4" "--time ,$q1 -n" "--time $q1,$q2,$q3,$q4" "--time 10%-20%"; do
      # shellcheck disable=SC2086
      compare "$d $o" "$TMP/$d.data" $o
    done
  done
  # --itrace=l makes perf a branch report, which memory mode refuses
  perf report --stdio -i "$TMP/spe.data" --mem-mode --itrace=fl >"$TMP/p.txt" 2>"$TMP/pe"; prc=$?
  "$HWPROF" report --stdio -i "$TMP/spe.data" --mem-mode --itrace=fl >"$TMP/h.txt" 2>"$TMP/he"; hrc=$?
  if [ $prc = $hrc ] && cmp -s "$TMP/p.txt" "$TMP/h.txt" && grep -q "branch and mem mode incompatible" "$TMP/he"
  then pass "spe --mem-mode --itrace=fl: perf's refusal"; else fail "spe --mem-mode --itrace=fl"; fi
else fail "spe_mkperf"; fi

# memory mode with call graphs (perf record -d -g, frame pointers and
# DWARF): a call graph under each entry, in perf's caller order unless
# --no-children or -g callee says otherwise
for cg in fp dwarf; do
  if [ $cg = fp ]; then a=-g; else a="--call-graph=dwarf"; fi
  if perf record -q -d $a -e cpu-clock -c 200000 -o "$TMP/mem-$cg.data" -- ls -lR /usr/share/doc/bash /usr/lib/x86_64-linux-gnu >/dev/null 2>&1; then
    for o in "--mem-mode" "--mem-mode --no-children" "--mem-mode --sort sym,mem -n" "--mem-mode -g flat" \
             "--mem-mode -g srcline,folded" "--mem-mode --sort dso_daddr,symbol_daddr -g callee,0.5"; do
      # shellcheck disable=SC2086
      compare "-d $a $o" "$TMP/mem-$cg.data" $o
    done
  else fail "perf record -d $a"; fi
done

# a file without memory data: perf's message after its first lines
if perf record -q -e cpu-clock -c 100000 -o "$TMP/plain.data" -- ls -R /usr/share/doc/bash >/dev/null 2>&1; then
  perf report --stdio -i "$TMP/plain.data" --mem-mode >"$TMP/p.txt" 2>"$TMP/pe"; prc=$?
  "$HWPROF" report --stdio -i "$TMP/plain.data" --mem-mode >"$TMP/h.txt" 2>"$TMP/he"; hrc=$?
  if [ $prc = $hrc ] && cmp -s "$TMP/p.txt" "$TMP/h.txt" && cmp -s "$TMP/pe" "$TMP/he"; then pass "no mem data: perf's message"
  else fail "no mem data"; diff "$TMP/pe" "$TMP/he" | head -4; fi
else fail "perf record plain"; fi
finish
