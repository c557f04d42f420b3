#!/bin/sh
# SPDX-License-Identifier: MIT
# pgo-small.sh: how pgo-small.nettrace was made (needs dotnet; not run by make check).
#
# A small program (pgo-small-app/) run once by the .NET 10 runtime on Linux
# x64 with an EventPipe file session for the PGO events at Informational level
# (JitInstrumentationData | MethodDiagnostic | Type | Jit | Loader), no
# rundown, no stacks; every jitted method is instrumented at Tier0, so the
# app's own methods carry JitInstrumentationDataVerbose events at shutdown.
set -e
out=${1:-pgo-small.nettrace}
dir=$(mktemp -d)
cp "$(dirname "$0")"/pgo-small-app/* "$dir"/
(cd "$dir" && dotnet build -c Release -o out >/dev/null)
DOTNET_EnableEventPipe=1 DOTNET_EventPipeOutputPath="$out" \
DOTNET_EventPipeConfig='Microsoft-Windows-DotNETRuntime:0x14000080018:4' \
DOTNET_EventPipeRundown=0 DOTNET_EventPipeEnableStackwalk=0 \
DOTNET_TieredPGO=1 DOTNET_TieredPGO_InstrumentOnlyHotCode=0 DOTNET_TC_CallCounting=0 \
  dotnet "$dir/out/app.dll"
rm -rf "$dir"
