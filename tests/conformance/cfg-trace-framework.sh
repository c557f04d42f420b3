#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cfg-trace-framework.sh: our flow graphs against every method of the
# fixture traces, app and framework, the framework IL read from the
# installed shared runtime the traces name (runtime 10.0.12; each module's
# PDB GUID and age checked against the trace).  Does not run dotnet.
# SKIP (77) when that runtime is absent or is another build;
# $PGO_FRAMEWORK_DIR overrides the directory.
#
# Input: tests/fixtures/data/<name>/{edge,block}.nettrace, <name>.dll and
# the installed System.*.dll files.
# Output: the CONFORMANCE lines; PASS/FAIL via the exit code.  Every block
# counter must be at one of our block starts, every app method's edge keys
# must match, and every edge difference must be of the one known class
# (critical-edge keys of branches the importer folded; see
# cfg-trace-conform.c); the count of methods whose edge keys all match is
# judged against its floor in tests/floors.txt.
set -eu
data="${PGO_TEST_DATA:-$(dirname "$0")/..}"
fixtures="$data/fixtures/data"
prog="${PGO_BUILDDIR:-.}/tests/conformance/cfg-trace-conform"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
if [ -n "${PGO_FRAMEWORK_DIR:-}" ]; then
  "$prog" --framework "$PGO_FRAMEWORK_DIR" "$fixtures"/*/ >"$tmp/out" || rc=$?
else
  "$prog" "$fixtures"/*/ >"$tmp/out" || rc=$?
fi
if [ "$rc" = 77 ]; then
  grep '^SKIP' "$tmp/out" || echo "SKIP: installed runtime unusable"
  exit 77
fi
[ "$rc" = 0 ] || { cat "$tmp/out"; exit 1; }
grep '^DIFF\|^UNRESOLVED\|^AMBIGUOUS' "$tmp/out" | sed 's/^/  /' || true
grep '^#' "$tmp/out" | sed 's/^/  /'
grep '^CONFORMANCE' "$tmp/out" >"$tmp/got"
cat "$tmp/got"
# exact: the figures fixed by the fixture set (profiles compared, block
# counters, app methods); the count of matching methods has a floor
sed 's/^CONFORMANCE cfg-edge-keys: [0-9]*\//CONFORMANCE cfg-edge-keys: k\//' "$tmp/got" >"$tmp/got-exact"
cat >"$tmp/want" <<'WANT'
CONFORMANCE cfg-edge-keys: k/2373
CONFORMANCE cfg-block-offsets: 5866/5866
CONFORMANCE cfg-edge-keys-app: 45/45
CONFORMANCE cfg-block-offsets-app: 71/71
WANT
diff -u "$tmp/want" "$tmp/got-exact"
keys=$(sed -n 's/^CONFORMANCE cfg-edge-keys: \([0-9]*\)\/.*/\1/p' "$tmp/got")
. "$data/support/floors.sh"
check_floor cfg-edge-keys-framework "$keys" || exit 1
grep -q '^# cfg-edge-keys: differing only by critical-edge keys of importer-folded branches: [0-9]* methods, [0-9]* keys; unexplained: 0$' "$tmp/out" \
  || { echo "FAIL: an edge difference outside the known class"; exit 1; }
grep -q '^# cfg-block-offsets: block starts without a counter: \([0-9]*\), of which \1 reachable in the IL (not imported: branch folded on a JIT-time constant)$' "$tmp/out" \
  || { echo "FAIL: a block without a counter outside the known class"; exit 1; }
grep -qx '# edge-mode profiles not compared: 0 dropped by the trace reader (0 dynamic methods, token 0), 0 with an unreadable body' "$tmp/out" \
  || { echo "FAIL: unexpected count of methods not compared"; exit 1; }
if grep -q '^UNRESOLVED\|^AMBIGUOUS' "$tmp/out"; then
  echo "FAIL: unresolved methods or instances not told apart"; exit 1
fi
