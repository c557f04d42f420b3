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
# Output: the CONFORMANCE lines; PASS/FAIL via the exit code.  The 31 edge
# differences are all of one class (critical-edge keys of branches the
# importer folded; see tests/cfg-trace-conform.c): the test fails on any
# other difference or figure.
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
cat >"$tmp/want" <<'WANT'
CONFORMANCE cfg-edge-keys: 2112/2143
CONFORMANCE cfg-block-offsets: 2088/2088
CONFORMANCE cfg-edge-keys-app: 35/35
CONFORMANCE cfg-block-offsets-app: 38/38
WANT
diff -u "$tmp/want" "$tmp/got"
grep -qx '# cfg-edge-keys: differing only by critical-edge keys of importer-folded branches: 31 methods, 31 keys; unexplained: 0' "$tmp/out" \
  || { echo "FAIL: an edge difference outside the known class"; exit 1; }
grep -qx '# cfg-block-offsets: block starts without a counter: 829, of which 829 reachable in the IL (not imported: branch folded on a JIT-time constant)' "$tmp/out" \
  || { echo "FAIL: a block without a counter outside the known class"; exit 1; }
grep -qx '# edge-mode profiles not compared: 0 dropped by the trace reader (0 dynamic methods, token 0), 0 with an unreadable body' "$tmp/out" \
  || { echo "FAIL: unexpected count of methods not compared"; exit 1; }
if grep -q '^UNRESOLVED\|^AMBIGUOUS' "$tmp/out"; then
  echo "FAIL: unresolved methods or instances not told apart"; exit 1
fi
