# Differential: `hwprof report --stats`, `--tasks` and `--mmaps` against
# Debian perf 6.1. --stats: the session's counts per record type
# ("Aggregated stats:", TOTAL and each type with its share) and per event
# (SAMPLE as perf delivers them, READ samples once per value that grew;
# LOST_SAMPLES by the record's id). --tasks: the thread tree in perf's
# order; --mmaps: with each thread's maps. On recordings made here (plain,
# -g, groups, leader sampling, compressed, --threads directory, processes
# and threads, system-wide, pipe mode read from a real pipe), the demo
# files and writer fixtures of every record type (perf's failure on a
# sample it cannot parse or a record type it does not know included);
# with --header (printed before the records are read: a pipe's features
# are not known yet) and -I; --tasks with --stats refused.
source tests/lib/common.sh
if ! have_perf; then skip "report --stats differential (perf not installed)"; finish; fi
source tests/lib/report_compare.sh

mode_compare() { # name file report-args...; "pipe*" names read the file through a pipe
  local name=$1 f=$2; shift 2
  if [[ $name == pipe* ]]; then # stdin a FIFO, as `perf record -o - | hwprof report -i -` gives it
    cat "$f" | perf report -i - "$@" >"$TMP/p.txt" 2>"$TMP/pe"; local prc=${PIPESTATUS[1]}
    cat "$f" | "$HWPROF" report -i - "$@" >"$TMP/h.txt" 2>"$TMP/he"; local hrc=${PIPESTATUS[1]}
  elif [[ $name == stdin* ]]; then # the file on stdin: --header's "captured on" is its mtime (a FIFO's
    # is when each run's cat wrote it, which may differ by a second)
    perf report -i - "$@" <"$f" >"$TMP/p.txt" 2>"$TMP/pe"; local prc=$?
    "$HWPROF" report -i - "$@" <"$f" >"$TMP/h.txt" 2>"$TMP/he"; local hrc=$?
  else
    perf report -i "$f" "$@" >"$TMP/p.txt" 2>"$TMP/pe"; local prc=$?
    "$HWPROF" report -i "$f" "$@" >"$TMP/h.txt" 2>"$TMP/he"; local hrc=$?
  fi
  if [ "$prc" = "$hrc" ] && cmp -s "$TMP/p.txt" "$TMP/h.txt" && cmp -s "$TMP/pe" "$TMP/he"; then
    pass "$name: $* identical ($(wc -l <"$TMP/p.txt") lines)"
  else
    fail "$name: $* differs (exit $hrc, perf $prc)"; diff "$TMP/p.txt" "$TMP/h.txt" | head -6
    diff "$TMP/pe" "$TMP/he" | head -4
  fi
}
stats_compare() { # name file [report-args...]: --stats, --tasks and --mmaps
  local name=$1 f=$2; shift 2
  mode_compare "$name" "$f" --stats "$@"
  mode_compare "$name" "$f" --tasks "$@"
  mode_compare "$name" "$f" --mmaps "$@"
}

WORK=(sh -c 'ls -R /usr/share/doc >/dev/null; cat /usr/share/doc/*/copyright | sort >/dev/null')
rec plain -e cpu-clock -c 100000 -- "${WORK[@]}"
rec g -g -e cpu-clock -c 100000 -- "${WORK[@]}"
rec grp -e '{cpu-clock,task-clock}' -c 100000 -- "${WORK[@]}"
rec lead -e '{cpu-clock,page-faults}:S' -c 100000 -- "${WORK[@]}"
rec two -e cpu-clock -e page-faults -e context-switches -c 50000 -- "${WORK[@]}"
rec z -z -g -e cpu-clock -c 100000 -- "${WORK[@]}"
rec thr --threads -e cpu-clock -c 100000 -- "${WORK[@]}"
# processes and threads: a pipeline, then four Python threads
rec procs -e cpu-clock -c 100000 -- sh -c 'ls -R /usr/share/doc | sort | head -1 >/dev/null
python3 -c "import threading
t = [threading.Thread(target=lambda: sum(range(200000))) for _ in range(4)]
[x.start() for x in t]; [x.join() for x in t]"'
# system-wide: every task perf synthesizes from /proc
rec sys -a -e cpu-clock -c 1000000 -- sleep 0.1
perf record -q -o - -g -e '{cpu-clock,task-clock}:S' -c 100000 -- "${WORK[@]}" >"$TMP/pipe.data" 2>/dev/null ||
  fail "pipe: perf record failed"
perf record -q -o - -e cpu-clock -e page-faults -c 100000 -- "${WORK[@]}" >"$TMP/pipe2.data" 2>/dev/null ||
  fail "pipe2: perf record failed"

for d in plain g grp lead two z thr procs sys; do
  [ -e "$TMP/$d.data" ] && stats_compare "$d" "$TMP/$d.data"
done
stats_compare plain-header "$TMP/plain.data" --header
stats_compare grp-header-I "$TMP/grp.data" --header -I
mode_compare procs "$TMP/procs.data" --tasks --stats
mode_compare procs "$TMP/procs.data" --mmaps --stats --header-only
for d in pipe pipe2; do
  [ -s "$TMP/$d.data" ] || continue
  stats_compare "$d" "$TMP/$d.data"
  stats_compare "stdin-$d" "$TMP/$d.data" --header
  stats_compare "file-$d" "$TMP/$d.data" # a pipe-mode file read as a file
done
for f in tests/data/demo.data tests/data/demo/spe.data; do
  stats_compare "$(basename "$f")" "$f"
done

# fixtures perf 6.1 reads (the newer formats hwprof also reads are left out)
for k in allrecords pipeallrecords allsample pipe arm64 mem branch group pipegroup readone lbr bpf noidall \
         auxsample warn-lost pipewarn-lost warn-unknownid warn-guest warn-unordered warn-backward warn-unknownrec \
         pipewarn-unknownrec warn-badchain pipewarn-badchain topo xmm chains keys branch-syms; do
  f="$TMP/fx-$k.data"
  if ! "$GEN/mkperfdata" $k "$f"; then fail "$k: fixture"; continue; fi
  stats_compare "fx-$k" "$f"
done
finish
