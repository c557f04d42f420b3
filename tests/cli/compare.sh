#!/bin/sh
# SPDX-License-Identifier: MIT
#
# compare.sh: "pgo-reconstruct compare" for CI and the one --method rule
# of every command.  The branches fixture's set-B reconstruction is
# compared with its edge truth.  Grid's overlap, 0.995457, was checked by
# hand; Classify's depends on the priors, so the test reads it and checks
# what compare makes of it: the whole is the weighted mean of the
# methods' overlaps (weights 200 and 216), and --min-overlap is judged
# against that whole.
set -u
cli_name=compare
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

dll=$data/branches/branches.dll
block=$data/branches/block.nettrace
edge=$data/branches/edge.nettrace

expect 0 truth create-mibc "$edge" -r "$dll" --as-recorded -o "$tmp/t.mibc"
expect 0 setb create-mibc "$block" -r "$dll" --probes B -o "$tmp/b.mibc"
expect 0 recorded create-mibc "$block" -r "$dll" --as-recorded -o "$tmp/r.mibc"

# --min-overlap: exit 3 below it, with one line naming the overlap; 0 at
# or above it.  A share outside 0..1 is a usage error.
expect 0 plain compare -r "$dll" "$tmp/t.mibc" "$tmp/b.mibc"
has plain "method branches!Program::Grid weight=216 edge-overlap=0.995457"
classify=$(sed -n 's/^method branches!Program::Classify weight=200 edge-overlap=\([0-9.]*\)$/\1/p' "$tmp/out")
[ -n "$classify" ] || fail "plain: no line of Classify with weight 200: $(cat "$tmp/out")"
whole=$(awk -v c="$classify" 'BEGIN { printf "%.6f", (200 * c + 216 * 0.995457) / 416 }')
summary="COMPARE methods-a=2 methods-b=2 both=2 mismatched=0 block=0 block-overlap=- edge=2 edge-overlap=$whole only-in-a=0 only-in-b=0"
has plain "$summary"
above=$(awk -v w="$whole" 'BEGIN { printf "%.6f", w + 0.001 }')
below=$(awk -v w="$whole" 'BEGIN { printf "%.6f", w - 0.001 }')
expect 3 below compare -r "$dll" "$tmp/t.mibc" "$tmp/b.mibc" --min-overlap "$above" -q
err_has below "edge overlap $whole is below --min-overlap "
one_line below
has below "$summary"
expect 0 above compare -r "$dll" "$tmp/t.mibc" "$tmp/b.mibc" --min-overlap "$below" -q
expect 2 range compare -r "$dll" "$tmp/t.mibc" "$tmp/b.mibc" --min-overlap 1.5
err_has range "--min-overlap 1.5: give a share from 0 to 1"
expect 2 negative-cutoff compare -r "$dll" "$tmp/t.mibc" "$tmp/b.mibc" --weight-cutoff -1
err_has negative-cutoff "--weight-cutoff -1: give a count of 0 or more"

# --weight-cutoff: lighter methods are not printed; the summary counts all.
expect 0 cutoff compare -r "$dll" "$tmp/t.mibc" "$tmp/b.mibc" --weight-cutoff 201
[ "$(grep -c '^method ' "$tmp/out")" -eq 1 ] || fail "cutoff: $(grep -c '^method ' "$tmp/out") method lines"
has cutoff "method branches!Program::Grid weight=216 edge-overlap=0.995457"
has cutoff "$summary"

# The methods of one side only are counted, and listed on request: the
# trace has 469 methods, the .mibc the 3 of the reference.
expect 0 one-side compare -r "$dll" "$block" "$tmp/r.mibc"
has one-side "COMPARE methods-a=469 methods-b=3 both=3 mismatched=0 block=3 block-overlap=1.000000 edge=0 edge-overlap=- only-in-a=466 only-in-b=0"
grep -q ' only-in=' "$tmp/out" && fail "one-side: only-in lines without --only-in"
expect 0 only-in compare -r "$dll" "$block" "$tmp/r.mibc" --only-in
[ "$(grep -c ' only-in=A$' "$tmp/out")" -eq 466 ] || fail "only-in: $(grep -c ' only-in=A$' "$tmp/out") lines"

# --method is one rule everywhere: a name, Type::Name or full name, or a
# glob of one; a selector that names nothing is an error.
expect 0 glob compare -r "$dll" "$tmp/t.mibc" "$tmp/b.mibc" --method '*::G?id' -q
has glob "COMPARE methods-a=1 methods-b=1 both=1 mismatched=0 block=0 block-overlap=- edge=1 edge-overlap=0.995457 only-in-a=0 only-in-b=0"
expect 1 no-match compare -r "$dll" "$tmp/t.mibc" "$tmp/b.mibc" --method Gri
err_has no-match "--method 'Gri' names no method of either"
one_line no-match
[ -s "$tmp/out" ] && fail "no-match: printed $(cat "$tmp/out")"

expect 0 mibc-method create-mibc "$block" -r "$dll" --probes B --method Program::Classify -o "$tmp/c.mibc"
err_has mibc-method "create-mibc: wrote 1 methods to $tmp/c.mibc"
err_has mibc-method "create-mibc: --method 'Program::Classify' took 1 of 469 methods"
expect 0 mibc-method-dump compare -r "$dll" "$tmp/c.mibc" "$tmp/b.mibc"
has mibc-method-dump "COMPARE methods-a=1 methods-b=2 both=1 mismatched=0 block=0 block-overlap=- edge=1 edge-overlap=1.000000 only-in-a=0 only-in-b=1"
expect 1 mibc-none create-mibc "$block" -r "$dll" --probes B -m Nothing -o "$tmp/none.mibc"
err_has mibc-none "$block: --method 'Nothing' names none of its 469 methods"
one_line mibc-none
[ -e "$tmp/none.mibc" ] && fail "mibc-none: wrote an output"

expect 0 recon-glob reconstruct -r "$dll" --probes B -m 'branches!*' "$block"
has recon-glob "total: 3 methods reconstructed, 0 without IL or block counts"
expect 0 recon-token reconstruct -r "$dll" --probes B -m "$(awk '/^method branches!Program::Grid /{print $3}' "$tmp/out" | sed 's/token=//')" "$block"
has recon-token "total: 1 methods reconstructed, 0 without IL or block counts"

expect 0 eval-glob evaluate --truth "$block" -r "$dll" --probes B -m 'Cl*' -q
grep -q '^ACCURACY probe-set=B .* methods=1$' "$tmp/out" || fail "eval-glob: $(grep ACCURACY "$tmp/out")"
expect 1 eval-none evaluate --truth "$block" -r "$dll" --probes B -m Clx -q
err_has eval-none "$block: --method 'Clx' names none of its 469 methods"
one_line eval-none

[ "$failures" = 0 ]
