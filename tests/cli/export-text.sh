#!/bin/sh
# SPDX-License-Identifier: MIT
#
# export-text.sh: "pgo-reconstruct export --format text" on fixtures: every
# method written carries the codehash, methodhash and ilSize of the
# runtime's own dump of the same run (tests/fixtures/data/*/block.pgo.txt),
# so DOTNET_ReadPGOData files it under the method the runtime compiles;
# bad input gives a one-line error, a non-zero exit and no output file.
# App methods only: no shared runtime and no dotnet needed.
# Handle names: for every method both hold, the TypeHandle/MethodHandle
# lines of an edge-mode export equal those of the runtime's dump of the
# same run (tests/fixtures/data/*/edge.pgo.txt).  Framework types are named
# from the installed shared framework of the fixtures' runtime; without it,
# only methods whose handles name no framework type are checked, and the
# rest are counted as SKIP.
set -u
cli_name=export-text
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

# headers NAME FILE: "MethodName codehash methodhash ilSize", one a line, sorted.
headers () {
  awk '/^@@@ /{ h = $3 " " $5 " " $7; next } /^MethodName: /{ print $2, h }' "$2" | sort -u > "$tmp/$1"
}

n_methods=0
for fx in branches switches generics statemachine; do
  expect 0 "$fx" export --format text --reference "$data/$fx/$fx.dll" --output "$tmp/$fx.txt" \
    "$data/$fx/block.nettrace"
  err_has "$fx" "export: wrote "
  head -n 1 "$tmp/$fx.txt" | grep -q '^\*\*\* START PGO Data, max index = [0-9]* \*\*\*$' \
    || fail "$fx: no header line"
  tail -n 1 "$tmp/$fx.txt" | grep -qx '\*\*\* END PGO Data \*\*\*' || fail "$fx: no trailer line"
  # the file reads back with our strict reader
  "$tool" dump-text "$tmp/$fx.txt" > /dev/null 2> "$tmp/err" || fail "$fx: dump-text: $(cat "$tmp/err")"
  headers ours "$tmp/$fx.txt"
  headers theirs "$data/$fx/block.pgo.txt"
  [ -s "$tmp/ours" ] || fail "$fx: no method written"
  missing=$(comm -23 "$tmp/ours" "$tmp/theirs")
  [ -z "$missing" ] || fail "$fx: headers not in the runtime's dump: $missing"
  n_methods=$((n_methods + $(wc -l < "$tmp/ours")))
done
# generics: Bag`1 instances over int and over shared code are told apart,
# and so are the instances of the generic methods Max<T> and Drain<T>
# (their type arguments come from MethodDetails); every header matched the
# runtime's dump above
grep -qx 'MethodName: Bag`1\[System.Int32\].Push' "$tmp/generics.txt" || fail "generics: no Bag\`1[System.Int32].Push"
grep -qx 'MethodName: Bag`1\[System.__Canon\].Push' "$tmp/generics.txt" || fail "generics: no Bag\`1[System.__Canon].Push"
[ "$(grep -c '^MethodName: Program.Max$' "$tmp/generics.txt")" -eq 2 ] || fail "generics: Program.Max<int32> and Program.Max<__Canon> not both written"
[ "$(grep -c '^MethodName: Program.Drain$' "$tmp/generics.txt")" -eq 2 ] || fail "generics: Program.Drain<int32> and Program.Drain<__Canon> not both written"
expect 0 generics-summary export --format text --reference "$data/generics/generics.dll" \
  --output "$tmp/g2.txt" "$data/generics/block.nettrace"
err_has generics-summary " whose text PGO hashes cannot be computed"
cmp -s "$tmp/generics.txt" "$tmp/g2.txt" || fail "generics: two runs differ"
echo "CONFORMANCE export-text-headers: $n_methods/$n_methods"

