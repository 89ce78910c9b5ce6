# hwprof record --pt-emulate: the user-facing PT emulator writes a perf.data
# that hwprof and perf 6.1 decode to the same instructions; bad options and
# workloads give one-line errors.
source tests/lib/common.sh
if ! command -v gcc >/dev/null 2>&1; then skip "pt-emulate (no gcc)"; finish; fi
cat >"$TMP/p.c" <<'C'
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(void) { return fib(10) == 55 ? 0 : 1; }
C
gcc -O1 -o "$TMP/p" "$TMP/p.c"
for opts in "" "=timing" "=noretcomp,psb=512" "=long-tnt,defer-tip"; do
  if ! "$HWPROF" record --pt-emulate$opts -q -o "$TMP/p.data" -- "$TMP/p" 2>"$TMP/err"; then
    if grep -q -i perm "$TMP/err"; then skip "pt-emulate$opts (ptrace not permitted)"; continue; fi
    fail "pt-emulate$opts: $(cat "$TMP/err")"; continue
  fi
  [ -s "$TMP/err" ] && fail "pt-emulate$opts -q printed: $(head -1 "$TMP/err")"
  "$HWPROF" pt insn -i "$TMP/p.data" >"$TMP/ours" 2>"$TMP/err"
  n=$(wc -l <"$TMP/ours")
  if [ "$n" -gt 1000 ]; then pass "pt-emulate$opts: hwprof decodes $n instructions"
  else fail "pt-emulate$opts: only $n instructions decoded: $(head -2 "$TMP/err")"; fi
  if have_perf; then
    perf script -i "$TMP/p.data" --itrace=i1i -F ip 2>/dev/null | awk '{print $1}' >"$TMP/perf"
    if cmp -s "$TMP/perf" "$TMP/ours"; then pass "pt-emulate$opts: perf --itrace=i1i agrees"
    else fail "pt-emulate$opts: perf differs: $(diff "$TMP/perf" "$TMP/ours" | head -3 | tr '\n' ' ')"; fi
  fi
done
"$HWPROF" record --pt-emulate -o "$TMP/q.data" -- "$TMP/p" 2>"$TMP/err" >/dev/null
if grep -q '^\[ hwprof record: emulated Intel PT: 1 thread(s), [0-9]* instructions' "$TMP/err" &&
   grep -q "Captured and wrote .* $TMP/q.data ]" "$TMP/err"; then pass "pt-emulate: summary lines"
else fail "pt-emulate: summary: $(cat "$TMP/err")"; fi
# two processes whose code is at the same addresses (non-PIE programs at
# 0x401000), recorded apart and merged into one file: each queue reads its
# own process's code, as perf reads each thread's maps
if gcc -nostdlib -static -no-pie -o "$TMP/pa" tests/data/pt/asm.S 2>/dev/null &&
   printf '%s\n' '.text' '.globl _start' '_start: mov $7, %ecx' 'xor %eax, %eax' '1: add %ecx, %eax' \
     'call g' 'dec %ecx' 'jnz 1b' 'mov $60, %eax' 'xor %edi, %edi' 'syscall' 'g: nop' 'nop' 'ret' >"$TMP/pb.S" &&
   gcc -nostdlib -static -no-pie -o "$TMP/pb" "$TMP/pb.S"; then
  for opts in "" "=timing"; do
    "$HWPROF" record --pt-emulate$opts -q -o "$TMP/pa.data" -- "$TMP/pa" 2>/dev/null &&
      "$HWPROF" record --pt-emulate$opts -q -o "$TMP/pb.data" -- "$TMP/pb" 2>/dev/null &&
      python3 tests/lib/perfdata_merge.py "$TMP/pa.data" "$TMP/pb.data" "$TMP/pab.data" ||
      { fail "two processes$opts: could not make the file"; continue; }
    for f in pa pb pab; do
      "$HWPROF" script -i "$TMP/$f.data" --itrace=i1i -F pid,ip >"$TMP/$f.i" 2>&1
    done
    cat "$TMP/pa.i" "$TMP/pb.i" | cmp -s - "$TMP/pab.i" && [ "$(awk '{print $1}' "$TMP/pab.i" | uniq | wc -l)" = 2 ] &&
      pass "two processes$opts: each decoded with its own code" ||
      fail "two processes$opts: not each process's own code: $(diff "$TMP/pa.i" "$TMP/pab.i" | head -2 | tr '\n' ' ')"
    if have_perf; then
      for it in "--itrace=i1i -F pid,ip" "--itrace=be -F pid,ip,sym,addr" "--call-trace"; do
        # shellcheck disable=SC2086
        perf script -i "$TMP/pab.data" $it >"$TMP/p.out" 2>&1
        # shellcheck disable=SC2086
        "$HWPROF" script -i "$TMP/pab.data" $it >"$TMP/h.out" 2>&1
        cmp -s "$TMP/p.out" "$TMP/h.out" && pass "two processes$opts $it: identical to perf" ||
          fail "two processes$opts $it: differs from perf: $(diff "$TMP/p.out" "$TMP/h.out" | head -3 | tr '\n' ' ')"
      done
    fi
  done
else
  fail "two processes: could not build the programs"
fi
check_err() { # expected-substring args...
  local want=$1; shift
  local args="$*"; args=${args//$TMP\//}
  if "$HWPROF" record "$@" 2>"$TMP/err" >/dev/null; then fail "record $args: succeeded"; return; fi
  if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q -- "$want" "$TMP/err"; then pass "record $args: one-line error"
  else fail "record $args: error was: $(cat "$TMP/err")"; fi
}
check_err "unknown option 'bogus'" --pt-emulate=bogus -o "$TMP/x.data" -- "$TMP/p"
check_err "bad psb period" --pt-emulate=psb=0 -o "$TMP/x.data" -- "$TMP/p"
check_err "needs a command" --pt-emulate -o "$TMP/x.data"
check_err "not a pipe" --pt-emulate -o - -- "$TMP/p"
check_err "failed" --pt-emulate -o "$TMP/x.data" -- "$TMP/does-not-exist"
finish
