# Differential: tracepoint samples in `hwprof script` (and report's trace
# key and tracepoint field keys) against Debian perf 6.1, on files recorded here: a broad set of
# tracepoints (sched, timer, irq, syscalls, block, ext4, net, kmem,
# workqueue ... whatever tracefs offers), tracepoints mixed with
# cpu-clock, callchains, pipe mode, and a file whose tracepoints lack the
# RAW sample bit. stdout and stderr are compared separately, byte for
# byte, with the exit code. Damaged tracing data must give one error line
# naming the file and offset.
source tests/lib/common.sh
if ! have_perf; then skip "tracepoints (perf not installed)"; finish; fi
TRACEFS=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
  [ -d "$d/events/sched" ] && { TRACEFS=$d; break; }
done
if [ -z "$TRACEFS" ]; then skip "tracepoints (no tracefs with events mounted)"; finish; fi

check() { # name: compare $TMP/p.{out,err,rc} with $TMP/h.{out,err,rc}
  local name=$1 ok=1
  if [ "$(cat "$TMP/p.rc")" != "$(cat "$TMP/h.rc")" ]; then
    fail "$name: exit $(cat "$TMP/h.rc"), perf $(cat "$TMP/p.rc")"; head -3 "$TMP/h.err"; return
  fi
  if ! cmp -s "$TMP/p.out" "$TMP/h.out"; then
    fail "$name: stdout differs"; diff "$TMP/p.out" "$TMP/h.out" | head -8; ok=0
  fi
  if ! cmp -s "$TMP/p.err" "$TMP/h.err"; then
    fail "$name: stderr differs"; diff "$TMP/p.err" "$TMP/h.err" | head -8; ok=0
  fi
  [ $ok = 1 ] && pass "$name: identical ($(wc -l <"$TMP/p.out") lines, $(wc -l <"$TMP/p.err") on stderr)"
}

# the two runs' outputs are the same
same() { cmp -s "$TMP/p.out" "$TMP/h.out" && cmp -s "$TMP/p.err" "$TMP/h.err" && cmp -s "$TMP/p.rc" "$TMP/h.rc"; }

# Runs "$@" (a function running perf, then hwprof) and, if they differ,
# once more: the system-wide recordings hold other tests' programs, which
# may be deleted between perf's run and ours (a real difference stays)
twice() { "$@"; same || "$@"; }

run_cmd() { # command (script|report), file, args...
  local cmd=$1 f=$2; shift 2
  perf "$cmd" -i "$f" "$@" >"$TMP/p.out" 2>"$TMP/p.err"; echo $? >"$TMP/p.rc"
  "$HWPROF" "$cmd" -i "$f" "$@" >"$TMP/h.out" 2>"$TMP/h.err"; echo $? >"$TMP/h.rc"
}

compare() { # name, command (script|report), file, args...
  local name=$1; shift
  twice run_cmd "$@"
  check "$name"
}

run_stdin() { # file, script args...
  local f=$1; shift
  perf script -i - "$@" <"$f" >"$TMP/p.out" 2>"$TMP/p.err"; echo $? >"$TMP/p.rc"
  "$HWPROF" script -i - "$@" <"$f" >"$TMP/h.out" 2>"$TMP/h.err"; echo $? >"$TMP/h.rc"
}

compare_stdin() { # name, file, script args... (the stream on stdin)
  local name=$1; shift
  twice run_stdin "$@"
  check "$name"
}

rec() { # name, perf record args...
  local name=$1; shift
  if ! perf record -q -o "$TMP/$name.data" "$@" >/dev/null 2>"$TMP/$name.rec.err"; then
    fail "$name: perf record failed: $(head -1 "$TMP/$name.rec.err")"; return 1
  fi
}

W="sh -c 'ls /usr >/dev/null; echo x >$TMP/x; sync; ping -c1 127.0.0.1 >/dev/null 2>&1; sleep 0.05'"

