#!/usr/bin/env bash
# hwprof record -I? / --user-regs=? against perf record: the same stderr
# byte for byte (after the program name in the usage lines) and exit code;
# plus --dry-run attrs against perf record -vv and the register warning.
set -u
cd "$(dirname "$0")/../.."
HWPROF=${HWPROF:-build/hwprof}
fails=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if ! command -v perf >/dev/null 2>&1; then
  echo "SKIP: regs listing (perf not installed)"; exit 0
fi

check_list() { # $1 = label, rest = args
  local label=$1; shift
  perf record "$@" >"$tmp/p.out" 2>"$tmp/p.err"; local prc=$?
  "$HWPROF" record "$@" >"$tmp/h.out" 2>"$tmp/h.err"; local hrc=$?
  sed 's/hwprof record/perf record/' "$tmp/h.err" >"$tmp/h.norm"
  if cmp -s "$tmp/p.err" "$tmp/h.norm" && cmp -s "$tmp/p.out" "$tmp/h.out"; then
    pass "$label output equals perf's"
  else
    fail "$label output differs from perf's"; diff "$tmp/p.err" "$tmp/h.norm" | head -10
  fi
  if [ "$prc" -eq "$hrc" ]; then pass "$label exit code $hrc"; else fail "$label exit code $hrc, perf $prc"; fi
}

check_list "record -I?" -I?
check_list "record --intr-regs=?" --intr-regs=?
check_list "record --user-regs=?" --user-regs=?
check_list "record -Iax,?" -Iax,?
check_list "unknown -I register" -Ixmm0 -e cpu-clock -o "$tmp/x.data" -- true
check_list "unknown --user-regs register" --user-regs=foo -e cpu-clock -o "$tmp/x.data" -- true
# empty names, options given twice, names before a "?" (perf takes them in order)
for args in "-Iax," "-I,ax" "-Iax,,bx" "--intr-regs=" "--user-regs=" "-Iax -Ibx" "-I -I" \
            "-Iax --intr-regs=bx" "--user-regs=ax --user-regs=sp" "-Ifoo,?" "-I,?" "-Iax,?,foo" "--user-regs=bx,?"; do
  # shellcheck disable=SC2086
  check_list "record $args" $args -e cpu-clock -o "$tmp/x.data" -- true
done

# --dry-run attr vs the first perf_event_attr block of perf record -vv
check_attr() { # $1 = label, rest = register args
  local label=$1; shift
  perf record -vv -e cpu-clock "$@" -o "$tmp/v.data" -- true 2>&1 >/dev/null |
    awk '/^-+$/ { n++; print; if (n == 2) exit; next } n >= 1' >"$tmp/p.attr"
  "$HWPROF" record --dry-run -e cpu-clock "$@" -- true >"$tmp/h.attr" 2>&1
  if [ -s "$tmp/p.attr" ] && cmp -s "$tmp/p.attr" "$tmp/h.attr"; then
    pass "dry-run attr $label equals perf -vv"
  else
    fail "dry-run attr $label differs from perf -vv"; diff "$tmp/p.attr" "$tmp/h.attr" | head -10
  fi
}
check_attr "-I" -I
check_attr "--user-regs=ax,bx,sp,ip" --user-regs=ax,bx,sp,ip
check_attr "-IAX,r8,ax --user-regs=ip" -IAX,r8,ax --user-regs=ip

"$HWPROF" record -q -e cpu-clock -o "$tmp/rec.data" -- true 2>"$tmp/e"; rc=$?
if [ "$rc" -eq 0 ] && [ -s "$tmp/rec.data" ]; then
  pass "record without --dry-run records"
else
  fail "record without --dry-run: exit $rc, '$(cat "$tmp/e")'"
fi
[ "$fails" -eq 0 ]
