#!/bin/sh
# SPDX-License-Identifier: MIT
#
# show-source.sh: "show" prints each block's source lines, from the
# assembly's portable PDB, next to its IL range; without a PDB it prints
# nothing more, and a PDB that is bad or of another build is a one-line
# warning naming it, never a source of lines.
#
# Expected lines, derived by hand from tests/fixtures/src/hotloop/Program.cs
# and Spin's IL (the table in tests/unit/check-pdb.c): [0000..0007) is
# "long acc = 0;" (14) and "int i = 0" (15), then a hidden branch;
# [0007..000c) the if (17); [000c..0013) "acc += i;" (18); [0013..0018)
# "acc -= 3;" (20); [0018..001c) i++ and [001c..0020) i < n (15);
# [0020..0022) "return acc;" (22).
set -u
cli_name=show-source
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

dll=$data/hotloop/hotloop.dll
trace=$data/hotloop/block.nettrace

# with the PDB next to the assembly: the lines after each block's marks
expect 0 text show -r "$dll" -m Spin
has text "BB01 [0000..0007) ALWAYS       refs 1 key 0x0 probeA probeB Program.cs:14-15 succ BB06"
has text "BB02 [0007..000c) COND         refs 1 key 0x7 probeA probeB Program.cs:17 succ BB03 BB04"
has text "BB03 [000c..0013) ALWAYS       refs 1 key 0xc Program.cs:18 succ BB05"
has text "BB04 [0013..0018) ALWAYS       refs 1 key 0x13 probeA Program.cs:20 succ BB05"
has text "BB05 [0018..001c) ALWAYS       refs 2 key 0x18 probeA Program.cs:15 succ BB06"
has text "BB06 [001c..0020) COND         refs 2 key 0x1c probeA Program.cs:15 succ BB07 BB02"
has text "BB07 [0020..0022) RETURN       refs 1 key 0x20 Program.cs:22 succ"
[ -s "$tmp/err" ] && fail "text: stderr: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/with"

# --no-source: the lines as before
expect 0 no-source show -r "$dll" -m Spin --no-source
has no-source "BB02 [0007..000c) COND         refs 1 key 0x7 probeA probeB succ BB03 BB04"
grep -q 'Program\.cs' "$tmp/out" && fail "no-source: printed source lines"
cp "$tmp/out" "$tmp/plain"
# ... and the rest of each line is the same
sed 's/ Program\.cs:[0-9-]*//' "$tmp/with" | cmp -s - "$tmp/plain" || fail "text: differs from --no-source beyond the lines"

# the same method of the Webcil image: the same PDB (hotloop.pdb next to it)
expect 0 webcil show -r "${dll%.dll}.wasm" -m Spin
cmp -s "$tmp/out" "$tmp/with" || fail "webcil: differs from the PE image's"

# with counts: text, DOT and SVG pictures
expect 0 counts show -r "$dll" -m Spin -t "$trace"
has counts "BB01 [0000..0007) ALWAYS pA pB Program.cs:14-15 | 1 observed"
has counts "BB02 [0007..000c) COND pA pB Program.cs:17 | 50000 observed"
has counts "BB07 [0020..0022) RETURN Program.cs:22 | 1 observed"
expect 0 counts-dot show -r "$dll" -m Spin -t "$trace" --format dot
grep -qF 'BB02 [label="BB02\n[0007..000c) COND pA pB Program.cs:17\n50000 observed"' "$tmp/out" \
  || fail "counts-dot: no source lines in BB02's label"
expect 0 dot show -r "$dll" -m Spin --format dot
grep -qF 'BB02 [label="BB02 [0007..000c) Program.cs:17\nCOND refs 1\nprobe A probe B"' "$tmp/out" \
  || fail "dot: no source lines in BB02's label"
expect 0 svg show -r "$dll" -m Spin --format svg
grep -qF '>[0007..000c) COND pA pB refs 1 Program.cs:17<' "$tmp/out" || fail "svg: no source lines in BB02's box"

# without a PDB: nothing more, and no warning
mkdir "$tmp/alone"
cp "$dll" "$tmp/alone/hotloop.dll"
expect 0 alone show -r "$tmp/alone/hotloop.dll" -m Spin
cmp -s "$tmp/out" "$tmp/plain" || fail "alone: differs from --no-source"
[ -s "$tmp/err" ] && fail "alone: stderr: $(cat "$tmp/err")"

# another fixture's PDB under the name: refused, with one warning naming
# it and both builds' ids; no lines
cp "$data/branches/branches.pdb" "$tmp/alone/hotloop.pdb"
expect 0 other show -r "$tmp/alone/hotloop.dll" -m Spin
cmp -s "$tmp/out" "$tmp/plain" || fail "other: printed source lines"
one_line other
err_has other "pgo-reconstruct: warning: $tmp/alone/hotloop.pdb: PDB id "
err_has other "is not $tmp/alone/hotloop.dll's (1efa652c-b3b6-45d5-a220-3aa5ad07ae89 stamp 0xf025dbe3): the PDB of another build; no source lines"
expect 0 other-counts show -r "$tmp/alone/hotloop.dll" -m Spin -t "$trace"
has other-counts "BB02 [0007..000c) COND pA pB | 50000 observed"
err_has other-counts "the PDB of another build; no source lines"

# a cut PDB: one warning naming the file and the offset; no lines
head -c 300 "$data/hotloop/hotloop.pdb" >"$tmp/alone/hotloop.pdb"
expect 0 cut show -r "$tmp/alone/hotloop.dll" -m Spin
cmp -s "$tmp/out" "$tmp/plain" || fail "cut: printed source lines"
one_line cut
err_has cut "pgo-reconstruct: warning: $tmp/alone/hotloop.pdb: stream #~ (offset 0xc4, 0xd8 bytes, header at offset 0x30) runs past the end (0x12c bytes); no source lines"

# --no-source needs an assembly
expect 2 no-source-il show --il-hex 2A --no-source
err_has no-source-il "--no-source goes with --reference"

[ "$failures" = 0 ] && echo "cli-show-source: ok"
[ "$failures" = 0 ]
