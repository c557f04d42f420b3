#!/bin/sh
# SPDX-License-Identifier: MIT
#
# store-crash.sh: crash safety of the profile store.  Each trial ingests
# the fixture traces (22 of them, one transaction each) while a reader
# dumps the store over and over, and kills the ingest with SIGKILL after a
# seeded random delay within the time a whole ingest takes.  Every time
# the store must then
#   - open (dump reads it),
#   - pass PRAGMA integrity_check (tests/support/store-integrity),
#   - hold every trace whose "ingested" line the ingest printed, each with
#     all its methods, and no other trace but the one in flight when the
#     kill came, which is there whole or not at all;
# and the reader must never have failed or seen part of a trace.  Odd
# trials start from a store that already holds three traces.
# PGO_CRASH_TRIALS (default 12) and PGO_CRASH_SEED set the trials.
# SPEC: pgo-store(5) "Atomicity"
set -u
cli_name=store-crash
. "${PGO_TEST_DATA:-tests}/support/cli.sh"
integrity=${PGO_BUILDDIR:-.}/tests/support/store-integrity
trials=${PGO_CRASH_TRIALS:-12}
seed=${PGO_CRASH_SEED:-20261202}

set --
for d in "$data"/*/; do
  n=$(basename "$d")
  [ -f "$d/$n.dll" ] && set -- "$@" --reference "$d/$n.dll"
done
traces=$(ls "$data"/*/block.nettrace "$data"/*/edge.nettrace)
first3=$(echo "$traces" | head -n 3)

now_ms () { echo $(( $(date +%s%N) / 1000000 )); }

# stored STORE: "SOURCE METHODS" per trace the store holds.
stored () {
  "$tool" dump "$1" 2>"$tmp/dump.err" | sed -n 's/^trace [0-9a-f]* \([^ ]*\) ingested=.* methods=\([0-9]*\) .*/\1 \2/p'
}

# The clean ingest: every trace's method count, and its time.
t0=$(now_ms)
"$tool" ingest --store "$tmp/clean.store" "$@" $traces >"$tmp/clean.out" 2>&1 || fail "clean ingest: $(tail -n 1 "$tmp/clean.out")"
span=$(( $(now_ms) - t0 ))
stored "$tmp/clean.store" | sort >"$tmp/clean"
[ "$(wc -l <"$tmp/clean")" -eq "$(echo "$traces" | wc -l)" ] || fail "clean ingest holds $(wc -l <"$tmp/clean") traces"
"$tool" ingest --store "$tmp/base.store" "$@" $first3 >/dev/null 2>&1 || fail "ingest of three traces"

# reader STORE: dumps STORE until $tmp/stop exists; every dump must read
# and list only whole traces.
reader () {
  while [ ! -e "$tmp/stop" ]; do
    [ -e "$tmp/ready" ] || continue
    if ! stored "$1" >"$tmp/seen"; then
      echo "dump failed: $(head -n 1 "$tmp/dump.err")" >>"$tmp/reader.fail"
    elif [ -s "$tmp/seen" ] && ! sort "$tmp/seen" | comm -23 - "$tmp/clean" | awk 'END { exit NR > 0 }'; then
      echo "saw part of a trace: $(sort "$tmp/seen" | comm -23 - "$tmp/clean" | head -n 1)" >>"$tmp/reader.fail"
    fi
  done
}

killed=0 bad=0 least= most=
i=1
while [ "$i" -le "$trials" ]; do
  s=$tmp/trial.store
  rm -f "$s" "$s-wal" "$s-shm" "$s".new-* "$tmp/stop" "$tmp/ready" "$tmp/reader.fail"
  if [ $((i % 2)) = 1 ]; then cp "$tmp/base.store" "$s"; touch "$tmp/ready"; pre=$first3; else pre=; fi
  delay=$(awk -v s="$seed" -v i="$i" -v span="$span" 'BEGIN { srand(s + i); printf "%.3f", rand() * span * 1.1 / 1000 }')
  reader "$s" &
  rpid=$!
  "$tool" ingest --store "$s" "$@" $traces >"$tmp/ingest.out" 2>&1 &
  pid=$!
  # the reader starts once the store holds a committed trace
  ( while kill -0 "$pid" 2>/dev/null && ! grep -q '^ingested ' "$tmp/ingest.out"; do :; done; touch "$tmp/ready" ) &
  wpid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null && killed=$((killed + 1))
  wait "$pid" 2>/dev/null
  wait "$wpid" 2>/dev/null
  touch "$tmp/stop"
  wait "$rpid"
  before=$failures
  [ -e "$tmp/reader.fail" ] && fail "trial $i: reader: $(head -n 1 "$tmp/reader.fail")"
  reported=$( { echo "$pre"; sed -n 's/^ingested \(.*\): [0-9]* method profiles$/\1/p' "$tmp/ingest.out"; } | sed '/^$/d' | sort -u)
  if [ ! -e "$s" ]; then
    [ -z "$reported" ] || fail "trial $i: no store, yet traces were reported"
    [ "$failures" = "$before" ] || bad=$((bad + 1))
    i=$((i + 1))
    continue
  fi
  stored "$s" | sort >"$tmp/got" || true
  [ -s "$tmp/dump.err" ] && fail "trial $i: the store does not open: $(head -n 1 "$tmp/dump.err")"
  "$integrity" "$s" >"$tmp/integrity" 2>&1 || fail "trial $i: integrity_check: $(head -n 1 "$tmp/integrity")"
  # the trace in flight: the first of the order not reported
  flight=$(echo "$traces" | while read -r t; do echo "$reported" | grep -qxF "$t" || { echo "$t"; break; }; done)
  cut -d' ' -f1 "$tmp/got" >"$tmp/got.names"
  for t in $reported; do
    grep -qxF "$t" "$tmp/got.names" || fail "trial $i: reported $t is not in the store"
  done
  while read -r t n; do
    echo "$reported" | grep -qxF "$t" || [ "$t" = "$flight" ] || fail "trial $i: $t is in the store, never reported"
    grep -qxF "$t $n" "$tmp/clean" || fail "trial $i: $t holds $n methods, not all of them"
  done <"$tmp/got"
  [ "$failures" = "$before" ] || bad=$((bad + 1))
  k=$(wc -l <"$tmp/got")
  [ -n "$least" ] && [ "$least" -le "$k" ] || least=$k
  [ -n "$most" ] && [ "$most" -ge "$k" ] || most=$k
  i=$((i + 1))
done
echo "CONFORMANCE store-crash: $((trials - bad))/$trials trials (seed $seed; $killed killed mid-ingest," \
  "holding ${least:-0} to ${most:-0} traces; a whole ingest ${span} ms)"
[ "$failures" = 0 ]
