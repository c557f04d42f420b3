#!/bin/sh
# SPDX-License-Identifier: MIT
#
# stale.sh: profiles that survive rebuilds (--stale).  The hotloop
# fixture's block trace was taken against its build; tests/data/stale
# holds the next build of the program, changed three ways (see its
# README): Tiny untouched, Spin edited (its odd arm calls the new
# Penalty instead of subtracting 3: 5 bytes more), Penalty new; Main is
# untouched too.  Hand-derived from the two IL listings:
#   Tiny and Main keep every count as it is;
#   Spin's blocks at 0, 7, 12 match by content at the same offsets, the
#   odd arm at 19 (25000) matches nothing, and the blocks after it move
#   by 5: 24 -> 29 (50000), 28 -> 33 (50001), 32 -> 37 (1); so 6 of 7
#   records and 175003 of 200003 counts are carried;
#   Penalty never ran in the old build: no profile.
set -u
cli_name=stale
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

old=$data/hotloop/hotloop.dll
new=$tests/data/stale/hotloop.dll
trace=$data/hotloop/block.nettrace

# The committed build is the one its script makes (when dotnet is here).
if command -v "${DOTNET:-dotnet}" >/dev/null 2>&1; then
  "$tests/data/stale/build" "$tmp/rebuilt" || fail "build: the script failed"
  cmp -s "$tmp/rebuilt/hotloop.dll" "$new" || fail "build: the committed hotloop.dll is not what src/ builds"
else
  echo "stale: SKIP the rebuild check: dotnet not found"
fi

# Refused by default: nothing of the old build is applied to the new one.
expect 1 refuse create-mibc "$trace" -r "$new" -o "$tmp/r.mibc"
err_has refuse "module hotloop: the trace's build (pdb 1efa652c-b3b6-45d5-a220-3aa5ad07ae89/1) is not the reference's"
[ -e "$tmp/r.mibc" ] && fail "refuse: wrote an output"

# exact: the unchanged methods carried, the edited one left out.
expect 0 exact export "$trace" -r "$new" --stale exact --stale-reference "$old" --as-recorded \
  -m 'hotloop!*' -o "$tmp/exact.xml"
err_has exact "export: stale changed hotloop!Program::Spin: blocks 0 of 7, counts 0 of 200003"
err_has exact "export: stale: 3 methods of another build: 2 same-il, 0 matched, 0 unmatched, 1 changed, 0 no-counterpart, 0 no-old-il; blocks 10 of 17, counts 4005 of 204008 carried"
err_has exact "its 3 methods are carried where their IL is unchanged (--stale=exact)"
grep -c '<method ' "$tmp/exact.xml" > "$tmp/n"
[ "$(cat "$tmp/n")" = 2 ] || fail "exact: $(cat "$tmp/n") methods"
grep -q 'mvid="eaa61e29-53ca-43f4-957b-26aa92ac3db7".*name="Program::Tiny"' "$tmp/exact.xml" \
  || fail "exact: Tiny is not under the new build's identity"
sed -n '/name="Program::Tiny"/,/<\/method>/p' "$tmp/exact.xml" | grep -o 'il-offset="[0-9]*" other="0x0">[0-9]*' \
  | tr '\n' ' ' > "$tmp/tiny"
[ "$(cat "$tmp/tiny")" = 'il-offset="0" other="0x0">1000 il-offset="5" other="0x0">250 il-offset="7" other="0x0">750 ' ] \
  || fail "exact: Tiny's counts $(cat "$tmp/tiny")"

# match: the edited method too, its blocks moved to their new offsets.
expect 0 match export "$trace" -r "$new" --stale match --stale-reference "$old" --as-recorded \
  -m 'hotloop!*' -o "$tmp/match.xml"
err_has match "export: stale matched hotloop!Program::Spin: blocks 6 of 7, counts 175003 of 200003"
err_has match "export: stale: 3 methods of another build: 2 same-il, 1 matched, 0 unmatched, 0 changed, 0 no-counterpart, 0 no-old-il; blocks 16 of 17, counts 179008 of 204008 carried"
sed -n '/name="Program::Spin"/,/<\/method>/p' "$tmp/match.xml" | grep -o 'il-offset="[0-9]*" other="0x0">[0-9]*' \
  | sed 's/il-offset="\([0-9]*\)" other="0x0">/\1:/' | tr '\n' ' ' > "$tmp/spin"
[ "$(cat "$tmp/spin")" = "0:1 7:50000 12:25000 29:50000 33:50001 37:1 " ] || fail "match: Spin's records $(cat "$tmp/spin")"
grep -q 'Penalty' "$tmp/match.xml" && fail "match: the new method has a profile"

# A method carried from changed IL has no exact count; one carried from
# the same IL keeps its provenance (the dense trace observes every block).
expect 0 provenance summary "$trace" -r "$new" --stale match --stale-reference "$old" -m 'hotloop!*' --all
grep -q '^method [0-9]* hotloop!Program::Spin weight=[0-9]* calls=1 share=[0-9.]* cumulative=[0-9.]* inferred=1.000000$' \
  "$tmp/out" || fail "provenance: Spin: $(grep Spin "$tmp/out")"
grep -q '^method [0-9]* hotloop!Program::Tiny weight=2000 calls=1000 .* inferred=0.000000$' "$tmp/out" \
  || fail "provenance: Tiny: $(grep Tiny "$tmp/out")"
# the odd arm's count, dropped, follows from the flow: 50000 - 25000
expect 0 show show -r "$new" -m Spin -t "$trace" --stale match --stale-reference "$old"
has show "BB04 [0013..001d) ALWAYS pA | 25000 inferred [25000,25000]"
has show "BB03 [000c..0013) ALWAYS | 25000 inferred [25000,25000]"
err_has show "show: stale matched hotloop!Program::Spin: blocks 6 of 7, counts 175003 of 200003"
expect 0 reconstruct reconstruct -r "$new" -m Spin --stale match --stale-reference "$old" "$trace"
has reconstruct "  block BB04 il=0x0013 count=25000 inferred"
err_has reconstruct "reconstruct: stale matched hotloop!Program::Spin: blocks 6 of 7, counts 175003 of 200003"
# ... and the whole chain reconstructs and writes the new build's .mibc
expect 0 mibc create-mibc "$trace" -r "$new" --stale match --stale-reference "$old" --probes B -o "$tmp/b.mibc"
err_has mibc "create-mibc: wrote 3 methods to $tmp/b.mibc"

# Usage errors.
expect 2 bad-mode create-mibc "$trace" -r "$new" --stale maybe --stale-reference "$old" -o "$tmp/x.mibc"
err_has bad-mode "unknown --stale 'maybe' (refuse, exact or match)"
expect 2 no-old create-mibc "$trace" -r "$new" --stale match -o "$tmp/x.mibc"
err_has no-old "--stale=match needs --stale-reference"
expect 2 no-mode create-mibc "$trace" -r "$new" --stale-reference "$old" -o "$tmp/x.mibc"
err_has no-mode "--stale-reference needs --stale=exact or --stale=match"
[ "$failures" = 0 ]
