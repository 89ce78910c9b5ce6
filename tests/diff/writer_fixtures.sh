# perf.data files written by our writer (tests/tools/mkperfdata): every
# record type and sample field, pipe mode and arm64 are read by perf 6.1
# and dumped identically by hwprof; SIMD register blocks (a layout perf 6.1
# cannot read) match a hand-checked golden dump; records and features from
# newer perf versions are shown, never fatal.
source tests/lib/common.sh
MK="$GEN/mkperfdata"
cd "$TMP"
# group: two events told apart by IDENTIFIER, group read values (samples
# and READ records), trailers with every id field, WEIGHT_STRUCT, an MMAP2
# with a build id. lbr: --call-graph lbr call stacks and branch entries of
# every type. noidall: no sample_id_all, so perf does not order by time.
# attrN / pipeattrN: attrs of N bytes (perf 6.1 reads any size
# in pipe mode, up to 128 in a file).
for k in allrecords allsample pipe arm64 branch xmm group lbr noidall auxsample attr64 attr72 attr96 attr120 pipeattr64 pipeattr80 \
         pipeattr136 pipeattr176 pipeattr184; do
  if ! "$MK" $k $k.data; then fail "$k: mkperfdata"; continue; fi
  if ! have_perf; then skip "$k: perf not installed"; continue; fi
  perf report -D -i $k.data >$k.perf 2>$k.perf.err; prc=$?
  "$HWPROF" report -D -i $k.data >$k.hw 2>$k.err; hrc=$?
  if [ $prc -ne 0 ]; then fail "$k: perf rejects our file: $(head -2 $k.perf.err)"; continue; fi
  if [ $hrc -eq 0 ] && diff -q $k.perf $k.hw >/dev/null; then pass "$k: written by us, read by perf, report -D identical ($(wc -l <$k.perf) lines)"
  else fail "$k: report -D differs (exit $hrc)"; diff $k.perf $k.hw | head -10; fi
done
# files from other architectures: every register bit named as perf names
# that architecture's (ppc, s390, arm, mips, csky tables; "unknown" for
# the rest), in the dump and in script's iregs/uregs
for arch in ppc64le s390x armv7l mips64 csky riscv64 loongarch64 i686; do
  if ! "$MK" regs-$arch ra_$arch.data; then fail "regs-$arch: mkperfdata"; continue; fi
  have_perf || { skip "regs-$arch: perf not installed"; continue; }
  { perf report -D -i ra_$arch.data; perf script -F ip,iregs,uregs -i ra_$arch.data; } >ra_$arch.perf 2>ra_$arch.perf.err
  { "$HWPROF" report -D -i ra_$arch.data; "$HWPROF" script -F ip,iregs,uregs -i ra_$arch.data; } >ra_$arch.hw 2>ra_$arch.hw.err
  if [ -s ra_$arch.perf ] && cmp -s ra_$arch.perf ra_$arch.hw && cmp -s ra_$arch.perf.err ra_$arch.hw.err; then pass "regs-$arch: register names as perf's in report -D and script"
  else fail "regs-$arch: register names differ"; diff ra_$arch.perf ra_$arch.hw | head -6; fi
done

# the header of the fixtures (topo: a two-socket NUMA machine, topo-old
# its CPU_TOPOLOGY as perf < 5.2 wrote it, pipetopo without EVENT_DESC:
# groups named from the attrs), incl. the BPF program listing of a machine
# with BPF programs (names from BTF in a file, not in a pipe, where perf
# meets BPF_BTF after BPF_PROG_INFO)
for k in bpf pipebpf group lbr arm64 allrecords topo topo-old pipetopo; do
  if ! "$MK" $k h_$k.data; then fail "$k: mkperfdata"; continue; fi
  have_perf || { skip "$k: --header-only: perf not installed"; continue; }
  for o in "" -I; do
    perf report --header-only $o -i h_$k.data >h_$k.perf 2>/dev/null
    "$HWPROF" report --header-only $o -i h_$k.data >h_$k.hw 2>h_$k.err
    if [ -s h_$k.perf ] && cmp -s h_$k.perf h_$k.hw; then pass "$k: report --header-only $o identical"
    else fail "$k: report --header-only $o differs"; diff h_$k.perf h_$k.hw | head -8; fi
  done
done
if [ -s h_bpf.hw ] && [ "$(grep -c '^# bpf_prog_info' h_bpf.hw)" -eq 5 ]; then pass "bpf: five programs listed"
else fail "bpf: program listing"; grep bpf h_bpf.hw; fi
# the memory fields as perf script decodes them (level names, padding to
# the widest text so far)
if have_perf && [ -s allsample.data ]; then
  perf script -F data_src,weight,addr -i allsample.data >as.perf 2>/dev/null
  "$HWPROF" script -F data_src,weight,addr -i allsample.data >as.hw 2>&1
  if [ -s as.perf ] && cmp -s as.perf as.hw; then pass "allsample: script -F data_src,weight,addr identical"
  else fail "allsample: script -F data_src,weight,addr differs"; diff as.perf as.hw | head -6; fi
