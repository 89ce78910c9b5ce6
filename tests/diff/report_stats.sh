# Differential: `hwprof report --stats` against Debian perf 6.1: the
# session's counts per record type ("Aggregated stats:", TOTAL and each
# type with its share) and per event (SAMPLE as perf delivers them, READ
# samples once per value that grew; LOST_SAMPLES by the record's id), on
# recordings made here (plain, -g, groups, leader sampling, compressed,
# --threads directory, pipe mode read from a real pipe), the demo files
# and writer fixtures of every record type; with --header (printed before
# the records are read: a pipe's features are not known yet) and -I.
source tests/lib/common.sh
if ! have_perf; then skip "report --stats differential (perf not installed)"; finish; fi
source tests/lib/report_compare.sh

stats_compare() { # name file [report-args...]; "pipe*" names read the file through a pipe
  local name=$1 f=$2; shift 2
  if [[ $name == pipe* ]]; then # stdin a FIFO, as `perf record -o - | hwprof report -i -` gives it
    cat "$f" | perf report --stats -i - "$@" >"$TMP/p.txt" 2>"$TMP/pe"; local prc=${PIPESTATUS[1]}
    cat "$f" | "$HWPROF" report --stats -i - "$@" >"$TMP/h.txt" 2>"$TMP/he"; local hrc=${PIPESTATUS[1]}
  else
    perf report --stats -i "$f" "$@" >"$TMP/p.txt" 2>"$TMP/pe"; local prc=$?
    "$HWPROF" report --stats -i "$f" "$@" >"$TMP/h.txt" 2>"$TMP/he"; local hrc=$?
  fi
  if [ "$prc" = "$hrc" ] && cmp -s "$TMP/p.txt" "$TMP/h.txt" && cmp -s "$TMP/pe" "$TMP/he"; then
    pass "$name: --stats $* identical ($(grep -c 'events:' "$TMP/p.txt") counts)"
  else
    fail "$name: --stats $* differs (exit $hrc, perf $prc)"; diff "$TMP/p.txt" "$TMP/h.txt" | head -6
    diff "$TMP/pe" "$TMP/he" | head -4
  fi
}

WORK=(sh -c 'ls -R /usr/share/doc >/dev/null; cat /usr/share/doc/*/copyright | sort >/dev/null')
rec plain -e cpu-clock -c 100000 -- "${WORK[@]}"
rec g -g -e cpu-clock -c 100000 -- "${WORK[@]}"
rec grp -e '{cpu-clock,task-clock}' -c 100000 -- "${WORK[@]}"
rec lead -e '{cpu-clock,page-faults}:S' -c 100000 -- "${WORK[@]}"
rec two -e cpu-clock -e page-faults -e context-switches -c 50000 -- "${WORK[@]}"
rec z -z -g -e cpu-clock -c 100000 -- "${WORK[@]}"
rec thr --threads -e cpu-clock -c 100000 -- "${WORK[@]}"
perf record -q -o - -g -e '{cpu-clock,task-clock}:S' -c 100000 -- "${WORK[@]}" >"$TMP/pipe.data" 2>/dev/null ||
  fail "pipe: perf record failed"
perf record -q -o - -e cpu-clock -e page-faults -c 100000 -- "${WORK[@]}" >"$TMP/pipe2.data" 2>/dev/null ||
  fail "pipe2: perf record failed"

for d in plain g grp lead two z thr; do
  [ -e "$TMP/$d.data" ] && stats_compare "$d" "$TMP/$d.data"
done
stats_compare plain-header "$TMP/plain.data" --header
stats_compare grp-header-I "$TMP/grp.data" --header -I
for d in pipe pipe2; do
  [ -s "$TMP/$d.data" ] || continue
  stats_compare "$d" "$TMP/$d.data"
  stats_compare "$d" "$TMP/$d.data" --header
  stats_compare "file-$d" "$TMP/$d.data" # a pipe-mode file read as a file
done
for f in tests/data/demo.data tests/data/demo/spe.data; do
  stats_compare "$(basename "$f")" "$f"
done

# fixtures perf 6.1 reads (the newer formats hwprof also reads are left out)
for k in allrecords pipeallrecords allsample pipe arm64 mem branch group pipegroup readone lbr bpf noidall \
         auxsample warn-lost pipewarn-lost warn-unknownid warn-guest warn-unordered warn-backward topo xmm chains keys; do
  f="$TMP/fx-$k.data"
  if ! "$TOOLS/mkperfdata" $k "$f"; then fail "$k: fixture"; continue; fi
  stats_compare "fx-$k" "$f"
done
finish
