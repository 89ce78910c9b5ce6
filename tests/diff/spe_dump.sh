#!/usr/bin/env bash
# Arm SPE dump checks: `hwprof spe dump` against the verified perf 6.1 lines
# of perfdata-format.md §3, then against perf 6.1 itself: each buffer is
# wrapped in a minimal perf.data (tests/tools/spe_mkdata) and the SPE part of
# `perf report -D` must equal our output byte for byte.
set -u
HWPROF=${HWPROF:-build/hwprof}
HWPROF_BUILD=${HWPROF_BUILD:-build}
MKBUF=$HWPROF_BUILD/tools/spe_mkbuf
MKDATA=$HWPROF_BUILD/tools/spe_mkdata
PRINTINFO=$HWPROF_BUILD/tools/spe_printinfo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

# 1. The verified example (same packets and bytes; offsets follow from the
#    packets kept here, the notes elide some lines).
"$MKBUF" example "$tmp/ex.bin" || fail "spe_mkbuf example"
cat > "$tmp/ex.expected" <<'END'
.
. ... ARM SPE data: size 0x78 bytes
.  00000000:  b0 34 12 00 d0 aa aa 00 80                      PC 0xaaaad0001234 el0 ns=1
.  00000009:  99 05 00                                        LAT 5 ISSUE
.  0000000c:  52 16 00                                        EV RETIRED L1D-ACCESS TLB-ACCESS
.  0000000f:  49 00                                           LD GP-REG
.  00000011:  b2 00 10 00 e0 ff ff 00 80                      VA 0x8000ffffe0001000
.  0000001a:  9a 01 00                                        LAT 1 XLAT
.  0000001d:  b3 00 10 00 8a 00 00 00 80                      PA 0x8a001000 ns=1 ch=0 pat=0
.  00000026:  98 0c 00                                        LAT 12 TOT
.  00000029:  53 00 00                                        DATA-SOURCE 0
.  0000002c:  65 64 00 00 00                                  CONTEXT 0x64 el2
.  00000031:  71 40 42 0f 00 00 00 00 00                      TS 1000000
.  0000003a:  b0 00 10 00 08 00 80 ff a0                      PC 0xff800008001000 el1 ns=1
.  00000043:  4a 01                                           B COND
.  00000045:  52 c2 00                                        EV RETIRED NOT-TAKEN MISPRED
.  00000048:  b1 00 11 00 08 00 80 ff a0                      TGT 0xff800008001100 el1 ns=1
.  00000051:  48 00                                           OTHER INSN-OTHER
.  00000053:  42 02                                           EV RETIRED
.  00000055:  01                                              END
.  00000056:  00 00 00 00 00                                  PAD
.  0000005b:  52 3e 03                                        EV RETIRED L1D-ACCESS L1D-REFILL TLB-ACCESS TLB-REFILL LLC-ACCESS LLC-REFILL
.  0000005e:  49 0b                                           ST EXCL
.  00000060:  49 1c                                           LD EVLEN 64 PRED
.  00000062:  b4 80 12 00 d0 aa aa 00 80                      ADDR 0x8000aaaad0001280 (4)
.  0000006b:  21 b0 34 12 00 00 00 00 00 00                   ADDR 0x1234 (8)
.  00000075:  4b 55                                           OP-TYPE 0x55 (3)
.  00000077:  02                                              Bad packet!
END
if "$HWPROF" spe dump "$tmp/ex.bin" > "$tmp/ex.out" && cmp -s "$tmp/ex.expected" "$tmp/ex.out"; then
  pass "spe dump: verified perf 6.1 example lines"
else
  fail "spe dump: verified perf 6.1 example lines"; diff "$tmp/ex.expected" "$tmp/ex.out" | head -20
fi

# 2. Errors: one line naming the file and offset, non-zero exit.
"$HWPROF" spe dump "$tmp/missing.bin" > "$tmp/err.out" 2> "$tmp/err.txt"; rc=$?
if [ $rc -ne 0 ] && [ "$(wc -l < "$tmp/err.txt")" -eq 1 ] && grep -q "missing.bin: offset 0" "$tmp/err.txt"; then
  pass "spe dump: missing file is a one-line error"
else
  fail "spe dump: missing file is a one-line error (rc $rc)"; cat "$tmp/err.txt"
fi
printf '\xb0\x00\x00\x01\x02' > "$tmp/bad.bin"
"$HWPROF" spe dump --strict "$tmp/bad.bin" > /dev/null 2> "$tmp/err.txt"; rc=$?
if [ $rc -ne 0 ] && [ "$(wc -l < "$tmp/err.txt")" -eq 1 ] && grep -q "bad.bin: offset 0:" "$tmp/err.txt"; then
  pass "spe dump --strict: bad packet names file and offset"
else
  fail "spe dump --strict: bad packet names file and offset (rc $rc)"; cat "$tmp/err.txt"
