#!/usr/bin/env bash
# `hwprof report --header-only [-I]` against `perf report --header-only [-I]`
# on files recorded here in several configurations (file and pipe mode,
# groups, callchains, system-wide, compression, clockids, tracepoints,
# perf stat record), byte for byte. Both run in the same environment, so
# the local-time lines ("captured on", "reference time") compare equal.
set -u
HWPROF=${HWPROF:-build/hwprof}
fail=0
if ! command -v perf >/dev/null 2>&1; then
	echo "SKIP: header_only (perf not installed)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rec() { # name, perf args...
	local name=$1; shift
	if ! perf "$@" >"$tmp/$name.log" 2>&1 || [ ! -s "$tmp/$name.data" ]; then
		echo "SKIP: header_only $name (perf could not record: $(tail -1 "$tmp/$name.log"))"
		return 1
	fi
}

check() { # name, extra report args
	local name=$1; shift
	perf report --header-only "$@" -i "$tmp/$name.data" >"$tmp/$name.want" 2>"$tmp/$name.perr"
	"$HWPROF" report --header-only "$@" -i "$tmp/$name.data" >"$tmp/$name.got" 2>"$tmp/$name.herr"
	if cmp -s "$tmp/$name.want" "$tmp/$name.got" && [ -s "$tmp/$name.want" ]; then
		echo "PASS: header_only $name $*"
	else
		echo "FAIL: header_only $name $*"
		diff "$tmp/$name.want" "$tmp/$name.got" | head -20
		cat "$tmp/$name.herr"
		fail=1
	fi
}

W="$tmp/work"; mkdir -p "$W"
cases=(
	"plain record -e cpu-clock -o $tmp/plain.data -- ls $W"
	"two record -e cpu-clock,task-clock -o $tmp/two.data -- ls $W"
	"callg record -g -e cpu-clock -o $tmp/callg.data -- ls $W"
	"dwarf record --call-graph dwarf -e cpu-clock -o $tmp/dwarf.data -- ls $W"
	"syswide record -a -e cpu-clock -o $tmp/syswide.data -- sleep 0.05"
	"zstd record -z -e cpu-clock -o $tmp/zstd.data -- ls $W"
	"group record -e '{cpu-clock,task-clock}' -o $tmp/group.data -- ls $W"
	"named record -e 'mygrp{cpu-clock,task-clock}' -o $tmp/named.data -- ls $W"
	"mono record -k mono -e cpu-clock -o $tmp/mono.data -- ls $W"
	"raw record -k raw -e cpu-clock -o $tmp/raw.data -- ls $W"
	"tai record -k tai -e cpu-clock -o $tmp/tai.data -- ls $W"
	"quote record -e cpu-clock -o $tmp/quote.data -- sh -c \"true 'it is'\""
	"period record -c 10000 -e cpu-clock --user-regs=ax,bx -I -o $tmp/period.data -- ls $W"
	"stat stat record -o $tmp/stat.data -e cpu-clock -- ls $W"
)
for c in "${cases[@]}"; do
	name=${c%% *}; args=${c#* }
	# shellcheck disable=SC2086
	eval "rec $name $args" || continue
	check "$name"
	check "$name" -I
done
if command -v perf >/dev/null && perf list 2>/dev/null | grep -q 'sched:sched_switch'; then
	rec trace record -e sched:sched_switch -a -o "$tmp/trace.data" -- sleep 0.05 && check trace
fi
# perf record --threads: a directory (DIR_FORMAT); "captured on" is the
# mtime of its header file "data", not of the directory (set apart here)
if rec threads record --threads -e cpu-clock -o "$tmp/threads.data" -- ls "$W"; then
	touch -d '2001-02-03 04:05:06' "$tmp/threads.data"
	check threads
	check threads -I
fi
# sections this machine cannot record, added to a recorded file
INJECT=${HWPROF_BUILD:-build}/tools/feat_inject
if [ ! -x "$INJECT" ]; then
	echo "SKIP: header_only injected (no $INJECT)"
elif [ -s "$tmp/plain.data" ] && "$INJECT" "$tmp/plain.data" "$tmp/inject.data"; then
	check inject
	check inject -I
else
	echo "FAIL: header_only injected (feat_inject failed)"; fail=1
fi
# pipe mode, saved to a file and read back from the file and from stdin
if perf record -e cpu-clock -o - -- ls "$W" >"$tmp/pipe.data" 2>"$tmp/pipe.log" && [ -s "$tmp/pipe.data" ]; then
	check pipe
	check pipe -I
	# through a real pipe: a redirected file is not a FIFO and would make
	# both tools look for ./perf.data
	cat "$tmp/pipe.data" | perf report --header-only >"$tmp/stdin.want" 2>/dev/null
	cat "$tmp/pipe.data" | "$HWPROF" report --header-only >"$tmp/stdin.got" 2>&1
	# "captured on" is the pipe's own time for both; drop it if the second ticked
	if diff <(grep -v '^# captured on' "$tmp/stdin.want") <(grep -v '^# captured on' "$tmp/stdin.got") >/dev/null \
		&& [ -s "$tmp/stdin.want" ]; then
		echo "PASS: header_only pipe via stdin"
	else
		echo "FAIL: header_only pipe via stdin"; diff "$tmp/stdin.want" "$tmp/stdin.got" | head; fail=1
	fi
else
	echo "SKIP: header_only pipe (perf could not record in pipe mode)"
fi
# errors: not a perf.data file, missing file
printf 'not a perf file at all, no sir' >"$tmp/bad.data"
if "$HWPROF" report --header-only -i "$tmp/bad.data" >/dev/null 2>"$tmp/bad.err"; then
	echo "FAIL: header_only rejects a non-perf.data file"; fail=1
else
	echo "PASS: header_only rejects a non-perf.data file"
fi
if "$HWPROF" report --header-only -i "$tmp/none.data" >/dev/null 2>&1; then
	echo "FAIL: header_only rejects a missing file"; fail=1
else
	echo "PASS: header_only rejects a missing file"
fi
exit $fail