# every system of this list that tracefs has (irq_vectors is left out:
# some of its events need more than root may enable in a VM)
EV=()
for s in sched timer irq raw_syscalls block ext4 jbd2 net skb sock tcp udp napi qdisc kmem \
         workqueue signal task rcu power filemap writeback mmap exceptions x86_fpu tlb msr \
         vmscan migrate printk cgroup lock ipi fib neigh pagemap percpu mmap_lock iomap readahead \
         rseq timer_migration csd cpuhp huge_memory compaction oom vmalloc maple_tree capability \
         notifier initcall alarmtimer icmp netlink memcg; do
  [ -d "$TRACEFS/events/$s" ] && EV+=(-e "$s:*")
done
for e in syscalls:sys_enter_openat syscalls:sys_exit_openat syscalls:sys_enter_write syscalls:sys_exit_read; do
  [ -d "$TRACEFS/events/${e%%:*}/${e#*:}" ] && EV+=(-e "$e")
done
if rec broad "${EV[@]}" -a -- sh -c "$W"; then
  compare "broad (${#EV[@]} event args)" script "$TMP/broad.data"
  compare "broad -F trace" script "$TMP/broad.data" -F trace
  compare "broad -F comm,tid,event,trace" script "$TMP/broad.data" -F comm,tid,event,trace
fi

if rec mix -e cpu-clock -c 200000 -e sched:sched_switch -e raw_syscalls:sys_enter -e 'timer:*' -a -- sh -c "$W"; then
  compare mixed script "$TMP/mix.data"
  for F in trace comm,trace trace:comm,tid,trace +trace -trace trace:-trace event,trace \
           trace:ip,sym,trace trace:time,trace,cpu,period trace:comm,trace,ip,sym,dso \
           sw:ip trace: comm,tid,trace,ip sw:comm,trace; do
    compare "mixed -F $F" script "$TMP/mix.data" -F "$F"
  done
  compare "mixed --ns" script "$TMP/mix.data" --ns
  compare "mixed -G" script "$TMP/mix.data" -G
  compare "mixed --header-only" script "$TMP/mix.data" --header-only
fi

if rec cg -g -e sched:sched_switch -e raw_syscalls:sys_exit -a -- sleep 0.05; then
  compare callchain script "$TMP/cg.data"
  compare "callchain -G" script "$TMP/cg.data" -G
  compare "callchain -F trace:comm,trace,ip,sym" script "$TMP/cg.data" -F trace:comm,trace,ip,sym
fi

# pipe mode: the tracing data is a record; perf sets no kernel symbol
# resolver then (function pointers print as addresses)
if perf record -q -e sched:sched_switch -e 'timer:*' -e 'jbd2:*' -e cpu-clock -a -o - -- sleep 0.05 \
     >"$TMP/pipe.data" 2>/dev/null; then
  compare pipe-file script "$TMP/pipe.data"
  compare_stdin pipe-stdin "$TMP/pipe.data"
  compare_stdin "pipe-stdin -F trace:comm,trace" "$TMP/pipe.data" -F trace:comm,trace
else fail "pipe: perf record failed"; fi
if perf record -q -g -e cpu-clock -e sched:sched_switch -a -o - -- sleep 0.05 >"$TMP/pipeg.data" 2>/dev/null; then
  compare_stdin pipe-callchain "$TMP/pipeg.data"
  for F in comm,tid sw:comm trace:comm,trace -ip; do compare_stdin "pipe-callchain -F $F" "$TMP/pipeg.data" -F "$F"; done
fi

# tracepoints without PERF_SAMPLE_RAW (the attr's bit cleared): no text
if rec noraw -e sched:sched_switch -a -- sleep 0.05; then
  python3 - "$TMP/noraw.data" <<'PY'
