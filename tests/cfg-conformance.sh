#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cfg-conformance.sh: checks our flow graphs against the profiles the
# installed .NET runtime writes for a small C# program and the framework
# methods it runs.
#
# Input: $DOTNET, tests/data/cfg/conformance/{app,ildump} (C# projects).
# Output: CONFORMANCE cfg-edge-keys / cfg-block-offsets lines; exit 77
# (SKIP) without a usable dotnet.
#
# The runtime writes its PGO data as text (DOTNET_WritePGOData); every
# method is instrumented at Tier0 from its first call
# (TieredPGO_InstrumentOnlyHotCode=0, no call counting, no ReadyToRun
# code); JitScalableProfiling=0 keeps the counters exact, so the JIT's own
# reconstruction of the edge run can be compared with the block run.
# ildump finds each profiled method's IL by reflection.
set -eu

if [ -z "${DOTNET:-}" ] || ! "$DOTNET" --version >/dev/null 2>&1; then
  echo "SKIP: dotnet is not available"
  exit 77
fi

src="${PGO_TEST_DATA:-$(dirname "$0")}/data/cfg/conformance"
build="${PGO_BUILDDIR:-.}"
work="$build/tests/cfg-conformance.tmp"
rm -rf "$work"
mkdir -p "$work"
# keep the scratch directory only when the test fails (its logs explain why)
keep=0
trap 'if [ "$keep" = 0 ]; then rm -rf "$work"; fi' EXIT
cp -R "$src/app" "$src/ildump" "$work/"
chmod -R u+w "$work"

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
for p in app ildump; do
  if ! "$DOTNET" build -c Release -o "$work/$p/out" "$work/$p" >"$work/$p.build.log" 2>&1; then
    echo "SKIP: cannot build the $p project:"
    tail -n 5 "$work/$p.build.log"
    exit 77
  fi
done

profile() { # $1 output file, then extra VAR=value settings
  out=$1
  shift
  env DOTNET_WritePGOData=1 DOTNET_PGODataPath="$out" DOTNET_TieredPGO=1 \
      DOTNET_ReadyToRun=0 DOTNET_TieredPGO_InstrumentOnlyHotCode=0 DOTNET_TC_CallCounting=0 \
      DOTNET_JitScalableProfiling=0 "$@" "$DOTNET" "$work/app/out/app.dll" >/dev/null
}
profile "$work/edge.pgo.txt"
profile "$work/block.pgo.txt" DOTNET_JitEdgeProfiling=0

# The knobs must have had their effect: edge records in one, block records in the other.
grep -q '^Schema InstrumentationKind 385 ' "$work/edge.pgo.txt" || { echo "FAIL: no EdgeIntCount records"; exit 1; }
grep -q '^Schema InstrumentationKind 65 ' "$work/block.pgo.txt" || { echo "FAIL: no BasicBlockIntCount records"; exit 1; }
if grep -q '^Schema InstrumentationKind 385 ' "$work/block.pgo.txt"; then
  echo "FAIL: DOTNET_JitEdgeProfiling=0 still wrote edge records"; exit 1
fi

"$DOTNET" "$work/ildump/out/ildump.dll" "$work/edge.pgo.txt" "$work/app/out/app.dll" >"$work/edge.bodies"
"$DOTNET" "$work/ildump/out/ildump.dll" "$work/block.pgo.txt" "$work/app/out/app.dll" >"$work/block.bodies"

# Required figures: every block counter at a JIT block start and every
# difference explained; edge keys equal except where the importer folded a
# conditional branch whose both targets it imports elsewhere (the deleted
# critical-edge counter cannot be seen in the IL; see check-cfg.c).
rc=0
"$build/tests/cfg-conform" block 100 "$work/block.pgo.txt,$work/block.bodies" >"$work/block.out" || rc=1
"$build/tests/cfg-conform" edge 95 "$work/edge.pgo.txt,$work/edge.bodies,$work/block.pgo.txt" \
  >"$work/edge.out" || rc=1
grep -v '^ ' "$work/block.out" | grep -v '^DIFF' || true
grep '^DIFF' "$work/edge.out" | sed 's/^/  /' || true
grep -v '^ ' "$work/edge.out" | grep -v '^DIFF' || true
if [ "$rc" != 0 ]; then
  keep=1
  echo "see $work"
fi
exit $rc
