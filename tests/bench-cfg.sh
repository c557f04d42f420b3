#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench-cfg.sh: times flow-graph construction plus the JIT spanning-tree
# walk over every method body of System.Private.CoreLib.
#
# Input: $DOTNET (to read CoreLib's bodies by reflection with the ildump
# helper until the assembly reader is wired in), $PGO_BUILDDIR.
# Output: "BENCH corelib-cfg seconds=<s> ..." with the ratio to plain IL
# decoding of the same bodies, measured in the same run.
set -eu

if [ -z "${DOTNET:-}" ] || ! "$DOTNET" --version >/dev/null 2>&1; then
  echo "BENCH corelib-cfg skipped=no-dotnet"
  exit 0
fi
src="${PGO_TEST_DATA:-$(dirname "$0")}/data/cfg/conformance/ildump"
build="${PGO_BUILDDIR:-.}"
work="$build/tests/bench-cfg.tmp"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cp -R "$src" "$work/ildump"
chmod -R u+w "$work"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
"$DOTNET" build -c Release -o "$work/ildump/out" "$work/ildump" >"$work/build.log" 2>&1 \
  || { echo "BENCH corelib-cfg skipped=ildump-build-failed"; exit 0; }
"$DOTNET" "$work/ildump/out/ildump.dll" --all System.Private.CoreLib >"$work/corelib.bodies"
"$build/tests/cfg-conform" bench "$work/corelib.bodies"
