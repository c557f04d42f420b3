#!/bin/sh
# SPDX-License-Identifier: MIT
#
# reconstruct.sh: make bench: reconstructing every method of
# System.Private.CoreLib from the set-A probes of a dense synthetic profile,
# on one thread and on one per processor, against building their flow
# graphs (target: under 5 times that on every core).  Prints SKIP without
# the shared framework.
set -u
DOTNET=${DOTNET:-}
builddir=${PGO_BUILDDIR:-.}
. "${PGO_TEST_DATA:-$(dirname "$0")/..}/support/shared-runtime.sh"
runtime=$(shared_runtime_dir)
if [ -z "$runtime" ]; then
  echo "BENCH corelib-reconstruct SKIP (no dotnet shared framework)"
  exit 0
fi
"$builddir/tests/bench/reconstruct" "$runtime/System.Private.CoreLib.dll" 3
