#!/bin/sh
# SPDX-License-Identifier: MIT
#
# srm.sh: "pgo-reconstruct dump-assembly" against a dumper built
# on System.Reflection.Metadata (srm/), for every method
# of every assembly of the installed Microsoft.NETCore.App shared framework,
# of the sample assemblies (tests/data/pe/*.dll) and of the fixtures
# (tests/fixtures/data/*/*.dll).
#
# Both sides print the same lines (identity, then one line per method plus
# one per EH clause). A method counts as identical when its line and its
# clause lines match exactly. Prints "CONFORMANCE assemblies-srm: k/n" and,
# for the fixtures' real Webcil files against S.R.M on their .dll,
# "CONFORMANCE assemblies-srm-webcil: k/n"; fails below 100% or on any
# difference in the identity lines.
# Exit 77 (SKIP) without a usable dotnet or shared framework.
set -u

DOTNET=${DOTNET:-}
if [ -z "$DOTNET" ] || ! "$DOTNET" --version >/dev/null 2>&1; then
  echo "SKIP: dotnet is not available"
  exit 77
fi
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

. "${PGO_TEST_DATA:-$(dirname "$0")/..}/support/shared-runtime.sh"
runtime=$(shared_runtime_dir)
if [ -z "$runtime" ]; then
  echo "SKIP: no Microsoft.NETCore.App shared framework"
  exit 77
fi

builddir=${PGO_BUILDDIR:-.}
srcdir=${PGO_TEST_DATA:-tests}
tool="$builddir/tools/pgo-reconstruct"
work="$builddir/tests/conformance-srm"
rm -rf "$work"
mkdir -p "$work/project" "$work/srm" "$work/pgo" "$work/records"
cp "$srcdir/conformance/srm/SrmDump.csproj" "$srcdir/conformance/srm/Program.cs" \
   "$srcdir/conformance/srm/Names.cs" "$work/project/"
chmod -R u+w "$work/project"
if ! "$DOTNET" build -c Release -o "$work/bin" "$work/project" >"$work/build.log" 2>&1; then
  cat "$work/build.log"
  echo "FAIL: cannot build the System.Reflection.Metadata dumper"
  exit 1
fi

set -- "$runtime"/*.dll
for f in "$srcdir"/data/pe/*.dll "$srcdir"/fixtures/data/*/*.dll; do
  [ -f "$f" ] && set -- "$@" "$f"
done
"$DOTNET" "$work/bin/SrmDump.dll" "$work/srm" "$@" 2>"$work/srm.log"
echo "reference: $(ls "$work/srm" | wc -l) assemblies from $runtime and fixtures"

# records: one line per method, its clause lines joined with " | ".
records() {
  awk '/^\t/ { rec = rec " |" $0; next } { if (rec != "") print rec; rec = $0 } END { if (rec != "") print rec }' "$1"
}

total=0
same=0
bad_identity=0
for ref in "$work"/srm/*.txt; do
  name=$(basename "$ref" .txt)
  f=""
  for cand in "$@"; do
    [ "$(basename "$cand")" = "$name" ] && f=$cand && break
  done
  "$tool" dump-assembly "$f" >"$work/pgo/$name.txt" 2>>"$work/pgo.log"
  records "$ref" | sort >"$work/records/$name.srm"
  records "$work/pgo/$name.txt" | sort >"$work/records/$name.pgo"
  n=$(grep -c '^0x06' "$work/records/$name.srm")
  k=$(comm -12 "$work/records/$name.srm" "$work/records/$name.pgo" | grep -c '^0x06')
  total=$((total + n))
  same=$((same + k))
  if [ "$(grep -v '^0x06' "$work/records/$name.srm")" != "$(grep -v '^0x06' "$work/records/$name.pgo")" ]; then
    echo "identity differs: $name"
    bad_identity=$((bad_identity + 1))
  fi
  if [ "$k" -ne "$n" ]; then
    echo "methods differ: $name ($k/$n identical); first differences:"
    diff "$ref" "$work/pgo/$name.txt" | head -6
  fi
done

echo "CONFORMANCE assemblies-srm: $same/$total"

# The Webcil forms of the fixtures must print exactly what S.R.M prints for
# their .dll (Webcil keeps metadata, bodies and the debug directory).
wtotal=0
wsame=0
for f in "$srcdir"/fixtures/data/*/*.wasm; do
  [ -f "$f" ] || continue
  name=$(basename "$f" .wasm).dll
  [ -f "$work/srm/$name.txt" ] || continue
  "$tool" dump-assembly "$f" >"$work/pgo/$name.wasm.txt" 2>>"$work/pgo.log"
  records "$work/pgo/$name.wasm.txt" | sort >"$work/records/$name.wasm"
  n=$(grep -c '^0x06' "$work/records/$name.srm")
  k=$(comm -12 "$work/records/$name.srm" "$work/records/$name.wasm" | grep -c '^0x06')
  wtotal=$((wtotal + n))
  wsame=$((wsame + k))
  if [ "$(grep -v '^0x06' "$work/records/$name.srm")" != "$(grep -v '^0x06' "$work/records/$name.wasm")" ]; then
    echo "identity differs: $f"
    bad_identity=$((bad_identity + 1))
  fi
done
echo "CONFORMANCE assemblies-srm-webcil: $wsame/$wtotal"
[ "$total" -gt 0 ] && [ "$same" -eq "$total" ] && [ "$wsame" -eq "$wtotal" ] && [ "$bad_identity" -eq 0 ]
