#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cfg-fixtures.sh: checks our flow graphs against every fixture profile:
# for every method in the edge-mode dumps (app and framework methods), our
# non-tree edge keys against its EdgeIntCount keys; for every method in the
# block-mode dumps, its BasicBlockIntCount offsets against our block starts.
#
# Input: tests/fixtures/data/<name>/{edge,block}.pgo.txt (the runtime's text
# dumps of the same runs as the .nettrace files), <name>.dll; $DOTNET to
# find the IL of each dumped method by reflection (tests/data/cfg/
# conformance/ildump) until the assembly and trace readers are wired in.
# Output: CONFORMANCE cfg-edge-keys / cfg-block-offsets over all fixtures;
# exit 77 (SKIP) without a usable dotnet.
set -eu

if [ -z "${DOTNET:-}" ] || ! "$DOTNET" --version >/dev/null 2>&1; then
  echo "SKIP: dotnet is not available"
  exit 77
fi
data="${PGO_TEST_DATA:-$(dirname "$0")}"
fixtures="$data/fixtures/data"
build="${PGO_BUILDDIR:-.}"
work="$build/tests/cfg-fixtures.tmp"
rm -rf "$work"
mkdir -p "$work"
keep=0
trap 'if [ "$keep" = 0 ]; then rm -rf "$work"; fi' EXIT
cp -R "$data/data/cfg/conformance/ildump" "$work/ildump"
chmod -R u+w "$work"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
if ! "$DOTNET" build -c Release -o "$work/ildump/out" "$work/ildump" >"$work/build.log" 2>&1; then
  echo "SKIP: cannot build ildump:"
  tail -n 5 "$work/build.log"
  exit 77
fi

edge_sets=
block_sets=
for dir in "$fixtures"/*/; do
  name=$(basename "$dir")
  [ -f "$dir/edge.pgo.txt" ] && [ -f "$dir/block.pgo.txt" ] && [ -f "$dir/$name.dll" ] || continue
  for mode in edge block; do
    "$DOTNET" "$work/ildump/out/ildump.dll" "$dir/$mode.pgo.txt" "$dir/$name.dll" \
      >"$work/$name.$mode.bodies"
  done
  edge_sets="$edge_sets $dir/edge.pgo.txt,$work/$name.edge.bodies,$dir/block.pgo.txt"
  block_sets="$block_sets $dir/block.pgo.txt,$work/$name.block.bodies"
done
if [ -z "$edge_sets" ]; then
  echo "SKIP: no fixture dumps"
  exit 77
fi

rc=0
# shellcheck disable=SC2086
"$build/tests/cfg-conform" block 100 $block_sets >"$work/block.out" || rc=1
# shellcheck disable=SC2086
"$build/tests/cfg-conform" edge 95 $edge_sets >"$work/edge.out" || rc=1
grep -v '^ ' "$work/block.out" || true
grep '^DIFF' "$work/edge.out" | sed 's/^/  /' || true
grep -v '^ ' "$work/edge.out" | grep -v '^DIFF' || true
if [ "$rc" != 0 ]; then
  keep=1
  echo "see $work"
fi
exit $rc
