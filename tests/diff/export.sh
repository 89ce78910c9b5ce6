# End-to-end: exports and the flame graph of a perf recording (-g,
# cpu-clock), checked against perf's own counts and against the viewers:
# JSON shape with jq, pprof through `go tool pprof`, speedscope loaded by
# headless Chromium from a server on 127.0.0.1, and the SVG rendered to
# PNG by Chromium. Viewers that are not installed make their checks SKIP.
source tests/lib/common.sh
if ! have_perf; then skip "export (perf not installed)"; finish; fi
if ! command -v jq >/dev/null 2>&1; then fail "export: jq missing (scripts/install-deps.sh installs it)"; finish; fi

D="$TMP/p.data"
W="ls -R /usr/share/doc/bash /usr/share/doc/coreutils /usr/lib/x86_64-linux-gnu"
if ! perf record -q -e cpu-clock -c 100000 -g -o "$D" -- $W >/dev/null 2>"$TMP/rec.err"; then
  fail "perf record failed: $(head -1 "$TMP/rec.err")"; finish
fi
# perf's view: number of samples, sum of periods, threads, DSOs
read -r NS PSUM < <(perf script -i "$D" -F period 2>/dev/null | awk 'NF==1{n++; s+=$1} END{print n+0, s+0}')
TIDS=$(perf script -i "$D" -F tid 2>/dev/null | awk 'NF==1{print $1}' | sort -un | tr '\n' ' ')
perf report -i "$D" --stdio --sort dso -g none 2>/dev/null | awk '!/^#/ && NF>=3 {print $3}' | sort -u >"$TMP/dsos"
[ "$NS" -gt 0 ] || { fail "perf script shows no samples"; finish; }

export_fmt() { # format, output
  if "$HWPROF" export --sort dso --format "$1" -i "$D" -o "$2" 2>"$TMP/$1.err" && [ -s "$2" ] && [ ! -s "$TMP/$1.err" ]; then
    return 0
  fi
  fail "$1: export failed or printed on stderr: $(head -2 "$TMP/$1.err")"; return 1
}

# ---- speedscope
if export_fmt speedscope "$TMP/p.speedscope.json"; then
  got=$(jq -r '[ (."$schema" == "https://www.speedscope.app/file-format-schema.json"),
                 (.profiles | length > 0),
                 (all(.profiles[]; .type == "sampled" and (.samples | length) == (.weights | length)
                      and .endValue == (.weights | add) and (.unit == "nanoseconds"))),
                 ((.shared.frames | length) as $n | all(.profiles[].samples[][]; . >= 0 and . < $n)),
                 all(.shared.frames[]; (.name | type) == "string") ] | all' "$TMP/p.speedscope.json")
  [ "$got" = true ] && pass "speedscope: schema shape (sampled profiles, frame indexes, weights)" ||
    fail "speedscope: shape check failed"
  read -r n w < <(jq -r '[([.profiles[].samples | length] | add), ([.profiles[].weights[]] | add)] | @tsv' \
                  "$TMP/p.speedscope.json")
  [ "$n" = "$NS" ] && [ "$w" = "$PSUM" ] && pass "speedscope: $n samples, weight $w as perf script" ||
    fail "speedscope: $n samples / weight $w, perf script: $NS / $PSUM"
fi

# ---- firefox (Gecko profile)
if export_fmt firefox "$TMP/p.gecko.json"; then
  got=$(jq -r '[ (.meta.version == 24), (.meta.categories | length == 2), (.threads | length > 0),
                 all(.threads[];
                   (.stackTable.data | length) as $ns | (.frameTable.data | length) as $nf |
                   (.stringTable | length) as $nstr |
                   (.name | type) == "string" and (.tid | type) == "number" and (.pid | type) == "number" and
                   .samples.schema.stack == 0 and .samples.schema.time == 1 and
                   all(.samples.data[]; .[0] >= 0 and .[0] < $ns and .[1] >= 0) and
                   ([.stackTable.data | to_entries[] | (.value[0] == null or .value[0] < .key) and .value[1] < $nf] | all) and
                   all(.frameTable.data[]; .[0] < $nstr and (.[7] == 0 or .[7] == 1))) ] | all' "$TMP/p.gecko.json")
  [ "$got" = true ] && pass "firefox: Gecko shape (tables, prefixes before stacks, indexes in range)" ||
    fail "firefox: shape check failed"
  n=$(jq '[.threads[].samples.data | length] | add' "$TMP/p.gecko.json")
  [ "$n" = "$NS" ] && pass "firefox: $n samples as perf script" || fail "firefox: $n samples, perf script $NS"
fi

