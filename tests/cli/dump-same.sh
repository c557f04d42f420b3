#!/bin/sh
# SPDX-License-Identifier: MIT
#
# dump-same.sh: "pgo-reconstruct dump" prints one record format for every
# input (tools/cmd-dump.c): the same profiles read from a trace, from a
# .mibc written from it (create-mibc --as-recorded) and from a text PGO
# export of it (export --format text --as-recorded) print the same record
# lines, line for line, in the same order; with --reference the trace's
# and the .mibc's method lines are the same too, and the text export's
# carry the same IL sizes and hashes.  What an exported file lost shows,
# and only that: a .mibc keeps no type handle's identity (UNKNOWN).
# --method selects alike in the three, and naming nothing is an error.
set -u
cli_name=dump-same
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

tab=$(printf '\t')
hl=$data/hotloop
dll=$hl/hotloop.dll
trace=$hl/edge.nettrace

expect 0 mibc create-mibc --as-recorded -r "$dll" -o "$tmp/a.mibc" "$trace"
expect 0 text export --format text --as-recorded -r "$dll" -o "$tmp/a.txt" "$trace"

# records FILE: the lines of FILE other than method, module and total
# lines, each a record line.
records () { grep -v -e "^method${tab}" -e "^module${tab}" -e '^total: ' "$1"; }

# The .mibc and the text export hold the trace's three app methods alone:
# their whole dumps agree but for the method lines (a text dump names
# methods as the runtime does, and no module).  Before the one format, a
# .mibc's record printed "  kind=0x181 il=24 count=1 other=0x1c values=50000"
# and a text dump's "record<TAB>0<TAB>Program.Spin<TAB>EdgeIntCount<TAB>il=24
# <TAB>count=1<TAB>other=28<TAB>50000", so this failed.
expect 0 dump-mibc dump "$tmp/a.mibc"
records "$tmp/out" >"$tmp/mibc.rec"
cp "$tmp/out" "$tmp/mibc.out"
expect 0 dump-text dump "$tmp/a.txt"
records "$tmp/out" >"$tmp/text.rec"
cp "$tmp/out" "$tmp/text.out"
diff "$tmp/mibc.rec" "$tmp/text.rec" >"$tmp/diff" || fail "mibc-text: records differ: $(head -n 4 "$tmp/diff")"
[ "$(grep -c "^record${tab}EdgeIntCount${tab}il=0x[0-9a-f]*${tab}other=0x[0-9a-f]*${tab}count=1${tab}[0-9]*\$" "$tmp/mibc.rec")" = 8 ] \
  || fail "mibc-text: not Spin's, Tiny's and Main's 3 + 2 + 3 edge records: $(cat "$tmp/mibc.rec")"
[ "$(tail -n 1 "$tmp/mibc.out")" = "total: 3 methods with PGO data" ] || fail "mibc: total: $(tail -n 1 "$tmp/mibc.out")"
[ "$(tail -n 1 "$tmp/text.out")" = "total: 3 methods with PGO data" ] || fail "text: total: $(tail -n 1 "$tmp/text.out")"

# The trace's app methods ('hotloop!*'): the same records, exactly.
expect 0 dump-trace dump -m 'hotloop!*' "$trace"
records "$tmp/out" >"$tmp/trace.rec"
cp "$tmp/out" "$tmp/trace.out"
diff "$tmp/trace.rec" "$tmp/mibc.rec" >"$tmp/diff" || fail "trace-mibc: records differ: $(head -n 4 "$tmp/diff")"
diff "$tmp/trace.rec" "$tmp/text.rec" >"$tmp/diff" || fail "trace-text: records differ: $(head -n 4 "$tmp/diff")"
grep -qx "record${tab}EdgeIntCount${tab}il=0x18${tab}other=0x1c${tab}count=1${tab}50000" "$tmp/trace.rec" \
  || fail "trace: no Spin edge 0x18 -> 0x1c of 50000"

# Method by method, by one selector: the same records from each input.
for m in Program::Spin Program::Tiny Program::Main; do
  for f in "$trace" "$tmp/a.mibc" "$tmp/a.txt"; do
    expect 0 "select-$m" dump -m "$m" "$f"
    [ "$(grep -c "^method${tab}" "$tmp/out")" = 1 ] || fail "select-$m: $f: not one method"
    records "$tmp/out" >"$tmp/$(basename "$f").one"
  done
  cmp -s "$tmp/edge.nettrace.one" "$tmp/a.mibc.one" || fail "select-$m: trace and .mibc records differ"
  cmp -s "$tmp/edge.nettrace.one" "$tmp/a.txt.one" || fail "select-$m: trace and text records differ"