import struct, sys
p = sys.argv[1]; d = bytearray(open(p, 'rb').read())
attr_size, = struct.unpack_from('<Q', d, 16); off, size = struct.unpack_from('<QQ', d, 24)
for i in range(size // attr_size):
    a = off + i * attr_size
    if struct.unpack_from('<I', d, a)[0] == 2:  # PERF_TYPE_TRACEPOINT: clear SAMPLE_RAW
        st, = struct.unpack_from('<Q', d, a + 24); struct.pack_into('<Q', d, a + 24, st & ~(1 << 10))
open(p, 'wb').write(d)
PY
  compare "no RAW" script "$TMP/noraw.data"
  compare "no RAW -F trace" script "$TMP/noraw.data" -F trace
  compare "no RAW -F +trace" script "$TMP/noraw.data" -F +trace
fi

# report: the trace key (perf's tip line, chosen at random, left out)
run_report() { # file, report args...
  local f=$1; shift
  perf report --stdio -i "$f" "$@" 2>"$TMP/p.err" | report_filter >"$TMP/p.out"; echo "${PIPESTATUS[0]}" >"$TMP/p.rc"
  "$HWPROF" report --stdio -i "$f" "$@" 2>"$TMP/h.err" | report_filter >"$TMP/h.out"; echo "${PIPESTATUS[0]}" >"$TMP/h.rc"
}

compare_report() { # name, file, report args...
  local name=$1; shift
  twice run_report "$@"
  check "$name"
}
if [ -f "$TMP/mix.data" ]; then
  compare_report "report mixed --sort trace" "$TMP/mix.data" --sort trace
  compare_report "report mixed --sort comm,trace" "$TMP/mix.data" --sort comm,trace
  compare_report "report mixed --sort trace,sym" "$TMP/mix.data" --sort trace,sym
  compare_report "report mixed -F overhead,trace" "$TMP/mix.data" -F overhead,trace
  compare_report "report mixed -n --sort trace,comm" "$TMP/mix.data" -n --sort trace,comm
fi
[ -f "$TMP/broad.data" ] && compare_report "report broad --sort trace" "$TMP/broad.data" --sort trace
if [ -f "$TMP/cg.data" ]; then
  compare_report "report callchain --sort trace" "$TMP/cg.data" --sort trace
  compare_report "report callchain --no-children --sort trace" "$TMP/cg.data" --no-children --sort trace
fi
# only tracepoints: perf's tracepoint mode sorts by trace
if rec tponly -e sched:sched_switch -e raw_syscalls:sys_enter -- sh -c "$W"; then
  compare_report "report tracepoints only" "$TMP/tponly.data"
  compare_report "report tracepoints only --sort +comm" "$TMP/tponly.data" --sort +comm
fi
if [ -f "$TMP/pipe.data" ]; then
  perf report --stdio -i - --sort trace <"$TMP/pipe.data" 2>"$TMP/p.err" | report_filter >"$TMP/p.out"; echo "${PIPESTATUS[0]}" >"$TMP/p.rc"
  "$HWPROF" report --stdio -i - --sort trace <"$TMP/pipe.data" 2>"$TMP/h.err" | report_filter >"$TMP/h.out"; echo "${PIPESTATUS[0]}" >"$TMP/h.rc"
  check "report pipe-stdin --sort trace"
fi

# report: perf's dynamic keys, tracepoint fields ([event.]field[/raw],
# event.*, trace_fields); columns only in their event's table
if rec swk -e sched:sched_switch -e sched:sched_wakeup -a -- sh -c "$W"; then
  for k in prev_comm comm,sched_switch.prev_pid/raw prev_state 'sched_switch.*' trace_fields sched_wakeup.comm \
           comm/raw %1.next_comm sched:sched_switch.prev_prio next_comm,trace common_pid nosuchfield \
           sched_switch.nosuch prev_comm/bad; do
    compare_report "report --sort $k" "$TMP/swk.data" --sort "$k"
  done
fi
if [ -f "$TMP/mix.data" ]; then
  compare_report "report mixed --sort prev_comm" "$TMP/mix.data" --sort prev_comm
  compare_report "report mixed --sort comm,id/raw" "$TMP/mix.data" --sort comm,id/raw
fi
[ -f "$TMP/cg.data" ] && compare_report "report callchain --sort next_comm,prev_state" "$TMP/cg.data" --sort next_comm,prev_state
if [ -f "$TMP/broad.data" ]; then # __data_loc strings, formatted and raw
  for k in irq_handler_entry.name irq_handler_entry.name/raw sys_enter_openat.filename sys_enter_openat.filename/raw; do
    compare_report "report broad --sort $k" "$TMP/broad.data" --sort "$k"
  done
fi

# damaged tracing data: one error line with the file and offset, exit 1
expect_error() { # name file pattern [stdin]
  local name=$1 f=$2 pat=$3
  if [ "${4:-}" = stdin ]; then timeout 20 "$HWPROF" script -i - <"$f" >/dev/null 2>"$TMP/err"
  else timeout 20 "$HWPROF" script -i "$f" >/dev/null 2>"$TMP/err"; fi
  local rc=$? lines; lines=$(wc -l <"$TMP/err")
  if [ "$rc" -ne 1 ]; then fail "$name: exit code $rc, expected 1"; head -3 "$TMP/err"; return; fi
  if [ "$lines" -ne 1 ]; then fail "$name: $lines lines on stderr, expected 1"; head -3 "$TMP/err"; return; fi
  if ! grep -q "offset 0x" "$TMP/err" || ! grep -q -- "$pat" "$TMP/err"; then
    fail "$name: message lacks offset or '$pat': $(cat "$TMP/err")"; return
  fi
  if [ "${4:-}" != stdin ] && ! grep -qF "$f" "$TMP/err"; then fail "$name: message lacks the file: $(cat "$TMP/err")"; return; fi
  pass "$name: $(cat "$TMP/err")"
}
patch() { # file offset hexbytes...
  local f=$1 off=$2; shift 2
  printf "$(printf '\\x%s' "$@")" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
tdata() { LC_ALL=C grep -obUaP '\x17\x08\x44tracing' "$1" | head -1 | cut -d: -f1; }
if [ -f "$TMP/mix.data" ]; then
  base="$TMP/mix.data"; toff=$(tdata "$base")
  cp "$base" "$TMP/bad1.data"; patch "$TMP/bad1.data" "$toff" 00
  expect_error "tracing data: bad magic" "$TMP/bad1.data" "bad magic"
  if timeout 20 "$HWPROF" report --stdio -i "$TMP/bad1.data" >/dev/null 2>"$TMP/err"; then
    fail "report, bad tracing data: exit 0"
  elif [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "bad1.data: offset 0x.*bad magic" "$TMP/err"; then
    pass "report, bad tracing data: $(cat "$TMP/err")"
  else fail "report, bad tracing data: $(head -3 "$TMP/err")"; fi
  # header_page's size: 2^60
  hp=$(LC_ALL=C grep -obUaP 'header_page\x00' "$base" | head -1 | cut -d: -f1)
  cp "$base" "$TMP/bad2.data"; patch "$TMP/bad2.data" $((hp + 12)) 00 00 00 00 00 00 00 10
  expect_error "tracing data: absurd header_page size" "$TMP/bad2.data" "header_page needs"
  # the feature section's size cut to 200 bytes (the first section entry)
  data_off=$(od -An -tu8 -j40 -N8 "$base" | tr -d ' '); data_size=$(od -An -tu8 -j48 -N8 "$base" | tr -d ' ')
  cp "$base" "$TMP/bad3.data"; patch "$TMP/bad3.data" $((data_off + data_size + 8)) c8 00 00 00 00 00 00 00
  expect_error "tracing data: section cut short" "$TMP/bad3.data" "tracing data"
  # a print fmt losing the first '(' after its string
  cp "$base" "$TMP/bad4.data"
  python3 - "$TMP/bad4.data" "$toff" <<'PY'
import sys
p, off = sys.argv[1], int(sys.argv[2]); d = bytearray(open(p, 'rb').read())
i = d.index(b'print fmt: "', off); q = d.index(b'"', i + 12)
while d[q - 1] == 0x5c: q = d.index(b'"', q + 1)  # an escaped quote
d[d.index(b'(', q)] = 0x20
open(p, 'wb').write(d)
PY
  expect_error "tracing data: unbalanced print fmt" "$TMP/bad4.data" "print fmt"
  # an event format's size past the end of the block
  cp "$base" "$TMP/bad5.data"; fo=$(LC_ALL=C grep -obUaP 'name: ' "$base" | head -1 | cut -d: -f1)
  patch "$TMP/bad5.data" $((fo - 8)) ff ff ff 00 00 00 00 00
  expect_error "tracing data: event format past the end" "$TMP/bad5.data" "event format needs"
fi
if [ -f "$TMP/pipe.data" ]; then
  toff=$(tdata "$TMP/pipe.data")
  cp "$TMP/pipe.data" "$TMP/badpipe.data"; patch "$TMP/badpipe.data" $((toff + 3)) 58
  expect_error "pipe tracing data: missing tag" "$TMP/badpipe.data" "'tracing' tag" stdin
fi
finish