# Handle names (SPEC: pgo-text(5) "Handle names from a trace").
# handle_lines FILE: "codehash methodhash<TAB>handle lines joined by |",
# one per method, sorted.
handle_lines () {
  awk '/^@@@ /{ key = $3 " " $5; if (!(key in h)) h[key] = ""; next }
       /^(TypeHandle|MethodHandle): /{ h[key] = h[key] $0 "|"; next }
       END { for (k in h) print k "\t" h[k] }' "$1" | LC_ALL=C sort
}
. "$tests/support/shared-runtime.sh"
runtime_version=$(sed -n 's/^runtime: *\([0-9.]*\).*/\1/p' "$data/manifest.txt")
runtime=$(shared_runtime_dir)
[ -n "$runtime" ] && [ "$(basename "$runtime")" != "$runtime_version" ] && runtime=
tab=$(printf '\t')
k_same=0 n_both=0 n_skipped=0
for d in "$data"/*/; do
  fx=$(basename "$d")
  [ -f "$d/edge.nettrace" ] && [ -f "$d/edge.pgo.txt" ] || continue
  set -- export --format text --as-recorded --reference "$d" --output "$tmp/h-$fx.txt"
  [ -n "$runtime" ] && set -- "$@" --framework "$runtime"
  expect 0 "handles-$fx" "$@" "$d/edge.nettrace"
  handle_lines "$tmp/h-$fx.txt" > "$tmp/ours"
  handle_lines "$d/edge.pgo.txt" > "$tmp/theirs"
  join -t "$tab" "$tmp/ours" "$tmp/theirs" > "$tmp/both"
  if [ -z "$runtime" ]; then
    # a framework type's name carries its assembly's public key token
    grep -v 'PublicKeyToken=[0-9a-f]' "$tmp/both" > "$tmp/checked"
    n_skipped=$((n_skipped + $(wc -l < "$tmp/both") - $(wc -l < "$tmp/checked")))
    mv "$tmp/checked" "$tmp/both"
  fi
  n=$(wc -l < "$tmp/both")
  k=$(awk -F "$tab" '$2 == $3' "$tmp/both" | wc -l)
  [ "$n" -gt 0 ] || fail "handles-$fx: no method in both files"
  [ "$k" -eq "$n" ] || fail "handles-$fx: $((n - k)) method(s) differ: $(awk -F "$tab" '$2 != $3 { print $1; exit }' "$tmp/both")"
  n_both=$((n_both + n)) k_same=$((k_same + k))
done
grep -q '^TypeHandle: System.Collections.Generic.HashSet`1+Enumerator\[\[System.Int32, ' "$tmp/h-disposal.txt" \
  || [ -z "$runtime" ] || fail "handles: no nested generic instance named in disposal"
[ "$n_skipped" -eq 0 ] || echo "SKIP: $n_skipped method(s) naming framework types (no Microsoft.NETCore.App $runtime_version)"
echo "CONFORMANCE export-text-handles: $k_same/$n_both"
[ "$k_same" -eq "$n_both" ] || fail "handles: $k_same/$n_both methods with the runtime's handle lines"

# Errors: one line, non-zero exit, no output file.
block=$data/branches/block.nettrace
dll=$data/branches/branches.dll
expect 2 bad-format export --format json --reference "$dll" --output "$tmp/x.txt" "$block"
err_has bad-format "unknown --format 'json' (mibc, text or xml)"
[ -e "$tmp/x.txt" ] && fail "bad-format: output written"
expect 2 compressed export --format text --compressed --reference "$dll" --output "$tmp/x.txt" "$block"
err_has compressed "--compressed applies to --format mibc only"
mkdir "$tmp/ro"
chmod a-w "$tmp/ro"
if [ ! -w "$tmp/ro" ]; then
  expect 1 unwritable export --format text --reference "$dll" --output "$tmp/ro/x.txt" "$block"
  one_line unwritable
  [ -z "$(ls -A "$tmp/ro")" ] || fail "unwritable: left a file: $(ls -A "$tmp/ro")"
fi
chmod u+w "$tmp/ro"
expect 1 no-dir export --format text --reference "$dll" --output "$tmp/none/x.txt" "$block"
one_line no-dir
[ -e "$tmp/none" ] && fail "no-dir: created the folder"
# an export that writes nothing leaves a file of the output's name as it was
echo keep > "$tmp/kept.txt"
expect 1 kept export --format text --reference "$data/hotloop/hotloop.dll" --output "$tmp/kept.txt" "$block"
one_line kept
[ "$(cat "$tmp/kept.txt")" = keep ] || fail "kept: the output's file changed"

# The text goes through a temporary file in $TMPDIR as it is written,
# which leaves nothing there; the file is the bytes standard output gets.
mkdir "$tmp/spill"
TMPDIR=$tmp/spill
export TMPDIR
expect 0 spill export --format text --reference "$dll" --output "$tmp/spill.txt" "$block"
[ -z "$(ls -A "$tmp/spill")" ] || fail "spill: left $(ls -A "$tmp/spill") in TMPDIR"
# the new file beside the output is renamed to it: nothing else is left
[ -z "$(ls "$tmp" | grep '^spill\.txt\.')" ] || fail "spill: left a file beside the output"
# ... and without a $TMPDIR to write in, the export fails, writing nothing
TMPDIR=$tmp/spill/none
expect 1 no-tmpdir export --format text --reference "$dll" --output "$tmp/no-tmpdir.txt" "$block"
one_line no-tmpdir
err_has no-tmpdir "$tmp/no-tmpdir.txt: "
[ -e "$tmp/no-tmpdir.txt" ] && fail "no-tmpdir: wrote the output"
unset TMPDIR
"$tool" export --format text --reference "$dll" --output - "$block" > "$tmp/stdout.txt" 2>/dev/null
cmp -s "$tmp/spill.txt" "$tmp/stdout.txt" || fail "spill: the file differs from standard output's bytes"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
exit 0
