# Shared helpers for tests/diff/*.sh: result lines and locating binaries.
# Each check prints "PASS: name", "FAIL: name" or "SKIP: name (why)".
HWPROF=${HWPROF:-$PWD/build/hwprof}
HWPROF_BUILD=${HWPROF_BUILD:-build}
TOOLS="$PWD/$HWPROF_BUILD/tools"
GEN=$TOOLS # the tools that only make test inputs (see below)
failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
skip() { echo "SKIP: $*"; }
finish() { [ "$failures" -eq 0 ]; exit $?; }
have_perf() { command -v perf >/dev/null 2>&1; }
# tmpdir removed on exit (HWPROF_TEST_TMP names one to keep, for debugging)
TMP=${HWPROF_TEST_TMP:-$(mktemp -d)}
[ -n "${HWPROF_TEST_TMP:-}" ] || trap 'rm -rf "$TMP"' EXIT
# The sanitizer build's run reads the same inputs, and perf's `report` and
# `script` there are the plain build's hwprof (HWPROF_REF, set by
# tests/run.sh when it tests both): the plain run compares with perf, this
# one with an output already checked against perf, at a fraction of
# perf's time, and looks for what the sanitizers catch. Other perf
# commands (record, stat, inject, evlist...) are perf's own; checks of
# what perf itself makes of a file say `command perf`.
if [ -n "${HWPROF_REF:-}" ] && [ -x "$HWPROF_REF" ] && [[ $HWPROF_BUILD == *san* ]]; then
  # test inputs come from the plain build's generators (GEN): emulating
  # PT by single-stepping is slow under the sanitizers, and the writer
  # and encoders they use run here in hwprof's own record and inject
  GEN="$(dirname "$HWPROF_REF")/tools"
  perf() {
    case ${1:-} in
      report|script) "$HWPROF_REF" "$@" ;;
      *) command perf "$@" ;;
    esac
  }
fi
# perf report's text without what varies from run to run: the random
# "# (Tip: ...)" line, and the " (inlined)" perf 6.1 may print after the
# "[...]" of remaining hits (ui/stdio/hist.c mallocs that pseudo symbol
# without clearing its inlined bit)
report_filter() { grep -v '^# (Tip:' | sed 's/\[\.\.\.\] (inlined)$/[...]/'; }
# perf's dump names a [vdso] it found no build-id copy of by the temporary
# file it wrote its own vDSO to (/tmp/perf-vdso.so-XXXXXX, random each
# run); hwprof keeps "[vdso]"
vdso_fix() { sed -i 's|/tmp/perf-vdso\.so-[A-Za-z0-9]\{6\}|[vdso]|g' "$@"; }
