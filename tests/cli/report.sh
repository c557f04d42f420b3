#!/bin/sh
# SPDX-License-Identifier: MIT
#
# report.sh: "show --trace" and "report" on the branches fixture's real
# trace, probe set A, against counts derived by hand from
# tests/fixtures/src/branches: Grid calls Classify once per v = 0..199;
# v % 7 is 0 for 29 of them, 1 or 2 for 58, 3 for 29, 4 or 5 for 56 and 6
# for 28.  Grid's loops run 10 x 20 times; (i & 1) == 0 holds 5 times.
# Then the report's legend, its grouped counts and its options, on this
# fixture and on the hotloop and exceptions fixtures.
set -u
cli_name=report
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

dll=$data/branches/branches.dll
trace=$data/branches/block.nettrace
# the digit group separator of the page and the pictures: U+202F
sep=$(printf '\342\200\257')

# legend_names_marks NAME PAGE: the legend of PAGE names every mark that
# the boxes of its pictures show (their text lines after the bold name).
legend_names_marks () {
  sed -n 's/.*fill="#1a1a1a">\([^<]*\)<\/text>.*/\1/p' "$2" | grep -v '^BB[0-9]' >"$tmp/lines"
  [ -s "$tmp/lines" ] || fail "$1: no box lines in $2"
  LC_ALL=C awk '
    sub(/; [0-9][^ ]* left by exceptions$/, "") { print "; <var>N</var> left by exceptions" }
    /^[0-9]/ { print "<var>N</var> <var>provenance</var>" }
    {
      for (i = 1; i <= NF; i++) {
        t = $i
        if (t ~ /^[0-9]/) continue
        if (t ~ /^\[[0-9a-f]+\.\.[0-9a-f]+\)$/) t = "[<var>START</var>..<var>END</var>)"
        else if (t ~ /^(try|hnd)[0-9]+$/) sub(/[0-9]+$/, "<var>N</var>", t)
        else if (t ~ /^\[.*,.*\]$/) t = "[<var>min</var>,<var>max</var>]"
        else if (t ~ /:[0-9]+-[0-9]+$/) t = "<var>FILE</var>:<var>FIRST</var>-<var>LAST</var>"
        else if (t ~ /:[0-9]+$/) t = "<var>FILE</var>:<var>LINE</var>"
        print t
      }
    }' "$tmp/lines" | sort -u >"$tmp/marks"
  while IFS= read -r mark; do
    grep -qF "<samp>$mark</samp>" "$2" || fail "$1: the legend does not name '$mark'"
  done <"$tmp/marks"
  # each provenance a box shows has its colour in the legend
  for prov in $(sed -n 's/^[0-9][^ ]* \([a-z-]*\).*/\1/p' "$tmp/lines" | sort -u); do
    grep -A1 'class="key"' "$2" | grep -qF "<samp>$prov</samp>" || fail "$1: no colour for '$prov' in the legend"
  done
}

