#!/bin/sh
# SPDX-License-Identifier: MIT
# jitcode-check.sh: make check: the JIT code-identity measurement
# (jitcode/jitcode.sh) on each half of the real-code corpus, both
# channels, judged against the realcode-HALF-jitcode-* floors in
# tests/floors.txt.  Makes (or reuses) the corpus in the build tree.
# SKIP (77) without dotnet, the shared runtime or crossgen2.
rc=0
for half in calibration validation; do
  bash "${PGO_TEST_DATA:-tests}/jitcode/jitcode.sh" --corpus "realcode:$half" \
    --check "realcode-$half-jitcode"
  r=$?
  [ $r = 77 ] && exit 77
  [ $r = 0 ] || rc=1
done
exit $rc
