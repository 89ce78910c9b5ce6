# perf's warnings after reading a file (perf_session__warn_about_errors):
# hwprof's stderr must equal perf 6.1's for report --stdio, report -D and
# script on fixtures with lost records and samples, AUX flags, AUXTRACE
# errors, proc-map timeouts, unknown ids and records, out-of-order records,
# in file and pipe mode, and with report -q none of them.
# (perf 6.1's warning about NAMESPACES records with more namespaces than it
# knows is its own version's and is left out of the comparison.)
source tests/lib/common.sh
if ! have_perf; then skip "session warnings (perf not installed)"; finish; fi

perf_err() { perl -0pe 's/\nWARNING: kernel seems to support more namespaces than perf tool\.\nTry updating the perf tool\.\.\n\n//' "$1"; }

compare() { # name file command... (pipe fixtures read from stdin)
  local name=$1 f=$2 in=$2; shift 2
  case $name in pipe*) in=- ;; esac
  perf "$@" -i "$in" <"$f" >/dev/null 2>"$TMP/pe"
  "$HWPROF" "$@" -i "$in" <"$f" >/dev/null 2>"$TMP/he"
  if [ -s "$TMP/he" ] && grep -q '^Warning:$' "$TMP/he" && cmp -s <(perf_err "$TMP/pe") "$TMP/he"; then
    pass "$name: $* warns as perf ($(grep -c '^Warning:$' "$TMP/he") warnings)"
  else
    fail "$name: $* warnings differ from perf's"; diff <(perf_err "$TMP/pe") "$TMP/he" | head -8
  fi
}

for k in allrecords pipeallrecords warn-lost warn-unknownid warn-unordered warn-backward pipewarn-lost; do
  f="$TMP/$k.data"
  if ! "$GEN/mkperfdata" $k "$f"; then fail "$k: fixture"; continue; fi
  compare $k "$f" report --stdio
  compare $k "$f" report -D
  # (perf script stops at allrecords' STAT record, which it reads as perf
  # stat's counts; hwprof script does not read those)
  case $k in *allrecords) ;; *) compare $k "$f" script ;; esac
done

# a record type newer than perf 6.1: perf report fails after its warning,
# perf script warns and prints the rest as hwprof does
f="$TMP/unknownrec.data"
"$GEN/mkperfdata" warn-unknownrec "$f" && compare warn-unknownrec "$f" script

# perf script prints the file's AUXTRACE_ERROR records as it reads them
# (each of perf's layouts: fmt 0, 1, 2 with a guest), not with --no-itrace
same=1
for o in "" --no-itrace; do
  perf script $o -i "$TMP/warn-lost.data" 2>/dev/null >"$TMP/po$o"
  "$HWPROF" script $o -i "$TMP/warn-lost.data" 2>/dev/null >"$TMP/ho$o"
  cmp -s "$TMP/po$o" "$TMP/ho$o" || { same=0; diff "$TMP/po$o" "$TMP/ho$o" | head -5; }
done
n=$(grep -c ' error type ' "$TMP/po")
if [ $same = 1 ] && [ "$n" -gt 0 ] && ! grep -q ' error type ' "$TMP/po--no-itrace"; then
  pass "script: the file's $n AUX errors as perf prints them (none with --no-itrace)"
else
  fail "script: AUX error lines differ from perf's"
fi

# -q: none of them (perf report's ui__warning is silent with -q)
for c in --stdio -D; do
  "$HWPROF" report $c -i "$TMP/warn-lost.data" >/dev/null 2>"$TMP/he.all"
  "$HWPROF" report $c -q -i "$TMP/warn-lost.data" >/dev/null 2>"$TMP/he"
  perf report $c -q -i "$TMP/warn-lost.data" >/dev/null 2>"$TMP/pe"
  if grep -q 'lost 2 chunks' "$TMP/he.all" && [ ! -s "$TMP/he" ] && [ ! -s "$TMP/pe" ]; then
    pass "report $c -q: none of the $(grep -c '^Warning:$' "$TMP/he.all") warnings, as perf"
  else
    fail "report $c -q printed: $(head -3 "$TMP/he" | tr '\n' ' ') perf: $(head -3 "$TMP/pe" | tr '\n' ' ')"
  fi
done
finish
