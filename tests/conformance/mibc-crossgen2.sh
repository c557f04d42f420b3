#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mibc-crossgen2.sh: crossgen2 10.0.12 compiles each fixture assembly with
# our .mibc (plain and zipped) and its JIT reports which methods it
# optimized with the profile.
#
# Per fixture: "pgo-reconstruct create-mibc --probes A" reconstructs the block
# trace's methods from the probe set A offsets (the main job); crossgen2
# runs with --codegenopt JitDisasm=* and reads the PGO line of each
# method's listing header: "; No PGO data", or "; with Static PGO:
# fgCalledCount is N", or "; with Synthesized PGO: fgCalledCount is N"
# (seen for methods with loops or called once; N is still the profile's
# entry count, and without --mibc the same methods have no PGO data). It runs once without --mibc
# (every method must say "No PGO data"), once with the plain and once with
# the zipped file (the lines must be identical). Prints
# "CONFORMANCE mibc-crossgen2: <methods compiled with the profile>/<profiled
# methods>", counting every profiled method of the fixture assembly,
# instances of generic types and generic methods included (they are
# written as TypeSpec/MethodSpec references;
# SPEC: mibc(5) "Generic method instances"). A profiled method is matched to the JIT's listing by
# "Type[Args]:Method[Args]"; one crossgen2 compiles no body for at all,
# not even without a .mibc (an instance inlined into every caller), is a
# named exclusion, counted and printed. Fails
# when crossgen2 fails, the control run shows PGO, plain and zip differ,
# or a counted method is compiled without its profile.
# With the argument "interp" the traces are the interpreter's instead:
# "pgo-interp run --probes A" runs each fixture program (those it cannot
# run are named and left out), and the line reads
# "CONFORMANCE mibc-crossgen2-interp: ...".
# Exit 77 (SKIP) without dotnet, the shared framework, an x64 Linux host
# or the crossgen2 package.
set -u
source_of_traces=${1:-coreclr}

DOTNET=${DOTNET:-}
if [ -z "$DOTNET" ] || ! "$DOTNET" --version >/dev/null 2>&1; then
  echo "SKIP: dotnet is not available"
  exit 77
fi
if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "SKIP: crossgen2 linux-x64 needs an x86_64 Linux host"
  exit 77
fi
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

srcdir=${PGO_TEST_DATA:-tests}
builddir=${PGO_BUILDDIR:-.}
. "$srcdir/support/shared-runtime.sh"
runtime=$(shared_runtime_dir)
if [ -z "$runtime" ]; then
  echo "SKIP: no Microsoft.NETCore.App shared framework"
  exit 77
fi
tool="$builddir/tools/pgo-reconstruct"
work="$builddir/tests/conformance/mibc-crossgen2${1:+-$1}"
rm -rf "$work"
mkdir -p "$work/mibc" "$work/out" "$work/jit"
. "$srcdir/support/crossgen2.sh"
find_crossgen2 "$work/restore" 10.0.12 || exit 77

# compile NAME MIBC-OR-EMPTY TAG: $work/jit/NAME-TAG.txt, one line per
# compiled method: "<method>\t<the JIT's PGO line>", where the PGO line is
# "; No PGO data" or "; with <Static|Synthesized|...> PGO: fgCalledCount is N".
compile() {
  rm -f "$work/jit/$1-$3.asm"
  "$crossgen2" "$srcdir/fixtures/data/$1/$1.dll" -o "$work/out/$1-$3.dll" -r "$runtime/*.dll" \
    --targetos linux --targetarch x64 -O --parallelism 1 ${2:+--mibc "$2"} \
    --codegenopt 'JitDisasm=*' --codegenopt JitStdOutFile="$work/jit/$1-$3.asm" \
    >"$work/out/$1-$3.log" 2>&1 || { cat "$work/out/$1-$3.log"; return 1; }
  awk '/^; Assembly listing for method / { sub(/^; Assembly listing for method /, ""); m = $0; next }
       /^; No PGO data/ || /^; with .* PGO: / { print m "\t" $0 }' "$work/jit/$1-$3.asm" \
    | sort >"$work/jit/$1-$3.txt"
}

total=0
used=0
static=0
failed=0
excluded=0

