#!/bin/sh
# SPDX-License-Identifier: MIT
#
# show.sh: `pgo-reconstruct show` output and exit codes.
#
# Input: the built tools/pgo-reconstruct.  Output: PASS/FAIL via the exit code.
set -eu
tool="${PGO_BUILDDIR:-.}/tools/pgo-reconstruct"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The diamond of check-cfg.c: 02 ldarg.0; 2C 04 brfalse.s 07; 17 0A ldc.i4.1
# stloc.0; 2B 02 br.s 09; 18 0A ldc.i4.2 stloc.0; 06 ldloc.0; 2A ret.
"$tool" show --il-hex "02 2C 04 17 0A 2B 02 18 0A 06 2A" >"$tmp/out"
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
diff -u "$tmp/want" "$tmp/out"

"$tool" show --il-hex "02 2C 04 17 0A 2B 02 18 0A 06 2A" --format dot >"$tmp/dot"
grep -q '^digraph' "$tmp/dot"
grep -q 'BB04 -> BB01 \[style=dashed, label="pseudo\\n9->0"\]' "$tmp/dot"

# bad IL: exit 1 with one message naming the IL offset; bad options: exit 2
rc=0
"$tool" show --il-hex "2B 05 2A" 2>"$tmp/err" >/dev/null || rc=$?
[ "$rc" = 1 ]
grep -q 'branch target 0x7 out of range at IL offset 0x0' "$tmp/err"
rc=0
"$tool" show --il-hex "2Z" 2>/dev/null >/dev/null || rc=$?
[ "$rc" = 2 ]
rc=0
"$tool" show --il-hex "2A" --eh bogus 2>/dev/null >/dev/null || rc=$?
[ "$rc" = 2 ]
# --assembly: a fixture's dense switch (tests/fixtures/src/switches); the
# switch block lists each distinct target once (runtime 10 successor order)
dll="${PGO_TEST_DATA:-$(dirname "$0")/..}/fixtures/data/switches/switches.dll"
if [ -f "$dll" ]; then
  "$tool" show --assembly "$dll" --method Dense >"$tmp/asm"
  head -n 3 "$tmp/asm" >"$tmp/asm3"
  cat >"$tmp/want3" <<'WANT'
# Program::Dense(int32)
# 8 blocks, 0 EH clauses, returns 6, 6 non-tree edges
BB01 [0000..002b) SWITCH       refs 1 key 0x0 probeA probeB succ BB03 BB04 BB05 BB06 BB07 BB02
WANT
  diff -u "$tmp/want3" "$tmp/asm3"
  # the same method read from the Webcil image gives the same graph
  "$tool" show --assembly "${dll%.dll}.wasm" --method Dense | diff -u "$tmp/asm" -
  "$tool" show --assembly "$dll" --method 0x06000001 --format dot | grep -q '^digraph "Program::Dense(int32)"'
  rc=0
  "$tool" show --assembly "$dll" --method NoSuchMethod 2>"$tmp/err" >/dev/null || rc=$?
  [ "$rc" = 1 ]
  grep -q "no method matches 'NoSuchMethod'" "$tmp/err"
  rc=0
  "$tool" show --assembly "$dll" 2>/dev/null >/dev/null || rc=$?
  [ "$rc" = 2 ]
fi
echo "cli-show: ok"
