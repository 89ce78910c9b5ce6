# Shared helpers for tests/diff/*.sh: result lines and locating binaries.
# Each check prints "PASS: name", "FAIL: name" or "SKIP: name (why)".
HWPROF=${HWPROF:-$PWD/build/hwprof}
HWPROF_BUILD=${HWPROF_BUILD:-build}
TOOLS="$PWD/$HWPROF_BUILD/tools"
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
skip() { echo "SKIP: $*"; }
finish() { [ "$failures" -eq 0 ]; exit $?; }
have_perf() { command -v perf >/dev/null 2>&1; }
# tmpdir removed on exit
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
