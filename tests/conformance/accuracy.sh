#!/bin/sh
# SPDX-License-Identifier: MIT
#
# accuracy.sh: reconstruction accuracy over the fixtures' block-mode
# traces (the JIT's dense block counts as ground truth), probe sets A and
# B and the planned set P, and the agreement of the edge-mode runs' JIT
# reconstruction with them.
#
# Usage: accuracy.sh app        app methods only, IL from the fixture
#                               dlls (make check)
#        accuracy.sh framework  app and framework methods (IL of the
#                               installed shared runtime that ran the
#                               fixtures); exit 77 without it (make check)
#        accuracy.sh full       the per-method tables and every line,
#                               framework when available (make accuracy)
# In the app and framework modes the invariants are exact (every count
# called exact is right, the JIT replica and the edge/block truth pairs
# agree on every method, the method count of the fixture set) and the
# quality figures are judged against their floors in tests/floors.txt.
# Output: ACCURACY, CONFORMANCE and FLOOR lines.
set -u
mode=${1:-app}
tool=${PGO_BUILDDIR:-.}/tools/pgo-reconstruct
data=${PGO_TEST_DATA:-tests}/fixtures/data
failures=0
fail () { echo "FAIL: $*"; failures=$((failures + 1)); }
. "${PGO_TEST_DATA:-tests}/support/floors.sh"

# The fixtures ran on runtime 10.0.12 (tests/fixtures/data/manifest.txt).
runtime=$(sed -n 's/^runtime: *\([0-9.]*\).*/\1/p' "$data/manifest.txt")
framework=
if [ "$mode" != app ] && [ -n "${DOTNET:-}" ]; then
  base=$("$DOTNET" --list-runtimes 2>/dev/null \
    | sed -n "s/^Microsoft\.NETCore\.App $runtime \[\(.*\)\]\$/\1/p" | head -n 1)
  [ -n "$base" ] && [ -d "$base/$runtime" ] && framework=$base/$runtime
fi
if [ "$mode" = framework ] && [ -z "$framework" ]; then
  echo "SKIP: shared runtime Microsoft.NETCore.App $runtime not found (DOTNET='${DOTNET:-}')"
  exit 77
fi

set --
for dir in "$data"/*/; do
  name=$(basename "$dir")
  [ -f "$dir/block.nettrace" ] && [ -f "$dir/edge.nettrace" ] || continue
  set -- "$@" --reference "$dir/$name.dll" --truth "$dir/block.nettrace" --edge-truth "$dir/edge.nettrace"
  # the 64-bit block run of the same program, paired with the same edge run
  if [ "$mode" = full ] && [ -f "$dir/block64.nettrace" ]; then
    set -- "$@" --truth "$dir/block64.nettrace" --edge-truth "$dir/edge.nettrace"
  fi
done
[ -n "$framework" ] && set -- "$@" --framework "$framework"
[ "$mode" = full ] || set -- "$@" --quiet

for probes in A B P; do
  out=$("$tool" evaluate --probes "$probes" "$@" 2>/dev/null)
  rc=$?
  [ "$rc" = 0 ] || fail "evaluate --probes $probes: exit $rc"
  printf '%s\n' "$out"
  line=$(printf '%s\n' "$out" | grep '^ACCURACY')
  # exact-determined must be k/k: every count called exact is the truth
  k=$(printf '%s\n' "$line" | sed -n 's/.*exact-determined=\([0-9]*\)\/.*/\1/p')
  n=$(printf '%s\n' "$line" | sed -n 's/.*exact-determined=[0-9]*\/\([0-9]*\) .*/\1/p')
  [ -n "$k" ] && [ "$k" = "$n" ] || fail "probe set $probes: exact-determined $k/$n"
  # and so must every count called exact-from-calls: the fixture programs
  # raise no exception in a block before a call that gives evidence
  calls=$(printf '%s\n' "$line" | sed -n 's/.* from-calls=\([0-9]*\/[0-9]*\) .*/\1/p')
  [ -n "$calls" ] && [ "${calls%/*}" = "${calls#*/}" ] || fail "probe set $probes: from-calls $calls"
  # the edge form of every method, fed to the JIT solver replica, gives
  # back the counts it was made from
  jit=$(printf '%s\n' "$out" | sed -n 's/^CONFORMANCE edge-form-jit-replica: //p')
  [ -n "$jit" ] && [ "${jit%/*}" = "${jit#*/}" ] || fail "probe set $probes: edge-form-jit-replica $jit"
  conf=$(printf '%s\n' "$out" | sed -n 's/^CONFORMANCE truth-edge-vs-block: //p')
  [ "${conf%/*}" = "${conf#*/}" ] || fail "probe set $probes: truth-edge-vs-block $conf"
  case $mode in
    app) methods=51 jit_want=51/51 ;;
    framework) methods=2399 jit_want=2399/2399 ;;
    *) continue ;;
  esac
  [ "$(figure "$line" methods)" = "$methods" ] || fail "probe set $probes: methods $(figure "$line" methods), expected $methods"
  [ "$jit" = "$jit_want" ] || fail "probe set $probes: edge-form-jit-replica $jit, expected $jit_want"
  [ "$mode" = framework ] || [ "$conf" = 33/33 ] || fail "probe set $probes: truth-edge-vs-block $conf, expected 33/33"
  for fig in block-overlap zero-fill-overlap determined-mass certain-mass; do
    check_floor "accuracy-$mode-$probes-$fig" "$(figure "$line" "$fig")" || failures=$((failures + 1))
  done
done
# make accuracy: probes per method of P, A and B over every CoreLib method,
# and the share that P determines completely.
if [ "$mode" = full ] && [ -n "$framework" ]; then
  if plan=$("$tool" plan --quiet "$framework/System.Private.CoreLib.dll"); then
    printf '%s\n' "$plan" | sed 's/^PLAN /PLAN assembly=System.Private.CoreLib /'
  else
    fail "plan System.Private.CoreLib.dll"
  fi
fi
[ "$failures" = 0 ]
