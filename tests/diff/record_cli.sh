# `hwprof record` end to end on this machine (software events only): files
# perf 6.1 reads with the same dump as ours, pipe mode into both readers,
# register requests (GPRs record; SIMD classes fail clearly on a kernel
# without the SIMD series, and show their attr under --dry-run).
source tests/lib/common.sh
if ! have_perf; then skip "record CLI (perf not installed)"; finish; fi
cd "$TMP"
same_dump() { # name file
  perf report -D -i "$2" >"$1.perf" 2>/dev/null; local prc=$?
  "$HWPROF" report -D -i "$2" >"$1.hw" 2>&1
  if [ $prc -eq 0 ] && diff -q "$1.perf" "$1.hw" >/dev/null; then pass "$1: perf reads it, report -D identical"
  else fail "$1: report -D differs or perf failed ($prc)"; diff "$1.perf" "$1.hw" | head -5; fi
}
if "$HWPROF" record -q -e cpu-clock -Iax,bx,sp,ip --user-regs=ax,bx -o regs.data -- true; then
  same_dump regs regs.data
  if grep -q '^... intr regs: mask 0x183 ABI 64-bit' regs.hw && grep -q '^... user regs: mask 0x3 ABI 64-bit' regs.hw; then
    pass "regs: -Iax,bx,sp,ip --user-regs=ax,bx sampled"; else fail "regs: register blocks missing"; fi
else fail "regs: hwprof record failed"; fi

rm -f perf.data
"$HWPROF" record -Izmm -- true >out 2>err; rc=$?
# the reason follows the probe: an older kernel's attr size, a class this
# CPU lacks, or the PMU's refusal
if [ $rc -ne 0 ] && [ ! -e perf.data ] &&
   grep -Eq "^hwprof record: zmm names SIMD, APX eGPR or SSP registers, which (this kernel cannot sample \(its perf_event_attr is [0-9]+ bytes|this CPU or PMU does not offer|cannot be sampled here \(the kernel refused them on cycles: )" err; then
  pass "-Izmm on a kernel without SIMD sampling: clear error, exit $rc, no file"
else fail "-Izmm: exit $rc, file $( [ -e perf.data ] && echo left || echo none): $(tail -1 err)"; fi
if "$HWPROF" record --dry-run -e cpu-clock -Izmm,opmask,r16,ssp -- true >dry 2>&1 &&
   grep -q 'sample_simd_vec_reg_intr         0xffffffff' dry && grep -q 'size                             176' dry; then
  pass "--dry-run shows the SIMD attr against the full register table"
else fail "--dry-run -Izmm"; head -5 dry; fi
# --dry-run and --arch count wherever they stand; --arch picks the table
dry_regs() { # label, expected line, args...
  local label=$1 want=$2; shift 2
  if "$HWPROF" record "$@" -- true >dry 2>&1 && grep -qx "  $want" dry; then pass "dry-run $label: $want"
  else fail "dry-run $label: no '$want'"; grep -E 'regs|Unknown' dry | head -3; fi
}
dry_regs "-Izmm before --dry-run" "sample_simd_vec_reg_intr         0xffffffff" -e cpu-clock -Izmm --dry-run
dry_regs "arm64 --user-regs=x0,lr,vg" "sample_regs_user                 0x400040000001" \
  --dry-run --arch arm64 -e cpu-clock --user-regs=x0,lr,vg
dry_regs "arm64 bare -I" "sample_regs_intr                 0x1ffffffff" --dry-run -e cpu-clock --arch=arm64 -I
dry_regs "i386 bare -I" "sample_regs_intr                 0xffff" --dry-run -e cpu-clock -I --arch i386

if "$HWPROF" record -q -e cpu-clock -c 50000 -g -o cg.data -- ls -R /usr/share/doc/bash >/dev/null; then
  same_dump callchain cg.data
  if perf script -i cg.data >/dev/null 2>&1 && perf report --stdio -i cg.data >/dev/null 2>&1; then
    pass "callchain: perf script and perf report accept it"; else fail "callchain: perf script/report failed"; fi
else fail "callchain: hwprof record failed"; fi