expect 0 show-classify show --assembly "$dll" --method Classify --trace "$trace" --probes A
cat >"$tmp/want" <<'WANT'
# Program::Classify(int32)
BB01 [0000..0007) COND pA pB Program.cs:11-12 | 200 observed
BB02 [0007..000a) RETURN Program.cs:13 | 29 exact-if-no-escape
BB03 [000a..000e) COND pA Program.cs:14 | 171 observed
BB04 [000e..0011) RETURN Program.cs:15 | 58 exact
BB05 [0011..0015) COND pA Program.cs:16 | 113 observed
BB06 [0015..0018) RETURN Program.cs:17 | 29 exact
BB07 [0018..001c) COND pA Program.cs:18 | 84 observed
BB08 [001c..001f) RETURN Program.cs:19 | 56 exact
BB09 [001f..0022) RETURN pA Program.cs:21 | 28 observed
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
has show-grid "BB06 [0026..002a) ALWAYS Program.cs:35 | 4 inferred"
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
# the arcs' counts are drawn after every line and box, on a white halo,
# so that no line runs through one: 8 of them, after the last box
expect 0 show-svg-counts show --assembly "$dll" --method Classify --trace "$trace" --probes A --format svg
[ "$(grep -c 'stroke="#fff" stroke-width="[0-9]*" stroke-linejoin="round" paint-order="stroke">' "$tmp/out")" = 8 ] \
  || fail "show-svg-counts: not 8 counts on a halo"
last_box=$(grep -n '<rect' "$tmp/out" | tail -n 1 | cut -d: -f1)
first_count=$(grep -n 'paint-order="stroke"' "$tmp/out" | head -n 1 | cut -d: -f1)
[ "${last_box:-0}" -lt "${first_count:-0}" ] || fail "show-svg-counts: a count is drawn under a box or line"

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
# + 58 + 113 + 29 + 84 + 56 + 28), Grid 457 with 4 inferred (0.9%), Main 1.
# -o names the directory; --html, its older spelling, writes the same page
expect 0 report report -o "$tmp/r" --reference "$dll" --probes A "$trace"
has report "report: 3 methods; 19 blocks: 12 observed, 6 exact, 1 inferred"
has report "report: wrote $tmp/r/index.xhtml"
page=$tmp/r/index.xhtml
[ -f "$page" ] || fail "report: no $page"
grep -qF "3 methods; 19 blocks: 12 observed, 6 exact, 1 inferred; weight 1${sep}226, 0.3% of it inferred." "$page" \
  || fail "report: totals"
expect 0 report-html report --html "$tmp/rh" --reference "$dll" --probes A "$trace"
has report-html "report: wrote $tmp/rh/index.xhtml"
cmp -s "$page" "$tmp/rh/index.xhtml" || fail "report-html: --html wrote another page than -o"
expect 0 report-output report --output="$tmp/ro" --html "$tmp/ro/" --reference "$dll" --probes A "$trace"
has report-output "report: wrote $tmp/ro/index.xhtml"
expect 2 report-two-dirs report -o "$tmp/r2" --html "$tmp/r3" --reference "$dll" "$trace"
[ "$(head -n 1 "$tmp/err")" = "pgo-reconstruct: -o $tmp/r2 and --html $tmp/r3 name two directories: give one" ] \
  || fail "report-two-dirs: $(cat "$tmp/err")"
[ -e "$tmp/r2" ] || [ -e "$tmp/r3" ] && fail "report-two-dirs: made a directory"
expect 0 report-help report --help
grep -q -- '-o, --output=DIR  *Directory to write index.xhtml into' "$tmp/out" || fail "report-help: no -o"
grep -q -- '--html=DIR  *The same as --output' "$tmp/out" || fail "report-help: no --html"

# the legend: under the totals, before the rankings, naming each mark
legend=$(grep -n '<h2>Legend</h2>' "$page" | cut -d: -f1)
tables=$(grep -n '<h2>Methods by weight</h2>' "$page" | cut -d: -f1)
totals=$(grep -n '<p class="totals">' "$page" | cut -d: -f1)
[ -n "$legend" ] && [ "${totals:-0}" -lt "$legend" ] && [ "$legend" -lt "${tables:-0}" ] \
  || fail "report: no legend between the totals and the rankings"
for line in \
  "<p>Counts of four digits or more are grouped by threes with a narrow space: 1${sep}234${sep}567." \
  '<samp>BB<var>nn</var></samp>' \
  '<samp>[<var>START</var>..<var>END</var>)</samp>' \
  '<dd>ends in a conditional branch: to its target, or on to the next block</dd>' \
  '<dd>ends going on to one block: a br, or falling into the next block</dd>' \
  '<dd>ends in a leave out of a try or a catch, through the finally blocks it crosses</dd>' \
  '<samp>try<var>N</var></samp>' \
  '<samp>hnd<var>N</var></samp>' \
  '<dd>its first instruction is a probe of set A: branch, switch and leave targets (--probes A)</dd>' \
  '<dd>its first instruction is a probe of set B: loop heads (--probes B)</dd>' \
  '<samp><var>N</var> <var>provenance</var></samp>' \
  '<samp>[<var>min</var>,<var>max</var>]</samp>' \
  '<samp>; <var>N</var> left by exceptions</samp>' \
  '<samp>exact-from-calls</samp>' \
  "<dd>dashed: an exception's flow into a catch or a filter</dd>" \
  '<dd>faint: it carries nothing (count 0)</dd>' \
  '<dd>wider the more flow it carries</dd>' \
  "<dd>the sum of its blocks' counts: how many blocks it ran in all, a measure of the time spent in it</dd>" \
  '<dd>how many times the method was entered</dd>' \
  '<dd>the part of its weight in inferred blocks</dd>'; do
  grep -qF -- "$line" "$page" || fail "report: the legend lacks '$line'"
done
for kind in ALWAYS COND SWITCH LEAVE RETURN THROW EHFINALLYRET EHFAULTRET EHFILTERRET \
            internal unreachable pA pB observed adjusted exact exact-if-no-escape inferred structure \
            '#' method calls weight blocks 'inferred share'; do
  grep -qF "<samp>$kind</samp>" "$page" || fail "report: the legend does not name $kind"
done
# the legend's dashes are the pictures' (stroke-dasharray="5 3")
grep -qF 'background:repeating-linear-gradient(90deg,#4d4d4d 0 5px,transparent 5px 8px)' "$page" \
  || fail "report: the legend's dashed arc differs from the pictures'"
legend_names_marks report "$page"
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

# counts of four digits or more, grouped in the tables and the pictures:
# hotloop's Spin weighs 200003; its loop blocks run 50000 and 25000 times.
# No text of the page shows one ungrouped (hex offsets, names and anchors
# are not counts)
h=$data/hotloop
expect 0 report-hot report -o "$tmp/rhot" --reference "$h/hotloop.dll" --probes A "$h/block.nettrace"
page=$tmp/rhot/index.xhtml
grep -qF "<td class=\"n\">200${sep}003</td>" "$page" || fail "report-hot: Spin's weight not grouped"
grep -qF "1 calls, weight 200${sep}003;" "$page" || fail "report-hot: the section's weight not grouped"
grep -qF ">50${sep}000 observed</text>" "$page" || fail "report-hot: a block's count not grouped"
grep -qF ">25${sep}000</text>" "$page" || fail "report-hot: an arc's count not grouped"
grep -qF "<title>BB02: entered 50${sep}000 observed</title>" "$page" || fail "report-hot: a tooltip's count not grouped"
ungrouped=$(sed '/<style>/d' "$page" | grep -o '>[^<]*<' | LC_ALL=C grep -E '(^|[^0-9A-Za-z._])[1-9][0-9]{3}')
[ -z "$ungrouped" ] || fail "report-hot: ungrouped counts: $ungrouped"
legend_names_marks report-hot "$page"
# the exceptions fixture's pictures: regions, leaves, throws, escapes
e=$data/exceptions
expect 0 report-eh report -o "$tmp/reh" --reference "$e/exceptions.dll" --probes B "$e/block.nettrace"
grep -q 'try0' "$tmp/reh/index.xhtml" || fail "report-eh: no try region drawn"
legend_names_marks report-eh "$tmp/reh/index.xhtml"

# refusals: no -o, a directory that cannot be made, nothing to report
expect 2 report-no-output report --reference "$dll" "$trace"
err_has report-no-output "give -o DIR, the directory to write index.xhtml into"
printf x >"$tmp/file"
expect 1 report-bad-dir report --html "$tmp/file/r" --reference "$dll" "$trace"
err_has report-bad-dir "$tmp/file/r: cannot make the directory"
one_line report-bad-dir
[ -e "$tmp/file/r" ] && fail "report-bad-dir: left output"
expect 1 report-nothing report --html "$tmp/n" --reference "$data/hotloop/hotloop.dll" "$trace"
[ -e "$tmp/n" ] && fail "report-nothing: made $tmp/n"

[ "$failures" = 0 ] && echo "cli-report: ok"
[ "$failures" = 0 ]
