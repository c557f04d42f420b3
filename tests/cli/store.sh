#!/bin/sh
# SPDX-License-Identifier: MIT
#
# store.sh: "ingest", "merge" and "export --store" on real fixture traces:
# a trace ingested once however often it is given, a store exported as
# its traces are, merges in any order exporting the same bytes, and the
# files that are not stores refused in one line.
set -u
cli_name=store
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

br="--reference $data/branches/branches.dll"
ho="--reference $data/hotloop/hotloop.dll"
sw="--reference $data/switches/switches.dll"

# shellcheck disable=SC2086
expect 0 ingest ingest --store "$tmp/a.store" $br "$data/branches/block.nettrace"
has ingest "ingested $data/branches/block.nettrace: 469 method profiles"
has ingest "store $tmp/a.store: 1 traces, 3 modules, 469 methods, 1870 records"
# the same content again: nothing added
# shellcheck disable=SC2086
expect 0 again ingest --store "$tmp/a.store" $br "$data/branches/block.nettrace"
has again "already in the store: $data/branches/block.nettrace (the same content was ingested before)"
has again "store $tmp/a.store: 1 traces, 3 modules, 469 methods, 1870 records"

# dump: the counts, the trace, its profiles
expect 0 dump dump "$tmp/a.store"
has dump "store $tmp/a.store: 1 traces, 3 modules, 469 methods, 1870 records"
grep -q "^trace [0-9a-f]\{64\} $data/branches/block.nettrace ingested=20[0-9-]*T[0-9:.]*Z methods=469 started=2026-12-03T10:21:45.265Z pid=[0-9]* pointer-size=8 processors=[0-9]* runtime=10.0.12\$" "$tmp/out" \
  || fail "dump: no trace line: $(grep '^trace' "$tmp/out")"
[ "$(grep -c "^method$(printf '\t')" "$tmp/out")" = 469 ] || fail "dump: not 469 methods"

# a store exports what its trace exports
mkdir "$tmp/s" "$tmp/t"
# shellcheck disable=SC2086
expect 0 export-store create-mibc --store "$tmp/a.store" $br --probes A -o "$tmp/s/o.mibc"
err_has export-store "create-mibc: modules: $tmp/a.store: 3 of 469 methods matched a reference by module"
# shellcheck disable=SC2086
expect 0 export-trace create-mibc $br --probes A -o "$tmp/t/o.mibc" "$data/branches/block.nettrace"
cmp -s "$tmp/s/o.mibc" "$tmp/t/o.mibc" || fail "export-store: differs from the trace's .mibc"

# merges of three stores in three orders, one with repeats, export the
# same bytes; the traces of each are counted once
# shellcheck disable=SC2086
expect 0 ingest-b ingest --store "$tmp/b.store" $ho "$data/hotloop/block.nettrace"
# shellcheck disable=SC2086
expect 0 ingest-c ingest --store "$tmp/c.store" $sw "$data/switches/block.nettrace"
expect 0 merge-abc merge -o "$tmp/abc.store" "$tmp/a.store" "$tmp/b.store" "$tmp/c.store"
has merge-abc "merged $tmp/c.store: 1 traces added"
expect 0 merge-cab merge -o "$tmp/cab.store" "$tmp/c.store" "$tmp/a.store" "$tmp/b.store"
expect 0 merge-bca merge -o "$tmp/bca.store" "$tmp/b.store" "$tmp/c.store" "$tmp/a.store" "$tmp/b.store"
has merge-bca "merged $tmp/b.store: 0 traces added"
expect 0 merge-nested merge -o "$tmp/nested.store" "$tmp/cab.store" "$tmp/abc.store"
has merge-nested "merged $tmp/abc.store: 0 traces added"
expect 0 dump-merged dump "$tmp/nested.store"
[ "$(grep -c '^trace .* pointer-size=8 processors=[0-9]* runtime=10.0.12$' "$tmp/out")" = 3 ] \
  || fail "dump-merged: the traces' process lines did not survive the merge"
for m in abc cab bca nested; do
  mkdir "$tmp/$m"
  # shellcheck disable=SC2086
  expect 0 "export-$m" create-mibc --store "$tmp/$m.store" $br $ho $sw --probes B -o "$tmp/$m/o.mibc"
  grep -q "^create-mibc: wrote 8 methods" "$tmp/err" || fail "export-$m: $(head -n 1 "$tmp/err")"
done
for m in cab bca nested; do
  cmp -s "$tmp/abc/o.mibc" "$tmp/$m/o.mibc" || fail "merge $m: exports other bytes than abc"
done
[ -e "$tmp/abc.store.tmp-"* ] 2>/dev/null && fail "merge left a temporary file"

