#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run.sh: make check: a CIL regression suite written elsewhere, on
# pgo-interp(1) and on CoreCLR (issue [interp-real] deliverable 3).
#
# The suite is Mono's JIT and interpreter regression tests (see ./fetch
# and README.md): the files of Mono's own list (mono/mini/Makefile.am.in,
# regtests_UNIVERSAL), each a class of static test_N_name methods that
# must return N, run by the suite's TestDriver.  Each file is compiled here
# with the SDK's C# compiler against the shared framework's reference
# assemblies, then run under both runtimes, one test at a time in effect:
# a run that stops (an exception, an unsupported feature, a timeout)
# marks the test it was in as "stop" and the next run excludes every test
# already judged, until the driver prints its summary.
# Output:
#   MINI FILE: tests N, CoreCLR pass P, interp pass Q, both R
#   MISS lines for each test CoreCLR passes and the interpreter does not,
#     with the interpreter's outcome and first line of error
#   CONFORMANCE interp-mini: Q/N (CoreCLR P/N, both R; interp/CoreCLR X)
# The tests both pass is a floor (interp-mini-both in tests/floors.txt);
# the files left out, and why, are EXCLUDED lines from ./exclusions.
# SKIP (77) without dotnet, its C# compiler and reference assemblies, or
# the suite (run ./fetch; .ci/run does).
# SPEC: pgo-interp(1) "CONFORMANCE"
set -u
: "${PGO_TEST_DATA:=tests}"
here=$PGO_TEST_DATA/conformance/mini
. "$PGO_TEST_DATA/support/interp-env.sh"
. "$PGO_TEST_DATA/support/floors.sh"
interp_env "the suite runs on CoreCLR as well"
suite=${PGO_MINI_SUITE:-${XDG_CACHE_HOME:-$HOME/.cache}/pgo-tools/mono-mini}
if [ ! -f "$suite/TestDriver.cs" ]; then
  echo "SKIP: no suite in $suite: run $here/fetch"
  exit 77
fi
root=$(cd "$fw/../../.." && pwd)
csc=$("$DOTNET" --list-sdks 2>/dev/null | awk '{ gsub(/[][]/, "", $2); d = $2 "/" $1 } END { print d }')/Roslyn/bincore/csc.dll
refs=$(ls -d "$root"/packs/Microsoft.NETCore.App.Ref/*/ref/net*/ 2>/dev/null | sort -V | tail -n 1)
if [ ! -f "$csc" ] || [ -z "$refs" ]; then
  echo "SKIP: no C# compiler ($csc) or reference assemblies under $root/packs"
  exit 77
fi
printf '{"runtimeOptions":{"tfm":"net10.0","framework":{"name":"Microsoft.NETCore.App","version":"%s"},"configProperties":{"System.Globalization.Invariant":true}}}\n' \
  "$(basename "$fw")" >"$work/runtimeconfig.json"
timeout_s=${PGO_MINI_TIMEOUT:-120}

# the IL assembler of the NuGet package tests/conformance/mini/ilasm
# downloads (.ci/run restores it), or $PGO_ILASM; none: the IL files of
# the list are left out, and said so
ilasm=${PGO_ILASM:-$(ls "${NUGET_PACKAGES:-$HOME/.nuget/packages}"/runtime.*.microsoft.netcore.ilasm/*/runtimes/*/native/ilasm 2>/dev/null | sort -V | tail -n 1)}

# assemble OUT SOURCE [-dll]: one assembly from the suite's IL
assemble () {
  [ -n "$ilasm" ] && "$ilasm" -quiet -output="$1" "$2" ${3:-} >"$work/csc.log" 2>&1 && [ -f "$1" ]
}

# build FILE: $work/FILE.dll from the suite, with the IL libraries the
# Makefile gives generics and unaligned
build () {
  case $1 in
    iltests) assemble "$work/$1.dll" "$suite/$1.il" ;;
    generics) assemble "$work/generics-variant-types.dll" "$suite/generics-variant-types.il" -dll \
        && compile "$work/$1.dll" -r:"$work/TestDriver.dll" -r:"$work/generics-variant-types.dll" "$suite/$1.cs" ;;
    unaligned) assemble "$work/MemoryIntrinsics.dll" "$suite/MemoryIntrinsics.il" -dll \
        && compile "$work/$1.dll" -r:"$work/TestDriver.dll" -r:"$work/MemoryIntrinsics.dll" "$suite/$1.cs" ;;
    *) compile "$work/$1.dll" -r:"$work/TestDriver.dll" "$suite/$1.cs" ;;
  esac
}

# compile OUT SOURCE... [-r:LIB]: one assembly, as Mono's Makefile builds
# it (-unsafe, its warnings off, ARCH_64 for builtin-types)
compile () {
  _out=$1; shift
  "$DOTNET" "$csc" -nologo -noconfig -nostdlib -unsafe -nowarn:0162,0219,0169,0414,0649,0618 \
    -define:ARCH_64 $(printf -- '-r:%s ' "$refs"*.dll) -out:"$_out" "$@" >"$work/csc.log" 2>&1
}

