#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cfg.sh: make bench: flow-graph construction plus the JIT
# spanning-tree walk over every method body of System.Private.CoreLib from
# the installed shared framework (target: under 1 s), with reading the
# same bodies as the baseline.  Prints SKIP without the shared framework.
set -u
DOTNET=${DOTNET:-}
builddir=${PGO_BUILDDIR:-.}
. "${PGO_TEST_DATA:-$(dirname "$0")/..}/support/shared-runtime.sh"
runtime=$(shared_runtime_dir)
if [ -z "$runtime" ]; then
  echo "BENCH corelib-cfg SKIP (no dotnet shared framework)"
  exit 0
fi
"$builddir/tests/bench/cfg" "$runtime/System.Private.CoreLib.dll" 3
