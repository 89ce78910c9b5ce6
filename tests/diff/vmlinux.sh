# Kernel symbols and kernel code from a vmlinux, and code files from the
# build-id cache, against perf 6.1:
# - a perf recording with kernel samples read with -k and a stand-in
#   vmlinux (made here, with the recorded kernel's build id, linked 16 MB
#   below the running kernel so that it must be relocated): symbols of its
#   .text, the [kernel.kallsyms].init.text map of another section, file
#   offsets for unknown symbols, instruction bytes; a vmlinux of another
#   build, a missing -k file;
# - an emulated Intel PT trace that enters tests/data/pt/kernel.S at each
#   system call: decoded with -k, with ./vmlinux found as perf finds it,
#   under --symfs; and with the program replaced after recording, its code
#   read from the build-id cache (perf inject -b, perf buildid-cache);
# - perf record --kcore directories (made here: kallsyms, a kcore of the
#   stand-in, modules): kernel symbols and code from them.
source tests/lib/common.sh
if ! have_perf; then skip "vmlinux (perf not installed)"; finish; fi
for t in as ld; do
  command -v $t >/dev/null || { fail "vmlinux: $t missing (binutils)"; finish; }
done

same() { # name, command args (run by perf and hwprof in the current directory)
  local name=$1; shift
  perf "$@" >"$TMP/p.out" 2>"$TMP/p.err"; local prc=$?
  "$HWPROF" "$@" >"$TMP/h.out" 2>"$TMP/h.err"; local hrc=$?
  if [ "$1" = report ]; then
    report_filter <"$TMP/p.out" >"$TMP/p.f"; report_filter <"$TMP/h.out" >"$TMP/h.f"
  else
    cp "$TMP/p.out" "$TMP/p.f"; cp "$TMP/h.out" "$TMP/h.f"
  fi
  if [ $prc = $hrc ] && cmp -s "$TMP/p.f" "$TMP/h.f" && cmp -s "$TMP/p.err" "$TMP/h.err"; then
    pass "$name: identical ($(wc -l <"$TMP/p.f") lines, exit $hrc)"
  else
    fail "$name: differs (exit perf $prc, hwprof $hrc)"
    diff "$TMP/p.f" "$TMP/h.f" | head -5; diff "$TMP/p.err" "$TMP/h.err" | head -3
  fi
}

# ---- kernel samples of a perf recording, with a stand-in vmlinux
D="$TMP/k.data"
if ! perf record -q -e cpu-clock -c 20000 -g -o "$D" -- ls -R /usr/share/doc /usr/lib/x86_64-linux-gnu \
     >/dev/null 2>"$TMP/rec.err"; then
  fail "perf record failed: $(head -1 "$TMP/rec.err")"; finish
fi
BID=$(command perf buildid-list -i "$D" 2>/dev/null | awk '$2 == "[kernel.kallsyms]" {print $1}')
if [ -z "$BID" ]; then
  skip "vmlinux symbols (the recording has no kernel build id: kernel samples not allowed here?)"
