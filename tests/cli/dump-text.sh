#!/bin/sh
# SPDX-License-Identifier: MIT
#
# dump-text.sh: "pgo-reconstruct dump-text": exit codes, stdout and stderr
# on a real runtime dump, a damaged one, a missing one, and bad usage.

set -u
cli_name=dump-text
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

tab=$(printf '\t')

# A real dump: hotloop's Spin ran its loop body 50000 times.
expect 0 good dump-text "$data/hotloop/block.pgo.txt"
grep -q "^record${tab}[0-9]*${tab}Program.Spin${tab}BasicBlockIntCount${tab}il=7${tab}count=1${tab}other=0${tab}50000\$" "$tmp/out" \
  || fail "good: no Spin record at IL 7 with 50000"
[ "$(grep -c '^method' "$tmp/out")" = "$(sed -n 's/^\*\*\* START PGO Data, max index = \([0-9]*\) \*\*\*$/\1/p' "$data/hotloop/block.pgo.txt")" ] \
  || fail "good: method lines differ from the header's max index"
[ -s "$tmp/err" ] && fail "good: wrote to stderr"

expect 0 filter dump-text --method Program.Spin "$data/hotloop/edge.pgo.txt"
[ "$(wc -l < "$tmp/out")" = 4 ] || fail "filter: expected 1 method and 3 edge records, got $(wc -l < "$tmp/out") lines"
grep -q "${tab}EdgeIntCount${tab}il=24${tab}count=1${tab}other=28${tab}50000\$" "$tmp/out" || fail "filter: no edge 24 -> 28"

# A damaged dump: the last line lost its line break.
head -c -1 "$data/recursion/block.pgo.txt" > "$tmp/bad.txt"
expect 1 truncated dump-text "$tmp/bad.txt"
grep -q "^pgo-reconstruct: $tmp/bad.txt: line [0-9]* (offset 0x[0-9a-f]*): truncated line" "$tmp/err" \
  || fail "truncated: stderr is '$(cat "$tmp/err")'"
[ -s "$tmp/out" ] && fail "truncated: wrote to stdout"
[ "$(wc -l < "$tmp/err")" = 1 ] || fail "truncated: more than one error line"

printf 'not a dump\n' > "$tmp/junk.txt"
expect 1 junk dump-text "$tmp/junk.txt"
grep -q "^pgo-reconstruct: $tmp/junk.txt: line 1 (offset 0x0): not a text PGO dump" "$tmp/err" \
  || fail "junk: stderr is '$(cat "$tmp/err")'"

expect 1 missing dump-text "$tmp/none.txt"
grep -q "^pgo-reconstruct: $tmp/none.txt: " "$tmp/err" || fail "missing: stderr is '$(cat "$tmp/err")'"

# Usage errors.
expect 2 no-file dump-text
grep -q "Try 'pgo-reconstruct dump-text --help'" "$tmp/err" || fail "no-file: no --help hint"
expect 2 two-files dump-text "$tmp/junk.txt" "$tmp/junk.txt"
expect 2 bad-option dump-text --no-such-option "$tmp/junk.txt"
expect 0 help dump-text --help
grep -q -- "--method" "$tmp/out" || fail "help: no --method"
expect 0 command-list --help
grep -q "dump-text" "$tmp/out" || fail "command-list: no dump-text"

[ "$failures" = 0 ] || exit 1
echo "dump-text.sh: all checks passed"
