#!/bin/sh
# SPDX-License-Identifier: MIT
#
# xml.sh: the XML interchange form: "export --format xml", and every
# command that reads profiles reading it back; the round trip keeps every
# record and instantiation; a document the schema rejects, or that is not
# well-formed, fails in one line naming the line.
set -u
cli_name=xml
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

ge="--reference $data/generics/generics.dll"
trace=$data/generics/block.nettrace
# shellcheck disable=SC2086
expect 0 export export --format xml --as-recorded $ge -o "$tmp/g.xml" "$trace"
head -n 2 "$tmp/g.xml" | grep -q '^<profiles version="1" xmlns="urn:pgo-tools:profiles:1">$' \
  || fail "export: no profiles element"
grep -q 'method-args="' "$tmp/g.xml" || fail "export: no instantiation written"
# the document, read back, writes the .mibc the trace writes
mkdir "$tmp/a" "$tmp/b"
# shellcheck disable=SC2086
expect 0 from-trace create-mibc --as-recorded $ge -o "$tmp/a/o.mibc" "$trace"
# shellcheck disable=SC2086
expect 0 from-xml create-mibc --as-recorded $ge -o "$tmp/b/o.mibc" "$tmp/g.xml"
cmp -s "$tmp/a/o.mibc" "$tmp/b/o.mibc" || fail "from-xml: differs from the trace's .mibc"
# and reconstructs as the trace does
# shellcheck disable=SC2086
expect 0 rec-trace create-mibc --probes A $ge -o "$tmp/a/r.mibc" "$trace"
# shellcheck disable=SC2086
expect 0 rec-xml create-mibc --probes A $ge -o "$tmp/b/r.mibc" "$tmp/g.xml"
cmp -s "$tmp/a/r.mibc" "$tmp/b/r.mibc" || fail "rec-xml: differs from the trace's .mibc"
expect 0 dump dump "$tmp/g.xml"
[ "$(grep -c "^method$(printf '\t')" "$tmp/out")" = "$(grep -c '<method ' "$tmp/g.xml")" ] || fail "dump: method count"

# invalid: a token the schema rejects, on line 3
sed '3s/token="0x[0-9a-f]*"/token="zz"/' "$tmp/g.xml" > "$tmp/bad.xml"
# shellcheck disable=SC2086
expect 1 invalid create-mibc $ge -o "$tmp/x.mibc" "$tmp/bad.xml"
err_has invalid "$tmp/bad.xml:3: not a valid profile document: "; one_line invalid
[ -e "$tmp/x.mibc" ] && fail "invalid: wrote output"
# not well-formed: cut inside a record
head -c 600 "$tmp/g.xml" > "$tmp/cut.xml"
expect 1 cut dump "$tmp/cut.xml"
err_has cut "$tmp/cut.xml:"; err_has cut ": not well-formed XML"; one_line cut
# an element the schema does not know
sed '3s/<method /<methd /' "$tmp/g.xml" | sed '0,/<\/method>/s//<\/methd>/' > "$tmp/unknown.xml"
expect 1 unknown dump "$tmp/unknown.xml"
err_has unknown "$tmp/unknown.xml:3: not a valid profile document"; one_line unknown
# export names the format by the output's suffix when --format does not
expect 0 suffix-xml export --as-recorded --reference "$data/branches/branches.dll" -o "$tmp/s.xml" \
  "$data/branches/block.nettrace"
head -n 1 "$tmp/s.xml" | grep -qFx '<?xml version="1.0" encoding="UTF-8"?>' || fail "suffix-xml: not XML"
expect 0 suffix-txt export --as-recorded --reference "$data/branches/branches.dll" -o "$tmp/s.txt" \
  "$data/branches/block.nettrace"
head -n 1 "$tmp/s.txt" | grep -q '^\*\*\* START PGO Data, max index = ' || fail "suffix-txt: not the text format"
# dump reads the text format too, as dump-text prints it, and as JSON
expect 0 dump-txt dump "$data/branches/block.pgo.txt"
"$tool" dump-text "$data/branches/block.pgo.txt" | cmp -s - "$tmp/out" || fail "dump-txt: not dump-text's lines"
expect 0 dump-txt-json dump --json "$data/branches/block.pgo.txt"
grep -qF '{"name":"System.Threading.Monitor.ExitIfLockTaken","signature":"void  (class System.Object,bool&)","code_hash":1473390282,"method_hash":307894140,"il_size":33,"records":[{"kind":65,"kind_name":"BasicBlockIntCount","il":0,"count":1,"other":0,"values":[1]}' "$tmp/out" \
  || fail "dump-txt-json: first method: $(head -c 300 "$tmp/out")"
[ "$failures" = 0 ]
