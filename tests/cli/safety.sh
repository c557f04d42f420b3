#!/bin/sh
# SPDX-License-Identifier: MIT
#
# safety.sh: defects a new user hit: an output never overwrites an
# input, a failed ingest leaves no store, a store compared with itself
# pairs every method once, "compare" with nothing to compare is an error,
# not a perfect score, a merge that names no method writes nothing, every
# command takes --version and points at its own --help, and an error
# names the user's file, once, and no temporary file; a reference of
# another build is never used, and said so with both identities; an
# edge-mode and a block-mode trace together give one output in either
# order; a reference that cannot be read is an error naming its fault.
set -u
cli_name=safety
. "${PGO_TEST_DATA:-tests}/support/cli.sh"
interp=${PGO_BUILDDIR:-.}/tools/pgo-interp

dll=$data/hotloop/hotloop.dll
block=$data/hotloop/block.nettrace
edge=$data/hotloop/edge.nettrace

# unchanged NAME FILE COPY: FILE has COPY's bytes.
unchanged () { cmp -s "$2" "$3" || fail "$1: $2 was written over"; }

# An output named as an input, however spelled, is refused before
# anything is read or written: exit 2, one line naming it.
cp "$block" "$tmp/t.nettrace"
expect 2 over-trace create-mibc -r "$dll" --probes B -o "$tmp/t.nettrace" "$tmp/t.nettrace"
unchanged over-trace "$tmp/t.nettrace" "$block"
err_has over-trace "$tmp/t.nettrace: is also an input: not overwriting it"
one_line over-trace
expect 2 over-trace-spelled export -r "$dll" --probes B -o "$tmp/../$(basename "$tmp")/t.nettrace" "$tmp/t.nettrace"
unchanged over-trace-spelled "$tmp/t.nettrace" "$block"
cp "$dll" "$tmp/app.dll"
expect 2 over-reference export -r "$tmp/app.dll" --probes B -o "$tmp/app.dll" "$block"
unchanged over-reference "$tmp/app.dll" "$dll"
expect 2 over-merge merge -r "$dll" -o "$tmp/t.nettrace" "$tmp/t.nettrace"
unchanged over-merge "$tmp/t.nettrace" "$block"
"$interp" run --probes B --trace "$tmp/app.dll" "$tmp/app.dll" > "$tmp/out" 2> "$tmp/err"
[ $? = 2 ] || fail "over-assembly: pgo-interp exit $?, expected 2"
unchanged over-assembly "$tmp/app.dll" "$dll"
err_has over-assembly "$tmp/app.dll: is also an input: not overwriting it"

# A first ingest that fails leaves no store (nor its journal) behind.
expect 1 ingest-bad ingest --store "$tmp/new.store" -r "$dll" "$dll"
ls "$tmp"/new.store* > /dev/null 2>&1 && fail "ingest-bad: left $(ls "$tmp"/new.store*)"
# ... nor does one whose second trace fails.
expect 1 ingest-second ingest --store "$tmp/new.store" -r "$dll" "$block" "$dll"
ls "$tmp"/new.store* > /dev/null 2>&1 && fail "ingest-second: left $(ls "$tmp"/new.store*)"

# A store of two traces compared with itself: each of its 484 methods
# (the counts of both traces added) paired once, none only on one side.
expect 0 ingest-two ingest --store "$tmp/two.store" -r "$dll" "$block" "$data/hotloop/block64.nettrace"
expect 0 store-self compare --only-in "$tmp/two.store" "$tmp/two.store"
has store-self "COMPARE methods-a=484 methods-b=484 both=484 mismatched=0 block=484 block-overlap=1.000000 edge=0 edge-overlap=- only-in-a=0 only-in-b=0"
has store-self "method hotloop!Program::Tiny weight=2000 block-overlap=1.000000"
grep -q ' only-in=' "$tmp/out" && fail "store-self: only-in lines: $(grep -c ' only-in=' "$tmp/out")"

