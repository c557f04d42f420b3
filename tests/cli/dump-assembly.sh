#!/bin/sh
# SPDX-License-Identifier: MIT
#
# dump-assembly.sh: the dump-assembly command: its output for the sample
# assembly (tests/data/pe/sample32.dump, identical to what the
# System.Reflection.Metadata dumper prints for it), the same output from
# the Webcil form, --method selection, and exit codes.
set -u
builddir=${PGO_BUILDDIR:-.}
data=${PGO_TEST_DATA:-tests}
tool="$builddir/tools/pgo-reconstruct"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$tool" dump-assembly "$data/data/pe/sample32.dll" >"$out/dll.txt" || fail "exit status on sample32.dll"
cmp -s "$out/dll.txt" "$data/data/pe/sample32.dump" || { diff "$data/data/pe/sample32.dump" "$out/dll.txt"; fail "sample32.dll output"; }
"$tool" dump-assembly "$data/data/pe/sample32.wasm" >"$out/wasm.txt" || fail "exit status on sample32.wasm"
cmp -s "$out/wasm.txt" "$data/data/pe/sample32.dump" || fail "sample32.wasm output differs from the PE"

"$tool" dump-assembly --method 0x06000003 "$data/data/pe/sample32.dll" >"$out/one.txt" || fail "--method token"
[ "$(grep -c '^0x06' "$out/one.txt")" -eq 1 ] && grep -q "	TryCatch	" "$out/one.txt" \
  && [ "$(grep -c '	eh ' "$out/one.txt")" -eq 2 ] || fail "--method 0x06000003 output"
"$tool" dump-assembly --method CheckIo "$data/data/pe/sample32.dll" >/dev/null 2>"$out/err.txt"
[ $? -eq 1 ] && grep -q "no method matches 'CheckIo'" "$out/err.txt" || fail "--method without match"
"$tool" dump-assembly --method 'Pgo.Sample.Bodies::Gen' "$data/data/pe/sample32.dll" >"$out/gen.txt" || fail "--method Type::Name"
[ "$(grep -c '^0x06' "$out/gen.txt")" -eq 1 ] || fail "--method Type::Name output"

"$tool" dump-assembly >/dev/null 2>&1
[ $? -eq 2 ] || fail "no FILE must be a usage error"
"$tool" dump-assembly "$data/corpus/pe/bad/truncated-coff-header.dll" >/dev/null 2>"$out/err.txt"
[ $? -eq 1 ] || fail "bad file must exit 1"
[ "$(wc -l <"$out/err.txt")" -eq 1 ] && grep -q "^pgo-reconstruct: .*truncated-coff-header.dll: COFF header: truncated" "$out/err.txt" \
  || fail "bad file message: $(cat "$out/err.txt")"
echo "PASS: dump-assembly"
