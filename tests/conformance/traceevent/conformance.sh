#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/conformance/traceevent/conformance.sh: compares what pgo-reconstruct
# reads from nettrace traces with what TraceEvent (NuGet package
# Microsoft.Diagnostics.Tracing.TraceEvent 4.0.0) reads from them.
#
# Traces: every tests/fixtures/data/*/*.nettrace, every
# tests/data/nettrace/*.nettrace, and a trace written by our writer
# (tests/bench/nettrace-synth). A trace matches when
#   - the event counts per (provider, id, version) are equal,
#   - the raw JitInstrumentationData(Verbose) payload bytes are equal,
#   - the reassembled blobs and their decoded schemas are equal.
# Also reports, for information, how often TraceEvent's own typed parse of
# JitInstrumentationDataVerbose gets MethodToken right (it reads it 2 bytes
# early: the manifest has it at offset 26).
#
# Prints "CONFORMANCE nettrace-traceevent: <matching>/<traces>"; fails unless
# all match. Exits 77 (SKIP) without a usable dotnet.
set -u
: "${DOTNET:=}"
if [ -z "$DOTNET" ] || ! "$DOTNET" --version >/dev/null 2>&1; then
  echo "SKIP: dotnet not available (DOTNET='$DOTNET')"
  exit 77
fi
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
src="$PGO_TEST_DATA/conformance/traceevent"
tool="$PGO_BUILDDIR/tools/pgo-reconstruct"
work="$PGO_BUILDDIR/tests/conformance-traceevent"
mkdir -p "$work/proj"
cp "$src/nettrace-dump.csproj" "$src/Program.cs" "$work/proj/"
chmod u+w "$work/proj/"*
if ! "$DOTNET" build -c Release -o "$work/out" "$work/proj" >"$work/build.log" 2>&1; then
  tail -n 20 "$work/build.log"
  echo "SKIP: cannot build the TraceEvent program (NuGet feed unreachable?); see $work/build.log"
  exit 77
fi
te () { "$DOTNET" "$work/out/nettrace-dump.dll" "$@"; }

"$PGO_BUILDDIR/tests/bench/nettrace-synth" "$work/writer.nettrace" 3072 7 || exit 1

n=0; ok=0; typed_ok=0; typed_n=0
for t in "$PGO_TEST_DATA"/fixtures/data/*/*.nettrace "$PGO_TEST_DATA"/data/nettrace/*.nettrace "$work/writer.nettrace"; do
  [ -f "$t" ] || continue
  n=$((n + 1))
  name=$(basename "$(dirname "$t")")/$(basename "$t")
  good=1
  # counts
  te counts "$t" | LC_ALL=C sort >"$work/te.counts" || good=0
  "$tool" trace-stats "$t" 2>/dev/null | awk -F'\t' '$1 !~ /^(total:|\(undefined)/ { print $1 "\t" $2 "\t" $3 "\t" $5 }' \
    | LC_ALL=C sort >"$work/our.counts"
  cmp -s "$work/te.counts" "$work/our.counts" || { good=0; echo "  $name: event counts differ:"; diff "$work/te.counts" "$work/our.counts" | head -n 10; }
  # raw PGO payloads
  te raw "$t" >"$work/te.raw" || good=0
  "$tool" dump --raw "$t" >"$work/our.raw" 2>/dev/null
  cmp -s "$work/te.raw" "$work/our.raw" || { good=0; echo "  $name: JitInstrumentationData payloads differ"; }
  # reassembled schemas
  te schemas "$t" >"$work/te.schemas" || good=0
  "$tool" dump --schemas "$t" >"$work/our.schemas" 2>/dev/null
  cmp -s "$work/te.schemas" "$work/our.schemas" || { good=0; echo "  $name: reassembled schemas differ:"; diff "$work/te.schemas" "$work/our.schemas" | head -n 6; }
  n_pgo=$(grep -c '^event ' "$work/our.raw")
  n_methods=$(grep -c '^blob ' "$work/our.schemas")
  # TraceEvent's typed MethodToken vs the bytes at the manifest offset
  te typed "$t" | sed -n 's/.* MethodToken=\([0-9]*\) .*/\1/p' >"$work/te.tokens"
  awk '{ p = $3; t = substr(p, 59, 2) substr(p, 57, 2) substr(p, 55, 2) substr(p, 53, 2); print t }' "$work/our.raw" \
    | while read -r hex; do printf '%d\n' "0x$hex"; done >"$work/our.tokens"
  k=$(paste "$work/te.tokens" "$work/our.tokens" | awk '$1 == $2' | wc -l)
  m=$(wc -l <"$work/our.tokens")
  typed_ok=$((typed_ok + k)); typed_n=$((typed_n + m))
  if [ $good -eq 1 ]; then ok=$((ok + 1)); echo "  $name: match ($n_pgo PGO events, $n_methods methods)"; else echo "  $name: MISMATCH"; fi
done
echo "NOTE TraceEvent's typed JitInstrumentationDataVerbose MethodToken equals the manifest-offset token in $typed_ok/$typed_n events"
echo "CONFORMANCE nettrace-traceevent: $ok/$n"
[ $n -gt 0 ] && [ $ok -eq $n ]
