# Differential: `hwprof report --stdio` options against Debian perf 6.1:
# the sample filters --comms, --pid, --tid, --dsos, --symbols (entries made
# by filtered samples hidden, perf's first-sample rule), elided columns
# with their "# comm: X" lines, --percentage relative, --cpu; the -g
# print types flat and folded, period values and the print limit, the
# srcline and address callchain keys; the srcline sort key (also in
# children mode); callchain trees where perf's compare is not transitive;
# an event without callchains next to one with (perf's stale cursor).
# On frame-pointer call graph files (children mode), a DWARF one with inlined
# frames, a system-wide file and a flat one.
# Output must be byte-identical (the random tip line aside); bad lists give
# perf's message and exit status.
source tests/lib/common.sh
if ! have_perf; then skip "report filters differential (perf not installed)"; finish; fi

source tests/lib/report_compare.sh

rec g -g -e cpu-clock -c 100000 -- sh -c 'ls -R /usr/share/doc >/dev/null; cat /usr/share/doc/*/copyright | sort >/dev/null'
rec flat -e cpu-clock -c 50000 -- sh -c 'ls -R /usr/share/doc >/dev/null; cat /usr/share/doc/*/copyright | sort >/dev/null'
rec sys -e cpu-clock -c 200000 -a -- sh -c 'ls -R /usr/share/doc >/dev/null; sleep 0.2'
PID=$(perf script -i "$TMP/g.data" -F pid 2>/dev/null | sort -u | sed -n 2p | tr -d ' ')
OPTS=(
  "--comms ls"
  "--comm sort,cat"
  "--dsos libc.so.6"
  "--symbols __strcmp_evex,iowrite16"
  "--comm ls --no-children"
  "--dsos libc.so.6 -g caller --percentage relative"
  "--comm sort -G"
  "--comm sort --percent-limit 2"
  "--comm ls --sort dso,sym"
  "--dsos [kernel.kallsyms] --comm ls,sort -n"
  "--comm ls --percentage relative"
  "-S main"
  "--pid $PID"
  "--tid $PID -n --sort pid,sym"
  "-d [kernel.kallsyms] -q"
  "--dsos libc.so.6 --sort dso"
  "--comm ls --dsos libc.so.6 --sort dso,comm -n"
  "-t , --comm ls"
  "-t ; -g folded --no-children"
  "-t ,, --dsos libc.so.6 --sort dso,sym -n -g none"
  "--hierarchy"
  "--hierarchy -n --show-total-period --sort dso,sym"
  "--hierarchy --sort comm,pid,dso -g none --percent-limit 3"
  "--hierarchy --sort dso,sym -g caller,0.5,callee --percent-limit 2"
  "--hierarchy --sort comm,dso -g folded"
)
for d in g flat sys; do
  [ -s "$TMP/$d.data" ] || continue
  for o in "${OPTS[@]}"; do
    # shellcheck disable=SC2086
    compare "$d $o" "$TMP/$d.data" $o
  done
done
# -g print types and values
rec dwarf --call-graph dwarf -e cpu-clock -c 200000 -- ls -lR /usr/share/doc/bash /usr/share/doc/coreutils
for d in g dwarf; do
  [ -s "$TMP/$d.data" ] || continue
  for o in "-g flat" "--no-children -g flat" "-g folded" "--no-children -g folded,0.1,callee" \
           "--no-children -g graph,0.5,period" "-g flat,0,caller,period" "--no-children -g graph,0.5,2" \
           "-g graph,0,3,callee" "--no-children -g folded,0,3" "-g flat,1,2" "--show-total-period" \
           "--show-total-period -n --no-children" "--no-inline" "--no-inline --no-children -g srcline" \
           "-U" "--hide-unresolved --no-children -n" "-U -g caller --sort dso,sym"; do
    # shellcheck disable=SC2086
    compare "$d $o" "$TMP/$d.data" $o
  done
