#!/bin/sh
# SPDX-License-Identifier: MIT
#
# text-pgo-hash-framework.sh: the framework part of check-method-hash
# (codehash and methodhash of every framework method of the fixture
# dumps, from the installed shared runtime 10.0.12), reported to the
# harness: SKIP (77) when that runtime is absent.  $PGO_FRAMEWORK_DIR
# overrides the directory.
set -u
data="${PGO_TEST_DATA:-$(dirname "$0")/..}"
prog="${PGO_BUILDDIR:-.}/tests/unit/check-method-hash"
. "$data/support/shared-runtime.sh"
dir=${PGO_FRAMEWORK_DIR:-$(shared_runtime_dir)}
if [ -z "$dir" ] || [ "$(basename "$dir")" != 10.0.12 ]; then
  echo "SKIP: shared runtime 10.0.12 not installed (found: ${dir:-none})"
  exit 77
fi
out=$(PGO_FRAMEWORK_DIR=$dir CK_RUN_CASE=framework "$prog") || { echo "$out"; exit 1; }
echo "$out" | grep '^CONFORMANCE\|^#'
echo "$out" | grep -q '^CONFORMANCE text-pgo-hash-framework: ' || { echo "$out"; exit 1; }