else
  # functions every 4 KB in a 17.5 MB .text (sized, unsized, aliased,
  # labels), a 4 MB .init.text past it and a data object
  awk 'BEGIN {
    print ".text\n.globl _text\n_text:\n.globl _stext\n_stext:"
    for (i = 0; i < 4480; i++) {
      n = sprintf("kfunc_%05x", i); k = i % 7
      if (k == 0) printf ".globl %s\n.type %s,@function\n%s:\n.size %s,2048\n", n, n, n, n
      else if (k == 1) printf ".type %s,@function\n%s:\n", n, n
      else if (k == 2) printf ".globl %s\n.type %s,@function\n%s:\n.globl %s_alias\n.type %s_alias,@function\n%s_alias:\n.size %s,4096\n.size %s_alias,4096\n", n, n, n, n, n, n, n, n
      else if (k == 3) printf "%s_label:\n", n
      else printf ".globl %s\n.type %s,@function\n%s:\n.size %s,4096\n", n, n, n, n
      print ".fill 4096,1,0x90"
    }
    print ".section .init.text,\"ax\",@progbits\n.globl kinit_one\n.type kinit_one,@function\nkinit_one:\n.size kinit_one,64\n.fill 0x400000,1,0x90"
    print ".section .data,\"aw\",@progbits\n.globl kdata_obj\n.type kdata_obj,@object\nkdata_obj:\n.size kdata_obj,64\n.fill 4096,1,0"
  }' >"$TMP/fake.S"
  as "$TMP/fake.S" -o "$TMP/fake.o" &&
    ld -static -nostdlib -Ttext=0xffffffff80000000 --build-id=0x$BID -e 0 -o "$TMP/vmlinux" "$TMP/fake.o" &&
    ld -static -nostdlib -Ttext=0xffffffff80000000 --build-id=0x1234 -e 0 -o "$TMP/vmother" "$TMP/fake.o" ||
    { fail "could not link the stand-in vmlinux"; finish; }
  n=$(perf script -i "$D" -k "$TMP/vmlinux" -F ip,sym 2>/dev/null | grep -c 'kfunc_')
  [ "$n" -gt 0 ] && pass "perf resolves $n kernel frames with the stand-in vmlinux" ||
    fail "perf resolves no kernel frame with the stand-in vmlinux: the test proves nothing"
  same "script -k" script -i "$D" -k "$TMP/vmlinux"
  n=$(grep -c '(\[kernel.kallsyms\].init.text)' "$TMP/h.out")
  [ "$n" -gt 0 ] && pass "script -k: $n frames in the map of .init.text" ||
    skip "no kernel frame beyond the stand-in's .text in this recording"
  same "script -k -F ip,sym,symoff,dso,insn" script -i "$D" --vmlinux "$TMP/vmlinux" -F ip,sym,symoff,dso,insn
  same "script -k -F brstackoff" script -i "$D" -k "$TMP/vmlinux" -G -F ip,dso,brstackoff
  same "report -k" report --stdio -i "$D" -k "$TMP/vmlinux"
  same "report -k --no-children" report --stdio -i "$D" -k "$TMP/vmlinux" --no-children
  same "report -k --sort dso,sym" report --stdio -i "$D" -k "$TMP/vmlinux" --sort dso,sym -g none
  # the maps' sizes: callchain entries count in their own map's (the
  # kernel's is its .text with a vmlinux)
  same "report -k --sort dso_size,dso" report --stdio -i "$D" -k "$TMP/vmlinux" --sort dso_size,dso
  same "report --sort dso_size,dso (kallsyms)" report --stdio -i "$D" --sort dso_size,dso
  same "report --ignore-vmlinux" report --stdio -i "$D" -k "$TMP/vmlinux" --ignore-vmlinux --no-children
  # source lines: a vmlinux is a file addr2line reads (the stand-in has no
  # debuginfo: "sym+off", or the link address of the unresolved ones).
  # perf runs addr2line once per address: a short recording of its own.
  S="$TMP/s.data"
  perf record -q -e cpu-clock -c 100000 -g -o "$S" -- ls -R /usr/share/doc >/dev/null 2>&1 ||
    fail "perf record (short) failed"
  same "report -k --sort srcline" report --stdio -i "$S" -k "$TMP/vmlinux" --sort srcline -g none
  same "report -k --sort sym,srcline" report --stdio -i "$S" -k "$TMP/vmlinux" --sort sym,srcline -g none
  same "script -k -F ip,sym,srcline" script -i "$S" -k "$TMP/vmlinux" -F ip,sym,srcline
  # perf record finding a vmlinux (./vmlinux: the first place it looks)
  # names the kernel by its path in the build-id table; perf then calls
  # the kernel "[kernel.vmlinux]" in reports, its sections
  # "[kernel.vmlinux].init.text", and the path in script's output
  mkdir -p "$TMP/vd" && cp "$TMP/vmlinux" "$TMP/vd/vmlinux"
  if (cd "$TMP/vd" && perf record -q -e cpu-clock -c 100000 -g -o v.data -- ls -R /usr/share/doc >/dev/null 2>&1) &&
     [ "$(command perf buildid-list -i "$TMP/vd/v.data" 2>/dev/null | awk '$2 == "vmlinux" {print $1}')" = "$BID" ]; then
    (
      cd "$TMP/vd"
      same "recorded with a vmlinux: report" report --stdio -i v.data
      grep -q '\[kernel.vmlinux\]' "$TMP/h.out" && pass "recorded with a vmlinux: [kernel.vmlinux] shown" ||
        fail "recorded with a vmlinux: perf's [kernel.vmlinux] not shown"
      same "recorded with a vmlinux: report --sort dso,sym" report --stdio -i v.data --no-children --sort dso,sym -g none
      same "recorded with a vmlinux: report --dsos [kernel.vmlinux]" report --stdio -i v.data --dsos '[kernel.vmlinux]' --no-children
      same "recorded with a vmlinux: script" script -i v.data
      grep -q '(vmlinux)' "$TMP/h.out" && pass "recorded with a vmlinux: script names the kernel by its path" ||
        fail "recorded with a vmlinux: script does not name the kernel by its path"
      grep -q '(\[kernel.vmlinux\].init.text)' "$TMP/h.out" && pass "recorded with a vmlinux: [kernel.vmlinux].init.text" ||
        skip "recorded with a vmlinux: no kernel frame beyond the stand-in's .text"
      same "recorded with a vmlinux: script -F ip,sym,srcline" script -i v.data -F ip,sym,srcline
      same "recorded with a vmlinux: report --sort srcline" report --stdio -i v.data --sort srcline -g none
    )
  else
    fail "perf record with ./vmlinux present did not name the kernel by it"
  fi
  # a perf.data directory as perf record --kcore writes it (/proc/kcore
  # is not readable here): kallsyms and a "kcore" of the stand-in at the
  # recorded _text, this machine's modules
  TEXT=$(command perf report -D -i "$D" 2>/dev/null |
         sed -n 's/.*PERF_RECORD_MMAP -1\/0: \[0x[0-9a-f]*([0-9a-fx]*) @ \(0x[0-9a-f]*\)\]: x \[kernel.kallsyms\]_text$/\1/p' | head -1)
  if [ -n "$TEXT" ] && ld -static -nostdlib -Ttext=$TEXT -e 0 -o "$TMP/kcore" "$TMP/fake.o"; then
    mkdir -p "$TMP/kd/kcore_dir"
    cp "$D" "$TMP/kd/data"
    nm "$TMP/kcore" | sort >"$TMP/kd/kcore_dir/kallsyms"
    cp "$TMP/kcore" "$TMP/kd/kcore_dir/kcore"
    cat /proc/modules >"$TMP/kd/kcore_dir/modules" 2>/dev/null || : >"$TMP/kd/kcore_dir/modules"
    n=$(perf script -i "$TMP/kd" -F ip,sym 2>/dev/null | grep -c 'kfunc_')
    [ "$n" -gt 0 ] && pass "perf resolves $n kernel frames with the kcore directory" ||
      fail "perf resolves no kernel frame with the kcore directory: the test proves nothing"
    same "kcore dir: script" script -i "$TMP/kd"
    same "kcore dir: script -F insn" script -i "$TMP/kd" -G -F ip,sym,symoff,dso,insn
    same "kcore dir: report" report --stdio -i "$TMP/kd"
    same "kcore dir: report --sort dso,sym" report --stdio -i "$TMP/kd" --sort dso,sym -g none
    # addr2line reads the kcore (its symbol table names the file here)
    mkdir -p "$TMP/ks" && cp "$S" "$TMP/ks/data" && cp -r "$TMP/kd/kcore_dir" "$TMP/ks/"
    same "kcore dir: report --sort srcline" report --stdio -i "$TMP/ks" --sort srcline -g none
    same "kcore dir: script -F ip,sym,srcline" script -i "$TMP/ks" -F ip,sym,srcline
    grep -q 'fake.o:0' "$TMP/h.out" && pass "kcore dir: source lines named from the kcore" ||
      fail "kcore dir: no source line from the kcore"
    same "--kallsyms with a kcore beside" script -i "$D" --kallsyms "$TMP/kd/kcore_dir/kallsyms" -F ip,sym,dso
    same "kcore dir, -k wins" script -i "$TMP/kd" -k "$TMP/vmlinux" -F ip,sym,dso
    # perf buildid-cache --kcore's copy, found by the recorded build id
    (
      export HOME="$TMP/kh"
      mkdir -p "$HOME/.debug/[kernel.kcore]/$BID/2026112612000000" "$HOME/.debug/[kernel.kcore]/$BID/2025010100000000"
      cp "$TMP/kd/kcore_dir/"* "$HOME/.debug/[kernel.kcore]/$BID/2026112612000000/"
      # an older copy from another boot sorts first and does not match
      sed 's/^ffffffff8/ffffffff9/' "$TMP/kd/kcore_dir/kallsyms" >"$HOME/.debug/[kernel.kcore]/$BID/2025010100000000/kallsyms"
      same "kcore in the build-id cache: script" script -i "$D" -F ip,sym,dso
      grep -q kfunc_ "$TMP/h.out" && pass "kcore in the build-id cache: the stand-in's symbols" ||
        fail "kcore in the build-id cache: not used"
      same "kcore in the build-id cache: report" report --stdio -i "$D" --no-children
    )
    # the running kernel's /proc/kcore (not readable here, so a stand-in
    # /proc: perf takes it before any copy when the file is this kernel's)
    if [ -n "$(command perf buildid-list -k 2>/dev/null)" ] &&
       [ "$(command perf buildid-list -k 2>/dev/null)" = "$BID" ]; then
      HWPROF_PROCFS="$TMP/kd/kcore_dir" "$HWPROF" script -i "$D" -F ip,sym,dso >"$TMP/h.proc" 2>&1
      perf script -i "$TMP/kd" -F ip,sym,dso >"$TMP/p.proc" 2>&1
      grep -q kfunc_ "$TMP/h.proc" && cmp -s "$TMP/p.proc" "$TMP/h.proc" && pass "a readable /proc/kcore is used as perf uses a kcore copy" ||
        fail "a readable /proc/kcore: output differs from perf's with the same kcore"
    else
      skip "/proc/kcore stand-in (the recording is not of the running kernel)"
    fi
  else
    fail "no kernel map in the recording, or the kcore stand-in did not link"
  fi
  same "script -k (another build)" script -i "$D" -k "$TMP/vmother" -F ip,sym,dso
  same "script -k missing" script -i "$D" -k "$TMP/none" -F ip,sym
  same "report -k missing" report --stdio -i "$D" -k "$TMP/none"
  same "report --kallsyms missing" report --stdio -i "$D" --kallsyms "$TMP/none"
