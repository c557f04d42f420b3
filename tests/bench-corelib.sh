#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench-corelib.sh: make bench: reading every method body and EH table of
# System.Private.CoreLib from the installed shared framework (target:
# under 0.5 s), with a plain read of the same file as baseline.
# Prints SKIP without dotnet or the shared framework.
set -u
DOTNET=${DOTNET:-}
builddir=${PGO_BUILDDIR:-.}
runtime=""
if [ -n "$DOTNET" ]; then
  runtime=$("$DOTNET" --list-runtimes 2>/dev/null | awk '$1 == "Microsoft.NETCore.App" { v = $2; d = $3 } END { if (v != "") { gsub(/[][]/, "", d); print d "/" v } }')
fi
if [ -z "$runtime" ] || [ ! -f "$runtime/System.Private.CoreLib.dll" ]; then
  echo "BENCH corelib-bodies SKIP (no dotnet shared framework)"
  exit 0
fi
"$builddir/tests/bench-assemblies" "$runtime/System.Private.CoreLib.dll" 5
