#!/bin/sh
# SPDX-License-Identifier: MIT
#
# report-browser.sh: a real browser opens the report.  Headless Chromium
# (Debian's chromium; .ci/run installs it) loads the page of the
# exceptions fixture, probe set B; the test checks that the XHTML parses
# (no parser error in the DOM), that nothing was written to the console,
# that the page names no other resource, that every method's flow graph
# is an SVG element of the DOM, and that the legend stands between the
# totals and the rankings, near the top, so that the screenshot it keeps
# in the build tree, tests/report-screenshot.png (the top 1100 x 2400
# pixels of the page), shows it whole, then the rankings and the first
# flow graph.  Without chromium: SKIP (77).
#
# The console and parser checks are first run on two pages made to fail
# them, so that they are seen to catch what they look for.
set -u
cli_name=report-browser
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$browser" ]; then
  echo "SKIP: chromium not found (Debian: apt-get install chromium)"
  exit 77
fi
shot=${PGO_BUILDDIR:-.}/tests/report-screenshot.png
mkdir -p "$(dirname "$shot")"

# open PAGE ARGS...: the browser's DOM of PAGE on $tmp/dom, its log on
# $tmp/log; ARGS are more browser flags.
open_page () {
  page=$1
  shift
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 "$@" \
    --dump-dom "file://$page" >"$tmp/dom" 2>"$tmp/log" \
    || fail "browser: exit $? on $page: $(tail -n 3 "$tmp/log")"
}
console_lines () { grep -c ':CONSOLE' "$tmp/log"; }

# the controls: a console error, and XHTML that does not parse
mkdir -p "$tmp/bad"
printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
  '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title></head>' \
  '<body><p>c</p><script>console.error("control")</script></body></html>' >"$tmp/bad/console.xhtml"
open_page "$tmp/bad/console.xhtml"
[ "$(console_lines)" -ge 1 ] || fail "control: a console error went unseen"
printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
  '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>c</body></html>' >"$tmp/bad/broken.xhtml"
open_page "$tmp/bad/broken.xhtml"
grep -q 'parsererror' "$tmp/dom" || fail "control: a parser error went unseen"

# the report
d=$data/exceptions
expect 0 report report --html "$tmp/r" --reference "$d/exceptions.dll" --probes B "$d/block.nettrace"
methods=$(sed -n 's/^report: \([0-9]*\) methods;.*/\1/p' "$tmp/out")
[ "${methods:-0}" -gt 0 ] || fail "report: no methods: $(cat "$tmp/out")"
page=$tmp/r/index.xhtml
if grep -Eq '(src|href)="[^#]' "$page"; then fail "report: names another resource"; fi
open_page "$page" --window-size=1100,2400 --screenshot="$shot"
grep -q 'parsererror' "$tmp/dom" && fail "report: the browser's XML parser failed: $(grep -o 'error on line[^<]*' "$tmp/dom")"
[ "$(console_lines)" = 0 ] || fail "report: console messages: $(grep ':CONSOLE' "$tmp/log")"
svgs=$(grep -o '<svg' "$tmp/dom" | wc -l)
[ "$svgs" = "$methods" ] || fail "report: $svgs SVG pictures in the DOM for $methods methods"
grep -q '<h1>' "$tmp/dom" || fail "report: no heading in the DOM"
# the legend, as the browser holds it: under the totals and above the
# first table, with its four groups; the screenshot's first 900 pixels
# hold the heading, the totals and the legend's 60-odd lines
tr -d '\n' <"$tmp/dom" | sed 's/> *</></g; s/<table/\n<table/' | head -n 1 >"$tmp/top"
for want in '<p class="totals">' '<section id="legend" class="legend"><h2>Legend</h2>' \
            '<h3>Columns of the rankings</h3>' '<h3>Colours: where a count comes from</h3>' \
            '<h3>Arcs</h3>' '<h3>Boxes: one per block</h3>'; do
  grep -qF "$want" "$tmp/top" || fail "report: the DOM has no '$want' above the first table"
done
[ "$(grep -o '<dt>' "$tmp/top" | wc -l)" -ge 40 ] || fail "report: the legend has fewer than 40 entries"
# the screenshot: a PNG file the browser wrote
[ "$(od -An -tx1 -N4 "$shot" 2>/dev/null | tr -d ' ')" = 89504e47 ] || fail "report: no PNG screenshot at $shot"

[ "$failures" = 0 ] && echo "cli-report-browser: ok ($methods methods, $svgs pictures; screenshot $shot)"
[ "$failures" = 0 ]
