#!/bin/sh
# SPDX-License-Identifier: MIT
#
# filters.sh: the trace filters --pid, --process-name, --since and
# --until of create-mibc, export, summary, report, reconstruct and
# ingest, on the hotloop fixture's two processes: block.nettrace (process
# 5174) and block64.nettrace (process 5356), both "dotnet hotloop.dll".
# A filter keeps exactly what it names, leaves out the other traces with a
# line each, and one that keeps nothing fails in one line; malformed ones
# are usage errors.
#
# The window checks cut block.nettrace between its methods.  Its
# JitInstrumentationDataVerbose events (one chunk a method), in ns after
# the sync time: the first of all at 49563799, Spin at 50447497, Tiny at
# 50449129, Main at 50450662, the last at 50731120; 305 methods from
# 0.05 s on, 364 up to Spin's.  Read from the raw events and pinned by
# tests/unit/check-nettrace-filter.c.
set -u
cli_name=filters
. "${PGO_TEST_DATA:-tests}/support/cli.sh"

# (a .mibc holds its file name: the ones compared are named alike)
mkdir "$tmp/alone32" "$tmp/alone64" "$tmp/pid64" "$tmp/pid32" "$tmp/both" "$tmp/name" "$tmp/whole" \
  "$tmp/one" "$tmp/late64"
t32=$data/hotloop/block.nettrace
t64=$data/hotloop/block64.nettrace
ho="--reference $data/hotloop/hotloop.dll"

# methods NAME: the MethodName lines of text export $tmp/NAME.txt, sorted
methods () { sed -n 's/^MethodName: //p' "$tmp/$1.txt" | sort | tr '\n' ' '; }
# left_out: how many lines of stderr leave a trace out
left_out () { grep -c ': left out: [pn]' "$tmp/err"; }

# --- --pid: whole traces ----------------------------------------------------
# shellcheck disable=SC2086
expect 0 alone32 create-mibc $ho --as-recorded -o "$tmp/alone32/o.mibc" "$t32"
# shellcheck disable=SC2086
expect 0 alone64 create-mibc $ho --as-recorded -o "$tmp/alone64/o.mibc" "$t64"
cmp -s "$tmp/alone32/o.mibc" "$tmp/alone64/o.mibc" && fail "alone: the two processes give one .mibc"
# shellcheck disable=SC2086
expect 0 pid64 create-mibc $ho --as-recorded --pid 5356 -o "$tmp/pid64/o.mibc" "$t32" "$t64"
err_has pid64 "$t32: left out: process 5174, not --pid 5356"
[ "$(left_out)" = 1 ] || fail "pid64: not one line left out: $(cat "$tmp/err")"
grep -q "modules: $t32" "$tmp/err" && fail "pid64: read the trace it left out"
cmp -s "$tmp/pid64/o.mibc" "$tmp/alone64/o.mibc" || fail "pid64: not block64.nettrace's .mibc"
# shellcheck disable=SC2086
expect 0 pid32 create-mibc $ho --as-recorded --pid 5174 -o "$tmp/pid32/o.mibc" "$t32" "$t64"
err_has pid32 "$t64: left out: process 5356, not --pid 5174"
cmp -s "$tmp/pid32/o.mibc" "$tmp/alone32/o.mibc" || fail "pid32: not block.nettrace's .mibc"
# shellcheck disable=SC2086
expect 1 pid-none create-mibc $ho --as-recorded --pid 99 -o "$tmp/none.mibc" "$t32" "$t64"
err_has pid-none "$t32, $t64: nothing left to read: $t32: process 5174, not --pid 99; $t64: process 5356, not --pid 99"
one_line pid-none
[ -e "$tmp/none.mibc" ] && fail "pid-none: wrote an output"

# summary and report read through the same filter
# shellcheck disable=SC2086
expect 0 sum64 summary $ho "$t64"
mv "$tmp/out" "$tmp/sum64"
# shellcheck disable=SC2086
expect 0 sum-pid summary $ho --pid 5356 "$t32" "$t64"
cmp -s "$tmp/out" "$tmp/sum64" || fail "sum-pid: not block64.nettrace's summary"
# shellcheck disable=SC2086
expect 0 sum-both summary $ho "$t32" "$t64"
cmp -s "$tmp/out" "$tmp/sum64" && fail "sum-both: the two traces sum as one (the check cannot fail)"
# shellcheck disable=SC2086
expect 1 report-none report $ho --pid 1 -o "$tmp/report" "$t32"
err_has report-none "$t32: nothing left to read: process 5174, not --pid 1"
one_line report-none

