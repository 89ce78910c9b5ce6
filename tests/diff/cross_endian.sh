# Cross-endian: perf.data files recorded here are rewritten big-endian
# (tests/tools/perfdata_bswap) and read back. hwprof's dump of the
# big-endian file must equal perf's dump of the original; perf 6.1 itself
# reads the big-endian file too, and its sample lines must equal ours.
# (perf 6.1 leaves MMAP2 prot/flags and sample_regs_intr unswapped, so its
# full dump of a big-endian file is wrong there: only its sample lines are
# compared.)
source tests/lib/common.sh
if ! have_perf; then skip "cross-endian (perf not installed)"; finish; fi
W="ls -R /usr/share/doc/bash"
check() {
  local name=$1; shift
  local f="$TMP/$name.data" be="$TMP/$name.be.data"
  perf record -q -o "$f" "$@" >/dev/null 2>&1 || { fail "$name: perf record"; return; }
  if ! "$GEN/perfdata_bswap" "$f" "$be"; then fail "$name: conversion"; return; fi
  perf report -D -i "$f" 2>/dev/null >"$TMP/$name.le.perf"
  "$HWPROF" report -D -i "$be" 2>"$TMP/err" | sed "s|@$be |@$f |" >"$TMP/$name.be.hw"
  if diff -q "$TMP/$name.le.perf" "$TMP/$name.be.hw" >/dev/null; then
    pass "$name: big-endian dump equals perf's little-endian dump"
  else
    fail "$name: big-endian dump differs"; diff "$TMP/$name.le.perf" "$TMP/$name.be.hw" | head
  fi
  perf report -D -i "$be" 2>/dev/null | grep PERF_RECORD_SAMPLE >"$TMP/$name.be.perf.s"
  grep PERF_RECORD_SAMPLE "$TMP/$name.be.hw" | sed "s|@$f |@$be |" >"$TMP/$name.be.hw.s"
  if [ -s "$TMP/$name.be.perf.s" ] && diff -q "$TMP/$name.be.perf.s" "$TMP/$name.be.hw.s" >/dev/null; then
    pass "$name: perf reads the big-endian file with the same samples"
  else
    fail "$name: perf's samples from the big-endian file differ"; diff "$TMP/$name.be.perf.s" "$TMP/$name.be.hw.s" | head -5
  fi
}
check callchain -e cpu-clock -c 100000 -g -- $W
check regs -e cpu-clock -c 100000 -I --user-regs=ax,bx,sp,ip -- $W
check data-cpu -e cpu-clock -c 100000 -d --sample-cpu -T -- $W
check group-read -e '{cpu-clock,task-clock}:S' -c 100000 -- $W
check dwarf -e cpu-clock -c 200000 --call-graph dwarf,4096 -- $W

# Written fixtures with what software events cannot record: branch stacks
# (their flags are a bitfield whose fields sit mirrored in a big-endian
# kernel's u64), LBR call stacks, group reads, WEIGHT_STRUCT, sample_id_all
# trailers with every id field. The big-endian dump must equal perf's dump
# of the little-endian original. perf 6.1 itself mirrors only the fields
# up to the branch type, so only those sample lines are compared with it.
for k in lbr group allsample allrecords; do
  f="$TMP/$k.data" be="$TMP/$k.be.data"
  if ! "$GEN/mkperfdata" $k "$f" || ! "$GEN/perfdata_bswap" "$f" "$be"; then fail "$k: fixture"; continue; fi
  # (the converted file has no EVENT_DESC: events are named by their attrs)
  perf report -D -i "$f" 2>"$TMP/$k.le.perf.err" | grep -v ' stats:$' >"$TMP/$k.le.perf"
  "$HWPROF" report -D -i "$be" 2>"$TMP/$k.be.hw.err" | sed "s|@$be |@$f |" | grep -v ' stats:$' >"$TMP/$k.be.hw"
  if [ -s "$TMP/$k.le.perf" ] && diff -q "$TMP/$k.le.perf" "$TMP/$k.be.hw" >/dev/null &&
     # (perf 6.1's own warning about namespaces it does not know aside)
     cmp -s <(perl -0pe 's/\nWARNING: kernel seems to support more namespaces than perf tool\.\nTry updating the perf tool\.\.\n\n//' \
                "$TMP/$k.le.perf.err") "$TMP/$k.be.hw.err"; then
    pass "$k fixture: big-endian dump equals perf's little-endian dump"
  else
    fail "$k fixture: big-endian dump differs"; diff "$TMP/$k.le.perf" "$TMP/$k.be.hw" | head
  fi
done
# perf's own reading of the big-endian branch stacks: mispred, predicted,
# in_tx, abort, cycles and type agree with ours
cut_br() { grep -E '^\.\.\.\.\. +[0-9]+: [0-9a-f]{16} -> ' "$1" | sed 's/ cycles \(....\) .*/ cycles \1/'; }
perf report -D -i "$TMP/lbr.be.data" 2>/dev/null >"$TMP/lbr.be.perf"
if [ -s "$TMP/lbr.be.perf" ] && [ "$(cut_br "$TMP/lbr.be.perf" | wc -l)" -gt 20 ] &&
   diff -q <(cut_br "$TMP/lbr.be.perf") <(cut_br "$TMP/lbr.be.hw") >/dev/null; then
  pass "lbr fixture: perf reads the big-endian branch flags as we do"
else
  fail "lbr fixture: branch flags of the big-endian file differ from perf's"; diff <(cut_br "$TMP/lbr.be.perf") <(cut_br "$TMP/lbr.be.hw") | head -5
fi
finish
