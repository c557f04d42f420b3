#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cfg-trace-app.sh: our flow graphs against the fixture traces, app methods
# only: needs neither dotnet nor an installed runtime (the fixtures' app
# dlls are committed).  Asserts the exact figures: every app method's
# non-tree edge keys equal its EdgeIntCount keys, every block counter is at
# one of our block starts; and that a dll of another build is refused.
#
# Input: tests/fixtures/data/<name>/{edge,block}.nettrace, <name>.dll.
# Output: the CONFORMANCE lines; PASS/FAIL via the exit code.
set -eu
data="${PGO_TEST_DATA:-$(dirname "$0")/..}"
fixtures="$data/fixtures/data"
prog="${PGO_BUILDDIR:-.}/tests/conformance/cfg-trace-conform"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$prog" --app-only "$fixtures"/*/ >"$tmp/out"
grep -v '^ ' "$tmp/out" | grep -v '^#' || true
grep '^#' "$tmp/out" | sed 's/^/  /'
cat >"$tmp/want" <<'WANT'
CONFORMANCE cfg-edge-keys-app: 45/45
CONFORMANCE cfg-block-offsets-app: 71/71
WANT
grep '^CONFORMANCE' "$tmp/out" >"$tmp/got"
diff -u "$tmp/want" "$tmp/got"
if grep -q '^DIFF\|^UNRESOLVED\|^AMBIGUOUS' "$tmp/out"; then
  echo "FAIL: differences or unresolved app methods"; exit 1
fi
grep -qx '# edge-mode profiles not compared: 0 dropped by the trace reader (0 dynamic methods, token 0), 0 with an unreadable body, 2328 framework methods (--app-only)' "$tmp/out" \
  || { echo "FAIL: unexpected count of methods not compared"; exit 1; }

# The PDB identity check must bite: the branches traces with another app's dll.
mkdir -p "$tmp/branches"
cp "$fixtures/branches/edge.nettrace" "$fixtures/branches/block.nettrace" "$tmp/branches/"
cp "$fixtures/generics/generics.dll" "$tmp/branches/branches.dll"
chmod u+w "$tmp/branches"/*
rc=0
"$prog" --app-only "$tmp/branches" >"$tmp/out2" 2>"$tmp/err2" || rc=$?
if [ "$rc" != 1 ] || ! grep -q 'is not the traced build' "$tmp/err2"; then
  echo "FAIL: a dll of another build was accepted (exit $rc)"; cat "$tmp/err2"; exit 1
fi