done
# -g srcline / -g address: frames matched by source line (falling back to
# the function) or by address, shown with "file:line", and for address
# "+offset" (kernel) where there is no line; inlined frames of DWARF
# stacks keep their own positions ("??:0" where addr2line has no file)
for d in g dwarf; do
  [ -s "$TMP/$d.data" ] || continue
  for o in "-g srcline" "--no-children -g srcline" "-g address" "--no-children -g address,callee" \
           "-g flat,address,caller" "--no-children -g folded,0.5,srcline" "--no-children -g fractal,0.5,s" \
           "-g graph,0.5,2,a,count"; do
    # shellcheck disable=SC2086
    compare "$d $o" "$TMP/$d.data" $o
  done
done
# the srcline key: source lines from debuginfo (perf computes them only
# when a comparison needs one, which decides the column width), sym+offset
# for the kernel, "??:0" where addr2line names a function but no line
for d in flat g dwarf; do
  [ -s "$TMP/$d.data" ] || continue
  for o in "--no-children --sort srcline" "--no-children --sort dso,srcline,sym" "--no-children --sort srcline,sym -n" \
           "--no-children -g none --sort comm,srcline"; do
    # shellcheck disable=SC2086
    compare "$d $o" "$TMP/$d.data" $o
  done
done
# the srcline key in children mode: an entry made from a callchain frame
# takes the frame's srcline when it has one (-g srcline/address, inlined
# entries of DWARF stacks), else perf's text for the frame's raw address
# (sym+offset where a PIE's address misses); entries compare by the text
for d in g dwarf; do
  [ -s "$TMP/$d.data" ] || continue
  for o in "--sort srcline" "--sort sym,srcline -g none" "--sort srcline -g srcline" "--sort dso,srcline -g address" \
           "--sort srcline,sym -n -g none" "--sort comm,srcline -g srcline,caller"; do
    # shellcheck disable=SC2086
    compare "$d children $o" "$TMP/$d.data" $o
  done
done
# --time: shares of the recording (SAMPLE_TIME), absolute ranges (one or
# several), perf's first lines and message for a bad string
if [ -s "$TMP/g.data" ]; then
  T0=$(perf script -i "$TMP/g.data" -F time 2>/dev/null | head -1 | tr -d ' :')
  T1=$(perf script -i "$TMP/g.data" -F time 2>/dev/null | tail -1 | tr -d ' :')
  MID=$(echo "scale=6; ($T0 + $T1) / 2" | bc)
  for tm in "0%-50%" "10%/2,10%/3" "25%" "$MID," ",$MID" "$T0,$MID $(echo "$MID + 0.01" | bc),$T1" "10" "abc"; do
    compare "g --time '$tm'" "$TMP/g.data" --time "$tm"
  done
  compare "g --time 0%-30% --no-children -n" "$TMP/g.data" --time 0%-30% --no-children -n
fi
# a CPU-wide recording (-C 0): threads first seen in a sample get the
# ":tid" name, which their first COMM overrides in the entries made so far
# (perf's comm__override)
if rec cpu0 -C 0 -e cpu-clock -c 100000 -- sh -c 'for i in $(seq 40); do ls -R /usr/share/doc/bash >/dev/null; done'; then
  for o in "" "--sort comm" "--sort pid,comm -n" "--no-children --sort comm,dso"; do
    # shellcheck disable=SC2086
    compare "cpu0 ${o:-(default)}" "$TMP/cpu0.data" $o
  done
