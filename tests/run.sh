#!/usr/bin/env bash
# Runs every test against each build directory given (default: build).
#   build/tests/test_*   cmocka unit tests (each case counted)
#   build/fuzz/fuzz_*    fuzz targets replaying fuzz/corpus/<target>/ (one count each)
#   tests/diff/*.sh      differential and end-to-end scripts; they print
#                        "PASS: name" / "FAIL: name" lines (each counted)
# Ends with "N passed, N failed" and exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
builds=("$@"); [ ${#builds[@]} -eq 0 ] && builds=(build)
pass=0; fail=0; failed_names=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

count_cmocka() { # $1 = output file, $2 = exit code, $3 = name
  local p f
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$1" | tail -1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$1" | tail -1)
  p=${p:-0}; f=${f:-0}
  if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  pass=$((pass + p)); fail=$((fail + f))
  if [ "$f" -ne 0 ]; then failed_names+=("$3"); cat "$1"; fi
}

# One build's tests, in order; leaves "pass fail names..." in $log/result.$b.
run_build() {
  local b=$1 t name out rc p f
  pass=0; fail=0; failed_names=()
  echo "== tests against $b"
  export HWPROF_BUILD="$b" HWPROF="$PWD/$b/hwprof"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  for t in "$b"/tests/test_*; do
    [ -x "$t" ] || continue
    out="$log/$(basename "$t").$(basename "$b")"
    "$t" >"$out" 2>&1; rc=$?
    count_cmocka "$out" "$rc" "$b/$(basename "$t")"
    echo "  $(basename "$t"): exit $rc"
  done
  for t in "$b"/fuzz/fuzz_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    if "$t" fuzz/corpus/"$name" >"$log/$name.$(basename "$b")" 2>&1; then
      pass=$((pass + 1)); echo "  $name: corpus replay ok"
    else
      fail=$((fail + 1)); failed_names+=("$b/$name"); tail -20 "$log/$name.$(basename "$b")"
    fi
  done
  for t in tests/diff/*.sh; do
    [ -f "$t" ] || continue
    name=$(basename "$t" .sh)
    out="$log/$name.$(basename "$b")"
    SECONDS=0
    bash "$t" >"$out" 2>&1; rc=$?
    echo "  $name: ${SECONDS} s"
    p=$(grep -c '^PASS: ' "$out"); f=$(grep -c '^FAIL: ' "$out")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    pass=$((pass + p)); fail=$((fail + f))
    grep -E '^(PASS|FAIL|SKIP): ' "$out" | sed 's/^/  /'
    if [ "$f" -ne 0 ]; then failed_names+=("$b/$name"); tail -40 "$out"; fi
  done
  echo "$pass $fail ${failed_names[*]}" >"$log/result.$(basename "$b")"
}

# The builds' suites are independent (own binaries, own temporary
# directories): they run side by side, one per CPU, and are reported in
# order. Set HWPROF_TEST_SERIAL=1 to run them one after the other.
pids=()
for b in "${builds[@]}"; do
  if [ -n "${HWPROF_TEST_SERIAL:-}" ]; then
    run_build "$b" >"$log/all.$(basename "$b")" 2>&1
  else
    run_build "$b" >"$log/all.$(basename "$b")" 2>&1 &
    pids+=($!)
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
pass=0; fail=0; failed_names=()
for b in "${builds[@]}"; do
  cat "$log/all.$(basename "$b")"
  if [ -s "$log/result.$(basename "$b")" ]; then
    read -r p f names <"$log/result.$(basename "$b")"
    pass=$((pass + p)); fail=$((fail + f))
    [ -n "$names" ] && failed_names+=($names)
  else
    fail=$((fail + 1)); failed_names+=("$b (the run did not finish)")
  fi
done
if [ ${#failed_names[@]} -ne 0 ]; then echo "failed: ${failed_names[*]}"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