# jit_key FILE: each "Type<Args>::Method<Args>(params)" line of our dump as
# the JIT's listing names the method: "Type[Args]:Method[Args]", nested
# types joined by "+", with the JIT's names of primitive type arguments.
# Only instantiations change brackets ("Name`N<...>" and a "<...>" right
# before the parameters); "<Evens>d__0" or "IEnumerable<System.Int32>." in
# compiler-made names stay as they are.
jit_key() {
  sed -e 's|/|+|g' -e ':a' -e 's/`\([0-9][0-9]*\)<\([^<>]*\)>/`\1[\2]/' -e 'ta' \
      -e 's/<\([^()<>]*\)>(/[\1](/' -e 's/(.*$//' -e 's/::/:/' \
      -e ':b' -e 's/\([[,]\)int32\([],]\)/\1int\2/' -e 's/\([[,]\)uint8\([],]\)/\1ubyte\2/' \
      -e 's/\([[,]\)int64\([],]\)/\1long\2/' -e 's/\([[,]\)char\([],]\)/\1ushort\2/' \
      -e 's/\([[,]\)string\([],]\)/\1System.String\2/' \
      -e 's/\([[,]\)object\([],]\)/\1System.Object\2/' -e 'tb' "$@"
}

# listing_key [FILE]: the "Type[Args]:Method[Args]" of each listing line.
listing_key() {
  awk -F '\t' '{ k = $1; sub(/\(.*$/, "", k); print k }' "$@" | sort -u
}
for trace in "$srcdir"/fixtures/data/*/block.nettrace; do
  name=$(basename "$(dirname "$trace")")
  probes="--probes A"
  if [ "$source_of_traces" = interp ]; then
    mkdir -p "$work/traces"
    if ! "$builddir/tools/pgo-interp" run --framework "$runtime" --probes A --trace "$work/traces/$name.nettrace" \
         "$srcdir/fixtures/data/$name/$name.dll" >/dev/null 2>"$work/traces/$name.err"; then
      echo "left out: $name: $(head -n 1 "$work/traces/$name.err")"
      continue
    fi
    trace=$work/traces/$name.nettrace
    probes=
  fi
  for form in plain zip; do
    flag=""
    [ "$form" = zip ] && flag=--compressed
    mkdir -p "$work/mibc/$form"
    "$tool" create-mibc "$trace" $probes $flag -r "$srcdir/fixtures/data/$name" \
      --framework "$runtime" -o "$work/mibc/$form/$name.mibc" 2>>"$work/write.log" \
      || failed=$((failed + 1))
  done
  compile "$name" "" none && compile "$name" "$work/mibc/plain/$name.mibc" plain \
    && compile "$name" "$work/mibc/zip/$name.mibc" zip || { failed=$((failed + 1)); continue; }
  if grep -q "PGO: " "$work/jit/$name-none.txt"; then
    echo "FAIL: $name: PGO without a .mibc"
    failed=$((failed + 1))
  fi
  if ! cmp -s "$work/jit/$name-plain.txt" "$work/jit/$name-zip.txt"; then
    echo "FAIL: $name: the plain and the zipped .mibc compile differently"
    failed=$((failed + 1))
  fi
  # the profiled methods of the fixture, as the JIT's listing keys them:
  # "Bag`1<int32>::Pop()" -> "Bag`1[int]:Pop" (dump's method lines,
  # TAB-separated: NAME, then sig=SIGNATURE and module=MODULE)
  "$tool" dump "$work/mibc/plain/$name.mibc" \
    | awk -F '\t' -v a="$name" '$1 == "method" && $4 == "module=" a { s = substr($3, 5); print $2 (s == "-" ? "" : s) }' \
    | sort -u >"$work/mibc/$name.methods"
  jit_key "$work/mibc/$name.methods" | sort -u >"$work/mibc/$name.keys"
  listing_key "$work/jit/$name-none.txt" >"$work/jit/$name-none.keys"
  grep "PGO: " "$work/jit/$name-plain.txt" | listing_key >"$work/jit/$name-plain.keys"
  n=0 k=0
  while IFS= read -r key; do
    if grep -qxF -- "$key" "$work/jit/$name-plain.keys"; then
      n=$((n + 1)) k=$((k + 1))
    elif ! grep -qxF -- "$key" "$work/jit/$name-none.keys"; then
      echo "excluded: $name: $key: crossgen2 compiles no body for it, with or without a .mibc"
      excluded=$((excluded + 1))
    else
      echo "FAIL: $name: $key compiled without its profile"
      n=$((n + 1))
    fi
  done <"$work/mibc/$name.keys"
  s=$(grep -c "with Static PGO" "$work/jit/$name-plain.txt")
  echo "$name: $k of $n profiled methods compiled with the profile ($s as Static PGO)"
  sed 's/^/  /' "$work/jit/$name-plain.txt"
  total=$((total + n))
  used=$((used + k))
  static=$((static + s))
done
echo "excluded: $excluded profiled methods crossgen2 compiles no body for"
echo "static: $static methods labelled Static PGO; the others say Synthesized PGO with the profile's entry count"
echo "CONFORMANCE mibc-crossgen2${1:+-$1}: $used/$total"
[ "$failed" -eq 0 ] && [ "$total" -gt 0 ] && [ "$used" -eq "$total" ]
