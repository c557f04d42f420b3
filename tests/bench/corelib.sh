#!/bin/sh
# SPDX-License-Identifier: MIT
#
# corelib.sh: make bench: reading every method body and EH table of
# System.Private.CoreLib from the installed shared framework (target:
# under 0.5 s), with a plain read of the same file as baseline.
# Prints SKIP without dotnet or the shared framework.
set -u
DOTNET=${DOTNET:-}
builddir=${PGO_BUILDDIR:-.}
. "${PGO_TEST_DATA:-$(dirname "$0")/..}/support/shared-runtime.sh"
runtime=$(shared_runtime_dir)
if [ -z "$runtime" ]; then
  echo "BENCH corelib-bodies SKIP (no dotnet shared framework)"
  exit 0
fi
"$builddir/tests/bench/assemblies" "$runtime/System.Private.CoreLib.dll" 5