if "$HWPROF" record -q -e task-clock -c 100000 -o - -- ls /usr >pipe.data 2>/dev/null; then
  same_dump pipe pipe.data
  "$HWPROF" record -q -e task-clock -c 100000 -o - -- ls /usr 2>/dev/null | perf report -D -i - >/dev/null 2>&1 &&
    pass "pipe: streamed into perf report -D -i -" || fail "pipe: perf report -i - failed"
else fail "pipe: hwprof record -o - failed"; fi

# -vv prints the perf_event_attr block on stderr before recording, as perf
"$HWPROF" record -vv -e cpu-clock -o vv.data -- true 2>vv.err >/dev/null
perf record -vv -e cpu-clock -o vvp.data -- true 2>&1 >/dev/null | awk '/^-+$/{n++} n==1||(n==2&&/^-+$/)' | head -40 >vvp.attr
awk '/^-+$/{n++} n==1||(n==2&&/^-+$/)' vv.err | head -40 >vv.attr
if [ -s vv.attr ] && diff -q vvp.attr vv.attr >/dev/null; then pass "record -vv: attr block as perf prints it"
else fail "record -vv attr block differs"; diff vvp.attr vv.attr | head -5; fi

# perf 6.1's tracking dummy (dummy:HG) for -a, -C and -D: the same events
# and attrs as perf's own recording with the same options
for args in "-a" "-a -F 1000" "-a -g" "-a -c 1000 -g -d --sample-cpu" "-a --switch-events" \
            "-a --no-inherit" "-C 0" "-D 10 -g" "-D -1 -c 5000" "-p $$" "-a -Iax,sp" "-C 0 -I --user-regs=ip"; do
  perf record $args -e cpu-clock -o pe.data -- true >/dev/null 2>&1
  "$HWPROF" record -q $args -e cpu-clock -o he.data -- true >/dev/null 2>&1
  perf evlist -v -i pe.data >pe.txt 2>&1; perf evlist -v -i he.data >he.txt 2>&1
  if [ -s pe.txt ] && diff -q pe.txt he.txt >/dev/null; then pass "events as perf's for '$args': $(cut -d: -f1 he.txt | tr '\n' ' ')"
  else fail "events differ from perf's for '$args'"; diff pe.txt he.txt | head -6; fi
done
# per-event terms the target must not override (inherit, time, group reads)
for spec in 'cpu-clock/no-inherit/' 'cpu-clock/time=0/' '{cpu-clock,task-clock}:S'; do
  perf record -e "$spec" -o pe.data -- true >/dev/null 2>&1
  "$HWPROF" record -q -e "$spec" -o he.data -- true >/dev/null 2>&1
  perf evlist -v -i pe.data >pe.txt 2>&1; perf evlist -v -i he.data >he.txt 2>&1
  if [ -s pe.txt ] && diff -q pe.txt he.txt >/dev/null; then pass "recorded attrs as perf's for -e '$spec'"
  else fail "recorded attrs differ from perf's for -e '$spec'"; diff pe.txt he.txt | head -6; fi
done
# -vv / --dry-run print the attrs with the target's bits, as perf -vv
perf record -vv -a -e cpu-clock -o pe.data -- true 2>&1 >/dev/null | awk '/^-+$/{n++} (n==1||n==3)&&!/^-+$/' >pa.attr
"$HWPROF" record --dry-run -a -e cpu-clock | grep -v '^-' >ha.attr
if [ -s ha.attr ] && diff -q pa.attr ha.attr >/dev/null; then pass "--dry-run -a: attrs (event and dummy:HG) as perf -vv -a"
else fail "--dry-run -a differs from perf -vv -a"; diff pa.attr ha.attr | head -6; fi

# --control: a workload that drives the control fifo itself, so each phase
# runs as a different command: disabled (md5sum), enabled (sha1sum),
# disabled again (sha256sum). Acks order the phases; no timing involved.
rm -f c1 a1; mkfifo c1 a1
cat >wl.sh <<'EOS'
head -c 20000000 /dev/zero | md5sum >/dev/null
echo ping >c1; read x <a1
echo enable >c1; read x <a1
head -c 20000000 /dev/zero | sha1sum >/dev/null
echo disable >c1; read x <a1
echo bogus >c1
echo snapshot >c1; read x <a1
head -c 20000000 /dev/zero | sha256sum >/dev/null
EOS
comms() { perf script -F comm -i "$1" 2>/dev/null | awk '{print $1}' | sort | uniq -c | awk '{printf "%s=%s ", $2, $1}'; }
for who in hwprof perf; do
  if [ $who = perf ]; then perf record -D -1 -e task-clock -c 100000 --control fifo:c1,a1 -o ctl-$who.data -- sh wl.sh >/dev/null 2>ctl-$who.err
  else "$HWPROF" record -D -1 -e task-clock -c 100000 --control fifo:c1,a1 -o ctl-$who.data -- sh wl.sh >/dev/null 2>ctl-$who.err; fi
  c=$(comms ctl-$who.data)
  if echo "$c" | grep -q "sha1sum=[1-9]" && ! echo "$c" | grep -q "md5sum\|sha256sum"; then
    pass "--control ($who): samples only while enabled: $c"
  else fail "--control ($who): $c"; fi