# Block counts against edge counts: the methods pair, no count kind is
# shared, so nothing is compared: an error, and no overlap is printed.
expect 1 nothing compare "$block" "$edge"
has nothing "COMPARE methods-a=484 methods-b=194 both=194 mismatched=194 block=0 block-overlap=- edge=0 edge-overlap=- only-in-a=290 only-in-b=0"
err_has nothing "nothing compared: none of the 194 methods in common has a count kind in common"
one_line nothing

# A merge of .mibc files against references of another program names no
# method: an error, and no output file (the .mibc's methods are written
# by their assemblies).
expect 0 mibc create-mibc -r "$dll" --probes B -o "$tmp/h.mibc" "$block"
expect 1 merge-none merge -r "$data/branches/branches.dll" -o "$tmp/m.mibc" "$tmp/h.mibc"
err_has merge-none "$tmp/m.mibc: no method to write: the writer could name none of the 3 methods read"
[ -e "$tmp/m.mibc" ] && fail "merge-none: wrote $tmp/m.mibc"

# Every command takes --version; a usage error points at its command's
# --help.
expect 0 version create-mibc --version
has version "pgo-reconstruct (pgo-tools) $(sed -n 's/^PACKAGE_VERSION = //p' "${PGO_BUILDDIR:-.}/Makefile")"
expect 2 usage create-mibc
err_has usage "Try 'pgo-reconstruct create-mibc --help' for more information."
"$interp" run --version > "$tmp/out" 2>&1 || fail "interp-version: exit $?"
grep -q "^pgo-interp " "$tmp/out" || fail "interp-version: $(cat "$tmp/out")"

# Errors name the user's paths, never our temporary files, and say what
# is wrong with a directory.
mkdir "$tmp/dir"
expect 1 merge-dir merge -o "$tmp/m.store" "$tmp/dir"
[ "$(cat "$tmp/err")" = "pgo-reconstruct: $tmp/dir: a directory, not a store" ] || fail "merge-dir: $(cat "$tmp/err")"
expect 1 merge-nodir merge -o "$tmp/none/m.store" "$tmp/two.store"
[ "$(cat "$tmp/err")" = "pgo-reconstruct: $tmp/none/m.store: cannot create the store: unable to open database file" ] \
  || fail "merge-nodir: $(cat "$tmp/err")"
expect 1 write-nodir create-mibc -r "$dll" --probes B -o "$tmp/none/x.mibc" "$block"
err_has write-nodir "pgo-reconstruct: $tmp/none/x.mibc: cannot write: No such file or directory"
grep -q "x\.mibc\.\|tmp-" "$tmp/err" && fail "write-nodir: a temporary name: $(cat "$tmp/err")"

# Another build of the app (the same assembly with its PDB age changed,
# as a rebuild changes its identity) is not the traced module: its IL may
# differ.  No command draws counts on it; the one-line error names both
# identities and the methods left out.
cp "$dll" "$tmp/rebuilt.dll"
rsds=$(grep -obUaF RSDS "$tmp/rebuilt.dll" | head -n 1 | cut -d: -f1)
printf '\011\000\000\000' | dd of="$tmp/rebuilt.dll" bs=1 seek=$((rsds + 20)) conv=notrunc 2> /dev/null
pdb=$("$tool" dump-assembly "$dll" | awk '$1 == "pdb" { print $2 }')
for cmd in reconstruct create-mibc show; do
  case $cmd in
    create-mibc) set -- create-mibc -o "$tmp/r.mibc" -r "$tmp/rebuilt.dll" "$block" ;;
    show) set -- show -a "$tmp/rebuilt.dll" -m Program::Tiny -t "$block" ;;
    *) set -- "$cmd" -r "$tmp/rebuilt.dll" "$block" ;;
  esac
  expect 1 "rebuilt-$cmd" "$@"
  err_has "rebuilt-$cmd" "(the trace's modules: System.Private.CoreLib: 432, System.Console: 49; of another build than the references': hotloop: 3): module hotloop: the trace's build (pdb $pdb/1) is not the reference's (pdb $pdb/9 mvid "
  err_has "rebuilt-$cmd" "); its 3 methods are left out"
  one_line "rebuilt-$cmd"
  [ -s "$tmp/out" ] && fail "rebuilt-$cmd: printed $(head -c 200 "$tmp/out")"