fi

# ---- an Intel PT trace through kernel code
# a perf record --kcore directory DIR for the emulator's recording DATA:
# a "kcore" of OBJ at the recorded _text, its kallsyms, no modules
pt_kcore_dir() { # dir, obj, data
  mkdir -p "$1/kcore_dir"
  ld -static -nostdlib -Ttext=0xffffffff81000000 -e 0 -o "$1/kcore_dir/kcore" "$2"
  nm "$1/kcore_dir/kcore" | sort >"$1/kcore_dir/kallsyms"
  : >"$1/kcore_dir/modules"
  cp "$3" "$1/data"
}
mkdir -p "$TMP/pt"
cd "$TMP/pt" || exit 1
as "$OLDPWD/tests/data/pt/kernel.S" -o kern.o && ld -static -nostdlib -Ttext=0xffffffff80000000 -e 0 -o kvm kern.o ||
  { fail "could not link tests/data/pt/kernel.S"; finish; }
printf '#include <unistd.h>\nint main(void) { for (int i = 0; i < 3; i++) write(1, "x\\n", 2); return 0; }\n' >prog.c
gcc -O1 -o prog prog.c
if ! "$GEN/pt_emulate" --vmlinux kvm k ./prog >/dev/null 2>"$TMP/emu.err"; then
  fail "pt_emulate --vmlinux: $(head -1 "$TMP/emu.err")"; finish
