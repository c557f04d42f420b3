#!/bin/sh
# SPDX-License-Identifier: MIT
#
# interp.sh: make bench: the interpreter's speed, each figure the best of
# three runs, the variants taking turns; on the hotloop fixture program
# with 30 million calls:
#   BENCH interp-probe-overhead ratio=<probe set A / no probes>  (target <= 1.05)
#   BENCH interp-dense-overhead ratio=<dense / no probes>
#   BENCH interp-vs-mono ratio=<ours / mono --interpreter>        (target <= 2)
# and on a real library, the corpus's Sprache workload (one repetition,
# the overhead the best of five):
#   BENCH interp-realcode-probe-overhead ratio=<probe set A / no probes>  (target <= 1.05)
#   BENCH interp-vs-mono-realcode ratio=<ours / mono --interpreter>       (target <= 2)
# The mono figures run the same programs built for .NET Framework
# (interp/hotloop.csproj, interp/sprache.csproj), as mono cannot bind
# System.Runtime 10.0.  Prints SKIP lines without a shared runtime, mono
# or dotnet (and NuGet, for the workload).
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

# Five rounds, each running every variant once, so that a slow spell of
# the machine weighs on all of them alike; the best of five, as the
# probes' cost (about 3%) is near the spread of single runs.
none= a= dense=
for _ in 1 2 3 4 5; do
  none=$(timed "$none" "$interp" run --framework "$fw" "$prog" $calls) || exit 1
  a=$(timed "$a" "$interp" run --framework "$fw" --probes A "$prog" $calls) || exit 1
  dense=$(timed "$dense" "$interp" run --framework "$fw" --probes dense "$prog" $calls) || exit 1
done
awk -v n="$none" -v a="$a" -v d="$dense" 'BEGIN {
  printf "BENCH interp-probe-overhead ratio=%.3f probes-A=%.3fs none=%.3fs target=1.05 %s\n", a / n, a, n, a / n <= 1.05 ? "met" : "missed"
  printf "BENCH interp-dense-overhead ratio=%.3f dense=%.3fs none=%.3fs\n", d / n, d, n }'

# net472 NAME SRC: builds tests/bench/interp/NAME.csproj (its sources at
# SRC, relative to that folder) for .NET Framework into $work/NAME; prints
# the reason on failure.
net472 () {
  mkdir -p "$work/$1"
  sed "s|\.\./\.\./[a-z]*/src/[a-z]*/Program\.cs|$2/Program.cs|" "$here/interp/$1.csproj" >"$work/$1/$1.csproj"
  "$DOTNET" build -c Release -o "$work/$1/out" "$work/$1/$1.csproj" >"$work/$1/build.log" 2>&1 \
    || { echo "the .NET Framework build failed: $(grep -m1 error "$work/$1/build.log")"; return 1; }
}

# vs_mono NAME EXE ARGS...: BENCH interp-vs-mono[-NAME]: the best of three
# interleaved runs of EXE under pgo-interp and mono --interpreter.
vs_mono () {
  name=$1 exe=$2
  shift 2
  ours= mono=
  for _ in 1 2 3; do
    ours=$(timed "$ours" "$interp" run --framework "$fw" "$exe" "$@") || exit 1
    mono=$(timed "$mono" mono --interpreter "$exe" "$@") || exit 1
  done
  awk -v n="$name" -v o="$ours" -v m="$mono" 'BEGIN {
    printf "BENCH interp-vs-mono%s ratio=%.3f ours=%.3fs mono=%.3fs target=2 %s\n", n, o / m, o, m, o / m <= 2 ? "met" : "missed" }'
}

if [ -z "$DOTNET" ]; then
  echo "BENCH interp-realcode-probe-overhead SKIP (no dotnet to build the workload)"
  exit 0
fi
# The real-library workload: the corpus's Sprache parser, probes A against
# none, on the interpreter (its framework is the shared runtime's).
if why=$(net472 sprache "$(cd "$here/../realcode/src/sprache" && pwd)"); then
  spr=$work/sprache/out/sprache-workload.exe
  # five rounds: one repetition takes about 3 s, and runs spread by 10%
  none= a=
  for _ in 1 2 3 4 5; do
    none=$(timed "$none" "$interp" run --framework "$fw" "$spr" 1) || exit 1
    a=$(timed "$a" "$interp" run --framework "$fw" --probes A "$spr" 1) || exit 1
  done
  awk -v n="$none" -v a="$a" 'BEGIN {
    printf "BENCH interp-realcode-probe-overhead ratio=%.3f probes-A=%.3fs none=%.3fs target=1.05 %s\n", a / n, a, n, a / n <= 1.05 ? "met" : "missed" }'
else
  echo "BENCH interp-realcode-probe-overhead SKIP ($why)"
fi

if ! command -v mono >/dev/null 2>&1; then
  echo "BENCH interp-vs-mono SKIP (no mono)"
  exit 0
fi
if why=$(net472 hotloop "$(cd "$here/../fixtures/src/hotloop" && pwd)"); then
  vs_mono "" "$work/hotloop/out/hotloop.exe" $calls
else
  echo "BENCH interp-vs-mono SKIP ($why)"
fi
# mono runs the workload over its own .NET Framework libraries, the
# interpreter over the shared runtime's: the same IL of the workload and
# of Sprache, not of the framework.
if [ -n "${spr:-}" ]; then
  vs_mono -realcode "$spr" 1
else
  echo "BENCH interp-vs-mono-realcode SKIP (no workload build)"
fi