done
[ -e "$tmp/r.mibc" ] && fail "rebuilt: wrote $tmp/r.mibc"

# An edge-mode and a block-mode trace of one program together: the
# block counts are taken whatever the order, so both orders write the
# same bytes and count the same conflicts; ingest warns of a trace with
# no block counts.
bdll=$data/branches/branches.dll
mkdir "$tmp/be" "$tmp/eb"
expect 0 block-edge create-mibc -r "$bdll" --probes A -o "$tmp/be/m.mibc" "$data/branches/block.nettrace" "$data/branches/edge.nettrace"
err_has block-edge "; 0 profiles merged, 189 conflicting, 0 of another build"
expect 0 edge-block create-mibc -r "$bdll" --probes A -o "$tmp/eb/m.mibc" "$data/branches/edge.nettrace" "$data/branches/block.nettrace"
err_has edge-block "; 0 profiles merged, 189 conflicting, 0 of another build"
cmp -s "$tmp/be/m.mibc" "$tmp/eb/m.mibc" || fail "edge-block: the order of the traces changed the output"
expect 0 ingest-edge ingest --store "$tmp/edge.store" -r "$bdll" "$data/branches/edge.nettrace"
err_has ingest-edge "edge.nettrace: none of its 189 method profiles has block counts (an edge-mode trace?): reconstruction works from block counts"

# A reference that cannot be read is an error naming the file and the
# fault: a method body whose local signature token is broken (Spin's fat
# header, at file offset 0x250 of the fixture: RVA 0x2050 in .text, which
# starts at RVA 0x2000 and file offset 0x200), and a folder whose DLL of
# the traced module's name is cut short.
cp "$dll" "$tmp/body.dll"
printf '\376\377\376\377' | dd of="$tmp/body.dll" bs=1 seek=$((0x250 + 8)) conv=notrunc 2> /dev/null
for cmd in reconstruct create-mibc; do
  set -- "$cmd" -r "$tmp/body.dll" "$block"
  [ "$cmd" = create-mibc ] && set -- "$@" -o "$tmp/body.mibc"
  expect 1 "body-$cmd" "$@"
  err_has "body-$cmd" "hotloop!Program::Spin (token 0x06000001): $tmp/body.dll: method 0x06000001 (RVA 0x2050): fat method header at offset 0x250: local signature token 0xfffefffe is not a StandAloneSig"
  one_line "body-$cmd"
done
mkdir "$tmp/refs"
head -c 300 "$dll" > "$tmp/refs/hotloop.dll"
expect 1 folder-broken reconstruct -r "$tmp/refs" "$block"
err_has folder-broken "module hotloop: assembly hotloop: $tmp/refs/hotloop.dll: data directory 6: truncated u32 at offset 0x12c"
one_line folder-broken

# show takes the assembly as -r/--reference, as every command does
# (-a/--assembly stays its older spelling).
expect 0 show-r show -r "$dll" -m Program::Tiny
has show-r "# Program::Tiny(int32)"
cp "$tmp/out" "$tmp/show-r"
expect 0 show-a show --assembly "$dll" -m Program::Tiny
cmp -s "$tmp/out" "$tmp/show-r" || fail "show-a: differs from show -r"
expect 2 show-both show -r "$dll" -a "$dll" -m Program::Tiny
err_has show-both "--reference and --assembly name the same assembly: give one"

# An error about a file names it once.
expect 1 named-once reconstruct -r "$block" "$block"
[ "$(cat "$tmp/err")" = "pgo-reconstruct: $block: not a PE image, Webcil payload or Webcil .wasm file" ] \
  || fail "named-once: $(cat "$tmp/err")"

[ "$failures" = 0 ]