done
if diff -q <(grep -v '^\[' ctl-perf.err) <(grep -v '^\[' ctl-hwprof.err) >/dev/null; then
  pass "--control: messages as perf's: $(grep -v '^\[' ctl-hwprof.err | tr '\n' ' ')"
else fail "--control messages differ"; diff ctl-perf.err ctl-hwprof.err; fi
same_dump control ctl-hwprof.data
# per-event enable/disable, an unknown event, evlist: perf's messages
rm -f c3 a3; mkfifo c3 a3
cat >wl3.sh <<'EOS'
echo "disable cpu-clock" >c3; read x <a3
echo "enable nosuch" >c3; read x <a3
echo "evlist" >c3; read x <a3
echo "enable cpu-clock" >c3; read x <a3
EOS
perf record -e cpu-clock,task-clock --control fifo:c3,a3 -o ev-perf.data -- sh wl3.sh 2>&1 >/dev/null | grep -v '^\[' >ev-perf.err
timeout 60 "$HWPROF" record -e cpu-clock,task-clock --control fifo:c3,a3 -o ev-hw.data -- sh wl3.sh 2>&1 >/dev/null | grep -v '^\[' >ev-hw.err
if [ -s ev-perf.err ] && diff -q ev-perf.err ev-hw.err >/dev/null; then pass "--control enable/disable NAME, evlist: as perf ($(tr '\n' '|' <ev-hw.err))"
else fail "--control per-event messages differ"; diff ev-perf.err ev-hw.err | head -6; fi
# fd: form and stop: the recording ends when told, with a valid file
rm -f c2 a2; mkfifo c2 a2
exec 7<>c2 8<>a2
"$HWPROF" record -q -e task-clock --control fd:7,8 -o stop.data -- sleep 30 >/dev/null 2>&1 & p=$!
echo stop >&7
if read -t 20 x <&8 && [ "$x" = ack ]; then pass "--control fd:7,8: stop acknowledged"; else fail "--control fd: no ack"; fi
wait $p; rc=$?
exec 7>&- 8>&-
if perf report -D -i stop.data >/dev/null 2>&1; then pass "--control stop: recording ended (rc $rc), perf reads the file"
else fail "--control stop: rc $rc, file unreadable"; fi
# -D with a delay: both messages, perf reads the file; -D -1 without an
# enable: no samples at all
"$HWPROF" record -D 1 -e task-clock -o d1.data -- sh -c 'head -c 5000000 /dev/zero | md5sum' >/dev/null 2>d1.err
if [ "$(grep -c '^Events \(disabled\|enabled\)$' d1.err)" = 2 ] && perf report -D -i d1.data >/dev/null 2>&1; then
  pass "-D 1: Events disabled / Events enabled, perf reads the file"
else fail "-D 1: $(cat d1.err)"; fi
"$HWPROF" record -q --delay=-1 -e task-clock -c 10000 -o dm1.data -- sh -c 'head -c 5000000 /dev/zero | md5sum' >/dev/null 2>&1
n=$(perf script -i dm1.data 2>/dev/null | wc -l)
if [ "$n" = 0 ] && perf report -D -i dm1.data 2>/dev/null | grep -q "MMAP\|COMM"; then
  pass "--delay=-1 never enabled: no samples, sideband kept by the dummy"
else fail "--delay=-1: $n samples"; fi