# .mibc files sum method by method, record by record, in any order: the
# branches fixture's probe-A .mibc twice doubles each count (Classify's
# five edge counts 29 58 29 56 28, Grid's 200 4 10 1, in tests/cli/report.sh; Main, a
# single counter, is left out as the JIT would leave it)
expect 0 mibc-a create-mibc --probes A $br -o "$tmp/pa.mibc" "$data/branches/block.nettrace"
expect 0 mibc-b create-mibc --probes B $ho -o "$tmp/pb.mibc" "$data/hotloop/block.nettrace"
expect 0 merge-mibc merge -o "$tmp/aa.mibc" $br "$tmp/pa.mibc" "$tmp/pa.mibc"
has merge-mibc "read $tmp/pa.mibc: 2 method profiles"
has merge-mibc "wrote $tmp/aa.mibc: 2 methods (2 profiles summed into others, 0 with another record layout left out, 0 of another build left out, 0 the writer could not name)"
expect 0 dump-aa dump "$tmp/aa.mibc"
# (each record's values, joined by ",": see tools/cmd-dump.c for the format)
values='BEGIN { FS = "\t" } $1 == "record" { v = $6; for (i = 7; i <= NF; i++) v = v "," $i; print v }'
[ "$(awk "$values" "$tmp/out" | tr '\n' ' ')" = "58 116 58 112 56 400 8 20 2 " ] \
  || fail "merge-mibc: counts $(awk "$values" "$tmp/out" | tr '\n' ' ')"
# shellcheck disable=SC2086
mkdir -p "$tmp/ab" "$tmp/ba"
# shellcheck disable=SC2086
expect 0 merge-ab merge -o "$tmp/ab/m.mibc" $br $ho "$tmp/pa.mibc" "$tmp/pb.mibc"
# shellcheck disable=SC2086
expect 0 merge-ba merge -o "$tmp/ba/m.mibc" $br $ho "$tmp/pb.mibc" "$tmp/pa.mibc"
cmp -s "$tmp/ab/m.mibc" "$tmp/ba/m.mibc" || fail "merge of .mibc files: the order shows in the output"
expect 2 merge-mixed merge -o "$tmp/x.mibc" $br "$tmp/pa.mibc" "$tmp/a.store"
err_has merge-mixed "$tmp/a.store: a store merges into a store"
expect 2 merge-mixed2 merge -o "$tmp/x.store" "$tmp/a.store" "$tmp/pa.mibc"
expect 2 merge-noref merge -o "$tmp/x.mibc" "$tmp/pa.mibc"
[ -e "$tmp/x.mibc" ] && fail "merge-noref: wrote output"

# --save keeps the reconstructions in the store, current until another
# trace comes in; Classify's counts are the ones tests/cli/report.sh
# derives by hand
cp "$tmp/a.store" "$tmp/keep.store"
# shellcheck disable=SC2086
expect 0 save create-mibc --store "$tmp/keep.store" $br --probes A --save -o "$tmp/keep.mibc"
err_has save "create-mibc: kept 3 reconstructions in $tmp/keep.store (probes=A priors=evidence form=edge calls=on)"
expect 0 dump-kept dump "$tmp/keep.store"
grep -q '^reconstruction branches!Program::Classify settings="probes=A priors=evidence form=edge calls=on" made=[0-9T:.Z-]* traces=current adjustments=0 calls-used=0 projected=0 jit-solver=ok records=5$' "$tmp/out" \
  || fail "dump-kept: no Classify line"
has dump-kept "  block BB02 il=0x0007 count=29 exact-if-no-escape"
has dump-kept "  block BB08 il=0x001c count=56 exact"
has dump-kept "store $tmp/keep.store: 1 traces, 3 modules, 469 methods, 1870 records"
# shellcheck disable=SC2086
expect 0 keep-more ingest --store "$tmp/keep.store" $ho "$data/hotloop/block.nettrace"
expect 0 dump-stale dump "$tmp/keep.store"
[ "$(grep -c '^reconstruction .* traces=stale ' "$tmp/out")" = 3 ] || fail "dump-stale: not 3 stale"
# shellcheck disable=SC2086
expect 2 save-trace create-mibc --store "$tmp/keep.store" $br --save -o "$tmp/k.mibc" "$data/branches/block.nettrace"
err_has save-trace "--save keeps the reconstructions in the store they are made from"

# a full disk during an ingest (a file size limit makes the store's writes
# fail): one line, exit 1, and the store holds what it held before
cp "$tmp/a.store" "$tmp/full.store"
ge="$data/generics"
rc=0
(trap '' XFSZ; ulimit -f 64; exec "$tool" ingest --store "$tmp/full.store" --reference "$ge/generics.dll" \
   "$ge/block.nettrace") >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "full-disk: exit $rc, expected 1"
