#!/bin/bash
# SPDX-License-Identifier: MIT
# interp-probes.sh: pgo-interp places the probes of sets A and B where
# the runtime change defines them, on methods where that is easy to get
# wrong (tests/interp/src/probes: a loop whose head is the entry, a
# synchronized method, an async state machine, a backward leave, a loop
# in a finally):
#   CONFORMANCE interp-probes-A, interp-probes-B: the program's methods
#     whose probe offsets in the trace are the ones read by hand off the
#     IL (tests/interp/data/probes.offsets), and whose every probe count
#     is the dense count of the block starting there.
# SKIP (77) without dotnet and the shared runtime the interpreter reads.
# SPEC: pgo-interp(1) "Probe placement"
set -u
: "${PGO_TEST_DATA:=tests}"
. "$PGO_TEST_DATA/support/interp-env.sh"
interp_env "the interpreter runs on CoreLib"
fail=0

# records SET: "token offset count" per probe of module probes, in the
# trace's order, offsets in hex, from a run with --probes SET.
records () {
  "$interp" run --framework "$fw" --probes "$1" --trace "$work/$1.nettrace" "$data/probes.dll" >"$work/$1.out" 2>"$work/$1.err"
  echo "exit $?" >>"$work/$1.out"
  cmp -s "$data/probes.expected" "$work/$1.out" \
    || { echo "FAIL: --probes $1: the program printed $(head -c 200 "$work/$1.out") $(head -n 1 "$work/$1.err")"; fail=1; }
  # (dump's record format, TAB-separated: see tools/cmd-dump.c; "il=0x7")
  "$tool" dump "$work/$1.nettrace" | awk -F '\t' '
    $1 == "method" { on = $4 == "module=probes"; t = substr($5, 7); tok = t == "-" ? "0x00000000" : t; next }
    on && $1 == "record" && $2 ~ /^BasicBlock/ { printf "%s %s %s\n", tok, substr($3, 6), $NF }' \
    >"$work/$1.rec"
}

records dense
for set in A B; do
  records $set
  n=0 k=0
  for tok in $(awk -v s=$set '!/^#/ && $2 == s { print $1 }' "$data/probes.offsets"); do
    n=$((n + 1))
    want=$(awk -v t="$tok" -v s=$set '!/^#/ && $1 == t && $2 == s { for (i = 3; i <= NF && $i != "#"; i++) printf "%s ", $i }' "$data/probes.offsets")
    got=$(awk -v t="$tok" '$1 == t { printf "%s ", $2 }' "$work/$set.rec")
    if [ "$got" != "$want" ]; then
      echo "FAIL: set $set: $tok: probes at { $got}, the IL says { $want}"; fail=1; continue
    fi
    bad=$(awk -v t="$tok" 'NR == FNR { if ($1 == t) d[$2] = $3; next } $1 == t && d[$2] != $3 { printf "%s: %s, dense %s; ", $2, $3, d[$2] }' \
      "$work/dense.rec" "$work/$set.rec")
    [ -z "$bad" ] || { echo "FAIL: set $set: $tok: counts $bad"; fail=1; continue; }
    k=$((k + 1))
  done
  extra=$(awk 'NR == FNR { if (!/^#/) e[$1] = 1; next } !($1 in e) { print $1 }' "$data/probes.offsets" "$work/$set.rec" | sort -u | tr '\n' ' ')
  [ -z "$extra" ] || { echo "FAIL: set $set: methods the IL listing does not name: $extra"; fail=1; }
  [ "$n" -gt 0 ] || { echo "FAIL: set $set: no method in probes.offsets"; fail=1; }
  echo "CONFORMANCE interp-probes-$set: $k/$n"
done
exit $fail