fi
"$HWPROF" script -i k.data -k kvm --itrace=i1i -F ip 2>/dev/null | awk '{print $1}' | sed 's/^0*//' >h.ips
if [ "$(grep -c '^ffffffff8' k.gt)" -gt 0 ] && sed 's/^0*//' k.gt | cmp -s - h.ips; then
  pass "PT: the instruction trace through kernel code equals the single-step list ($(wc -l <h.ips) instructions)"
else
  fail "PT: the instruction trace differs from the single-step list"
fi
same "PT -k --itrace=be" script -i k.data -k kvm --itrace=be
same "PT -k --call-trace" script -i k.data -k kvm --call-trace
same "PT -k --itrace=i1i" script -i k.data -k kvm --itrace=i1i -F ip,sym,symoff,dso
same "PT -k report" report --stdio -i k.data -k kvm --itrace=i10i
same "PT without a vmlinux" script -i k.data --itrace=be
cp kvm vmlinux
same "PT with ./vmlinux found" script -i k.data --call-trace
rm vmlinux
mkdir -p sfs
cp kvm sfs/vmlinux
same "PT --symfs (vmlinux there, user code not)" script -i k.data --symfs sfs --itrace=be
# per cpu with time: perf goes by the switch records, the kernel having
# no __switch_to
if "$GEN/pt_emulate" --timing --time-zero --per-cpu --vmlinux kvm kc ./prog >/dev/null 2>&1; then
  same "PT per cpu, timed, -k --itrace=be" script -i kc.data -k kvm --itrace=be
  same "PT per cpu, timed, -k --call-trace" script -i kc.data -k kvm --call-trace
