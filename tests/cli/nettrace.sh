#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cli/nettrace.sh: trace-stats and dump: output, exit codes, messages
# that name the file and the byte offset, truncated and malformed traces.
set -u
tool="$PGO_BUILDDIR/tools/pgo-reconstruct"
data="$PGO_TEST_DATA/data/nettrace"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail () { echo "FAIL: $*"; fails=$((fails + 1)); }

# trace-stats on the .NET 10 trace.
"$tool" trace-stats "$data/pgo-small.nettrace" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] || fail "trace-stats exit $rc"
grep -q "^Microsoft-Windows-DotNETRuntime	298	v0	-	8$" "$tmp/out" || fail "trace-stats 298 line"
grep -q "^Microsoft-DotNETCore-EventPipe	1	v1	ProcessInfo	1$" "$tmp/out" || fail "trace-stats named event"
tail -n 1 "$tmp/out" | grep -q "^total: 134 events in 12 kinds, 12 metadata records" || fail "trace-stats summary"
[ -s "$tmp/err" ] && fail "trace-stats wrote to stderr: $(cat "$tmp/err")"

# trace-stats on a trace with EventSource names (V5 metadata).
"$tool" trace-stats "$data/net5-win-x64-arraytypes.nettrace" >"$tmp/out" || fail "arraytypes exit"
grep -q "^TestEventSource0	7	v0	TestEvent3	1$" "$tmp/out" || fail "arraytypes TestEvent3"

# Truncated: exit 0, a prefix of the counts, a warning with the offset.
head -c 10000 "$data/pgo-small.nettrace" >"$tmp/cut.nettrace"
"$tool" trace-stats "$tmp/cut.nettrace" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] || fail "truncated exit $rc"
grep -q "^pgo-reconstruct: warning: $tmp/cut.nettrace: trace is truncated: it stops at offset 0x" "$tmp/err" \
  || fail "truncated warning: $(cat "$tmp/err")"
tail -n 1 "$tmp/out" | grep -q "truncated$" || fail "truncated summary"

# Malformed block: exit 1, one error line naming file and offset.
cp "$data/pgo-small.nettrace" "$tmp/bad.nettrace"
printf '\001\000' | dd of="$tmp/bad.nettrace" bs=1 seek=136 conv=notrunc 2>/dev/null
"$tool" trace-stats "$tmp/bad.nettrace" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "malformed exit $rc"
grep -q "^pgo-reconstruct: $tmp/bad.nettrace: MetadataBlock header size 1 is below 20 at offset 0x88$" "$tmp/err" \
  || fail "malformed message: $(cat "$tmp/err")"

# Not a trace.
"$tool" trace-stats "$data/pgo-small.txt" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] || fail "not-a-trace exit $rc"
grep -q "not a nettrace file" "$tmp/err" || fail "not-a-trace message"

# Usage errors.
"$tool" trace-stats >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || fail "usage exit $rc"
grep -q "Try 'pgo-reconstruct trace-stats --help'" "$tmp/err" || fail "usage hint: $(cat "$tmp/err")"
"$tool" dump --no-such-option x >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "dump usage exit $rc"

# dump: identities and records.
"$tool" dump "$data/pgo-small.nettrace" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] || fail "dump exit $rc"
# (the record format, TAB-separated: see tools/cmd-dump.c)
t=$(printf '\t')
grep -q "^method${t}P::Fib${t}sig=-${t}module=app${t}token=0x06000006${t}ilsize=-${t}codehash=-${t}methodhash=-${t}records=2$" "$tmp/out" \
  || fail "dump Fib identity"
# Fib's module line, the last before it, gives the PDB identity
[ "$(awk -F "$t" '$1 == "module" { m = $0 } $2 == "P::Fib" { print m }' "$tmp/out")" \
  = "module${t}app${t}mvid=-${t}pdb=ba3cc53d-adc8-4545-b2c1-e44b58226e47${t}age=1" ] || fail "dump Fib module"
grep -q "^record${t}EdgeIntCount${t}il=0x16${t}other=0x0${t}count=1${t}10980$" "$tmp/out" || fail "dump Fib record"
tail -n 1 "$tmp/out" | grep -q "^total: 8 methods with PGO data$" || fail "dump summary"
# A process address prints only with --schemas, method for method and
# record for record in the same order: Fib's MethodID, and the type handle
# the record format names [app]0x02000003.
awk -F "$t" '$1 == "method" { print $2 } $1 == "record" { print $2 "." ++n, $6 }' "$tmp/out" >"$tmp/named"
"$tool" dump --schemas "$data/pgo-small.nettrace" >"$tmp/schemas" 2>"$tmp/err" || fail "dump --schemas exit"
awk '/^blob / { print $2 } /^  kind=/ { n++; v = $NF; sub(/^values=/, "", v); sub(/,.*/, "", v); print n, v }' \
  "$tmp/schemas" >"$tmp/raw"
[ "$(paste -d ' ' "$tmp/named" "$tmp/raw" | grep -c '^P::Fib 0x7ff85ca60408$')" = 1 ] || fail "dump Fib MethodID"
paste -d ' ' "$tmp/named" "$tmp/raw" | grep -q '^HandleHistogramTypes\.\([0-9]*\) \[app\]0x02000003 \1 0x7ff85ca63440$' \
  || fail "dump resolved type handle"
"$tool" dump --raw "$data/pgo-small.nettrace" >"$tmp/out" || fail "dump --raw exit"
[ "$(grep -c '^event 298 ' "$tmp/out")" -eq 8 ] || fail "dump --raw count"

# dump of a truncated trace: warning, profiles of the complete part only.
"$tool" dump "$tmp/cut.nettrace" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] || fail "dump truncated exit $rc"
grep -q "^pgo-reconstruct: warning: $tmp/cut.nettrace: truncated: the trace stops at offset 0x[0-9a-f]*; kept the [0-9]* method profiles before it$" "$tmp/err" \
  || fail "dump truncated warning: $(cat "$tmp/err")"

[ $fails -eq 0 ] && echo "PASS: nettrace CLI"
exit $fails
