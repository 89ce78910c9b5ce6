# Differential: PERF_SAMPLE_READ samples in `hwprof report --stdio`,
# `hwprof script` and `hwprof report -D` against Debian perf 6.1. perf
# delivers such a sample once per read value, as a sample of the event the
# value's id names, with the value's growth since that id's last value as
# its period (values that did not grow and unknown ids give none; the
# latter are counted and warned about). Recorded here: leader sampling
# groups ('{a,b}:S', with -g, --no-inherit, a member that rarely moves,
# several threads, pipe mode) and a single ':S' event whose inherited
# threads share ids (perf 6.1 keeps one last value per id, so periods
# wrap); fixtures add repeated values, another event's id and unknown ids.
source tests/lib/common.sh
if ! have_perf; then skip "READ sample differential (perf not installed)"; finish; fi
source tests/lib/report_compare.sh
# perf's fractal '[...]' line may read "(inlined)" from uninitialized
# memory (see report_group.sh): hwprof prints what perf sets up
PERF_FIXUP='s/--\[\.\.\.\] (inlined)$/--[...]/'

script_compare() { # name file script-args...
  local name=$1 f=$2 in=$2; shift 2
  case $name in pipe*) in=- ;; esac
  perf script -i "$in" "$@" <"$f" >"$TMP/p.txt" 2>"$TMP/pe"; local prc=$?
  "$HWPROF" script -i "$in" "$@" <"$f" >"$TMP/h.txt" 2>"$TMP/he"; local hrc=$?
  if [ "$prc" = "$hrc" ] && cmp -s "$TMP/p.txt" "$TMP/h.txt" && cmp -s "$TMP/pe" "$TMP/he"; then
    pass "$name: script $* identical ($(wc -l <"$TMP/p.txt") lines)"
  else
    fail "$name: script $* differs (exit $hrc, perf $prc)"; diff "$TMP/p.txt" "$TMP/h.txt" | head -6
    diff "$TMP/pe" "$TMP/he" | head -4
  fi
}

dump_compare() { # name file
  perf report -D -i "$2" >"$TMP/p.txt" 2>/dev/null
  "$HWPROF" report -D -i "$2" >"$TMP/h.txt" 2>/dev/null
  if cmp -s "$TMP/p.txt" "$TMP/h.txt"; then pass "$1: report -D identical"
  else fail "$1: report -D differs"; diff "$TMP/p.txt" "$TMP/h.txt" | head -6; fi
}

WORK=(sh -c 'ls -R /usr/share/doc >/dev/null; cat /usr/share/doc/*/copyright | sort >/dev/null')
# four threads of a Python loop (each thread's counters are the leader's
# when inherited)
MT=(python3 -c 'import threading
def f():
    s = 0
    for i in range(300000): s += i * i
t = [threading.Thread(target=f) for _ in range(4)]
[x.start() for x in t]; [x.join() for x in t]')
rec grp -e '{cpu-clock,task-clock}:S' -c 100000 -- "${WORK[@]}"
rec pf -e '{cpu-clock,page-faults}:S' -c 100000 -- "${WORK[@]}"
rec grpg -g -e '{cpu-clock,task-clock}:S' -c 100000 -- "${WORK[@]}"
rec noinh --no-inherit -e '{cpu-clock,task-clock}:S' -c 100000 -- "${WORK[@]}"
rec three -e '{task-clock,cpu-clock,page-faults}:S' -c 200000 -- "${MT[@]}"
rec mtg -g -e '{cpu-clock,task-clock}:S' -c 200000 -- "${MT[@]}"
rec one -e 'cpu-clock:S' -F 2000 -- "${MT[@]}"
perf record -q -o - -e '{cpu-clock,page-faults}:S' -c 100000 -- "${WORK[@]}" >"$TMP/pipegrp.data" 2>/dev/null ||
  fail "pipegrp: perf record failed"

for d in grp pf grpg noinh three mtg one; do
  f="$TMP/$d.data"
  [ -s "$f" ] || continue
  for o in "" "-n" "--group" "--no-group" "-n -s pid,comm,dso" "-F overhead,sample,period,comm,dso" \
           "--percent-limit 2 -n"; do
    # shellcheck disable=SC2086
    compare "$d $o" "$f" $o
  done
  case $d in grpg|mtg)
    for o in "-g caller" "--no-children" "-g fractal,0.5,callee" "-g graph,0.5,count"; do
      # shellcheck disable=SC2086
      compare "$d $o" "$f" $o
    done ;;
  esac
  script_compare "$d" "$f"
  script_compare "$d" "$f" -F comm,tid,time,period,event,ip,sym
  dump_compare "$d" "$f"
done

# pipe mode, from stdin
if [ -s "$TMP/pipegrp.data" ]; then
  for o in "" "-n --no-group"; do
    # shellcheck disable=SC2086
    perf report --stdio -i - $o <"$TMP/pipegrp.data" 2>&1 | report_filter >"$TMP/p.txt"
    # shellcheck disable=SC2086
    "$HWPROF" report --stdio -i - $o <"$TMP/pipegrp.data" 2>&1 | report_filter >"$TMP/h.txt"
    if cmp -s "$TMP/p.txt" "$TMP/h.txt"; then pass "pipegrp: report -i - $o identical"
    else fail "pipegrp: report -i - $o differs"; diff "$TMP/p.txt" "$TMP/h.txt" | head -6; fi
  done
  script_compare pipegrp "$TMP/pipegrp.data" -F comm,tid,period,event,ip,sym
fi

# fixtures: repeated values (no sample), another event's id, unknown ids,
# a value smaller than the last (perf's u64 difference)
for k in readone pipereadone warn-unknownid group; do
  f="$TMP/$k.data"
  if ! "$GEN/mkperfdata" $k "$f"; then fail "$k: fixture"; continue; fi
  for o in "" "-n --no-group" "-s sym -F sample,period,sym"; do
    # shellcheck disable=SC2086
    compare "$k $o" "$f" $o
  done
  script_compare "$k" "$f"
  script_compare "$k" "$f" -F comm,tid,period,event,ip
  dump_compare "$k" "$f"
done
finish