else
  fail "pt_emulate --per-cpu --vmlinux failed"
fi
# with a kernel that names __switch_to (and __perf_event_task_sched_out)
# perf follows each cpu's context switches through the trace there rather
# than at the switch records' times: two threads on two cpus, each
# switching to another thread at every system call, the record before
# the trace reaches the switch or after it
objcopy --redefine-sym switch_stub=__switch_to --redefine-sym sched_out_stub=__perf_event_task_sched_out \
  kern.o kerns.o && ld -static -nostdlib -Ttext=0xffffffff80000000 -e 0 -o kvs kerns.o ||
  { fail "could not make the kernel with __switch_to"; finish; }
printf '#include <pthread.h>\n#include <unistd.h>\nstatic void *run(void *a) { for (int i = 0; i < 4; i++) write(1, "y\\n", 2); return a; }\nint main(void) { pthread_t t; pthread_create(&t, 0, run, 0); for (int i = 0; i < 3; i++) write(1, "x\\n", 2); pthread_join(t, 0); return 0; }\n' >thr.c
gcc -O1 -pthread -o thr thr.c
if "$GEN/pt_emulate" --timing --time-zero --per-cpu --switches --vmlinux kvs ks ./thr >/dev/null 2>&1; then
  perf script -i ks.data -k kvs --itrace=be -F tid,ip >"$TMP/p.sync" 2>/dev/null
  perf script -i ks.data -k kvm --itrace=be -F tid,ip >"$TMP/p.nosync" 2>/dev/null
  grep -q __switch_to <(perf script -i ks.data -k kvs --itrace=be -F ip,sym 2>/dev/null) &&
    ! cmp -s "$TMP/p.sync" "$TMP/p.nosync" && pass "PT switches: perf's output changes with __switch_to known" ||
    fail "PT switches: __switch_to changes nothing in perf's output: the tests prove nothing"
  same "PT switches through the trace: --itrace=be" script -i ks.data -k kvs --itrace=be
  same "PT switches through the trace: --call-trace" script -i ks.data -k kvs --call-trace
  same "PT switches through the trace: --itrace=i1i" script -i ks.data -k kvs --itrace=i1i -F tid,cpu,time,ip,sym --ns
  same "PT switches through the trace: --itrace=bei100ns" script -i ks.data -k kvs --itrace=bei100ns
  same "PT switches through the trace: --itrace=i5il" script -i ks.data -k kvs --itrace=i5il -F tid,ip,brstack
  same "PT switches through the trace: report" report --stdio -i ks.data -k kvs --itrace=i10i --sort pid,comm,sym
  # -U in the branch view: a branch with an end of no symbol is left out
  same "PT branch view -U" report --stdio -i ks.data -k kvs --itrace=i100il -U --sort dso_from,dso_to -n
  same "PT branch view -U, addresses" report --stdio -i ks.data -k kvs --itrace=i20il -U --sort comm,dso_to,addr_to
  same "PT switches through the trace: --time" script -i ks.data -k kvs --itrace=i1i -F tid,time,ip --ns \
    --time 0.000570,0.000583
  # perf record --kcore's directory: its kallsyms name them
  pt_kcore_dir ksd kerns.o ks.data
  same "PT switches through the trace, kcore dir: --itrace=be" script -i ksd --itrace=be
  same "PT switches through the trace, kcore dir: --itrace=i1i" script -i ksd --itrace=i1i -F tid,time,ip,sym
  # perf's sync_switch needs a global __switch_to: a local one is not it
  objcopy --localize-symbol __switch_to kvs kvs_local
  same "PT a local __switch_to: the switch records" script -i ks.data -k kvs_local --itrace=be -F tid,ip,sym
