#!/usr/bin/env bash
# make fuzz: builds every fuzz/fuzz_*.c with libFuzzer (clang, ASan+UBSan)
# into build-fuzz/ and runs each for $1 seconds (default 60) on a scratch
# copy of its corpus. New crashes land in build-fuzz/crashes/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
out=build-fuzz
mkdir -p "$out"
lib_src=$(find src -name '*.c' -not -path 'src/cli/*' | sort)
CF="-std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Iinclude -Isrc $(pkg-config --cflags libtraceevent)"
status=0
for t in fuzz/fuzz_*.c; do
  name=$(basename "$t" .c)
  echo "== $name: building"
  clang $CF -o "$out/$name" "$t" $lib_src -lzstd -lz -ldw -lelf -liberty -lZydis -ltraceevent -lpthread -lm
  work="$out/corpus/$name"; mkdir -p "$work" "$out/crashes/$name"
  cp -n fuzz/corpus/"$name"/* "$work"/ 2>/dev/null || true
  echo "== $name: fuzzing for ${secs}s"
  if ! "$out/$name" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
       -artifact_prefix="$out/crashes/$name/" "$work" 2>"$out/$name.log"; then
    echo "!! $name found a problem: see $out/$name.log and $out/crashes/$name/"; status=1
  fi
  grep -E "^#[0-9]+.*(DONE|pulse)" "$out/$name.log" | tail -1 || true
done
exit $status
