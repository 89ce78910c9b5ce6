# Differential: `hwprof report --stdio` on files with branch stacks, whose
# default is perf's branch view (an entry per branch: comm, source DSO,
# source and target symbol, basic block cycles), its branch sort keys
# (dso_from dso_to symbol_from symbol_to mispredict in_tx abort cycles
# addr_from addr_to srcline_from srcline_to),
# -b and --no-branch-stack, against Debian perf 6.1. Files come from
# tests/tools/mkperfdata: 'branch' (a few unresolved branches) and
# 'branch-syms' (branches over the tool's own symbols, the kernel map and
# unmapped addresses, in two processes, with every branch flag).
source tests/lib/common.sh
if ! have_perf; then skip "report branch view differential (perf not installed)"; finish; fi

compare() { # name file report-args...
  local name=$1 f=$2; shift 2
  perf report --stdio -i "$f" "$@" 2>"$TMP/pe" | report_filter >"$TMP/p.txt"; local prc=${PIPESTATUS[0]}
  "$HWPROF" report --stdio -i "$f" "$@" 2>"$TMP/he" | report_filter >"$TMP/h.txt"; local hrc=${PIPESTATUS[0]}
  if [ "$prc" != "$hrc" ]; then fail "$name: exit $hrc, perf $prc: $(head -1 "$TMP/he")"; return; fi
  if [ -s "$TMP/p.txt" ] && cmp -s "$TMP/p.txt" "$TMP/h.txt"; then pass "$name: identical ($(wc -l <"$TMP/p.txt") lines)"
  else fail "$name: differs"; diff "$TMP/p.txt" "$TMP/h.txt" | head -8; fi
}

OPTS=(
  ""
  "-n"
  "-b"
  "--no-branch-stack"
  "--sort dso_to,mispredict,in_tx,abort"
  "--sort comm,cycles,dso -n"
  "--sort dso_from,dso_to"
  "--sort pid,mispredict,cycles"
  "--sort dso,sym"
  "--sort cpu,abort,in_tx"
  "--sort addr,dso_size"
  "--sort addr_from,addr_to"
  "--sort comm,addr_to,mispredict -n"
  "-F overhead,addr_from,dso_from"
  "--percent-limit 2"
  "-F overhead,sample,dso_from,dso_to"
  "-F overhead,mispredict,dso_from"
  "--comms helper"
  "--pid 200"
  "-q"
  "-U"
  "-U --sort dso_from,dso_to -n"
)
for d in branch branch-syms; do
  if ! "$GEN/mkperfdata" $d "$TMP/$d.data"; then fail "mkperfdata $d"; continue; fi
  for o in "${OPTS[@]}"; do
    # shellcheck disable=SC2086
    compare "$d ${o:-(default)}" "$TMP/$d.data" $o
  done
done

# perf's branch type statistics after the table (counted from each entry's
# first branch), files with callchains too (LBR call stacks: the branch
# view appends no call graphs; outside it the chain is the kernel part
# and the LBR call stack), and the --dsos/--symbols filters
if "$GEN/mkperfdata" lbr "$TMP/lbr.data"; then
  for o in "" "-g" "-q" "--comms worker" "--sort dso_from" "--sort cycles" "-g caller --no-children" \
           "--no-branch-stack" "--no-branch-stack --no-children" "--no-branch-stack -g callee,flat" "--no-branch-stack -G" \
           "-U" "-U --no-branch-stack" "-t , -n" "-t ; --sort dso_from,dso_to,mispredict"; do
    # shellcheck disable=SC2086
    compare "lbr ${o:-(default)}" "$TMP/lbr.data" $o
  done
else fail "mkperfdata lbr"; fi
for o in "--dsos mkperfdata" "--symbols main" "--dsos [kernel.kallsyms] -n"; do
  # shellcheck disable=SC2086
  [ -s "$TMP/branch-syms.data" ] && compare "branch-syms $o" "$TMP/branch-syms.data" $o
done

# srcline_from / srcline_to on the file whose DSOs exist (for 'branch',
# whose DSO is not a file, perf's addr2line child exits and perf dies of
# SIGPIPE): texts perf's comparisons made, "(null)" where none did
for o in "--sort srcline_from,srcline_to" "--sort srcline_from -n" "-F overhead,srcline_to,dso_to"; do
  # shellcheck disable=SC2086
  [ -s "$TMP/branch-syms.data" ] && compare "branch-syms $o" "$TMP/branch-syms.data" $o
done

# perf's refusals: memory mode with branch stacks, -b without them (its
# message after its first lines, exit 0), branch keys outside the view
refusal() { # name expected-stderr-text file args...
  local name=$1 want=$2 f=$3; shift 3
  perf report --stdio -i "$f" "$@" >"$TMP/p.txt" 2>"$TMP/pe"; local prc=$?
  "$HWPROF" report --stdio -i "$f" "$@" >"$TMP/h.txt" 2>"$TMP/he"; local hrc=$?
  if grep -q "$want" "$TMP/pe" && grep -q "$want" "$TMP/he" && cmp -s "$TMP/p.txt" "$TMP/h.txt" && [ "$prc" = "$hrc" ]
  then pass "$name: perf's refusal"; else fail "$name: exit $hrc (perf $prc): $(head -2 "$TMP/he" | tr '\n' ' ')"; fi
}
refusal "branch --mem-mode" "branch and mem mode incompatible" "$TMP/branch-syms.data" --mem-mode
if "$GEN/mkperfdata" mem "$TMP/mem.data"; then
  refusal "-b without branch stacks" "Selected -b but no branch data" "$TMP/mem.data" -b
  refusal "branch key outside the branch view" "Invalid --sort key: .dso_from'" "$TMP/mem.data" --sort dso_from
  refusal "branch field outside the branch view" "Invalid --fields key: .addr_to'" "$TMP/mem.data" -F overhead,addr_to
else fail "mkperfdata mem"; fi

# report -D counts what the report adds: one sample per branch in the
# branch view, one per sample with --no-branch-stack
for o in "" "--no-branch-stack"; do
  # shellcheck disable=SC2086
  perf report -D $o -i "$TMP/branch-syms.data" >"$TMP/p.txt" 2>/dev/null
  # shellcheck disable=SC2086
  "$HWPROF" report -D $o -i "$TMP/branch-syms.data" >"$TMP/h.txt" 2>/dev/null
  if [ -s "$TMP/p.txt" ] && cmp -s "$TMP/p.txt" "$TMP/h.txt"; then pass "report -D ${o:-(default)}: identical"
  else fail "report -D ${o:-(default)}: differs"; diff "$TMP/p.txt" "$TMP/h.txt" | tail -4; fi
done
perf report -D -b -i "$TMP/mem.data" >"$TMP/p.txt" 2>"$TMP/pe"
"$HWPROF" report -D -b -i "$TMP/mem.data" >"$TMP/h.txt" 2>"$TMP/he"
if cmp -s "$TMP/p.txt" "$TMP/h.txt" && cmp -s "$TMP/pe" "$TMP/he"; then pass "report -D -b without branch stacks: perf's refusal"
else fail "report -D -b without branch stacks"; fi
finish