# ---- perfetto (Chrome trace JSON)
if export_fmt perfetto "$TMP/p.trace.json"; then
  got=$(jq -r '[ (.traceEvents | length > 0),
                 all(.traceEvents[]; (.ph == "X" or .ph == "M") and (.pid | type) == "number" and (.tid | type) == "number"),
                 all(.traceEvents[] | select(.ph == "X"); .ts >= 0 and .dur >= 0 and (.name | type) == "string"
                     and (.cat == "user" or .cat == "kernel")) ] | all' "$TMP/p.trace.json")
  [ "$got" = true ] && pass "perfetto: trace event shape (X slices, M metadata)" || fail "perfetto: shape check failed"
  tids=$(jq -r '[.traceEvents[] | select(.ph == "M" and .name == "thread_name") | .tid] | sort | unique | map(tostring) | join(" ")' \
         "$TMP/p.trace.json")
  [ "$tids " = "$TIDS" ] && pass "perfetto: one thread per perf script tid ($tids)" ||
    fail "perfetto: threads '$tids', perf script '$TIDS'"
  # Nesting: per thread, every slice lies inside the one below it when sorted.
  bad=$(jq '[.traceEvents[] | select(.ph == "X")] | group_by(.tid) |
            map(sort_by(.ts, -.dur) | reduce .[] as $e ({st: [], bad: 0};
              .st |= until(length == 0 or (.[-1] > $e.ts + 0.002); .[:-1]) |
              (if (.st | length) > 0 and ($e.ts + $e.dur > .st[-1] + 0.002) then .bad += 1 else . end) |
              .st += [$e.ts + $e.dur]) | .bad) | add' "$TMP/p.trace.json")
  [ "$bad" = 0 ] && pass "perfetto: slices nest properly" || fail "perfetto: $bad slices overlap without nesting"
fi

# ---- pprof
if export_fmt pprof "$TMP/p.pb.gz"; then
  if ! gzip -t "$TMP/p.pb.gz" 2>/dev/null; then fail "pprof: not gzip"; fi
  if command -v go >/dev/null 2>&1; then
    if go tool pprof -top -unit=ns "$TMP/p.pb.gz" >"$TMP/pprof.top" 2>"$TMP/pprof.err"; then
      tot=$(sed -n 's/^Showing nodes accounting for .* of \([0-9]*\)ns total$/\1/p' "$TMP/pprof.top")
      grep -q '^Type: cpu$' "$TMP/pprof.top" && [ "$tot" = "$PSUM" ] &&
        pass "pprof: go tool pprof -top reads it, total ${tot}ns as perf script" ||
        fail "pprof: -top total '$tot' (perf $PSUM)"; 
      if grep -q '\[unknown\] (libc.so.6)' "$TMP/pprof.top" && grep -q '\[unknown\] (\[kernel.kallsyms\])' "$TMP/pprof.top"; then
        pass "pprof: frames named by DSO"
      else fail "pprof: expected frame names missing"; head -20 "$TMP/pprof.top"; fi
      go tool pprof -raw "$TMP/p.pb.gz" 2>/dev/null | awk '/^ +[0-9]+ +[0-9]+: /{n+=$1} END{print n+0}' >"$TMP/raw.n"
      [ "$(cat "$TMP/raw.n")" = "$NS" ] && pass "pprof: $NS samples in -raw" || fail "pprof: -raw count $(cat "$TMP/raw.n") (perf $NS)"
    else
      fail "pprof: go tool pprof rejected the file: $(head -2 "$TMP/pprof.err")"
    fi
  else
    skip "pprof: go tool pprof (golang-go not installed)"
  fi
fi

# ---- symbols: by default frames carry perf's symbol names
SYMSVG="$TMP/fgsym.svg"
if "$HWPROF" flamegraph -i "$D" -o "$SYMSVG" 2>/dev/null && [ -s "$SYMSVG" ]; then
  syms=$(perf report -i "$D" --stdio --no-children --sort sym 2>/dev/null |
         awk '/^ +[0-9.]+%/ && ($2 == "[k]" || $2 == "[.]") && $3 !~ /^0x/ {print $3}' | head -5)
  miss=""
  for sy in $syms; do grep -qF "data-n=\"$sy\"" "$SYMSVG" || miss="$miss $sy"; done
  if [ -n "$syms" ] && [ -z "$miss" ]; then pass "flamegraph: perf report's top symbols are frames ($(echo $syms))"
  else fail "flamegraph: symbols missing:$miss (perf: $(echo $syms))"; fi
  if "$HWPROF" export --format speedscope -i "$D" -o "$TMP/sym.json" 2>/dev/null && command -v jq >/dev/null 2>&1; then
    top=$(echo "$syms" | head -1)
    [ "$(jq --arg s "$top" '[.shared.frames[].name] | index($s) != null' "$TMP/sym.json")" = true ] &&
      pass "speedscope: frames named by symbol ($top)" || fail "speedscope: symbol $top missing"
  fi
else
  fail "flamegraph with symbols failed"
fi

# ---- flame graph SVG
SVG="$TMP/fg.svg"
if "$HWPROF" flamegraph --sort dso -i "$D" -o "$SVG" 2>"$TMP/fg.err" && [ -s "$SVG" ] && [ ! -s "$TMP/fg.err" ]; then
  grep -q "<title>all ($NS samples, 100.00%)</title>" "$SVG" && pass "flamegraph: root has perf's $NS samples" ||
    fail "flamegraph: root title does not show $NS samples"
  missing=""
  while read -r dso; do
    [ -z "$dso" ] && continue
    if [ "$dso" = "[unknown]" ]; then label="[unknown]"; else label="[unknown] ($dso)"; fi
    grep -qF "data-n=\"$label\"" "$SVG" || missing="$missing $dso"
  done <"$TMP/dsos"
  [ -z "$missing" ] && pass "flamegraph: a frame for every DSO perf report lists ($(tr '\n' ' ' <"$TMP/dsos"))" ||
    fail "flamegraph: no frame for$missing"
else
  fail "flamegraph: failed: $(head -2 "$TMP/fg.err")"
fi

# ---- no progress output when stderr is not a terminal, and usage errors
"$HWPROF" export --format speedscope -i "$D" -o "$TMP/q.json" 2>"$TMP/q.err"
[ ! -s "$TMP/q.err" ] && pass "no progress bar when stderr is not a terminal" || fail "stderr not empty: $(head -1 "$TMP/q.err")"
# progress bar on a terminal (script(1) gives a pseudo-terminal; the start
# delay is set to 0 so the check does not depend on the machine's speed)
if command -v script >/dev/null 2>&1; then
  HWPROF_PROGRESS_DELAY=0 script -qec "'$HWPROF' export --format speedscope -i '$D' -o '$TMP/t.json'" /dev/null >"$TMP/tty.out" 2>&1
  HWPROF_PROGRESS_DELAY=0 script -qec "'$HWPROF' export -q --format speedscope -i '$D' -o '$TMP/t.json'" /dev/null >"$TMP/ttyq.out" 2>&1
  if grep -q 'reading \[#*-*\] *[0-9.]*%.*MB/s  ETA [0-9]*:[0-9][0-9]' "$TMP/tty.out" && [ ! -s "$TMP/ttyq.out" ]; then
    pass "progress bar on a terminal (bytes, MB/s, ETA); -q silences it"
  else
    fail "progress bar: '$(tr '\r\033' '  ' <"$TMP/tty.out" | head -c 200)' / -q: '$(head -c 100 "$TMP/ttyq.out")'"
  fi
else
  skip "progress bar on a terminal (script(1) not installed)"
fi
"$HWPROF" export --format nope -i "$D" -o "$TMP/x" 2>/dev/null; rc=$?
[ "$rc" = 129 ] && pass "unknown --format is a usage error (129)" || fail "unknown --format exit $rc"
# pipe-mode input streamed on stdin
if perf record -q -e cpu-clock -c 100000 -g -o - -- $W 2>/dev/null >"$TMP/pipe.data"; then
  pn=$(perf script -i "$TMP/pipe.data" -F period 2>/dev/null | awk 'NF==1{n++} END{print n+0}')
  "$HWPROF" export --format speedscope -i - -o "$TMP/pipe.json" <"$TMP/pipe.data" 2>/dev/null
  n=$(jq '[.profiles[].samples | length] | add' "$TMP/pipe.json" 2>/dev/null)
  [ "$n" = "$pn" ] && pass "pipe mode on stdin: $n samples" || fail "pipe mode: $n samples, perf $pn"
fi

# ---- browsers
CHROME=$(command -v chromium || command -v chromium-browser || true)
SS_DIR=${HWPROF_SPEEDSCOPE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hwprof/npm/node_modules/speedscope/dist/release}
chrome() { # args...
  timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d "$TMP/chr.XXXXXX")" --window-size=1200,800 "$@"
}
if [ -z "$CHROME" ]; then
  skip "speedscope in headless Chromium (chromium not installed)"
  skip "flamegraph SVG screenshot (chromium not installed)"