err_has full-disk "$tmp/full.store: cannot commit the ingest of $ge/block.nettrace"
err_has full-disk "the store keeps what it held before"
one_line full-disk
expect 0 full-after dump "$tmp/full.store"
has full-after "store $tmp/full.store: 1 traces, 3 modules, 469 methods, 1870 records"
expect 0 full-again ingest --store "$tmp/full.store" --reference "$ge/generics.dll" "$ge/block.nettrace"
has full-again "ingested $ge/block.nettrace: 540 method profiles"

# not stores: one line each, exit 1, nothing written
printf 'not a database, not at all, and long enough to be read as a header...............' > "$tmp/junk.store"
expect 1 junk create-mibc --store "$tmp/junk.store" $br -o "$tmp/junk.mibc"
err_has junk "$tmp/junk.store: cannot read the store: file is not a database"; one_line junk
[ -e "$tmp/junk.mibc" ] && fail "junk: wrote output"
expect 1 merge-junk merge -o "$tmp/m.store" "$tmp/junk.store"
one_line merge-junk
[ -e "$tmp/m.store" ] && fail "merge-junk: wrote output"
expect 1 no-store create-mibc --store "$tmp/none.store" $br -o "$tmp/none.mibc"
err_has no-store "$tmp/none.store: no such store"; one_line no-store
# shellcheck disable=SC2086
expect 1 ingest-dir ingest --store "$tmp/d.store" $br "$data/branches"
err_has ingest-dir "$data/branches: is a directory, not a trace"; one_line ingest-dir
expect 2 ingest-usage ingest "$data/branches/block.nettrace"
expect 2 merge-usage merge "$tmp/a.store"

# Weighted merge: a store's traces keep their weight (the provenance), and
# every count read from them is multiplied by it.  Tiny's three block
# counts in the hotloop trace are 1000, 250 and 750.
hl=$data/hotloop
expect 0 w-ingest ingest --store "$tmp/w1.store" -r "$hl/hotloop.dll" "$hl/block.nettrace"
expect 0 w-merge merge --weight 3:"$tmp/w1.store" -o "$tmp/w3.store"
has w-merge "merged $tmp/w1.store: 1 traces added, weight 3"
expect 0 w-export export -s "$tmp/w3.store" -r "$hl/hotloop.dll" --as-recorded -m Program::Tiny -o "$tmp/w3.xml"
grep -o '>[0-9]*</record>' "$tmp/w3.xml" | tr -d '<>/record' | tr '\n' ' ' > "$tmp/w3.counts"
[ "$(cat "$tmp/w3.counts")" = "3000 750 2250 " ] || fail "w-export: counts $(cat "$tmp/w3.counts")"
# weights multiply along merges, and a weight that would differ for one
# trace is an error (either would depend on the merges' order)
expect 0 w-again merge -w 2:"$tmp/w3.store" -o "$tmp/w6.store"
expect 0 w6-export export -s "$tmp/w6.store" -r "$hl/hotloop.dll" --as-recorded -m Program::Tiny -o "$tmp/w6.xml"
grep -q '>6000</record>' "$tmp/w6.xml" || fail "w6-export: $(cat "$tmp/w6.xml")"
expect 1 w-clash merge "$tmp/w1.store" -w 3:"$tmp/w1.store" -o "$tmp/wc.store"
err_has w-clash "$tmp/w1.store: 1 of its traces are in the store with another weight"
[ -e "$tmp/wc.store" ] && fail "w-clash: wrote output"
expect 2 w-zero merge -w 0:"$tmp/w1.store" -o "$tmp/wz.store"
expect 2 w-no-path merge -w 3: -o "$tmp/wz.store"
expect 2 w-no-weight merge -w "$tmp/w1.store" -o "$tmp/wz.store"
# profile files: counts scaled before they are summed
expect 0 w-xml merge -r "$hl/hotloop.dll" -w 2:"$tmp/w3.xml" "$tmp/w3.xml" -o "$tmp/w9.xml"
has w-xml "read $tmp/w3.xml: 1 method profiles, weight 2"
grep -q '>9000</record>' "$tmp/w9.xml" || fail "w-xml: $(cat "$tmp/w9.xml")"
# ingest names its store with -o too, as every command names what it writes
expect 0 ingest-o ingest -o "$tmp/o.store" -r "$hl/hotloop.dll" "$hl/block.nettrace"
has ingest-o "store $tmp/o.store: 1 traces, 3 modules, 484 methods, 1901 records"
expect 2 ingest-two ingest -o "$tmp/o.store" -s "$tmp/p.store" -r "$hl/hotloop.dll" "$hl/block.nettrace"
err_has ingest-two "-o $tmp/o.store and --store $tmp/p.store name two stores: give one"
[ -e "$tmp/p.store" ] && fail "ingest-two: made a store"
[ "$failures" = 0 ]
