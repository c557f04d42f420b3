#!/bin/sh
# SPDX-License-Identifier: MIT
#
# interp.sh: make bench: the interpreter's speed, each figure the best of
# three runs of the hotloop fixture program with 30 million calls, the
# variants taking turns:
#   BENCH interp-probe-overhead ratio=<probe set A / no probes>  (target <= 1.05)
#   BENCH interp-dense-overhead ratio=<dense / no probes>
#   BENCH interp-vs-mono ratio=<ours / mono --interpreter>        (target <= 2)
# The mono figure runs the same program built for .NET Framework
# (interp/hotloop.csproj), as mono cannot bind System.Runtime 10.0.
# Prints SKIP lines without a shared runtime, mono or dotnet.
set -u
DOTNET=${DOTNET:-}
builddir=${PGO_BUILDDIR:-.}
here=$(cd "$(dirname "$0")" && pwd)
. "${PGO_TEST_DATA:-$here/..}/support/shared-runtime.sh"
fw=$(shared_runtime_dir)
calls=30000000
if [ -z "$fw" ]; then
  echo "BENCH interp-probe-overhead SKIP (no dotnet shared framework)"
  exit 0
fi
interp="$builddir/tools/pgo-interp"
prog="${PGO_TEST_DATA:-$here/..}/fixtures/data/hotloop/hotloop.dll"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

# timed BEST CMD...: the least of BEST and the wall time of one run of CMD,
# in seconds (BEST empty: none yet).
timed () {
  b=$1
  shift
  s=$(date +%s.%N)
  "$@" >/dev/null || { echo "FAIL: $*" >&2; exit 1; }
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" -v b="$b" 'BEGIN { t = e - s; print (b == "" || t < b) ? t : b }'
}

# Three rounds, each running every variant once, so that a slow spell of
# the machine weighs on all of them alike.
none= a= dense=
for _ in 1 2 3; do
  none=$(timed "$none" "$interp" run --framework "$fw" "$prog" $calls) || exit 1
  a=$(timed "$a" "$interp" run --framework "$fw" --probes A "$prog" $calls) || exit 1
  dense=$(timed "$dense" "$interp" run --framework "$fw" --probes dense "$prog" $calls) || exit 1
done
awk -v n="$none" -v a="$a" -v d="$dense" 'BEGIN {
  printf "BENCH interp-probe-overhead ratio=%.3f probes-A=%.3fs none=%.3fs target=1.05 %s\n", a / n, a, n, a / n <= 1.05 ? "met" : "missed"
  printf "BENCH interp-dense-overhead ratio=%.3f dense=%.3fs none=%.3fs\n", d / n, d, n }'

if ! command -v mono >/dev/null 2>&1; then
  echo "BENCH interp-vs-mono SKIP (no mono)"
  exit 0
fi
src=$(cd "$here/../fixtures/src/hotloop" && pwd)
sed "s|\.\./\.\./fixtures/src/hotloop/Program\.cs|$src/Program.cs|" "$here/interp/hotloop.csproj" >"$work/hotloop.csproj"
if ! "$DOTNET" build -c Release -o "$work/out" "$work/hotloop.csproj" >"$work/build.log" 2>&1; then
  echo "BENCH interp-vs-mono SKIP (the .NET Framework build failed: $(grep -m1 error "$work/build.log"))"
  exit 0
fi
exe=$work/out/hotloop.exe
ours= mono=
for _ in 1 2 3; do
  ours=$(timed "$ours" "$interp" run --framework "$fw" "$exe" $calls) || exit 1
  mono=$(timed "$mono" mono --interpreter "$exe" $calls) || exit 1
done
awk -v o="$ours" -v m="$mono" 'BEGIN {
  printf "BENCH interp-vs-mono ratio=%.3f ours=%.3fs mono=%.3fs target=2 %s\n", o / m, o, m, o / m <= 2 ? "met" : "missed" }'
