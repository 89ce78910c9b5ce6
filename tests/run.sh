#!/usr/bin/env bash
# Runs every test against each build directory given (default: build).
#   build/tests/test_*   cmocka unit tests (each case counted)
#   build/fuzz/fuzz_*    fuzz targets replaying fuzz/corpus/<target>/ (one count each)
#   tests/diff/*.sh      differential and end-to-end scripts; they print
#                        "PASS: name" / "FAIL: name" lines (each counted)
# Ends with "N passed, N failed" and exits non-zero on any failure.
#
# The tests of all builds are one pool of jobs run side by side, one per
# CPU plus one (some wait on perf record's side-band thread), the long
# scripts first; results are reported per build, in order. Set
# HWPROF_TEST_JOBS=1 to run one at a time.
set -u
cd "$(dirname "$0")/.."
builds=("$@"); [ ${#builds[@]} -eq 0 ] && builds=(build)
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# The environment of build b's tests.
build_env() {
  local b=$1 r
  export HWPROF_BUILD="$b" HWPROF="$PWD/$b/hwprof"
  # a sanitizer build tested with the plain one compares with the plain
  # one's hwprof where perf reads (tests/lib/common.sh)
  HWPROF_REF=
  if [[ $b == *san* ]]; then
    for r in "${builds[@]}"; do [[ $r != *san* ]] && [ -x "$r/hwprof" ] && HWPROF_REF="$PWD/$r/hwprof"; done
  fi
  export HWPROF_REF
}

# One job "N kind build path": runs it, leaves its output in $log/N.out
# and "pass fail" in $log/N.res.
run_job() {
  local n=$1 kind=$2 b=$3 t=$4 out="$log/$1.out" rc p f
  build_env "$b"
  SECONDS=0
  case $kind in
    unit)
      "$t" >"$out" 2>&1; rc=$?
      p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -1)
      f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -1)
      p=${p:-0}; f=${f:-0}
      if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi ;;
    fuzz)
      if "$t" fuzz/corpus/"$(basename "$t")" >"$out" 2>&1; then rc=0; else rc=1; fi
      p=$((1 - rc)) f=$rc ;;
    diff)
      bash "$t" >"$out" 2>&1; rc=$?
      p=$(grep -c '^PASS: ' "$out"); f=$(grep -c '^FAIL: ' "$out")
      if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi ;;
  esac
  echo "$p $f $rc $SECONDS" >"$log/$n.res"
}

# scripts that take longest go first, so the pool ends evenly
slow="pt_script report_stdio script_dwarf record_cli report_group report_options pt_report pt_flow report_dump script"
jobs=()
n=0
for b in "${builds[@]}"; do
  for t in "$b"/tests/test_* "$b"/fuzz/fuzz_* tests/diff/*.sh; do
    [ -e "$t" ] || continue
    case $t in
      */tests/test_*) [ -x "$t" ] || continue; kind=unit ;;
      */fuzz/fuzz_*) [ -x "$t" ] || continue; kind=fuzz ;;
      *) kind=diff ;;
    esac
    name=$(basename "$t" .sh)
    rank=99 k=0
    for s in $slow; do [ "$s" = "$name" ] && rank=$k; k=$((k + 1)); done
    jobs+=("$rank $n $kind $b $t")
    echo "$b $kind $t" >"$log/$n.job"
    n=$((n + 1))
  done
done
export -f run_job build_env
export log
export BUILDS_LIST="${builds[*]}"
par=${HWPROF_TEST_JOBS:-$(( $(nproc 2>/dev/null || echo 1) + 1 ))}
printf '%s\n' "${jobs[@]}" | sort -k1,1n -k2,2n | cut -d' ' -f2- |
  xargs -P "$par" -L 1 bash -c 'builds=($BUILDS_LIST); run_job "$@"' _

# what failed is printed again last, where a log cut to its head and tail
# still shows it
pass=0; fail=0; failed_names=(); details="$log/details"
: >"$details"
cur=
for ((i = 0; i < n; i++)); do
  read -r b kind t <"$log/$i.job"
  [ "$b" != "$cur" ] && { echo "== tests against $b"; cur=$b; }
  name=$(basename "$t" .sh)
  if [ ! -s "$log/$i.res" ]; then
    fail=$((fail + 1)); failed_names+=("$b/$name (did not finish)"); continue
  fi
  read -r p f rc secs <"$log/$i.res"
  pass=$((pass + p)); fail=$((fail + f))
  case $kind in
    unit)
      echo "  $name: exit $rc"
      [ "$f" -ne 0 ] && { failed_names+=("$b/$name"); { echo "== $b/$name"; tail -40 "$log/$i.out"; } >>"$details"; } ;;
    fuzz)
      if [ "$f" -eq 0 ]; then echo "  $name: corpus replay ok"; else failed_names+=("$b/$name"); { echo "== $b/$name"; tail -20 "$log/$i.out"; } >>"$details"; fi ;;
    diff)
      echo "  $name: $secs s"
      grep -E '^(PASS|FAIL|SKIP): ' "$log/$i.out" | sed 's/^/  /'
      [ "$f" -ne 0 ] && { failed_names+=("$b/$name")
        { echo "== $b/$name"
          if grep -q '^FAIL: ' "$log/$i.out"; then grep -A12 '^FAIL: ' "$log/$i.out" | head -60
          else tail -5 "$log/$i.out"; fi; } >>"$details"; } ;;
  esac
done
cat "$details"
if [ ${#failed_names[@]} -ne 0 ]; then echo "failed: ${failed_names[*]}"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
