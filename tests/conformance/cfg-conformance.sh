#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cfg-conformance.sh: checks our flow graphs against the profiles the
# installed .NET runtime writes for a small C# program and the framework
# methods it runs.
#
# Input: $DOTNET, tests/data/cfg/conformance/app (a C# project).
# Output: CONFORMANCE cfg-edge-keys / cfg-block-offsets lines (all methods,
# then app methods); exit 77 (SKIP) without a usable dotnet.
#
# The program runs twice, in edge and in block mode, each time with an
# EventPipe file session that records the runtime's PGO data (the
# fixtures' provider string, tests/fixtures/generate); every method is
# instrumented at Tier0 from its first call (TieredPGO_InstrumentOnlyHotCode=0,
# no call counting, no ReadyToRun code); JitScalableProfiling=0 keeps the
# counters exact, so the JIT's own reconstruction of the edge run can be
# compared with the block run.  tests/conformance/cfg-trace-conform then reads both
# traces with the project's readers, the IL from app.dll and from the
# runtime that ran it (the IL paths in the traces).
set -eu

if [ -z "${DOTNET:-}" ] || ! "$DOTNET" --version >/dev/null 2>&1; then
  echo "SKIP: dotnet is not available"
  exit 77
fi

src="${PGO_TEST_DATA:-$(dirname "$0")/..}/data/cfg/conformance"
build="${PGO_BUILDDIR:-.}"
work="$build/tests/cfg-conformance.tmp"
rm -rf "$work"
mkdir -p "$work"
# keep the scratch directory only when the test fails (its logs explain why)
keep=0
trap 'if [ "$keep" = 0 ]; then rm -rf "$work"; fi' EXIT
cp -R "$src/app" "$work/"
chmod -R u+w "$work"

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
for p in app; do
  if ! "$DOTNET" build -c Release -o "$work/$p/out" "$work/$p" >"$work/$p.build.log" 2>&1; then
    echo "SKIP: cannot build the $p project:"
    tail -n 5 "$work/$p.build.log"
    exit 77
  fi
done

mkdir -p "$work/run/app"
cp "$work/app/out/app.dll" "$work/run/app/"
profile() { # $1 mode (edge or block), then extra VAR=value settings
  mode=$1
  shift
  env DOTNET_WritePGOData=1 DOTNET_PGODataPath="$work/$mode.pgo.txt" DOTNET_TieredPGO=1 \
      DOTNET_ReadyToRun=0 DOTNET_TieredPGO_InstrumentOnlyHotCode=0 DOTNET_TC_CallCounting=0 \
      DOTNET_JitScalableProfiling=0 DOTNET_EnableEventPipe=1 DOTNET_EventPipeOutputStreaming=1 \
      DOTNET_EventPipeEnableStackwalk=0 DOTNET_EventPipeRundown=1 \
      DOTNET_EventPipeConfig=Microsoft-Windows-DotNETRuntime:0x1F000080018:5 \
      DOTNET_EventPipeOutputPath="$work/run/app/$mode.nettrace" \
      "$@" "$DOTNET" "$work/app/out/app.dll" >/dev/null
}
profile edge
profile block DOTNET_JitEdgeProfiling=0

# The knobs must have had their effect: edge records in one, block records in the other.
grep -q '^Schema InstrumentationKind 385 ' "$work/edge.pgo.txt" || { echo "FAIL: no EdgeIntCount records"; exit 1; }
grep -q '^Schema InstrumentationKind 65 ' "$work/block.pgo.txt" || { echo "FAIL: no BasicBlockIntCount records"; exit 1; }
if grep -q '^Schema InstrumentationKind 385 ' "$work/block.pgo.txt"; then
  echo "FAIL: DOTNET_JitEdgeProfiling=0 still wrote edge records"; exit 1
fi

# Required: every block counter at one of our block starts, and every edge
# difference in the one known class (critical-edge keys of branches the
# importer folded on a JIT-time constant; see cfg-trace-conform.c).
rc=0
"$build/tests/conformance/cfg-trace-conform" "$work/run/app" >"$work/out" || rc=$?
if [ "$rc" = 77 ]; then
  grep '^SKIP' "$work/out" || true
  exit 77
fi
grep '^DIFF\|^UNRESOLVED\|^AMBIGUOUS\|^#\|^CONFORMANCE' "$work/out" || true
[ "$rc" = 0 ] || { keep=1; echo "see $work"; exit 1; }
for set in "" -app; do
  line=$(grep "^CONFORMANCE cfg-block-offsets$set: " "$work/out") || { echo "FAIL: no block line"; exit 1; }
  k=${line##*: }; [ "${k%/*}" = "${k#*/}" ] && [ "${k#*/}" -gt 0 ] \
    || { echo "FAIL: block counters outside our block starts"; rc=1; }
  grep -q "^# cfg-edge-keys$set: differing only by .*; unexplained: 0\$" "$work/out" \
    || { echo "FAIL: edge differences outside the known class"; rc=1; }
done
grep -q '^CONFORMANCE cfg-edge-keys-app: \([0-9]*\)/\1$' "$work/out" \
  || { echo "FAIL: an app method's edge keys differ"; rc=1; }
if [ "$rc" != 0 ]; then
  keep=1
  echo "see $work"
fi
exit $rc
