#!/bin/sh
# SPDX-License-Identifier: MIT
#
# export-histograms.sh: the class histograms a reconstructed export infers
# (pgo-inference(7) "Class histograms"), on the iterators fixture, probe
# set B.  Its Main enumerates Evens(20) once through the framework's
# IEnumerable<int>/IEnumerator<int> interfaces: GetEnumerator (IL 9) is
# called once, get_Current (IL 18) 10 times and MoveNext (IL 29) 11
# times, every time on Program+<Evens>d__0, the one class whose methods
# those calls can run that made objects (the runtime's own dump of the
# edge run, edge.pgo.txt, holds the same three tables).  Each site gets
# a count record (kind 177, Other 0xC0000000: a class probe of an
# interface call) and a 32-slot table; ours fills one slot with the one
# class (a likelihood of 100 to the JIT), the runtime's one per call.  Without --call-evidence nothing is inferred: no histogram.
# The interfaces live in the framework: SKIP without the shared runtime
# the fixtures ran on.
set -u
cli_name=export-histograms
. "${PGO_TEST_DATA:-tests}/support/cli.sh"
. "$tests/support/shared-runtime.sh"
runtime_version=$(sed -n 's/^runtime: *\([0-9.]*\).*/\1/p' "$data/manifest.txt")
runtime=$(shared_runtime_dir)
if [ -z "$runtime" ] || [ "$(basename "$runtime")" != "$runtime_version" ]; then
  echo "SKIP: no shared runtime Microsoft.NETCore.App $runtime_version"
  exit 77
fi
fx=$data/iterators
evens='TypeHandle: Program+<Evens>d__0, iterators, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null'

# site FILE OFFSET: "calls filled nulls" of Main's table at OFFSET, the
# filled slots all naming $evens; "none" when Main has no table there.
site () {
  awk -v at="$2" -v evens="$evens" '
    /^@@@ / { main = 0; next }
    /^MethodName: Program.Main$/ { main = 1; next }
    main && /^Schema InstrumentationKind 177 / && $5 == at && $9 == 3221225472 { getline; calls = $0; next }
    main && /^Schema InstrumentationKind 195 / && $5 == at && $9 == 3221225472 { left = $7; seen = 1; next }
    left > 0 { left--; if ($0 == "TypeHandle: NULL") nulls++; else if ($0 == evens) filled++; else bad++; next }
    END { if (!seen || bad) print "none"; else printf "%d %d %d\n", calls, filled, nulls }' "$1"
}

expect 0 export export --probes B --reference "$fx" --framework "$runtime" --output "$tmp/b.txt" \
  "$fx/block.nettrace"
for want in "9 1" "18 10" "29 11"; do
  at=${want% *} calls=${want#* }
  got=$(site "$tmp/b.txt" "$at")
  [ "$got" = "$calls 1 31" ] || fail "Main IL $at: table '$got', expected '$calls 1 31'"
  # the runtime's own table of the edge run names the class in every slot a call filled
  got=$(site "$fx/edge.pgo.txt" "$at")
  [ "$got" = "$calls $calls $((32 - calls))" ] || fail "Main IL $at: the runtime's table is '$got'"
done
expect 0 no-evidence export --probes B --no-call-evidence --reference "$fx" --framework "$runtime" \
  --output "$tmp/n.txt" "$fx/block.nettrace"
grep -q '^Schema InstrumentationKind 195 ' "$tmp/n.txt" && fail "no-evidence: a table was written"
[ "$failures" = 0 ]