fi
: > "$tmp/empty.bin"
if "$HWPROF" spe dump "$tmp/empty.bin" > "$tmp/empty.out" &&
   [ "$(cat "$tmp/empty.out")" = "$(printf '.\n. ... ARM SPE data: size 0 bytes')" ]; then
  pass "spe dump: empty buffer"
else
  fail "spe dump: empty buffer"
fi

# AUXTRACE_INFO, versioned layout (newer perf): printed as newer perf does.
V2="2 4 8 2 0x1010101010101010 0 3 0x410fd0c0 8 1024 0x1010101010101010 1 4 0x410fd0c0 8 1024 0x7e"
cat > "$tmp/v2.expected" <<'END'
  Header version     :2
  Header size        :4
  PMU type v2        :8
  CPU number         :2
    Magic            :0x1010101010101010
    CPU #            :0
    Num of params    :3
    MIDR             :0x410fd0c0
    PMU Type         :8
    Min Interval     :1024
    Magic            :0x1010101010101010
    CPU #            :1
    Num of params    :4
    MIDR             :0x410fd0c0
    PMU Type         :8
    Min Interval     :1024
    Event Filter     :0x7e
END
if "$PRINTINFO" $V2 > "$tmp/v2.out" && cmp -s "$tmp/v2.expected" "$tmp/v2.out"; then
  pass "spe auxtrace_info: versioned layout"
else
  fail "spe auxtrace_info: versioned layout"; diff "$tmp/v2.expected" "$tmp/v2.out"
fi
"$PRINTINFO" 2 4 8 1000000 0x1010101010101010 0 99999 > "$tmp/v2bad.out"
if [ "$(tail -1 "$tmp/v2bad.out")" = "  (bad per-CPU block 0)" ]; then
  pass "spe auxtrace_info: corrupt versioned layout is bounded"
else
  fail "spe auxtrace_info: corrupt versioned layout is bounded"; cat "$tmp/v2bad.out"
fi

# 3. perf 6.1 as the oracle.
if ! command -v perf > /dev/null; then
  echo "SKIP: spe dump vs perf report -D (perf not installed)"
  [ $fails -eq 0 ]; exit
fi
oracle() { # $1 = buffer, $2 = name, $3 = optional --shift8
  local off
  off=$("$MKDATA" ${3:-} "$1" "$1.data") || { fail "$2 (spe_mkdata)"; return; }
  perf report -D -i "$1.data" 2>/dev/null |
    awk '/^\. \.\.\. ARM SPE data/ { p = 1; print "."; print; next }
         p && /^\./ { print; next } { p = 0 }' > "$1.perf"
  if [ ! -s "$1.perf" ]; then echo "SKIP: $2 (perf printed no SPE data)"; return; fi
  "$HWPROF" spe dump --addr "$off" "$1" > "$1.hw" 2>&1
  if cmp -s "$1.perf" "$1.hw"; then pass "$2 ($(wc -l < "$1.hw") lines)"
  else fail "$2"; diff "$1.perf" "$1.hw" | head -20; fi
}
oracle "$tmp/ex.bin" "spe dump = perf report -D: example"
"$MKBUF" records "$tmp/rec.bin" && oracle "$tmp/rec.bin" "spe dump = perf report -D: encoder records"
"$MKBUF" allkinds "$tmp/all.bin" && oracle "$tmp/all.bin" "spe dump = perf report -D: every op type, event bit, index, header byte"
for seed in 1 2 3 4 5 6; do
  "$MKBUF" random $seed 4000 "$tmp/r$seed.bin" &&
    oracle "$tmp/r$seed.bin" "spe dump = perf report -D: random soup seed $seed"
done
for seed in 7 8 9; do
  "$MKBUF" random $seed 4000 "$tmp/s$seed.bin" &&
    oracle "$tmp/s$seed.bin" "spe dump = perf report -D: alignment at 8 mod 16, seed $seed" --shift8
done

# AUXTRACE_INFO lines: perf 6.1 prints priv[0] as "PMU Type" whatever the layout.
info_oracle() { # $1 = comma list, $2 = printer flag ("" or --61), $3 = name
  "$MKDATA" --priv "$1" "$tmp/ex.bin" "$tmp/info.data" > /dev/null || { fail "$3 (spe_mkdata)"; return; }
  perf report -D -i "$tmp/info.data" 2>/dev/null |
    awk '/PERF_RECORD_AUXTRACE_INFO type: 4/ { p = 1; next } p && /^$/ { exit } p' > "$tmp/info.perf"
  "$PRINTINFO" $2 ${1//,/ } > "$tmp/info.hw"
  if [ -s "$tmp/info.perf" ] && cmp -s "$tmp/info.perf" "$tmp/info.hw"; then pass "$3"
  else fail "$3"; diff "$tmp/info.perf" "$tmp/info.hw"; fi
}
info_oracle "8,1" "" "spe auxtrace_info = perf report -D: unversioned layout"
info_oracle "-5,1" "" "spe auxtrace_info = perf report -D: negative PMU type"
info_oracle "${V2// /,}" --61 "spe auxtrace_info (6.1 mode) = perf report -D: versioned layout"
[ $fails -eq 0 ]
