#!/bin/sh
# SPDX-License-Identifier: MIT
#
# create-mibc.sh: "pgo-reconstruct create-mibc", "export", "dump" of a
# .mibc and "compare" on the hotloop fixture: what is written equals what
# "reconstruct" prints, the same input gives the same bytes, and bad input
# gives a one-line error, a non-zero exit and no output file.
set -u
cli_name=create-mibc
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

dll=$data/hotloop/hotloop.dll
block=$data/hotloop/block.nettrace
edge=$data/hotloop/edge.nettrace

# The main job: probe set B, edge form.  The three app methods are written;
# the framework methods have no IL among the references and are counted.
expect 0 create create-mibc --trace "$block" --reference "$dll" --probes B --output "$tmp/b.mibc"
err_has create "create-mibc: wrote 3 methods to $tmp/b.mibc; left out: "
"$tool" reconstruct --reference "$dll" --probes B "$block" > "$tmp/recon"
grep -c '^  record EdgeIntCount' "$tmp/recon" > "$tmp/want-records"

# What dump reads back is what reconstruct printed, record for record
# (dump's record format, TAB-separated: see tools/cmd-dump.c).
tab=$(printf '\t')
expect 0 dump dump --reference "$dll" "$tmp/b.mibc"
has dump "method${tab}Program::Spin${tab}sig=(int32)${tab}module=hotloop${tab}token=0x06000001${tab}ilsize=34${tab}codehash=0xF8ECBA45${tab}methodhash=0xFF565334${tab}records=3"
has dump "record${tab}EdgeIntCount${tab}il=0x18${tab}other=0x1c${tab}count=1${tab}50000"
has dump "total: 3 methods with PGO data"
sed -n 's/^  record EdgeIntCount 0x\([0-9a-f]*\) -> 0x\([0-9a-f]*\) \([0-9]*\)$/\1 \2 \3/p' "$tmp/recon" |
  while read -r src dst n; do
    printf 'record\tEdgeIntCount\til=0x%x\tother=0x%x\tcount=1\t%s\n' "0x$src" "0x$dst" "$n"
  done > "$tmp/want"
grep "^record${tab}" "$tmp/out" > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "dump: records differ from reconstruct's: $(diff "$tmp/want" "$tmp/got")"
[ "$(wc -l < "$tmp/got")" -eq "$(cat "$tmp/want-records")" ] || fail "dump: record count"

# The same input gives the same bytes, in both forms; export writes the same.
# (The file's name is the .mibc's assembly name, so it is kept.)
mkdir "$tmp/2" "$tmp/3" "$tmp/z2"
expect 0 again create-mibc "$block" -r "$dll" --probes B -o "$tmp/2/b.mibc"
cmp -s "$tmp/b.mibc" "$tmp/2/b.mibc" || fail "again: bytes differ"
expect 0 export export --format mibc "$block" -r "$dll" --probes B -o "$tmp/3/b.mibc"
cmp -s "$tmp/b.mibc" "$tmp/3/b.mibc" || fail "export: bytes differ from create-mibc's"
expect 0 zip1 create-mibc "$block" -r "$dll" --probes B --compressed -o "$tmp/z1.mibc"
expect 0 zip2 create-mibc "$block" -r "$dll" --probes B --compressed -o "$tmp/z2/z1.mibc"
cmp -s "$tmp/z1.mibc" "$tmp/z2/z1.mibc" || fail "zip: bytes differ"
expect 0 zipdump dump -r "$dll" "$tmp/z1.mibc"
grep "^record${tab}" "$tmp/out" > "$tmp/zgot"
cmp -s "$tmp/got" "$tmp/zgot" || fail "zip: records differ from the plain form's"

