# `hwprof pt dump`: hand-checked lines for the trace in docs/intel-pt-notes.md,
# error handling, and (when perf is installed) byte-for-byte equality of
# `--no-sync` with `perf report -D` on generated streams wrapped in perf.data
# files by tests/tools/pt_perfdata_wrap.
source tests/lib/common.sh

notes="$TMP/notes.raw" # the notes' 29-byte trace, padded with zeros to 32
printf '\002\202\002\202\002\202\002\202\002\202\002\202\002\202\002\202\231\001\002\043\161\000\020\100\000\000\000\034\001\000\000\000' >"$notes"

cat >"$TMP/notes.want" <<'X'
.  00000000:  02 82 02 82 02 82 02 82 02 82 02 82 02 82 02 82 PSB
.  00000010:  99 01                                           MODE.Exec IF:0 64
.  00000012:  02 23                                           PSBEND
.  00000014:  71 00 10 40 00 00 00                            TIP.PGE 0x401000
.  0000001b:  1c                                              TNT TTN (3)
.  0000001c:  01 00 00 00                                     TIP.PGD no ip
X
if "$HWPROF" pt dump --no-sync "$notes" >"$TMP/notes.out" 2>&1 && cmp -s "$TMP/notes.want" "$TMP/notes.out"; then
  pass "pt dump --no-sync prints the notes' perf -D lines"
else fail "pt dump --no-sync on the notes trace"; diff "$TMP/notes.want" "$TMP/notes.out"; fi

# default mode syncs to a PSB and does not fold zeros into packets
{ printf '\005\005\005'; cat "$notes"; } >"$TMP/lead.raw"
cat >"$TMP/lead.want" <<'X'
.  00000003:  02 82 02 82 02 82 02 82 02 82 02 82 02 82 02 82 PSB
.  00000013:  99 01                                           MODE.Exec IF:0 64
.  00000015:  02 23                                           PSBEND
.  00000017:  71 00 10 40 00 00 00                            TIP.PGE 0x401000  ip 0x401000
.  0000001e:  1c                                              TNT TTN (3)
.  0000001f:  01                                              TIP.PGD no ip
.  00000020:  00                                              PAD
.  00000021:  00                                              PAD
.  00000022:  00                                              PAD
X
if "$HWPROF" pt dump --lastip "$TMP/lead.raw" >"$TMP/lead.out" 2>&1 && cmp -s "$TMP/lead.want" "$TMP/lead.out"; then
  pass "pt dump syncs to the first PSB and shows last IPs"
else fail "pt dump default mode"; diff "$TMP/lead.want" "$TMP/lead.out"; fi

# --offset past the PSB: nothing to sync to
if "$HWPROF" pt dump --offset 4 "$TMP/lead.raw" >/dev/null 2>"$TMP/err"; then
  fail "pt dump without a PSB should fail"
elif [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "lead.raw: offset 0x4: no PSB" "$TMP/err"; then
  pass "pt dump without a PSB: one error line with file and offset"
else fail "pt dump without a PSB: unexpected error text: $(cat "$TMP/err")"; fi

# a bad packet after sync: error names the offset, exit status 1, dump goes on
{ cat "$notes"; printf '\005'; cat "$notes"; } >"$TMP/bad.raw"
"$HWPROF" pt dump "$TMP/bad.raw" >"$TMP/bad.out" 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "bad.raw: offset 0x20: bad packet" "$TMP/err" && [ "$(grep -c " PSB$" "$TMP/bad.out")" -eq 2 ]; then
  pass "pt dump reports a bad packet with its offset and resyncs"
else fail "pt dump bad packet handling (rc $rc): $(cat "$TMP/err")"; fi

if "$HWPROF" pt dump "$TMP/missing.raw" >/dev/null 2>"$TMP/err"; then fail "pt dump of a missing file should fail"
elif grep -q "missing.raw" "$TMP/err"; then pass "pt dump of a missing file names it"
else fail "pt dump missing file message: $(cat "$TMP/err")"; fi

"$HWPROF" pt dump --bogus "$notes" >/dev/null 2>&1; rc=$?
if [ $rc -eq 129 ]; then pass "pt dump rejects unknown options (129)"; else fail "pt dump --bogus exit $rc"; fi

# perf 6.1 as the oracle on generated streams (lengths multiple of 8: perf
# record pads AUXTRACE data so, and the wrapper does the same)
if ! have_perf; then skip "pt dump vs perf report -D (perf not installed)"; finish; fi
cmp_perf() { # name raw-file
  local name=$1 raw=$2
  "$GEN/pt_perfdata_wrap" "$raw" "$TMP/$name.data" || { fail "$name: wrap failed"; return; }
  perf report -D -i "$TMP/$name.data" 2>/dev/null |
    sed -n '/Intel Processor Trace data/,/^$/p' | grep '^\.  ' >"$TMP/$name.perf"
  "$HWPROF" pt dump --no-sync "$raw" >"$TMP/$name.hw" 2>&1
  if [ -s "$TMP/$name.perf" ] && cmp -s "$TMP/$name.perf" "$TMP/$name.hw"; then
    pass "$name: pt dump --no-sync = perf report -D ($(wc -l <"$TMP/$name.perf") lines)"
  else fail "$name: pt dump --no-sync differs from perf report -D"; diff "$TMP/$name.perf" "$TMP/$name.hw" | head -10; fi
}
pad8() { local n; n=$(stat -c %s "$1"); head -c $(( (8 - n % 8) % 8 )) /dev/zero >>"$1"; }
cmp_perf notes "$notes"
for seed in 1 2 3; do
  "$GEN/pt_gen" packets $seed 3000 "$TMP/p$seed.raw" && pad8 "$TMP/p$seed.raw"
  cmp_perf "all-packet-types-$seed" "$TMP/p$seed.raw"
  "$GEN/pt_gen" bytes $seed 8192 "$TMP/b$seed.raw"
  cmp_perf "random-bytes-$seed" "$TMP/b$seed.raw"
done
finish
