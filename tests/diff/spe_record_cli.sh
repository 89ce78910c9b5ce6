# hwprof record --dry-run with Arm SPE events against the fake Neoverse
# (SPEv1p2) sysfs tree: the attrs perf record -vv prints on arm64 for the
# same command. perf cannot configure SPE on this x86 machine, so the
# golden files were checked field by field against perf 6.1's recording
# options (arch/arm64/util/arm-spe.c: SPE first, CPU + ts_enable per-cpu,
# DATA_SRC, PHYS_ADDR with pa_enable, dummy:u tracking event with period 1,
# TIME|CPU and context_switch; util/record.c: IDENTIFIER with full AUX
# tracing; evsel__config: -c overrides every event's period). Then the
# errors and warnings: missing PMU, features the SPE lacks, -F.
source tests/lib/common.sh
NEO=tests/data/sysfs/neoverse
EFT=tests/data/sysfs/spe_eft
G=tests/data/golden
H="$HWPROF"
dry() { HWPROF_SYSFS=$1 "$H" record --dry-run "${@:2}"; }
golden() { # name golden-file sysfs args...
  local name=$1 g=$2; shift 2
  dry "$@" 2>"$TMP/err" | grep -v '^arm64 EL' >"$TMP/out"
  if cmp -s "$TMP/out" "$g"; then pass "$name"; else fail "$name"; diff "$g" "$TMP/out" | head -10; fi
}
golden "dry-run --arch arm64 -e arm_spe_0/load_filter=1,min_latency=20/ -c 1024" $G/spe_record_dry_run.txt \
  $NEO --arch arm64 -e arm_spe_0/load_filter=1,min_latency=20/ -c 1024
golden "dry-run -e arm_spe// (arm_spe means arm_spe_0, caps/min_interval period)" $G/spe_record_dry_run_default.txt \
  $NEO -e arm_spe//
golden "dry-run with cycles:u first: SPE moved to the front, ts_enable=0 kept, PHYS_ADDR" \
  $G/spe_record_dry_run_two.txt $NEO -e cycles:u -e arm_spe_0/pa_enable=1,ts_enable=0,event_filter=0x82/u
# the EL summary still follows each attr with --arch arm64
n=$(dry $NEO --arch arm64 -e arm_spe_0// 2>/dev/null | grep -c '^arm64 EL, VHE host:')
[ "$n" = 2 ] && pass "EL summary for the SPE event and the dummy" || fail "EL summary count $n"
# discard mode: no tracking dummy, the SPE event keeps the tracking bits
out=$(dry $NEO -e arm_spe_0/discard/ 2>/dev/null)
[ "$(echo "$out" | grep -c '^perf_event_attr:')" = 1 ] && echo "$out" | grep -qx '  config                           0x800000001' &&
  echo "$out" | grep -qx '  mmap                             1' && pass "discard: one event, ts_enable|discard, tracking" ||
  { fail "discard"; echo "$out"; }
# EFT/FDS tree: the mask, SIMD/FP filters and the data-source filter map into config and config4
out=$(dry $EFT -e 'arm_spe_0/simd_filter=1,store_filter=1,simd_filter_mask=1,store_filter_mask=1,inv_data_src_filter=0xfffffffffffffff6/' 2>/dev/null)
echo "$out" | grep -qx '  config                           0x1c400000001' && echo "$out" | grep -q 'config4.*0xfffffffffffffff6' &&
  pass "EFT/FDS terms in config and config4" || { fail "EFT/FDS terms"; echo "$out" | head -30; }
# errors: one line, non-zero exit
err_case() { # name expected-substring sysfs args...
  local name=$1 want=$2; shift 2
  local err; err=$(dry "$@" 2>&1 >/dev/null); local rc=$?
  if [ $rc -ne 0 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -qF -- "$want"; then pass "$name (exit $rc)"
  else fail "$name: rc=$rc: $err"; fi
}
err_case "no SPE PMU: perf's message and what to check" \
  "hwprof record: Cannot find PMU \`arm_spe'. Missing kernel support? (needs CONFIG_ARM_SPE_PMU" tests/data/sysfs/intel -e arm_spe//
err_case "simd_filter without FEAT_SPE_EFT" \
  "PMU 'arm_spe_0' has no term 'simd_filter': it needs FEAT_SPE_EFT (PMSFCR_EL1.SIMD)" $NEO -e arm_spe_0/simd_filter=1/
err_case "inv_data_src_filter without FEAT_SPE_FDS" "it needs FEAT_SPE_FDS (PMSDSFR_EL1)" $NEO -e arm_spe_0/inv_data_src_filter=1/
err_case "event_filter bit of SPEv1p4 on SPEv1p2" \
  "event_filter bit 2 (L1D access) needs FEAT_SPEv1p4, which this SPE does not implement (caps/event_filter 0xffff0000ff06f8ea)" \
  $NEO -e arm_spe_0/event_filter=0x6/
err_case "inv_event_filter bit of SPEv1p4 on SPEv1p2" "inv_event_filter bit 19 (L2D access) needs FEAT_SPEv1p4" \
  $NEO -e arm_spe_0/inv_event_filter=0x80000/
err_case "-F refused with perf's message" \
  "hwprof record: Arm SPE: Frequency is not supported. Set period with -c option or PMU parameter (-e arm_spe_0/period=NUM/)." \
  $NEO -F 100 -e arm_spe_0//
err_case "two SPE events" "There may be only one arm_spe_x event" $NEO -e arm_spe_0// -e arm_spe//
err_case "exclude_idle" "SPE cannot exclude idle" $NEO -e arm_spe_0//I
# a real recording is refused before anything is opened when the AUX size is bad (perf's message)
err=$(HWPROF_SYSFS=$NEO "$H" record -e arm_spe_0// -c 4096 -m 8,3 -o "$TMP/x.data" -- true 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$err" = "hwprof record: Invalid mmap size for ARM SPE: must be at least 8KiB and a power of 2" ] &&
  pass "AUX size checked as perf does (exit $rc)" || fail "AUX size check: rc=$rc: $err"
# warnings: interval rounding and below caps/min_interval
err=$(dry $NEO -e arm_spe_0/period=300/ 2>&1 >/dev/null)
echo "$err" | grep -qF "period 300 samples every 256 operations" &&
  echo "$err" | grep -qF "interval 256 is below caps/min_interval 1024" && pass "interval warnings" || fail "interval warnings: $err"
err=$(dry $NEO -c 4096 -e arm_spe_0// 2>&1 >/dev/null)
[ -z "$err" ] && pass "no warning with -c 4096" || fail "unexpected warning: $err"
finish