# lost data: a 1-page ring and 64 KiB stack dumps overflow it; at the end
# the warnings perf record prints (from reading its file back) are the
# ones perf report prints on our file
"$HWPROF" record -e task-clock -c 10000 -m 1 --call-graph dwarf,65528 -o lost.data -- \
  sh -c 'head -c 100000000 /dev/zero | md5sum >/dev/null' >/dev/null 2>lost.err
grep -v '^\[ hwprof record' lost.err >lost.rec
command perf report --stdio -i lost.data 2>&1 >/dev/null | grep -v '^Error:$\|data has no samples!$' >lost.rep
if grep -q "^Processed [0-9]* events and lost [0-9]* chunks!$" lost.rec && diff -q lost.rec lost.rep >/dev/null; then
  pass "lost data: warnings as perf's: $(grep '^Processed' lost.rec | tr '\n' ' ')"
else fail "lost data warnings"; diff lost.rec lost.rep | head -8; fi

# -a / -p with a command: the target is the system / the process (perf
# opens cpu-wide events and synthesizes the existing tasks from /proc);
# the command only runs meanwhile. A busy process started before must be
# in the file: its maps from /proc, its samples from the cpu-wide events.
sh -c 'while :; do :; done' & busy=$!
"$HWPROF" record -q -a -e cpu-clock -c 100000 -o sw.data -- sleep 0.5 >/dev/null 2>&1
"$HWPROF" record -q -p $busy -e cpu-clock -c 100000 -o pw.data -- sleep 0.3 >/dev/null 2>&1
kill $busy; wait $busy 2>/dev/null
if perf report -D -i sw.data 2>/dev/null | grep -q "^0 .*PERF_RECORD_MMAP2 $busy/$busy: .* /usr/bin/dash$\|^0 .*PERF_RECORD_MMAP2 $busy/$busy: .*/sh$" &&
   perf report -D -i sw.data 2>/dev/null | grep -q "PERF_RECORD_FORK($busy:$busy)"; then
  pass "-a with a command: existing tasks synthesized from /proc"
else fail "-a with a command: no /proc synthesis for pid $busy"; fi
if [ "$(perf script -F pid -i sw.data 2>/dev/null | awk -v p=$busy '$1 == p' | wc -l)" -gt 0 ]; then
  pass "-a with a command: samples of other processes (cpu-wide events)"
else fail "-a with a command: no samples of the busy process $busy"; fi
if perf report -D -i pw.data 2>/dev/null | grep -q "^0 .*PERF_RECORD_COMM: [a-z]*:$busy/$busy$" &&
   perf report -D -i pw.data 2>/dev/null | grep -q "^0 .*PERF_RECORD_MMAP2 $busy/$busy: "; then
  pass "-p with a command: the target's COMM and maps synthesized"
else fail "-p with a command: target $busy not synthesized"; fi
# -p/-t override -a/-C with perf's warning; -S/--aux-sample need an AUX event
for args in "-a -p $$" "-C 0 -a -t $$" "-S" "--aux-sample"; do
  perf record $args -e cpu-clock -o pe.data -- true 2>&1 >/dev/null | grep -v '^\[ perf record' >pe.err; prc=${PIPESTATUS[0]}
  "$HWPROF" record $args -e cpu-clock -o he.data -- true 2>&1 >/dev/null | grep -v '^\[ hwprof record' >he.err; hrc=${PIPESTATUS[0]}
  if [ -s pe.err ] && [ $prc = $hrc ] && diff -q pe.err he.err >/dev/null; then pass "'$args': perf's message, exit $hrc: $(head -2 he.err | tr '\n' ' ')"
  else fail "'$args': exit $hrc vs perf $prc"; diff pe.err he.err | head -4; fi
done
# cycles falls back to cpu-clock named from its attr as perf names it,
# precise_ip kept; -v says so with perf's Warning: line
for spec in cycles:u cycles:pp cycles:S cycles:H cycles:uk; do
  perf record -e $spec -o pe.data -- true >/dev/null 2>&1; "$HWPROF" record -q -e $spec -o he.data -- true >/dev/null 2>&1
  perf evlist -v -i pe.data >pe.txt 2>&1; perf evlist -v -i he.data >he.txt 2>&1
  if [ -s pe.txt ] && diff -q pe.txt he.txt >/dev/null; then pass "fallback of $spec as perf's: $(cut -d: -f1,2 he.txt)"
  else fail "fallback of $spec differs from perf's"; diff pe.txt he.txt | head -4; fi
