#!/bin/sh
# SPDX-License-Identifier: MIT
#
# plan.sh: "pgo-reconstruct plan": probe set P on the fixtures, exit codes
# and messages.  (That P determines every block count of the fixtures is
# judged by conformance/accuracy.sh: its determined mass is 1.)
set -u
cli_name=plan
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

# branches: Classify's if/else chain needs the entry and its four targets;
# Grid's nested loops need four heads, one fewer than set A.
expect 0 branches plan "$data/branches/branches.dll"
has branches "method 0x06000001 Program::Classify(int32) blocks=9 P=5 A=5 B=1 open-normal=0 open-exceptional=0 open-internal=0 probes=0x0,0x7,0xe,0x15,0x1c"
has branches "method 0x06000002 Program::Grid() blocks=9 P=4 A=6 B=3 open-normal=0 open-exceptional=0 open-internal=0 probes=0x0,0x6,0xa,0x26"
grep -q "^PLAN methods=3 .* fully-determined=3/3 " "$tmp/out" || fail "branches: PLAN line $(grep '^PLAN' "$tmp/out")"
[ -s "$tmp/err" ] && fail "branches: wrote to stderr"

# every fixture: each method P leaves open has an edge no block count
# determines, so its line names one; the others have none
for dll in "$data"/*/*.dll; do
  expect 0 "$(basename "$dll")" plan "$dll"
  full=$(grep -c '^method .* open-normal=0 open-exceptional=0 open-internal=0 ' "$tmp/out")
  n=$(grep -c '^method ' "$tmp/out")
  grep -q "^PLAN methods=$n .* fully-determined=$full/$n .* no-flow-graph=0\$" "$tmp/out" \
    || fail "$(basename "$dll"): PLAN line $(grep '^PLAN' "$tmp/out") for $full/$n"
done
# exceptions: FilterLoop's handlers are entered from several blocks of
# their trys; which one raised is no block count
expect 0 exceptions plan --method FilterLoop "$data/exceptions/exceptions.dll"
grep -q "^method 0x06000006 Program::FilterLoop() blocks=17 .* open-normal=0 open-exceptional=7 open-internal=0 " \
  "$tmp/out" || fail "exceptions: $(grep '^method' "$tmp/out")"

expect 0 one-method plan --method Classify "$data/branches/branches.dll"
[ "$(grep -c '^method ' "$tmp/out")" = 1 ] || fail "one-method: $(grep -c '^method ' "$tmp/out") lines"
expect 1 no-match plan --method NoSuchMethod "$data/branches/branches.dll"
grep -q "no method matches 'NoSuchMethod'" "$tmp/err" || fail "no-match: stderr '$(cat "$tmp/err")'"
[ -s "$tmp/out" ] && fail "no-match: wrote to stdout"
expect 1 missing plan "$tmp/none.dll"
grep -q "none.dll" "$tmp/err" || fail "missing: file not named"
expect 2 no-args plan

[ "$failures" = 0 ]
