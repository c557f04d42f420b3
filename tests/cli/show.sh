#!/bin/sh
# SPDX-License-Identifier: MIT
#
# show.sh: `pgo-reconstruct show` output and exit codes.  Each check says
# what it expected and what it got.
set -u
cli_name=show
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

# The diamond of check-cfg.c: 02 ldarg.0; 2C 04 brfalse.s 07; 17 0A ldc.i4.1
# stloc.0; 2B 02 br.s 09; 18 0A ldc.i4.2 stloc.0; 06 ldloc.0; 2A ret.
expect 0 diamond show --il-hex "02 2C 04 17 0A 2B 02 18 0A 06 2A"
cat >"$tmp/want" <<'WANT'
# 4 blocks, 0 EH clauses, returns 1, 2 non-tree edges
BB01 [0000..0003) COND         refs 1 key 0x0 probeA probeB succ BB02 BB03
BB02 [0003..0007) ALWAYS       refs 1 key 0x3 succ BB04
BB03 [0007..0009) ALWAYS       refs 1 key 0x7 probeA succ BB04
BB04 [0009..000b) RETURN       refs 2 key 0x9 probeA succ
tree    BB01 -> BB03 tree key 0x0 -> 0x7
tree    BB01 -> BB02 tree key 0x0 -> 0x3
tree    BB02 -> BB04 tree key 0x3 -> 0x9
nontree BB04 -> BB01 pseudo key 0x9 -> 0x0
nontree BB03 -> BB04 postdom key 0x7 -> 0x9
WANT
cmp -s "$tmp/want" "$tmp/out" || fail "diamond: expected, then got:
$(diff -u "$tmp/want" "$tmp/out")"

expect 0 diamond-dot show --il-hex "02 2C 04 17 0A 2B 02 18 0A 06 2A" --format dot
grep -q '^digraph' "$tmp/out" || fail "diamond-dot: no 'digraph' line in: $(head -3 "$tmp/out")"
grep -q 'BB04 -> BB01 \[style=dashed, label="pseudo\\n9->0"\]' "$tmp/out" \
  || fail "diamond-dot: no dashed pseudo arc BB04 -> BB01 in: $(grep 'BB04 ->' "$tmp/out")"

# bad IL: exit 1 with one message naming the IL offset; bad options: exit 2
expect 1 bad-il show --il-hex "2B 05 2A"
err_has bad-il 'branch target 0x7 out of range at IL offset 0x0'
expect 2 bad-hex show --il-hex "2Z"
expect 2 bad-eh show --il-hex "2A" --eh bogus

# --assembly: a fixture's dense switch (tests/fixtures/src/switches); the
# switch block lists each distinct target once (runtime 10 successor
# order), and its source line comes from the fixture's PDB
dll=$data/switches/switches.dll
expect 0 dense show --assembly "$dll" --method Dense
cp "$tmp/out" "$tmp/asm"
head -n 3 "$tmp/asm" >"$tmp/asm3"
cat >"$tmp/want3" <<'WANT'
# Program::Dense(int32)
# 8 blocks, 0 EH clauses, returns 6, 6 non-tree edges
BB01 [0000..002b) SWITCH       refs 1 key 0x0 probeA probeB Program.cs:12 succ BB03 BB04 BB05 BB06 BB07 BB02
WANT
cmp -s "$tmp/want3" "$tmp/asm3" || fail "dense: expected, then got:
$(diff -u "$tmp/want3" "$tmp/asm3")"
# the same method read from the Webcil image gives the same graph
expect 0 webcil show --assembly "${dll%.dll}.wasm" --method Dense
cmp -s "$tmp/asm" "$tmp/out" || fail "webcil: the .wasm's graph differs from the .dll's:
$(diff -u "$tmp/asm" "$tmp/out")"
expect 0 dense-dot show --assembly "$dll" --method 0x06000001 --format dot
grep -q '^digraph "Program::Dense(int32)"' "$tmp/out" || fail "dense-dot: first line $(head -1 "$tmp/out")"
expect 1 no-method show --assembly "$dll" --method NoSuchMethod
err_has no-method "no method matches 'NoSuchMethod'"
expect 2 no-selector show --assembly "$dll"
[ "$failures" = 0 ]