done
"$HWPROF" record -v -e cycles -o he.data -- true 2>&1 >/dev/null | grep -B1 '^The cycles event' >he.err
perf record -v -e cycles -o pe.data -- true 2>&1 >/dev/null | grep -B1 '^The cycles event' >pe.err
if [ -s pe.err ] && diff -q pe.err he.err >/dev/null; then pass "-v cycles fallback: perf's warning lines"
else fail "-v cycles fallback warning differs"; diff pe.err he.err; fi
# groups: GROUP_DESC written, so perf shows the group view of our file
W2="ls -R /usr/share/doc/bash"
"$HWPROF" record -q -e '{cpu-clock,task-clock},{page-faults,cs}' -c 100000 -o grp.data -- $W2 >/dev/null 2>&1
perf record -q -e '{cpu-clock,task-clock},{page-faults,cs}' -c 100000 -o grpp.data -- $W2 >/dev/null 2>&1
a=$(perf report --header-only -i grpp.data | grep '^# group:'); b=$(perf report --header-only -i grp.data | grep '^# group:')
if [ -n "$b" ] && [ "$a" = "$b" ]; then pass "group descriptions as perf writes them: $(echo $b)"
else fail "group descriptions: perf '$a' ours '$b'"; fi
perf report --stdio -i grp.data 2>&1 | report_filter >grp.perf; "$HWPROF" report --stdio -i grp.data 2>&1 | report_filter >grp.hw
if grep -q "of events 'anon group { cpu-clock, task-clock }'" grp.perf && cmp -s grp.perf grp.hw; then
  pass "perf report --stdio shows our groups as groups, as hwprof does"
else fail "group view of our file"; diff grp.perf grp.hw | head -4; fi
# an existing output is kept as FILE.old, as perf does
rm -f keep.data keep.data.old
"$HWPROF" record -q -e cpu-clock -o keep.data -- true >/dev/null 2>&1; cp keep.data first.data
"$HWPROF" record -q -e cpu-clock -o keep.data -- true >/dev/null 2>&1
if cmp -s first.data keep.data.old && perf report -D -i keep.data >/dev/null 2>&1; then pass "previous output kept as keep.data.old"
else fail "previous output not kept as .old"; fi
# -k/--clockid: perf's attr bits (use_clockid, clockid) and header lines
# (clockid frequency, clock name; the reference times differ per run)
for k in mono raw CLOCK_REALTIME boot 7; do
  "$HWPROF" record -q -k $k -e cpu-clock -o k.data -- true >/dev/null 2>&1
  perf record -q -k $k -e cpu-clock -o kp.data -- true >/dev/null 2>&1
  a=$(perf evlist -v -i kp.data 2>/dev/null); b=$(perf evlist -v -i k.data 2>/dev/null)
  ha=$(perf report --header-only -i kp.data 2>/dev/null | grep -E '^# clockid'); hb=$(perf report --header-only -i k.data 2>/dev/null | grep -E '^# clockid')
  if [ -n "$b" ] && [ "$a" = "$b" ] && [ -n "$hb" ] && [ "$ha" = "$hb" ] &&
     perf report --header-only -i k.data 2>/dev/null | grep -q '^# reference time: .* (TOD) = '; then
    pass "-k $k: attrs and clock header as perf's ($(echo $hb | tr '\n' ' '))"
  else fail "-k $k: attrs '$b' vs perf '$a'; header '$hb' vs '$ha'"; fi
done
perf record -k foo -e cpu-clock -o kp.data -- true >kp.out 2>&1; prc=$?
"$HWPROF" record -k foo -e cpu-clock -o k.data -- true >k.out 2>&1; hrc=$?
if [ $prc = $hrc ] && cmp -s <(sed 's/perf record/X/' kp.out) <(sed 's/hwprof record/X/' k.out); then
  pass "-k foo: perf's warning and usage, exit $hrc"
else fail "-k foo: exit $hrc (perf $prc)"; diff kp.out k.out | head -4; fi
"$HWPROF" record -e no-such-event -- true >out 2>err; rc=$?
if [ $rc -ne 0 ] && [ "$(wc -l <err)" -eq 1 ]; then pass "unknown event: one line, exit $rc: $(cat err)"; else fail "unknown event: exit $rc"; cat err; fi
finish
