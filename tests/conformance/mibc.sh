#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mibc.sh: our .mibc files read by a decoder built on
# System.Reflection.Metadata that walks them as crossgen2's parser does
# (tests/conformance/mibc), against our own reader.
#
# For every fixture trace (tests/fixtures/data/*/{edge,block}.nettrace),
# tests/conformance/mibc-tool writes a plain and a zipped .mibc, finding the assemblies
# in the fixture's folder and the installed shared framework; both readers
# dump every file in the same format (one "method" line, then one line per
# schema record). A method counts as equal when its line and all its
# record lines are identical at the same position. Prints
# "CONFORMANCE mibc-srm: <methods equal>/<methods>", then the same for one
# profile per MethodDef of System.Private.CoreLib and of the fixtures
# ("CONFORMANCE mibc-srm-all-methods"); fails below 100%.
# Exit 77 (SKIP) without a usable dotnet.
set -u

DOTNET=${DOTNET:-}
if [ -z "$DOTNET" ] || ! "$DOTNET" --version >/dev/null 2>&1; then
  echo "SKIP: dotnet is not available"
  exit 77
fi
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

srcdir=${PGO_TEST_DATA:-tests}
builddir=${PGO_BUILDDIR:-.}
. "$srcdir/support/shared-runtime.sh"
runtime=$(shared_runtime_dir)
tool="$builddir/tests/conformance/mibc-tool"
work="$builddir/tests/conformance/mibc-conformance"
rm -rf "$work"
mkdir -p "$work/project" "$work/mibc" "$work/dump"
cp "$srcdir/conformance/mibc/MibcDump.csproj" "$srcdir/conformance/mibc/Program.cs" \
   "$srcdir/conformance/srm/Names.cs" "$work/project/"
chmod -R u+w "$work/project"
if ! "$DOTNET" build -c Release -o "$work/bin" "$work/project" >"$work/build.log" 2>&1; then
  cat "$work/build.log"
  echo "FAIL: cannot build the System.Reflection.Metadata decoder"
  exit 1
fi

# records: one line per method, its record lines joined with " |".
records() {
  awk '/^  / { rec = rec " |" $0; next } { if (rec != "") print rec; rec = $0 } END { if (rec != "") print rec }' "$1"
}

total=0
same=0
failed=0
for trace in "$srcdir"/fixtures/data/*/edge.nettrace "$srcdir"/fixtures/data/*/block.nettrace; do
  [ -f "$trace" ] || continue
  dir=$(dirname "$trace")
  base=$(basename "$dir")-$(basename "$trace" .nettrace)
  for form in plain zip; do
    out="$work/mibc/$base-$form.mibc"
    flag=""
    [ "$form" = zip ] && flag=--zip
    if ! "$tool" write "$out" "$trace" $flag "$dir" ${runtime:+"$runtime"} 2>>"$work/write.log"; then
      echo "FAIL: cannot write $out"
      failed=$((failed + 1))
      continue
    fi
    "$tool" dump "$out" >"$work/dump/$base-$form.pgo" 2>>"$work/dump.log" || failed=$((failed + 1))
    "$DOTNET" "$work/bin/MibcDump.dll" "$out" >"$work/dump/$base-$form.srm" 2>>"$work/dump.log" \
      || failed=$((failed + 1))
    records "$work/dump/$base-$form.srm" >"$work/dump/$base-$form.srm.rec"
    records "$work/dump/$base-$form.pgo" >"$work/dump/$base-$form.pgo.rec"
    n=$(wc -l <"$work/dump/$base-$form.srm.rec")
    k=$(paste -d '\n' "$work/dump/$base-$form.srm.rec" "$work/dump/$base-$form.pgo.rec" \
          | awk 'NR % 2 == 1 { a = $0; next } $0 == a { k++ } END { print k + 0 }')
    total=$((total + n))
    same=$((same + k))
    if [ "$k" -ne "$n" ]; then
      echo "differs: $base-$form ($k/$n)"
      diff "$work/dump/$base-$form.srm" "$work/dump/$base-$form.pgo" | head -6
    fi
  done
done
cat "$work/dump.log"
echo "CONFORMANCE mibc-srm: $same/$total"

# Every method of System.Private.CoreLib and of the fixture assemblies:
# mibc-tool write-all writes one profile per MethodDef (signatures of
# every shape, 4-byte heap indexes for CoreLib) and checks that our reader
# resolves each back to its MethodDef; both readers' dumps must agree.
atotal=0
asame=0
for dll in ${runtime:+"$runtime/System.Private.CoreLib.dll"} "$srcdir"/fixtures/data/*/*.dll; do
  [ -f "$dll" ] || continue
  base=all-$(basename "$dll" .dll)
  out="$work/mibc/$base.mibc"
  if ! "$tool" write-all "$out" "$dll" "$(dirname "$dll")" 2>>"$work/write.log"; then
    echo "FAIL: $dll: not every method written and resolved back (see write.log)"
    failed=$((failed + 1))
    continue
  fi
  "$tool" dump "$out" >"$work/dump/$base.pgo" 2>>"$work/dump.log" || failed=$((failed + 1))
  "$DOTNET" "$work/bin/MibcDump.dll" "$out" >"$work/dump/$base.srm" 2>>"$work/dump.log" \
    || failed=$((failed + 1))
  records "$work/dump/$base.srm" >"$work/dump/$base.srm.rec"
  records "$work/dump/$base.pgo" >"$work/dump/$base.pgo.rec"
  n=$(wc -l <"$work/dump/$base.srm.rec")
  k=$(paste -d '\n' "$work/dump/$base.srm.rec" "$work/dump/$base.pgo.rec" \
        | awk 'NR % 2 == 1 { a = $0; next } $0 == a { k++ } END { print k + 0 }')
  atotal=$((atotal + n))
  asame=$((asame + k))
  [ "$k" -eq "$n" ] || echo "differs: $base ($k/$n)"
done
grep "resolved" "$work/write.log"
echo "CONFORMANCE mibc-srm-all-methods: $asame/$atotal"
[ "$total" -gt 0 ] && [ "$same" -eq "$total" ] && [ "$atotal" -gt 0 ] && [ "$asame" -eq "$atotal" ] \
  && [ "$failed" -eq 0 ]