# --- --process-name: the executable, or the entry assembly of dotnet -------
# shellcheck disable=SC2086
expect 0 both create-mibc $ho --as-recorded -o "$tmp/both/o.mibc" "$t32" "$t64"
for name in hotloop dotnet hotloop.dll dotnet.exe; do
  # shellcheck disable=SC2086
  expect 0 "name-$name" create-mibc $ho --as-recorded --process-name "$name" -o "$tmp/name/o.mibc" "$t32" "$t64"
  [ "$(left_out)" = 0 ] || fail "name-$name: left a trace out: $(cat "$tmp/err")"
  cmp -s "$tmp/name/o.mibc" "$tmp/both/o.mibc" || fail "name-$name: not both traces' .mibc"
done
# shellcheck disable=SC2086
expect 1 name-other create-mibc $ho --as-recorded --process-name Hotloop -o "$tmp/none.mibc" "$t32"
err_has name-other "$t32: nothing left to read: process 5174 is named 'dotnet' or 'hotloop', not --process-name Hotloop"
one_line name-other
# both filters: each trace must pass both
# shellcheck disable=SC2086
expect 1 pid-and-name create-mibc $ho --as-recorded --pid 5356 --process-name x -o "$tmp/none.mibc" "$t32" "$t64"
err_has pid-and-name "$t64: process 5356 is named 'dotnet' or 'hotloop', not --process-name x"
one_line pid-and-name

# --- --since/--until: the profiles whose events lie in [since, until) -------
# shellcheck disable=SC2086
expect 0 tiny-main export $ho --as-recorded --since 0.050449129 --until 0.050450663 -o "$tmp/tm.txt" "$t32"
[ "$(methods tm)" = "Program.Main Program.Tiny " ] || fail "tiny-main: kept $(methods tm)"
err_has tiny-main "export: modules: $t32: 2 of 2 methods matched a reference by module"
# one tick later and one tick earlier: neither bound keeps its method
# shellcheck disable=SC2086
expect 1 between export $ho --as-recorded --since 0.05044913 --until 0.050450662 -o "$tmp/none.txt" "$t32"
err_has between "$t32: nothing left to read: none of its 484 method profiles lies in --since 0.05044913 --until 0.050450662 (the last before it at 0.050449129 s, the first after it at 0.050450662 s)"
one_line between
# shellcheck disable=SC2086
expect 0 to-spin export $ho --as-recorded --until 0.050447498 -o "$tmp/spin.txt" "$t32"
[ "$(methods spin)" = "Program.Spin " ] || fail "to-spin: kept $(methods spin)"
err_has to-spin "export: modules: $t32: 1 of 364 methods matched a reference by module"
# shellcheck disable=SC2086
expect 0 from-005 create-mibc $ho --as-recorded --since 0.05 -o "$tmp/late.mibc" "$t32"
err_has from-005 "create-mibc: modules: $t32: 3 of 305 methods matched a reference by module"
# a window that cuts no profile keeps the trace whole
# shellcheck disable=SC2086
expect 0 whole create-mibc $ho --as-recorded --since 0 --until 60 -o "$tmp/whole/o.mibc" "$t32"
cmp -s "$tmp/whole/o.mibc" "$tmp/alone32/o.mibc" || fail "whole: not the unfiltered .mibc"
# shellcheck disable=SC2086
expect 1 until-0 create-mibc $ho --as-recorded --until 0 -o "$tmp/none.mibc" "$t32"
err_has until-0 "$t32: nothing left to read: none of its 484 method profiles lies in --until 0 (the first after it at 0.049563799 s)"
one_line until-0
# shellcheck disable=SC2086
expect 1 since-late create-mibc $ho --as-recorded --since 1.50 -o "$tmp/none.mibc" "$t32"
err_has since-late "lies in --since 1.5 (the last before it at 0.05073112 s)"
# a window that keeps nothing of one trace leaves it out, and cuts the
# other (block64.nettrace's methods lie at 50.448 to 51.733 ms, 342 of
# them from 50.8 ms on, Spin's at 51.417)
# shellcheck disable=SC2086
expect 0 late64 create-mibc $ho --as-recorded --since 0.0508 -o "$tmp/late64/o.mibc" "$t64"
# shellcheck disable=SC2086
expect 0 one-left create-mibc $ho --as-recorded --since 0.0508 -o "$tmp/one/o.mibc" "$t32" "$t64"
err_has one-left "$t32: left out: none of its 484 method profiles lies in --since 0.0508 (the last before it at 0.05073112 s)"
[ "$(left_out)" = 1 ] || fail "one-left: not one line left out: $(cat "$tmp/err")"
cmp -s "$tmp/one/o.mibc" "$tmp/late64/o.mibc" || fail "one-left: not the window of block64.nettrace"
err_has one-left "create-mibc: modules: $t64: 3 of 342 methods matched a reference by module"

