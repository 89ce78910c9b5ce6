# Differential: our Intel PT packet decoder against libipt's pt_pkt decoder
# (Debian libipt 2.0.5) on encoder-made streams of every packet type libipt
# knows and on the hand-made example trace: offsets, types, payloads agree.
source tests/lib/common.sh
tool="$TOOLS/pt_libipt_diff"
if [ ! -x "$tool" ]; then skip "libipt packet differential (no $tool; libipt missing?)"; finish; fi

for seed in 1 2 3 4 5; do
  if out=$("$tool" gen "$seed" 50000 2>&1); then pass "libipt agrees on random stream seed $seed: $out"
  else fail "libipt differs on random stream seed $seed: $out"; fi
done

# the trace from docs/intel-pt-notes.md (PSB, MODE.Exec, PSBEND, TIP.PGE, TNT, TIP.PGD)
printf '\002\202\002\202\002\202\002\202\002\202\002\202\002\202\002\202\231\001\002\043\161\000\020\100\000\000\000\034\001' >"$TMP/notes.raw"
if out=$("$tool" "$TMP/notes.raw" 2>&1); then pass "libipt agrees on the notes trace: $out"
else fail "libipt differs on the notes trace: $out"; fi
finish
