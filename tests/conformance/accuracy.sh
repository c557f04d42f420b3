#!/bin/sh
# SPDX-License-Identifier: MIT
#
# accuracy.sh: reconstruction accuracy over the fixtures' block-mode
# traces (the JIT's dense block counts as ground truth), probe sets A and
# B, and the agreement of the edge-mode runs' JIT reconstruction with them.
#
# Usage: accuracy.sh app        app methods only, IL from the fixture
#                               dlls; asserts the figures measured when
#                               this was written (make check)
#        accuracy.sh framework  app and framework methods (IL of the
#                               installed shared runtime that ran the
#                               fixtures); asserts the measured figures;
#                               exit 77 without it (make check)
#        accuracy.sh full       the per-method tables and every line,
#                               framework when available (make accuracy)
# Output: ACCURACY and CONFORMANCE lines.
set -u
mode=${1:-app}
tool=${PGO_BUILDDIR:-.}/tools/pgo-reconstruct
data=${PGO_TEST_DATA:-tests}/fixtures/data
failures=0
fail () { echo "FAIL: $*"; failures=$((failures + 1)); }

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

for probes in A B; do
  out=$("$tool" evaluate --probes "$probes" "$@" 2>/dev/null)
  rc=$?
  [ "$rc" = 0 ] || fail "evaluate --probes $probes: exit $rc"
  printf '%s\n' "$out"
  line=$(printf '%s\n' "$out" | grep '^ACCURACY')
  # exact-determined must be k/k: every count called exact is the truth
  k=$(printf '%s\n' "$line" | sed -n 's/.*exact-determined=\([0-9]*\)\/.*/\1/p')
  n=$(printf '%s\n' "$line" | sed -n 's/.*exact-determined=[0-9]*\/\([0-9]*\) .*/\1/p')
  [ -n "$k" ] && [ "$k" = "$n" ] || fail "probe set $probes: exact-determined $k/$n"
  # the edge form of every method, fed to the JIT solver replica, gives
  # back the counts it was made from
  jit=$(printf '%s\n' "$out" | sed -n 's/^CONFORMANCE edge-form-jit-replica: //p')
  [ -n "$jit" ] && [ "${jit%/*}" = "${jit#*/}" ] || fail "probe set $probes: edge-form-jit-replica $jit"
  conf=$(printf '%s\n' "$out" | sed -n 's/^CONFORMANCE truth-edge-vs-block: //p')
  [ "${conf%/*}" = "${conf#*/}" ] || fail "probe set $probes: truth-edge-vs-block $conf"
  if [ "$mode" = framework ]; then
    case $probes in
      A) want='ACCURACY probe-set=A exact-determined=15092/15092 block-overlap=0.984079 zero-fill-overlap=0.837647 determined-mass=0.984879 methods=2083' ;;
      B) want='ACCURACY probe-set=B exact-determined=5864/5864 block-overlap=0.949285 zero-fill-overlap=0.276134 determined-mass=0.685355 methods=2083' ;;
    esac
    [ "$line" = "$want" ] || fail "probe set $probes: got '$line', expected '$want'"
    [ "$jit" = 2083/2083 ] || fail "probe set $probes: edge-form-jit-replica $jit, expected 2083/2083"
  fi
  if [ "$mode" = app ]; then
    case $probes in
      A) want='ACCURACY probe-set=A exact-determined=247/247 block-overlap=0.999582 zero-fill-overlap=0.871896 determined-mass=0.998896 methods=38' ;;
      B) want='ACCURACY probe-set=B exact-determined=145/145 block-overlap=0.991549 zero-fill-overlap=0.261584 determined-mass=0.741313 methods=38' ;;
    esac
    [ "$line" = "$want" ] || fail "probe set $probes: got '$line', expected '$want'"
    [ "$conf" = 33/33 ] || fail "probe set $probes: truth-edge-vs-block $conf, expected 33/33"
    [ "$jit" = 38/38 ] || fail "probe set $probes: edge-form-jit-replica $jit, expected 38/38"
    # the set A target: weighted block overlap >= 0.995
    [ "$probes" = B ] || awk -v l="$line" 'BEGIN { split (l, f, "block-overlap="); exit !(f[2] + 0 >= 0.995) }' \
      || fail "probe set A: block overlap below 0.995"
  fi
done
[ "$failures" = 0 ]