fi
# srcline at chosen places of the system's libc: function starts and
# middles from .dynsym, and, with libc6-dbg, local assembly symbols from
# its debug file (__restore_rt: top-level asm in a C unit, no DWARF line
# row and no function, so addr2line names the symbol table's STT_FILE)
LIBC=$(ldd /bin/true 2>/dev/null | awk '/libc\.so/{print $3}')
if [ -n "$LIBC" ] && [ -r "$LIBC" ]; then
  offs=$(nm -D --defined-only "$LIBC" 2>/dev/null | awk '$2 ~ /^[Tt]$/ {print $1}' | sort -u | awk 'NR % 97 == 1' | head -40 |
         while read -r a; do printf '%x,%x,' $((0x$a)) $((0x$a + 0x13)); done)
  bid=$(readelf -n "$LIBC" 2>/dev/null | awk '/Build ID/{print $3}')
  dbg=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
  if [ -n "$bid" ] && [ -r "$dbg" ]; then
    offs+=$(readelf -sW "$dbg" 2>/dev/null | awk '$4 == "FUNC" && $5 == "LOCAL" && $3 == 0 {print $2}' | head -20 |
            while read -r a; do printf '%x,%x,' $((0x$a)) $((0x$a + 4)); done)
    # data objects (frame-pointer chains land there): addr2line names a
    # variable's declaration at its exact address; at their file offsets
    loads=$(readelf -lW "$LIBC" 2>/dev/null | awk '$1 == "LOAD" {print $2, $3, $5}')
    offs+=$(readelf -sW "$dbg" 2>/dev/null | awk '$4 == "OBJECT" && $3 > 0 {print $2}' | awk 'NR % 41 == 1' | head -16 |
            while read -r a; do
              while read -r o v fs; do
                if [ $((0x$a)) -ge $((v)) ] && [ $((0x$a)) -lt $((v + fs)) ]; then
                  printf '%x,%x,' $((0x$a - v + o)) $((0x$a - v + o + 8)); break
                fi
              done <<<"$loads"
            done)
  fi
  if "$GEN/mkperfdata" "dso:$LIBC@${offs%,}" "$TMP/libc.data"; then
    for o in "--sort srcline" "--sort srcline,sym -n"; do
      compare "libc places $o" "$TMP/libc.data" $o
    done
  else
    fail "mkperfdata dso:$LIBC"
  fi
fi
# a clang-built binary: DWARF 5 without .debug_aranges (units found by
# their own ranges), at every function's start and a few bytes in
if command -v clang >/dev/null 2>&1 && clang -g -O2 -o "$TMP/clang_prog" tests/data/pt/loops.c 2>/dev/null; then
  offs=$(nm "$TMP/clang_prog" | awk '$2 ~ /^[Tt]$/ {print $1}' | while read -r a; do printf '%x,%x,' $((0x$a)) $((0x$a + 5)); done)
  if "$GEN/mkperfdata" "dso:$TMP/clang_prog@${offs%,}" "$TMP/clang.data"; then
    compare "clang DWARF 5 --sort srcline,sym" "$TMP/clang.data" --sort srcline,sym
    perf script -i "$TMP/clang.data" -F ip,sym,srcline >"$TMP/p.txt" 2>"$TMP/pe"
    "$HWPROF" script -i "$TMP/clang.data" -F ip,sym,srcline >"$TMP/h.txt" 2>"$TMP/he"
    if grep -q 'loops.c:[1-9]' "$TMP/p.txt" && cmp -s "$TMP/p.txt" "$TMP/h.txt"; then pass "clang DWARF 5: script -F ip,sym,srcline identical"
    else fail "clang DWARF 5: script srcline differs"; diff "$TMP/p.txt" "$TMP/h.txt" | head -6; fi
  else
    fail "mkperfdata dso:clang_prog"
  fi
fi
# --cpu needs CPU in the samples (perf's message otherwise, and success)
compare "sys -C 0" "$TMP/sys.data" -C 0
compare "sys -C 0-1 --sort cpu,comm" "$TMP/sys.data" -C 0-1 --sort cpu,comm
for l in "0-1,x" "1a" "x" "3-1" "3000" "0x1"; do
  compare "sys -C '$l'" "$TMP/sys.data" -C "$l"
done
# -S: entries that read as hex numbers (perf's setup_addrlist) match the
# sample's address; the others name symbols; a list given twice replaces
IP=$(perf script -i "$TMP/sys.data" -F ip 2>/dev/null | grep -i ' *ffffffff' | sort | uniq -c | sort -rn | awk 'NR==1{print $2}')
for a in "-S 0x$IP" "-S $IP,add --sort sym,dso" "-S nothing -S 0x$IP" "--dsos /usr/lib/x86_64-linux-gnu/libc.so.6,[kernel.kallsyms]"; do
  # shellcheck disable=SC2086
  compare "sys $a" "$TMP/sys.data" $a