else
  if [ ! -f "$SS_DIR/index.html" ]; then
    skip "speedscope in headless Chromium (speedscope not installed in $SS_DIR)"
  else
    mkdir -p "$TMP/www"
    cp -r "$SS_DIR" "$TMP/www/ss"
    cp "$TMP/p.speedscope.json" "$TMP/www/profile.json"
    echo '{"$schema":"https://www.speedscope.app/file-format-schema.json","profiles":[{"type":"sampled","name":"x","unit":"none","startValue":0,"endValue":1,"samples":[[5]],"weights":[1]}],"shared":{"frames":[]}}' >"$TMP/www/bad.json"
    "$TOOLS/httpd_static" "$TMP/www" 120 >"$TMP/port" &
    HTTPD=$!
    for _ in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
    PORT=$(cat "$TMP/port")
    load() { # json name, output prefix
      chrome --enable-logging=stderr --v=0 --virtual-time-budget=20000 --dump-dom \
        "http://127.0.0.1:$PORT/ss/index.html#profileURL=http://127.0.0.1:$PORT/$1" >"$TMP/$2.dom" 2>"$TMP/$2.log"
    }
    load profile.json ok
    title=$(jq -r '.profiles[0].name' "$TMP/p.speedscope.json")
    if grep -q 'Importing as speedscope json file' "$TMP/ok.log" && ! grep -qE 'Failed to load|Uncaught' "$TMP/ok.log" &&
       grep -qF "$title" "$TMP/ok.dom" && ! grep -q 'Something went wrong' "$TMP/ok.dom"; then
      pass "speedscope $(jq -r .version "$SS_DIR/../../package.json" 2>/dev/null) loads the export in headless Chromium ('$title' shown, no errors)"
    else
      fail "speedscope did not load the export"; grep CONSOLE "$TMP/ok.log" | head -5
    fi
    # the same check on a broken profile must fail, or it proves nothing
    load bad.json bad
    grep -qE 'Failed to load' "$TMP/bad.log" && pass "speedscope check rejects a broken profile" ||
      fail "speedscope check did not notice a broken profile"
    kill "$HTTPD" 2>/dev/null; wait "$HTTPD" 2>/dev/null
  fi
  if [ -s "$SVG" ]; then
    chrome --screenshot="$TMP/fg.png" "file://$SVG" >/dev/null 2>&1
    h=$(sed -n 's/^<svg .* height="\([0-9]*\)".*/\1/p' "$SVG")
    printf '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="%s"><rect width="1200" height="%s" fill="rgb(248,248,240)"/></svg>\n' "$h" "$h" >"$TMP/blank.svg"
    chrome --screenshot="$TMP/blank.png" "file://$TMP/blank.svg" >/dev/null 2>&1
    s1=$(stat -c %s "$TMP/fg.png" 2>/dev/null || echo 0); s0=$(stat -c %s "$TMP/blank.png" 2>/dev/null || echo 0)
    if [ "$(head -c 8 "$TMP/fg.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] && [ "$s0" -gt 0 ] && [ "$s1" -gt $((s0 * 2)) ]; then
      pass "flamegraph SVG renders in Chromium (PNG $s1 bytes, blank page $s0)"
    else
      fail "flamegraph screenshot missing or blank ($s1 vs blank $s0 bytes)"
    fi
    # the script: zoom on libc and search for kernel frames via the URL
    chrome --enable-logging=stderr --v=0 --dump-dom "file://$SVG#zoom=libc&search=kallsyms" >"$TMP/fg.dom" 2>"$TMP/fg.log"
    kpct=$(perf report -i "$D" --stdio --sort dso 2>/dev/null | awk '$NF == "[kernel.kallsyms]" && /^ /{print $1; exit}')
    got=$(sed -n 's/.*<text id="matched"[^>]*>Matched: \([0-9.]*%\).*/\1/p' "$TMP/fg.dom")
    if ! grep -q 'Uncaught' "$TMP/fg.log" && [ -n "$got" ] && [ "$got" = "$kpct" ]; then
      pass "flamegraph search: kernel frames match $got of the weight, perf report's children share $kpct"
    else
      fail "flamegraph search: matched '$got', perf report '$kpct'"; grep CONSOLE "$TMP/fg.log" | head -3
    fi
    # #zoom picks the widest frame matching libc (which one depends on
    # the recording: [unknown], __libc_start_call_main...)
    if grep -q 'data-n="[^"]*libc[^"]*"[^>]*><title>[^<]*</title><rect x="10" y="[0-9]*" width="1180"' "$TMP/fg.dom"; then
      pass "flamegraph zoom: the widest libc frame fills the width"
    else
      fail "flamegraph zoom: libc frame not widened"
    fi
  fi
fi
finish
