# Shared by the report differentials (report_group.sh, report_keys.sh,
# report_options.sh): a perf recording into $TMP, and perf report --stdio
# against hwprof report --stdio on one file (stdout, stderr and exit
# status; the random tip line aside).

rec() { # name, perf record args...
  local name=$1; shift
  perf record -q -o "$TMP/$name.data" "$@" >/dev/null 2>&1 || { fail "$name: perf record failed"; return 1; }
}

# PERF_FIXUP: a sed expression applied to perf's output first, for a perf
# bug a script evens out (empty: none).
compare() { # name file report-args...
  local name=$1 f=$2; shift 2
  perf report --stdio -i "$f" "$@" 2>"$TMP/pe" | report_filter | sed "${PERF_FIXUP:-}" >"$TMP/p.txt"
  local prc=${PIPESTATUS[0]}
  "$HWPROF" report --stdio -i "$f" "$@" 2>"$TMP/he" | report_filter >"$TMP/h.txt"; local hrc=${PIPESTATUS[0]}
  # perf 6.1 dies of SIGPIPE when its addr2line child exits (a DSO that
  # is not a file, e.g. [vdso]): no reference output then
  if [ "$prc" = 141 ]; then skip "$name: perf died of SIGPIPE (its addr2line child exited)"; return; fi
  if [ "$prc" != "$hrc" ]; then fail "$name: exit $hrc, perf $prc"; return; fi
  if cmp -s "$TMP/p.txt" "$TMP/h.txt" && cmp -s "$TMP/pe" "$TMP/he"; then
    pass "$name: identical ($(wc -l <"$TMP/p.txt") lines)"
  else
    fail "$name: differs"; diff "$TMP/p.txt" "$TMP/h.txt" | head -6; diff "$TMP/pe" "$TMP/he" | head -4
  fi
}