done
compare "g -C 0 (no CPU in samples)" "$TMP/g.data" -C 0
compare "bad pid list" "$TMP/g.data" --pid abc
compare "bad tid list" "$TMP/g.data" --tid 1,x
# a bad --percentage is a usage error (exit 129) in both
perf report --stdio -i "$TMP/g.data" --percentage foo >/dev/null 2>&1; prc=$?
"$HWPROF" report --stdio -i "$TMP/g.data" --percentage foo >/dev/null 2>&1; hrc=$?
if [ "$prc" = "$hrc" ]; then pass "bad --percentage: exit $hrc like perf"; else fail "bad --percentage: exit $hrc, perf $prc"; fi
# callchains over one DSO at other addresses in three processes, frames
# with and without symbols mixed (perf's chain compare is not transitive
# there: its trees keep second nodes for some frames), one process from a
# FORK perf synthesized (no copy of the parent's maps); a fixed file from
# tests/tools/mkperfdata
if "$GEN/mkperfdata" chains "$TMP/chains.data"; then
  for o in "" "--no-children" "-g callee" "--sort pid,sym" "-g folded" "-g flat" \
           "--sort dso,sym -g caller,0.5,callee" "-g graph,0,caller,function,count" "--sort time,comm --time-quantum 3us"; do
    # shellcheck disable=SC2086
    compare "chains $o" "$TMP/chains.data" $o
  done
else fail "mkperfdata chains"; fi
# the same with garbage outermost frames, addresses more than 2^63 apart:
# perf's tree walk misses entries there (found in CI on a system-wide -g
# recording, where hwprof's entry index had found them)
if "$GEN/mkperfdata" chains-far "$TMP/far.data"; then
  for o in "" "-g callee" "-g folded" "--sort pid,sym"; do
    # shellcheck disable=SC2086
    compare "chains-far $o" "$TMP/far.data" $o
  done
else fail "mkperfdata chains-far"; fi
# a thread whose last samples carry pid -1 (an exiting task's): one thread
# to perf, so equal children entries of both go by chain depth (found in CI
# on a system-wide recording: a sched_switch sample with prev_state X)
if "$GEN/mkperfdata" exitpid "$TMP/ep.data"; then
  for o in "" "-g callee" "-g caller"; do
    # shellcheck disable=SC2086
    compare "exitpid $o" "$TMP/ep.data" $o
  done
else fail "mkperfdata exitpid"; fi
# one event with call graphs, one without: in children mode perf's
# callchain cursor still holds the last chain when a sample without one
# comes, so that sample cumulates it (entries only; no call graph is
# shown for an event without callchains)
if rec mixed -e cpu-clock/call-graph=fp/ -e task-clock -c 200000 -- sh -c 'ls -R /usr/share/doc >/dev/null'; then
  for o in "" "--no-children" "--sort sym"; do
    # shellcheck disable=SC2086
    compare "mixed callchains $o" "$TMP/mixed.data" $o
  done
fi
# -T: per-thread values from the READ records perf record -s writes at
# each thread's exit (none in a file without them: the header alone)
if rec stat -s -e cpu-clock -e task-clock -c 400000 -- sh -c 'ls -R /usr/share/doc >/dev/null; ls / >/dev/null'; then
  for o in "-T" "-T --pretty raw"; do
    # shellcheck disable=SC2086
    compare "per-thread values $o" "$TMP/stat.data" $o
  done
fi
# -t .: perf says so but exits 0; hwprof exits 1 (a bad option)
msg=$("$HWPROF" report -i "$TMP/g.data" --stdio -t . 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] && [ "$msg" = "hwprof report: '.' is the only non valid --field-separator argument" ] &&
  pass "-t .: refused with perf's message" || fail "-t .: exit $rc, '$msg'"
msg=$("$HWPROF" report -i "$TMP/g.data" --stdio --hierarchy --comms ls 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && [[ $msg == *"--hierarchy in the branch or memory view"* ]] &&
  pass "--hierarchy with filters: refused in one line" || fail "--hierarchy --comms: exit $rc, '$msg'"
finish