# judge RUNTIME NAME DLL: appends "test outcome detail" lines to
# $work/NAME.RUNTIME, outcome pass, fail (a wrong result) or stop.
judge () {
  _rt=$1 _name=$2 _dll=$3 _res=$work/$2.$1
  : >"$_res"
  while :; do
    _args=(--verbose)
    while read -r _t _o _d; do _args+=(--exclude-test "$_t"); done <"$_res"
    # (in a subshell, so that the shell does not report a run's abort)
    if [ "$_rt" = clr ]; then
      (timeout "$timeout_s" "$DOTNET" exec --runtimeconfig "$work/runtimeconfig.json" \
        "$_dll" "${_args[@]}" >"$work/out" 2>"$work/err"; exit $?) 2>/dev/null
    else
      (timeout "$timeout_s" "$interp" run --framework "$fw" "$_dll" "${_args[@]}" \
        >"$work/out" 2>"$work/err"; exit $?) 2>/dev/null
    fi
    _rc=$?
    # the first line of the error, or the innermost exception's
    _why=$( { grep -m 1 '^pgo-interp' "$work/err" || grep -E '^Unhandled exception|^ ---> ' "$work/err" | tail -n 1 \
              || head -n 1 "$work/err"; } | sed 's|^pgo-interp: [^:]*: ||; s|^ ---> ||; s|^Unhandled exception. ||' | cut -c 1-200)
    [ "$_rc" -ne 124 ] || _why="timeout after ${timeout_s}s"
    awk -v why="${_why:-exit $_rc}" '
      /^Running .* \.\.\.$/ { t = substr($2, 2, length($2) - 2); order[++n] = t; next }
      / failed: got / { bad[$1] = substr($0, index($0, "got")) }
      /^Regression tests: / { done = 1; ran = $3; for (i = 4; i <= NF; i++) if ($i == "failed") failed = $(i - 1) }
      END {
        # a Main that ignores its arguments (ratests): no test named, so
        # the file counts as its driver does, by number
        if (done && n == 0) {
          for (i = 1; i <= ran; i++) printf "(test-%d) %s\n", i, i <= ran - failed ? "pass -" : "fail -"
          exit 0
        }
        for (i = 1; i <= n; i++) {
          t = order[i]
          if (!done && i == n) { printf "%s stop %s\n", t, why; continue }
          if (t in bad) printf "%s fail %s\n", t, bad[t]; else printf "%s pass -\n", t
        }
        if (!done && n == 0) printf "(driver) stop %s\n", why
        exit done || n == 0 ? 0 : 3
      }' "$work/out" >>"$_res" && return 0
  done
}

failures=0
compile "$work/TestDriver.dll" -target:library "$suite/TestDriver.cs" "$suite/TestHelpers.cs" \
  || { echo "FAIL: TestDriver.cs does not compile: $(grep -m 1 error "$work/csc.log")"; exit 1; }
N=0 P=0 Q=0 R=0
while read -r file why; do
  case $file in '#'*|'') continue ;; esac
  echo "EXCLUDED $file: $why"
done <"$here/exclusions"
for file in aot-tests basic basic-float basic-long basic-calls builtin-types gshared objects \
            arrays basic-math exceptions iltests devirtualization generics basic-simd \
            unaligned basic-vectors ratests; do
  grep -q "^$file " "$here/exclusions" && continue
  case $file in iltests|generics|unaligned)
    if [ -z "$ilasm" ]; then
      echo "EXCLUDED $file: no IL assembler: restore $here/ilasm/ilasm.csproj or set PGO_ILASM"
      continue
    fi ;;
  esac
  if ! build "$file"; then
    echo "FAIL: $file does not build: $(grep -m 1 -i error "$work/csc.log")"
    failures=$((failures + 1))
    continue
  fi
  judge clr "$file" "$work/$file.dll"
  judge interp "$file" "$work/$file.dll"
  # (a test CoreCLR judged that no interpreter run reached stays in)
  join -a 1 <(sort "$work/$file.clr") <(sort "$work/$file.interp") >"$work/$file.both"
  n=$(wc -l <"$work/$file.clr")
  p=$(awk '$2 == "pass"' "$work/$file.clr" | wc -l)
  q=$(awk '$2 == "pass"' "$work/$file.interp" | wc -l)
  r=$(awk '$2 == "pass" && $0 ~ / pass - pass -$/' "$work/$file.both" | wc -l)
  echo "MINI $file: tests $n, CoreCLR pass $p, interp pass $q, both $r"
  awk -v f="$file" '$2 == "pass" && !/ pass - pass -$/ {
      d = $0; sub(/^[^ ]+ pass -/, "", d); sub(/^ /, "", d); if (d == "") d = "not reached"; printf "MISS %s: %s: CoreCLR passes, the interpreter: %s\n", f, $1, d }' \
    "$work/$file.both"
  N=$((N + n)) P=$((P + p)) Q=$((Q + q)) R=$((R + r))
done
ratio=$(awk -v q="$R" -v p="$P" 'BEGIN { printf "%.4f", p ? q / p : 0 }')
echo "CONFORMANCE interp-mini: $Q/$N (CoreCLR $P/$N, both $R; interp/CoreCLR $ratio)"
check_floor interp-mini-both "$R" || failures=$((failures + 1))
[ "$N" -gt 0 ] || { echo "FAIL: no test ran"; failures=$((failures + 1)); }
exit $((failures > 0))