fi
# legacy XMM pairs (bits 32+2n, 33+2n): perf 6.1 names both bits XMMn
if have_perf && [ -s xmm.data ]; then
  perf script -F ip,iregs,uregs -i xmm.data >xs.perf 2>/dev/null
  "$HWPROF" script -F ip,iregs,uregs -i xmm.data >xs.hw 2>&1
  if [ -s xs.perf ] && cmp -s xs.perf xs.hw && grep -q 'XMM15:0x1111000000000004' xs.hw; then
    pass "xmm: script -F ip,iregs,uregs identical (legacy XMM pairs, abi NONE)"
  else fail "xmm: script -F ip,iregs,uregs differs"; diff xs.perf xs.hw | head -6; fi
fi
"$HWPROF" report -D -i - <pipe.data >pipe.stdin.hw 2>pipe.stdin.err
if diff -q pipe.perf pipe.stdin.hw >/dev/null 2>&1 && cmp -s pipe.perf.err pipe.stdin.err; then pass "pipe fixture through stdin"; else fail "pipe fixture through stdin"; fi

"$MK" simd simd.data || fail "simd: mkperfdata"
if "$HWPROF" report -D -i simd.data >simd.hw 2>simd.err && diff -q "$OLDPWD/tests/data/golden/simd.dump" simd.hw >/dev/null; then
  pass "simd: SIMD/eGPR/SSP register blocks match the golden dump"
else fail "simd: differs from tests/data/golden/simd.dump"; diff "$OLDPWD/tests/data/golden/simd.dump" simd.hw | head; fi

# branch counters (kernel 6.8; perf 6.1 cannot read them): the counters
# block of the perf that added them, its geometry from the cpu PMU caps,
# and the user registers after the counters in place (hand-checked golden)
"$MK" brcntr brcntr.data || fail "brcntr: mkperfdata"
if "$HWPROF" report -D -i brcntr.data >brcntr.hw 2>brcntr.err && diff -q "$OLDPWD/tests/data/golden/brcntr.dump" brcntr.hw >/dev/null; then
  pass "brcntr: branch stack counters match the golden dump"
else fail "brcntr: differs from tests/data/golden/brcntr.dump"; diff "$OLDPWD/tests/data/golden/brcntr.dump" brcntr.hw | head; fi

# script prints SIMD registers as whole values, most significant qword first
"$HWPROF" script -F ip,iregs,uregs -i simd.data >simd.script 2>&1
if grep -q ' zmm31=0x1100000000001f071100000000001f061100000000001f051100000000001f041100000000001f031100000000001f021100000000001f011100000000001f00' simd.script &&
   grep -q ' k7=0x00000000000000f7' simd.script && grep -q ' xmm15=0x000000006600000f000000005500000f' simd.script &&
   grep -q 'R31:0x104 *SSP:0x105' simd.script; then
  pass "simd: script -F iregs,uregs prints eGPR, SSP and whole ZMM/XMM/k values"
else fail "simd: script register output"; head -c 600 simd.script; fi

"$MK" future future.data || fail "future: mkperfdata"
if "$HWPROF" report -D -i future.data >future.hw 2>future.err; then
  if [ "$(grep -c 'PERF_RECORD_UNKNOWN: unhandled!' future.hw)" -eq 2 ] && grep -q 'PERF_RECORD_SAMPLE(IP, 0x2): 100/100: 0x401000' future.hw &&
     grep -q '^6030 0x.*PERF_RECORD_SAMPLE(IP, 0x2): 100/100: 0x401020' future.hw; then
    pass "future: 200-byte attr, unknown record types shown, samples decoded, COMPRESSED2 unpacked"
  else fail "future: unexpected dump"; grep PERF_RECORD future.hw | head; fi
else fail "future: exit non-zero: $(cat future.err)"; fi
if "$HWPROF" report --header-only -i future.data >/dev/null 2>future.herr; then pass "future: --header-only with an unknown feature bit"; else fail "future: --header-only failed"; fi
# the unknown feature section is named on stderr, once, by both
note='note: feature section 40 (16 bytes) is unknown to this version, skipped'
if [ "$(grep -c "$note" future.err)" -eq 1 ] && [ "$(grep -c "$note" future.herr)" -eq 1 ]; then
  pass "future: the unknown feature section is noted on stderr"
else fail "future: no note of the unknown feature section"; cat future.err future.herr; fi
# the same file in pipe mode (perf 6.1 stops at the feature: "wrong feature ID: 40")
"$MK" pipefuture pfuture.data || fail "pipefuture: mkperfdata"
if "$HWPROF" report -D -i - <pfuture.data >pfuture.hw 2>pfuture.err &&
   [ "$(grep -c 'PERF_RECORD_UNKNOWN: unhandled!' pfuture.hw)" -eq 2 ] &&
   grep -q '^6030 0x.*PERF_RECORD_SAMPLE(IP, 0x2): 100/100: 0x401020' pfuture.hw &&
   [ "$(grep -c "$note" pfuture.err)" -eq 1 ]; then
  pass "pipefuture: pipe mode with a 200-byte attr, an unknown feature, unknown records and COMPRESSED2"
else fail "pipefuture: unexpected dump"; cat pfuture.err; grep PERF_RECORD pfuture.hw | head; fi
finish