else
  fail "pt_emulate --per-cpu --switches failed"
fi
# the file's own samples among the trace's (the trace decoded as the
# events are read): the kernel's symbols are looked at only once its map
# is known
if "$GEN/pt_emulate" --timing --time-zero --per-cpu --switches --samples --vmlinux kvs kss ./thr >/dev/null 2>&1; then
  same "PT switches and samples: --itrace=be" script -i kss.data -k kvs --itrace=be
  same "PT switches and samples: -k without __switch_to" script -i kss.data -k kvm --itrace=be
  same "PT switches and samples: --show-switch-events" script -i kss.data -k kvs --show-switch-events --itrace=b
  same "PT switches and samples: report" report --stdio -i kss.data -k kvs --itrace=i10i
else
  fail "pt_emulate --per-cpu --switches --samples failed"
fi
# per-task switch records (AUXTRACE_INFO have_sched_switch 2: what perf
# record writes when it may not record cpu-wide ones): switch-ins say
# which thread a cpu runs, nothing is followed through the trace
if "$GEN/pt_emulate" --timing --time-zero --per-cpu --task-switches --vmlinux kvs kt ./thr >/dev/null 2>&1 &&
   "$GEN/pt_emulate" --timing --time-zero --per-cpu --task-switches ku ./thr >/dev/null 2>&1; then
  same "PT per-task switches: --itrace=be" script -i kt.data -k kvs --itrace=be
  same "PT per-task switches: --call-trace" script -i kt.data -k kvs --call-trace
  same "PT per-task switches: --itrace=i1i" script -i kt.data -k kvs --itrace=i1i -F tid,cpu,time,ip,sym --ns
  same "PT per-task switches: --show-switch-events" script -i kt.data -k kvs --show-switch-events --itrace=b
  same "PT per-task switches: report" report --stdio -i kt.data -k kvs --itrace=i10i --sort pid,comm,sym
  same "PT per-task switches, user only: --itrace=be" script -i ku.data --itrace=be
else
  fail "pt_emulate --per-cpu --task-switches failed"
fi
# perf record --kcore's directory, the kernel code in its kcore
pt_kcore_dir kd kern.o k.data
same "PT kcore dir --itrace=be" script -i kd --itrace=be
same "PT kcore dir --call-trace" script -i kd --call-trace
same "PT kcore dir report" report --stdio -i kd --itrace=i10i
# a file without the kernel's build id takes the running kernel's kallsyms,
# and its kcore when that is readable: here a stand-in /proc
HWPROF_PROCFS="$PWD/kd/kcore_dir" "$HWPROF" script -i k.data --itrace=be >"$TMP/h.proc" 2>&1
perf script -i kd --itrace=be >"$TMP/p.proc" 2>&1
grep -q entry_SYSCALL_64 "$TMP/h.proc" && cmp -s "$TMP/p.proc" "$TMP/h.proc" &&
  pass "PT: the running kernel's readable kcore supplies the kernel's code" ||
  fail "PT: with a readable /proc/kcore the output differs from perf's with that kcore"
# the program rebuilt after recording: perf reads the recorded one's
# copy from the build-id cache, found by the injected build ids
export HOME="$TMP/pt/home"
mkdir -p "$HOME"
if command perf inject --buildid-all -i k.data -o kb.data 2>/dev/null && command perf buildid-cache -a ./prog 2>/dev/null; then
  printf 'int main(void) { return 0; }\n' >p2.c && gcc -O1 -o prog p2.c
  same "PT code from the build-id cache" script -i kb.data -k kvm --itrace=be
  same "PT code from the build-id cache, report" report --stdio -i kb.data -k kvm --itrace=i100i
else
  skip "PT build-id cache (perf inject or buildid-cache failed)"
fi
finish