done

# With --reference, the trace's and the .mibc's method lines are the same
# as well (canonical name and signature, token, IL size and the text
# format's hashes), and they carry the text export's IL size and hashes.
# Only the module lines differ: the trace knows its module's PDB identity,
# the reference its MVID.
expect 0 ref-trace dump -r "$dll" -m 'hotloop!*' "$trace"
grep -v "^module${tab}" "$tmp/out" >"$tmp/trace.ref"
expect 0 ref-mibc dump -r "$dll" "$tmp/a.mibc"
grep -v "^module${tab}" "$tmp/out" >"$tmp/mibc.ref"
diff "$tmp/trace.ref" "$tmp/mibc.ref" >"$tmp/diff" || fail "ref: trace and .mibc differ: $(head -n 4 "$tmp/diff")"
grep -qx "method${tab}Program::Spin${tab}sig=(int32)${tab}module=hotloop${tab}token=0x06000001${tab}ilsize=34${tab}codehash=0xF8ECBA45${tab}methodhash=0xFF565334${tab}records=3" \
  "$tmp/trace.ref" || fail "ref: no Spin method line: $(grep "^method" "$tmp/trace.ref")"
hashes () { awk -F "$tab" '$1 == "method" { print $6, $7, $8, $9 }' "$1"; }
[ "$(hashes "$tmp/trace.ref")" = "$(hashes "$tmp/text.out")" ] \
  || fail "ref: IL sizes and hashes differ from the text export's: $(hashes "$tmp/text.out")"

# Handles (iterators: class probes of app types).  With --reference the
# trace names each type as the text export does; a .mibc keeps only that
# a handle was set (UNKNOWN): that, and nothing else, differs.
it=$data/iterators
expect 0 it-mibc create-mibc --as-recorded -r "$it" -o "$tmp/it.mibc" "$it/edge.nettrace"
expect 0 it-text export --format text --as-recorded -r "$it" -o "$tmp/it.txt" "$it/edge.nettrace"
expect 0 it-dump-trace dump -r "$it" -m 'iterators!*' "$it/edge.nettrace"
records "$tmp/out" >"$tmp/it-trace.rec"
expect 0 it-dump-text dump "$tmp/it.txt"
records "$tmp/out" >"$tmp/it-text.rec"
expect 0 it-dump-mibc dump "$tmp/it.mibc"
records "$tmp/out" >"$tmp/it-mibc.rec"
grep -q "^record${tab}HandleHistogramTypes${tab}.*${tab}Program+<Evens>d__0, iterators, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null${tab}" \
  "$tmp/it-trace.rec" || fail "it: no handle named as the runtime names it"
diff "$tmp/it-trace.rec" "$tmp/it-text.rec" >"$tmp/diff" || fail "it: trace and text records differ: $(head -n 4 "$tmp/diff")"
awk -F "$tab" -v OFS="$tab" '$2 ~ /^HandleHistogram(Types|Methods)$/ { for (i = 6; i <= NF; i++) if ($i != "NULL") $i = "UNKNOWN" } 1' \
  "$tmp/it-trace.rec" >"$tmp/it-trace.unknown"
cmp -s "$tmp/it-trace.rec" "$tmp/it-trace.unknown" && fail "it: no named handle to lose"
diff "$tmp/it-trace.unknown" "$tmp/it-mibc.rec" >"$tmp/diff" || fail "it: trace and .mibc differ beyond handle names: $(head -n 4 "$tmp/diff")"

# --method naming nothing: exit 1, one line naming the file and the
# selector, nothing on stdout; --method and --raw exclude each other.
for f in "$trace" "$tmp/a.mibc" "$tmp/a.txt"; do
  expect 1 none dump -m Program::Nope "$f"
  err_has none "$f: --method 'Program::Nope' names none of its "
  one_line none
  [ -s "$tmp/out" ] && fail "none: $f: wrote to stdout"
done
expect 1 none-json dump --json -m Program::Nope "$tmp/a.mibc"
err_has none-json "$tmp/a.mibc: --method 'Program::Nope' names none of its 3 methods"
expect 0 json-one dump --json -m 0x06000001 -r "$dll" "$tmp/a.mibc"
grep -q '"total":1}$' "$tmp/out" || fail "json-one: $(cat "$tmp/out")"
expect 2 raw-method dump --raw -m Program::Spin "$trace"

[ "$failures" = 0 ]