# reconstruct: the window's methods only
# shellcheck disable=SC2086
expect 0 recon reconstruct $ho --since 0.050449129 --until 0.050450663 "$t32"
[ "$(grep -c '^method ' "$tmp/out")" = 2 ] || fail "recon: not 2 methods: $(grep '^method ' "$tmp/out")"
grep -q '^method hotloop!Program::Spin ' "$tmp/out" && fail "recon: Spin is outside the window"
has recon "total: 2 methods reconstructed, 0 without IL or block counts"
# shellcheck disable=SC2086
expect 1 recon-pid reconstruct $ho --pid 5356 "$t32"
err_has recon-pid "$t32: nothing left to read: process 5174, not --pid 5356"
one_line recon-pid

# --- ingest: a window is stored under its own key, the whole under the hash --
hash=$(sha256sum < "$t32" | cut -d ' ' -f 1)
key=$(printf '%s\n%s' "$hash" "since=0.05" | sha256sum | cut -d ' ' -f 1)
# shellcheck disable=SC2086
expect 0 ingest-part ingest --store "$tmp/p.store" $ho --since 0.050 "$t32"
has ingest-part "ingested $t32 [since=0.05]: 305 method profiles"
# shellcheck disable=SC2086
expect 0 ingest-part-again ingest --store "$tmp/p.store" $ho --since 0.05 "$t32"
has ingest-part-again "already in the store: $t32 [since=0.05] (the same content was ingested before)"
expect 0 dump-part dump "$tmp/p.store"
grep -q "^trace $key $t32 \[since=0.05\] ingested=[^ ]* methods=305 " "$tmp/out" \
  || fail "dump-part: no trace line keyed $key: $(grep '^trace' "$tmp/out")"
# the whole trace after a part is another observation; a part after the
# whole would count twice and is not added
# shellcheck disable=SC2086
expect 0 ingest-whole ingest --store "$tmp/w.store" $ho --until 60 "$t32"
has ingest-whole "ingested $t32: 484 method profiles"
expect 0 dump-whole dump "$tmp/w.store"
grep -q "^trace $hash $t32 ingested=" "$tmp/out" || fail "dump-whole: not keyed by the trace's hash"
# shellcheck disable=SC2086
expect 0 part-after-whole ingest --store "$tmp/w.store" $ho --since 0.05 "$t32"
has part-after-whole "already in the store: $t32 (the whole trace was ingested before; a part of it would count its profiles twice)"
has part-after-whole "store $tmp/w.store: 1 traces, 3 modules, 484 methods, 1901 records"
# shellcheck disable=SC2086
expect 0 ingest-pid ingest --store "$tmp/q.store" $ho --pid 5356 "$t32" "$t64"
err_has ingest-pid "$t32: left out: process 5174, not --pid 5356"
has ingest-pid "ingested $t64: 484 method profiles"
grep -q "^ingested $t32" "$tmp/out" && fail "ingest-pid: ingested the trace it left out"
# shellcheck disable=SC2086
expect 1 ingest-none ingest --store "$tmp/n.store" $ho --process-name app "$t32"
one_line ingest-none
[ -e "$tmp/n.store" ] && fail "ingest-none: left a store behind"

# --- malformed filters are usage errors -----------------------------------
for bad in "--since -1" "--since 1e3" "--since 0x10" "--since 1.2.3" "--since ." "--since 1.0000000001" \
           "--until 10000000000" "--since 2 --until 1" "--since 1 --until 1.0" "--pid abc" "--pid -5" \
           "--pid 1x" "--pid 2147483648" "--process-name /usr/bin/dotnet" "--process-name="; do
  # shellcheck disable=SC2086
  expect 2 "usage $bad" create-mibc $ho $bad -o "$tmp/none.mibc" "$t32"
done
expect 2 usage-store export --reference "$data/hotloop/hotloop.dll" --pid 1 --store "$tmp/p.store" -o "$tmp/x.mibc"
err_has usage-store "$tmp/p.store: a profile store, not a trace"
expect 2 usage-mibc reconstruct --reference "$data/hotloop/hotloop.dll" --since 1 "$tmp/alone32/o.mibc"
err_has usage-mibc "$tmp/alone32/o.mibc: a .mibc file, not a trace"
# shellcheck disable=SC2086
expect 2 usage-ingest ingest --store "$tmp/u.store" $ho --until x "$t32"
# shellcheck disable=SC2086
expect 2 usage-summary summary $ho --pid '' "$t32"
[ "$failures" = 0 ]
