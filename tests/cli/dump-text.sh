#!/bin/sh
# SPDX-License-Identifier: MIT
#
# dump-text.sh: "pgo-reconstruct dump-text": exit codes, stdout and stderr
# on a real runtime dump, a damaged one, a missing one, and bad usage.

set -u
cli_name=dump-text
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

tab=$(printf '\t')

# A real dump, in the record format every input of "dump" prints in
# (tools/cmd-dump.c): hotloop's Spin ran its loop body 50000 times.
expect 0 good dump-text "$data/hotloop/block.pgo.txt"
grep -qx "method${tab}Program.Spin${tab}sig=int64  (int32)${tab}module=-${tab}token=-${tab}ilsize=34${tab}codehash=0xF8ECBA45${tab}methodhash=0xFF565334${tab}records=7" "$tmp/out" \
  || fail "good: no Spin method line"
awk -F "$tab" '$1 == "method" { m = $2 } $1 == "record" { print m "\t" $0 }' "$tmp/out" \
  | grep -qx "Program.Spin${tab}record${tab}BasicBlockIntCount${tab}il=0x7${tab}other=0x0${tab}count=1${tab}50000" \
  || fail "good: no Spin record at IL 7 with 50000"
tail -n 1 "$tmp/out" | grep -qx "total: $(grep -c '^method' "$tmp/out") methods with PGO data" || fail "good: no total line"
# dump prints a text dump alike
"$tool" dump "$data/hotloop/block.pgo.txt" 2>/dev/null | cmp -s - "$tmp/out" || fail "good: dump prints it otherwise"
[ "$(grep -c '^method' "$tmp/out")" = "$(sed -n 's/^\*\*\* START PGO Data, max index = \([0-9]*\) \*\*\*$/\1/p' "$data/hotloop/block.pgo.txt")" ] \
  || fail "good: method lines differ from the header's max index"
[ -s "$tmp/err" ] && fail "good: wrote to stderr"

expect 0 filter dump-text --method Program.Spin "$data/hotloop/edge.pgo.txt"
[ "$(wc -l < "$tmp/out")" = 5 ] || fail "filter: expected 1 method, 3 edge records and the total, got $(wc -l < "$tmp/out") lines"
[ "$(grep -c "^method${tab}Program.Spin${tab}" "$tmp/out")" = 1 ] || fail "filter: not Spin's method line"
[ "$(grep -c "^record${tab}EdgeIntCount${tab}" "$tmp/out")" = 3 ] || fail "filter: not 3 edge records"
grep -qx "record${tab}EdgeIntCount${tab}il=0x18${tab}other=0x1c${tab}count=1${tab}50000" "$tmp/out" || fail "filter: no edge 24 -> 28"
has filter "total: 1 methods with PGO data"
cp "$tmp/out" "$tmp/spin"
# the same method by Type::Name and by bare name; a selector that names
# nothing is an error naming the file and the selector
expect 0 filter-type dump-text -m Program::Spin "$data/hotloop/edge.pgo.txt"
cmp -s "$tmp/out" "$tmp/spin" || fail "filter-type: not Spin alone"
expect 0 filter-bare dump-text -m Spin "$data/hotloop/edge.pgo.txt"
cmp -s "$tmp/out" "$tmp/spin" || fail "filter-bare: not Spin alone"
expect 1 filter-none dump-text -m Program.Nope "$data/hotloop/edge.pgo.txt"
err_has filter-none "$data/hotloop/edge.pgo.txt: --method 'Program.Nope' names none of its "
one_line filter-none
[ -s "$tmp/out" ] && fail "filter-none: wrote to stdout"

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
