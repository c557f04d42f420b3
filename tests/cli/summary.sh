#!/bin/sh
# SPDX-License-Identifier: MIT
#
# summary.sh: "pgo-reconstruct summary".  The branches fixture's dense
# trace gives every block's count, so nothing is inferred and each
# method's weight is the sum of its recorded counts: Classify 768, Grid
# 458, Main 1 (checked against the records an as-recorded export holds).
# Of 1227, Classify alone covers 50% (768/1227 = 0.625917), and Classify
# with Grid 90% and 99% (1226/1227 = 0.999185).
set -u
cli_name=summary
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

dll=$data/branches/branches.dll
block=$data/branches/block.nettrace

# the weights are the traces' own sums
expect 0 recorded export "$block" -r "$dll" --as-recorded -m 'branches!*' -o "$tmp/r.xml"
awk -F'[<>"]' '/<method /{ for (i = 1; i < NF; i++) if ($i ~ / name=$/) m = $(i + 1) }
               /<record /{ s[m] += $(NF - 2) } END { for (k in s) print k, s[k] }' "$tmp/r.xml" |
  sort > "$tmp/sums"
printf '%s\n' "Program::Classify 768" "Program::Grid 458" "Program::Main 1" > "$tmp/want"
cmp -s "$tmp/want" "$tmp/sums" || fail "recorded: sums $(cat "$tmp/sums")"

expect 0 dense summary "$block" -r "$dll"
has dense "method 1 branches!Program::Classify weight=768 calls=200 share=0.625917 cumulative=0.625917 inferred=0.000000"
has dense "method 2 branches!Program::Grid weight=458 calls=1 share=0.373268 cumulative=0.999185 inferred=0.000000"
has dense "COVER 50% methods=1 weight=768 inferred=0.000000"
has dense "COVER 90% methods=2 weight=1226 inferred=0.000000"
has dense "COVER 99% methods=2 weight=1226 inferred=0.000000"
has dense "SUMMARY methods=3 weight=1227 inferred=0.000000"
grep -q 'Program::Main' "$tmp/out" && fail "dense: Main listed outside the 99% cover"

# --all lists every method; --json holds the same numbers
expect 0 all summary "$block" -r "$dll" --all
has all "method 3 branches!Program::Main weight=1 calls=1 share=0.000815 cumulative=1.000000 inferred=0.000000"
expect 0 json summary "$block" -r "$dll" --json
has json '{"methods":[{"rank":1,"name":"branches!Program::Classify","weight":768,"calls":200,"share":0.62591687,"inferred":0},{"rank":2,"name":"branches!Program::Grid","weight":458,"calls":1,"share":0.373268134,"inferred":0}],"cover":[{"share":0.5,"methods":1,"weight":768,"inferred":0},{"share":0.9,"methods":2,"weight":1226,"inferred":0},{"share":0.99,"methods":2,"weight":1226,"inferred":0}],"total":{"share":1,"methods":3,"weight":1227,"inferred":0}}'

# at probe set B some counts are inferred: each method's inferred share is
# its inferred blocks' weight over its own, and the whole's is theirs
# summed over the whole weight
expect 0 setb summary "$block" -r "$dll" --probes B --all
awk '/^method /{ split($4, w, "="); split($8, f, "="); t += w[2]; i += w[2] * f[2] }
     /^SUMMARY /{ split($3, w, "="); split($4, f, "=")
                  if (w[2] != t || (i / t - f[2]) ^ 2 > 1e-12) print "bad", t, w[2], i / t, f[2] }' \
  "$tmp/out" > "$tmp/check"
[ -s "$tmp/check" ] && fail "setb: $(cat "$tmp/check")"
grep -q '^SUMMARY methods=3 weight=[0-9]* inferred=0\.[0-9]*[1-9]' "$tmp/out" || fail "setb: nothing inferred"

# --method keeps the methods it names; naming none is an error
expect 0 method summary "$block" -r "$dll" -m 'Program::G*'
has method "SUMMARY methods=1 weight=458 inferred=0.000000"
expect 1 no-method summary "$block" -r "$dll" -m Nothing
err_has no-method "$block: --method 'Nothing' names none of its 469 methods"
one_line no-method
expect 2 usage summary "$block"
[ "$failures" = 0 ]
