#!/bin/sh
# SPDX-License-Identifier: MIT
#
# fixtures-regen.sh: regenerates every fixture with the installed .NET SDK
# (tests/fixtures/generate --out, into the build tree) and compares it with
# the committed data: the .dll/.pdb/.wasm must be identical (reproducible
# builds), and each profile of a fixture program's own methods in the
# block- and edge-mode text dumps must be identical line for line (exact,
# deterministic counting).  Framework methods and traces are not compared
# (thread pool timing and addresses differ from run to run).
#
# SKIP (77) without a usable dotnet.  Prints "CONFORMANCE fixtures-regen: k/n"
# and fails below n/n.

set -u
dotnet=${DOTNET:-}
[ -n "$dotnet" ] || { echo "SKIP: DOTNET is empty"; exit 77; }
"$dotnet" --version > /dev/null 2>&1 || { echo "SKIP: '$dotnet' is not usable"; exit 77; }

src=${PGO_TEST_DATA:-tests}/fixtures
scratch=${PGO_BUILDDIR:-.}/tests/fixtures-regen.tmp
rm -rf "$scratch"
mkdir -p "$scratch/tmp"
export DOTNET="$dotnet" DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 TMPDIR="$scratch/tmp"

if ! bash "$src/generate" --out "$scratch/out" > "$scratch/generate.log" 2>&1; then
  cat "$scratch/generate.log"
  echo "FAIL: generate failed"
  exit 1
fi

# app_methods DUMP: the fixture programs' own method profiles, one block each.
app_methods () {
  awk '/^@@@ / { hdr = $0; keep = 0; next }
       /^MethodName: / { keep = ($2 ~ /^(Program|Bag`1|Node|Resource|FixtureException)[.+[]/); if (keep) print hdr }
       /^\*\*\* END/ { keep = 0 }
       keep' "$1"
}

total=0
same=0
for f in $(cd "$src/data" && ls */*.dll */*.pdb */*.wasm */*.pgo.txt); do
  total=$((total + 1))
  case $f in
    *.pgo.txt)
      app_methods "$src/data/$f" > "$scratch/want"
      app_methods "$scratch/out/data/$f" > "$scratch/got"
      if [ -s "$scratch/want" ] && cmp -s "$scratch/want" "$scratch/got"; then
        same=$((same + 1))
      else
        echo "differs: $f (program methods)"
        diff "$scratch/want" "$scratch/got" | head -10
      fi ;;
    *)
      if cmp -s "$src/data/$f" "$scratch/out/data/$f"; then
        same=$((same + 1))
      else
        echo "differs: $f"
      fi ;;
  esac
done

echo "CONFORMANCE fixtures-regen: $same/$total"
[ "$same" = "$total" ] || exit 1
rm -rf "$scratch"
