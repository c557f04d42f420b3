#!/bin/sh
# SPDX-License-Identifier: MIT
#
# report.sh: "show --trace" and "report" on the branches fixture's real
# trace, probe set A, against counts derived by hand from
# tests/fixtures/src/branches: Grid calls Classify once per v = 0..199;
# v % 7 is 0 for 29 of them, 1 or 2 for 58, 3 for 29, 4 or 5 for 56 and 6
# for 28.  Grid's loops run 10 x 20 times; (i & 1) == 0 holds 5 times.
set -u
cli_name=report
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

dll=$data/branches/branches.dll
trace=$data/branches/block.nettrace

expect 0 show-classify show --assembly "$dll" --method Classify --trace "$trace" --probes A
cat >"$tmp/want" <<'WANT'
# Program::Classify(int32)
BB01 [0000..0007) COND pA pB | 200 observed
BB02 [0007..000a) RETURN | 29 exact-if-no-escape
BB03 [000a..000e) COND pA | 171 observed
BB04 [000e..0011) RETURN | 58 exact
BB05 [0011..0015) COND pA | 113 observed
BB06 [0015..0018) RETURN | 29 exact
BB07 [0018..001c) COND pA | 84 observed
BB08 [001c..001f) RETURN | 56 exact
BB09 [001f..0022) RETURN pA | 28 observed
BB01 -> BB02 29 exact-if-no-escape
BB01 -> BB03 171 exact
BB03 -> BB04 58 exact
BB03 -> BB05 113 exact
BB05 -> BB06 29 exact
BB05 -> BB07 84 exact
BB07 -> BB08 56 exact
BB07 -> BB09 28 exact
WANT
diff -u "$tmp/want" "$tmp/out" || fail "show-classify: counts differ"

# Grid: the loop back arcs exact; the (i & 1) split has no probe, and the
# flow's choice of 5 and 5 is labelled inferred
expect 0 show-grid show --assembly "$dll" --method Grid --trace "$trace" --probes A
has show-grid "BB04 -> BB03 200 exact"
has show-grid "BB08 -> BB02 10 exact"
has show-grid "BB06 [0026..002a) ALWAYS | 4 inferred"
has show-grid "BB05 -> BB06 4 inferred"

# the picture: an SVG document with a tooltip per block and per arc
expect 0 show-svg show --assembly "$dll" --method Classify --trace "$trace" --probes A --format svg
head -n 1 "$tmp/out" | grep -qFx '<?xml version="1.0" encoding="UTF-8"?>' || fail "show-svg: no XML declaration"
grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$tmp/out" || fail "show-svg: no svg element"
[ "$(grep -c '<title>BB0[1-9]: entered ' "$tmp/out")" = 9 ] || fail "show-svg: not 9 block tooltips"
[ "$(grep -c '<title>BB0[1-9] -&gt; BB0[1-9] ' "$tmp/out")" = 8 ] || fail "show-svg: not 8 arc tooltips"
expect 0 show-dot show --assembly "$dll" --method Classify --trace "$trace" --probes A --format dot
has show-dot '  BB01 -> BB03 [color="#2a7d36", label="171"];'
# without counts, the structure
expect 0 show-svg-plain show --assembly "$dll" --method Classify --format svg
grep -q 'no counts' "$tmp/out" || fail "show-svg-plain: no legend for a graph without counts"

# refusals: counts without an assembly, options without counts, a method
# the trace has no counts of
expect 2 show-no-asm show --il-hex 2A --trace "$trace"
err_has show-no-asm "--trace and --store need --assembly"
expect 2 show-probes show --assembly "$dll" --method Classify --probes A
# (the edge run's: minimal profiling leaves a single-block method out)
expect 1 show-main show --assembly "$dll" --method Main --trace "$data/branches/edge.nettrace"
err_has show-main "$data/branches/edge.nettrace: no block counts of Program::Main() (token 0x06000003) of $dll"
one_line show-main

# report: the summary, then the page; Classify weighs 768 (200 + 29 + 171
# + 58 + 113 + 29 + 84 + 56 + 28), Grid 457 with 4 inferred (0.9%), Main 1
expect 0 report report --html "$tmp/r" --reference "$dll" --probes A "$trace"
has report "report: 3 methods; 19 blocks: 12 observed, 6 exact, 1 inferred"
has report "report: wrote $tmp/r/index.xhtml"
page=$tmp/r/index.xhtml
[ -f "$page" ] || fail "report: no $page"
grep -qF '3 methods; 19 blocks: 12 observed, 6 exact, 1 inferred; weight 1226, 0.3% of it inferred.' "$page" \
  || fail "report: totals"
# the order of the names: by weight, by inferred share, then the sections
order=$(grep -o '<code>[^<]*</code>' "$page" | sed 's/<[^>]*>//g; s/.*:://' | tr '\n' ' ')
[ "$order" = "Classify Grid Main Grid Classify Main Classify Grid Main " ] || fail "report: order '$order'"
[ "$(grep -c '<svg xmlns' "$page")" = 3 ] || fail "report: not 3 pictures"
grep -q '<td class="n">0.9%</td>' "$page" || fail "report: Grid's inferred share"

# --limit 1: each ranking keeps its first method (Grid leads by inferred
# share), only the heaviest is drawn and linked, and the totals count all
expect 0 report-limit report --limit 1 --html "$tmp/rl" --reference "$dll" --probes A "$trace"
has report-limit "report: 3 methods; 19 blocks: 12 observed, 6 exact, 1 inferred"
page=$tmp/rl/index.xhtml
order=$(grep -o '<code>[^<]*</code>' "$page" | sed 's/<[^>]*>//g; s/.*:://' | tr '\n' ' ')
[ "$order" = "Classify Grid Classify " ] || fail "report-limit: order '$order'"
[ "$(grep -c '<svg xmlns' "$page")" = 1 ] || fail "report-limit: not 1 picture"
[ "$(grep -c '<a href="#m1">' "$page")" = 1 ] || fail "report-limit: not one link, to the drawn method"
grep -qF 'The rankings list the 1 heaviest methods and the 1 with the largest inferred share' "$page" \
  || fail "report-limit: no note of the limit"
[ "$(ls "$tmp/rl")" = index.xhtml ] || fail "report-limit: left $(ls "$tmp/rl")"
expect 2 report-limit-negative report --limit -1 --html "$tmp/rl" --reference "$dll" "$trace"
err_has report-limit-negative "--limit takes a count of methods, not -1"

# the same from a store
expect 0 ingest ingest --store "$tmp/s.store" --reference "$dll" "$trace"
expect 0 report-store report --html "$tmp/rs" --reference "$dll" --probes A --store "$tmp/s.store"
has report-store "report: 3 methods; 19 blocks: 12 observed, 6 exact, 1 inferred"

# refusals: no --html, a directory that cannot be made, nothing to report
expect 2 report-no-html report --reference "$dll" "$trace"
printf x >"$tmp/file"
expect 1 report-bad-dir report --html "$tmp/file/r" --reference "$dll" "$trace"
err_has report-bad-dir "$tmp/file/r: cannot make the directory"
one_line report-bad-dir
[ -e "$tmp/file/r" ] && fail "report-bad-dir: left output"
expect 1 report-nothing report --html "$tmp/n" --reference "$data/hotloop/hotloop.dll" "$trace"
[ -e "$tmp/n" ] && fail "report-nothing: made $tmp/n"

[ "$failures" = 0 ] && echo "cli-report: ok"
[ "$failures" = 0 ]
