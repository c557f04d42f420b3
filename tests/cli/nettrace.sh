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
grep -q "^method 0x06000006 P::Fib in app (pdb ba3cc53d-adc8-4545-b2c1-e44b58226e47 age 1) handle=0x7ff85ca60408 records=2$" "$tmp/out" \
  || fail "dump Fib identity"
grep -q "^  EdgeIntCount(0x181) il=22 count=1 other=0x0 10980$" "$tmp/out" || fail "dump Fib record"
grep -q "0x7ff85ca63440=\[app\]0x02000003" "$tmp/out" || fail "dump resolved type handle"
tail -n 1 "$tmp/out" | grep -q "^total: 8 methods with PGO data, 0 dropped$" || fail "dump summary"
"$tool" dump --raw "$data/pgo-small.nettrace" >"$tmp/out" || fail "dump --raw exit"
[ "$(grep -c '^event 298 ' "$tmp/out")" -eq 8 ] || fail "dump --raw count"

# dump of a truncated trace: warning, profiles of the complete part only.
"$tool" dump "$tmp/cut.nettrace" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] || fail "dump truncated exit $rc"
grep -q "^pgo-reconstruct: warning: $tmp/cut.nettrace: truncated: the trace stops at offset 0x[0-9a-f]*; kept the [0-9]* method profiles before it$" "$tmp/err" \
  || fail "dump truncated warning: $(cat "$tmp/err")"

[ $fails -eq 0 ] && echo "PASS: nettrace CLI"
exit $fails
