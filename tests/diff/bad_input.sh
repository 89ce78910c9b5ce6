# Bad perf.data input: truncated, corrupt and absurd files must give one
# error line naming the file and offset and exit 1 (never crash, hang or
# allocate without bound), after dumping what came before the damage.
source tests/lib/common.sh
if ! have_perf; then skip "bad input (perf not installed to make a base file)"; finish; fi
base="$TMP/base.data"
perf record -q -o "$base" -e cpu-clock -c 100000 -g -- ls /usr >/dev/null 2>&1 || { fail "perf record"; finish; }
size=$(stat -c %s "$base")
data_off=$(od -An -tu8 -j40 -N8 "$base" | tr -d ' ')
data_size=$(od -An -tu8 -j48 -N8 "$base" | tr -d ' ')

patch() { # file offset hexbytes...
  local f=$1 off=$2; shift 2
  printf "$(printf '\\x%s' "$@")" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}

expect_error() { # name file [pattern]
  local name=$1 f=$2 pat=${3:-offset}
  timeout 20 "$HWPROF" report -D -i "$f" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  local lines; lines=$(wc -l <"$TMP/err")
  if [ "$rc" -ne 1 ]; then fail "$name: exit code $rc, expected 1"; head -5 "$TMP/err"; return; fi
  if [ "$lines" -ne 1 ]; then fail "$name: $lines lines on stderr, expected 1"; head -5 "$TMP/err"; return; fi
  if ! grep -q "$f" "$TMP/err" || ! grep -q "$pat" "$TMP/err"; then fail "$name: message lacks file or '$pat': $(cat "$TMP/err")"; return; fi
  pass "$name: $(cat "$TMP/err")"
}

: >"$TMP/empty.data"; expect_error "empty file" "$TMP/empty.data" "empty"
printf 'NOTPERF!xxxxxxxx' >"$TMP/magic.data"; expect_error "bad magic" "$TMP/magic.data" "magic"
head -c 50 "$base" >"$TMP/shorthdr.data"; expect_error "truncated header" "$TMP/shorthdr.data" "truncated"
expect_error "missing file" "$TMP/does-not-exist.data" "cannot open"

# data cut in the middle: records before the cut are still dumped
cut=$((data_off + data_size / 2 + 3))
head -c "$cut" "$base" >"$TMP/cut.data"
expect_error "data cut mid-record" "$TMP/cut.data" "offset"
if grep -q "PERF_RECORD_SAMPLE" "$TMP/out"; then pass "data cut: records before the damage dumped"; else fail "data cut: nothing dumped before the damage"; fi

# attrs section pointing past the end of the file
cp "$base" "$TMP/attrs.data"; patch "$TMP/attrs.data" 24 ff ff ff 00 00 00 00 00
expect_error "attrs section outside file" "$TMP/attrs.data" "outside the file"

# first record's size set to 0, then to 0xffff (past the end of the data)
cp "$base" "$TMP/size0.data"; patch "$TMP/size0.data" $((data_off + 6)) 00 00
expect_error "record size 0" "$TMP/size0.data" "smaller than its header"
cp "$base" "$TMP/sizebig.data"; patch "$TMP/sizebig.data" $((data_off + data_size - 8 + 6)) ff ff
expect_error "record size past the end" "$TMP/sizebig.data" "past the end"

# a sample whose callchain claims 2^60 entries
sample_off=$(LC_ALL=C grep -obUaP '\x09\x00\x00\x00[\x01\x02]\x00' "$base" | head -1 | cut -d: -f1)
if [ -n "$sample_off" ]; then
  cp "$base" "$TMP/chain.data"
  # sample_type IP|TID|TIME|ID?|CPU?|PERIOD?|CALLCHAIN: find nr as the first u64 < 256 after 24 bytes
  patch "$TMP/chain.data" $((sample_off + 8 + 32)) 00 00 00 00 00 00 00 10
  timeout 20 "$HWPROF" report -D -i "$TMP/chain.data" >/dev/null 2>"$TMP/err"; rc=$?
  if [ $rc -eq 1 ] || [ $rc -eq 0 ]; then pass "absurd callchain count: clean exit $rc"; else fail "absurd callchain count: exit $rc"; cat "$TMP/err"; fi
else
  fail "could not find a sample to corrupt"
fi

# pipe mode through stdin: the error names the byte offset in the stream
# (perf's dump counts pipe offsets from after the 16-byte header; the
# error must not), here a callchain count past the end of the first sample
if "$GEN/mkperfdata" pipe "$TMP/p.data"; then
  at=$(python3 - "$TMP/p.data" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
off = 16
while off + 8 <= len(d):
    t, m, s = struct.unpack_from('<IHH', d, off)
    if t == 9:  # IP TID TIME ID PERIOD, then the callchain nr at +48
        struct.pack_into('<Q', d, off + 48, 1 << 40)
        open(sys.argv[1], 'wb').write(d)
        print(hex(off))
        break
    off += s
PY
)
  timeout 20 "$HWPROF" report -D -i - <"$TMP/p.data" >"$TMP/out" 2>"$TMP/err"; rc=$?
  if [ $rc -eq 1 ] && [ -n "$at" ] && grep -q "^hwprof report: <stdin>: offset $at: sample field CALLCHAIN" "$TMP/err" &&
     grep -q PERF_RECORD_COMM "$TMP/out"; then
    pass "pipe: absurd callchain count: $(cat "$TMP/err")"
  else fail "pipe: absurd callchain count: exit $rc, want offset $at"; cat "$TMP/err"; fi
else fail "pipe: mkperfdata"; fi

# random garbage after a valid header, and random bytes everywhere
head -c $((data_off)) "$base" >"$TMP/garbage.data"; head -c 4096 /dev/urandom >>"$TMP/garbage.data"
timeout 20 "$HWPROF" report -D -i "$TMP/garbage.data" >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -le 1 ]; then pass "garbage records: clean exit $rc"; else fail "garbage records: exit $rc"; head -3 "$TMP/err"; fi
for i in 1 2 3 4 5; do
  cp "$base" "$TMP/flip.data"
  for j in $(seq 1 20); do
    off=$(( (RANDOM * 32768 + RANDOM) % size ))
    patch "$TMP/flip.data" "$off" "$(printf %02x $((RANDOM % 256)))"
  done
  timeout 20 "$HWPROF" report -D -i "$TMP/flip.data" >/dev/null 2>"$TMP/err"; rc=$?
  if [ $rc -le 1 ]; then pass "random byte flips #$i: clean exit $rc"; else fail "random byte flips #$i: exit $rc"; head -3 "$TMP/err"; cp "$TMP/flip.data" /tmp/hwprof-flip-fail.data; fi
done
finish