# Reconstruction on several threads writes the same bytes as on one: every
# fixture's app methods, more than one batch's worth of jobs per thread.
mkdir "$tmp/j1" "$tmp/j3"
set --
for d in "$data"/*/; do
  n=$(basename "$d")
  [ -f "$d/block.nettrace" ] && [ -f "$d/$n.dll" ] && set -- "$@" "$d/block.nettrace" -r "$d/$n.dll"
done
expect 0 jobs1 create-mibc "$@" --probes A --jobs 1 -o "$tmp/j1/all.mibc"
expect 0 jobs3 create-mibc "$@" --probes A --jobs 3 -o "$tmp/j3/all.mibc"
cmp -s "$tmp/j1/all.mibc" "$tmp/j3/all.mibc" || fail "jobs: 3 threads wrote other bytes than 1"
expect 0 jobs-dump dump "$tmp/j3/all.mibc"
grep -q '^total: [1-9][0-9] methods with PGO data' "$tmp/out" || fail "jobs: $(tail -1 "$tmp/out")"
# ... and so do the rounds of the joint solve of call counts at probe set
# B, where calls share callees' entries; one round is another profile.
expect 0 rounds1 create-mibc "$@" --probes B --jobs 1 -o "$tmp/j1/b.mibc"
expect 0 rounds3 create-mibc "$@" --probes B --jobs 3 -o "$tmp/j3/b.mibc"
cmp -s "$tmp/j1/b.mibc" "$tmp/j3/b.mibc" || fail "rounds: 3 threads wrote other bytes than 1"
expect 0 one-round create-mibc "$@" --probes B --call-rounds 1 -o "$tmp/j1/b1.mibc"
cmp -s "$tmp/j1/b.mibc" "$tmp/j1/b1.mibc" && fail "rounds: one round wrote the bytes of three"

# compare: a profile against itself overlaps 1; the reconstruction's edges
# are the JIT's own, so against the truth no method is mismatched.
expect 0 self compare "$tmp/b.mibc" "$tmp/z1.mibc"
has self "COMPARE methods-a=3 methods-b=3 both=3 mismatched=0 block=0 block-overlap=- edge=3 edge-overlap=1.000000 only-in-a=0 only-in-b=0"
expect 0 truth create-mibc "$edge" -r "$dll" --as-recorded -o "$tmp/t.mibc"
expect 0 vs-truth compare -r "$dll" "$tmp/t.mibc" "$tmp/b.mibc"
grep -q '^COMPARE methods-a=3 methods-b=3 both=3 mismatched=0 block=0 .* edge=3 ' "$tmp/out" ||
  fail "vs-truth: $(tail -1 "$tmp/out")"
expect 0 vs-trace compare "$edge" "$tmp/t.mibc" --method 'hotloop!*' -q
has vs-trace "COMPARE methods-a=3 methods-b=3 both=3 mismatched=0 block=0 block-overlap=- edge=3 edge-overlap=1.000000 only-in-a=0 only-in-b=0"

# A trace read twice: every method comes twice, so the profiles are merged
# (the export that streams a trace method by method leaves them to the
# merging path), the counts doubled.
expect 0 twice create-mibc "$block" "$block" -r "$dll" --probes B --as-recorded -o "$tmp/tw.mibc"
err_has twice "; 484 profiles merged, 0 conflicting, 0 of another build"
expect 0 twice-dump dump "$tmp/tw.mibc"
has twice-dump "record${tab}BasicBlockIntCount${tab}il=0x7${tab}other=0x0${tab}count=1${tab}100000"

# Seed and zero-fill: block schemas, nothing inferred.
expect 0 seed create-mibc "$block" -r "$dll" --probes B --as-recorded -o "$tmp/s.mibc"
expect 0 seed-dump dump "$tmp/s.mibc"
has seed-dump "method${tab}Program::Spin${tab}sig=(int32)${tab}module=hotloop${tab}token=-${tab}ilsize=-${tab}codehash=-${tab}methodhash=-${tab}records=2"
expect 0 zero create-mibc "$block" -r "$dll" --probes B --zero-fill -o "$tmp/zf.mibc"
expect 0 zero-dump dump "$tmp/zf.mibc"
has zero-dump "method${tab}Program::Spin${tab}sig=(int32)${tab}module=hotloop${tab}token=-${tab}ilsize=-${tab}codehash=-${tab}methodhash=-${tab}records=7"
has zero-dump "record${tab}BasicBlockIntCount${tab}il=0xc${tab}other=0x0${tab}count=1${tab}0"

# Bad input: one line, exit 1, no output; an existing output is untouched.
echo keep > "$tmp/keep.mibc"
printf 'Nettrace!!!' > "$tmp/bad.nettrace"
expect 1 bad-trace create-mibc "$tmp/bad.nettrace" -r "$dll" -o "$tmp/keep.mibc"
err_has bad-trace "$tmp/bad.nettrace"; one_line bad-trace
[ "$(cat "$tmp/keep.mibc")" = keep ] || fail "bad-trace: output overwritten"
printf 'junk' > "$tmp/junk"
expect 1 junk create-mibc "$tmp/junk" -r "$dll" -o "$tmp/out.mibc"
err_has junk "$tmp/junk: offset 0: neither a .nettrace trace, a .mibc file, a profile store nor an XML profile document"; one_line junk
expect 1 missing create-mibc "$tmp/none.nettrace" -r "$dll" -o "$tmp/out.mibc"
err_has missing "$tmp/none.nettrace"; one_line missing
expect 1 nothing create-mibc "$block" -r "$data/branches/branches.dll" -o "$tmp/out.mibc"
err_has nothing "no method of the trace matched a reference by module (the trace's modules: System.Private.CoreLib: 432, System.Console: 49, hotloop: 3)"
one_line nothing
[ -e "$tmp/out.mibc" ] && fail "failures wrote $tmp/out.mibc"
head -c 300 "$tmp/b.mibc" > "$tmp/cut.mibc"
expect 1 cut-dump dump "$tmp/cut.mibc"
err_has cut-dump "$tmp/cut.mibc"; one_line cut-dump
expect 1 disjoint compare "$tmp/b.mibc" "$data/branches/edge.nettrace" -q
err_has disjoint "have no method in common"

# Usage errors: exit 2.
expect 2 no-output create-mibc "$block" -r "$dll"
expect 2 no-trace create-mibc -r "$dll" -o "$tmp/out.mibc"
expect 2 no-ref create-mibc "$block" -o "$tmp/out.mibc"
expect 2 zero-needs-probes create-mibc "$block" -r "$dll" --zero-fill -o "$tmp/out.mibc"
expect 2 both-modes create-mibc "$block" -r "$dll" --probes A --zero-fill --as-recorded -o "$tmp/out.mibc"
expect 2 bad-form create-mibc "$block" -r "$dll" --form dense -o "$tmp/out.mibc"
expect 2 bad-jobs create-mibc "$block" -r "$dll" --jobs -2 -o "$tmp/out.mibc"
expect 2 bad-rounds create-mibc "$block" -r "$dll" --call-rounds 17 -o "$tmp/out.mibc"
err_has bad-rounds "--call-rounds 17: give 1 to 16 rounds"
[ -e "$tmp/out.mibc" ] && fail "bad-rounds: left $tmp/out.mibc"
expect 2 bad-format export --format json "$block" -r "$dll" -o "$tmp/out.mibc"
expect 2 raw-mibc dump --raw "$tmp/b.mibc"
expect 2 compare-one compare "$tmp/b.mibc"

[ "$failures" -eq 0 ] || exit 1
echo "create-mibc: all checks passed"
