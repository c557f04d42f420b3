#!/bin/sh
# SPDX-License-Identifier: MIT
#
# interp.sh: pgo-interp on tests/interp/data/semantics.dll, a program of
# ECMA-335 corner cases (integer wrap and traps, conversions, NaN, virtual
# and interface dispatch, two-pass exceptions, static constructors,
# arrays, structs, generics, delegates and events): it prints exactly
# what dotnet printed (semantics.expected; where dotnet is present, also
# what it prints now) and exits the same.  The
# hostile runs end with one clear line and a non-zero exit, the trace of a
# failed run is never written, and a probe-set trace goes through
# create-mibc.  SKIP (77) without a shared runtime: the interpreter runs
# CoreLib's IL.
set -u
cli_name=interp
. "${PGO_TEST_DATA:-tests}/support/cli.sh"
reconstruct=$tool
tool=${PGO_BUILDDIR:-.}/tools/pgo-interp
prog=$tests/interp/data/semantics.dll
expected=$tests/interp/data/semantics.expected

. "$tests/support/shared-runtime.sh"
fw=$(shared_runtime_dir)
if [ -z "$fw" ] || [ ! -f "$fw/System.Private.CoreLib.dll" ]; then
  echo "SKIP: no .NET shared runtime (DOTNET='${DOTNET:-}'); the interpreter runs CoreLib's IL"
  exit 77
fi

# The program's output and exit status, as dotnet gave them.
expect "$(sed -n 's/^exit //p' "$expected")" semantics run --framework "$fw" "$prog"
sed '$d' "$expected" | cmp -s - "$tmp/out" || fail "semantics: output differs: $(sed '$d' "$expected" | diff - "$tmp/out" | head -n 6)"
printf '{"runtimeOptions":{"tfm":"net10.0","framework":{"name":"Microsoft.NETCore.App","version":"%s"}}}\n' \
  "$(basename "$fw")" >"$tmp/rc.json"
"$DOTNET" exec --runtimeconfig "$tmp/rc.json" "$prog" >"$tmp/live"
echo "exit $?" >>"$tmp/live"
cmp -s "$expected" "$tmp/live" || fail "semantics.expected is stale: dotnet now prints $(diff "$expected" "$tmp/live" | head -n 4)"

# Hostile runs: one line, a non-zero exit, no trace.
expect 134 unhandled run --framework "$fw" --probes A --trace "$tmp/t1.nettrace" "$prog" throw
[ "$(head -n 1 "$tmp/err")" = "Unhandled exception. System.InvalidOperationException: boom" ] \
  || fail "unhandled: stderr is '$(cat "$tmp/err")'"
expect 1 loop run --framework "$fw" --max-steps 100000 --probes A --trace "$tmp/t2.nettrace" "$prog" loop
err_has loop "Program::Forever(int32): IL_"
err_has loop "the run exceeded 100000 steps"
one_line loop
[ ! -e "$tmp/t2.nettrace" ] || fail "loop: a trace was written for a failed run"
expect 1 deep run --framework "$fw" "$prog" deep
err_has deep "Program::Deep(int32): IL_0000: stack overflow"
one_line deep
expect 1 deep-bound run --framework "$fw" --max-depth 50 "$prog" deep
err_has deep-bound "stack overflow: more than 50 nested calls"
expect 1 big run --framework "$fw" --max-heap 64 "$prog" big
err_has big "out of memory: more than 67108864 bytes of objects"
one_line big

# Bad input and usage.
printf 'not an assembly\n' >"$tmp/bad.dll"
expect 1 garbage run --framework "$fw" "$tmp/bad.dll"
err_has garbage "$tmp/bad.dll"
one_line garbage
expect 1 unsupported run --framework "$fw" "$prog" fnptr
err_has unsupported "Program::ThroughPointer(int32): IL_0009: calli: calls through a function pointer are not supported"
one_line unsupported
# A runtime configuration's properties reach AppContext, as the host
# hands them over; one that is no JSON is refused naming the file.
regress=$tests/interp/data/regress.dll
printf '{"runtimeOptions":{"configProperties":{"PgoTest.Value":42,"PgoTest.Switch":true,"Other":"x"}}}\n' >"$tmp/rc42.json"
expect 0 runtimeconfig run --framework "$fw" --runtimeconfig "$tmp/rc42.json" "$regress"
grep -qx 'app-context: 42 True' "$tmp/out" || fail "runtimeconfig: $(grep app-context "$tmp/out")"
cp "$regress" "$tmp/regress.dll" && cp "$tmp/rc42.json" "$tmp/regress.runtimeconfig.json"
expect 0 own-runtimeconfig run --framework "$fw" "$tmp/regress.dll"
grep -qx 'app-context: 42 True' "$tmp/out" || fail "own-runtimeconfig: $(grep app-context "$tmp/out")"
printf '{"runtimeOptions":' >"$tmp/bad.json"
expect 1 bad-runtimeconfig run --framework "$fw" --runtimeconfig "$tmp/bad.json" "$regress"
err_has bad-runtimeconfig "$tmp/bad.json: not a runtime configuration: malformed JSON"
one_line bad-runtimeconfig
expect 2 bad-probes run --probes X "$prog"
expect 2 trace-without-probes run --trace "$tmp/x.nettrace" "$prog"
expect 2 output-without-probes run -o "$tmp/x.nettrace" "$prog"
expect 2 two-outputs run --probes B -o "$tmp/x.nettrace" --trace "$tmp/y.nettrace" "$prog"
err_has two-outputs "run: --output $tmp/x.nettrace and --trace $tmp/y.nettrace name two outputs"
expect 2 no-assembly run
expect 2 no-command frobnicate

# A probe-set trace is a trace like CoreCLR's: it dumps and makes a .mibc.
expect 3 trace run --framework "$fw" --probes B -o "$tmp/b.nettrace" "$prog"
"$reconstruct" dump "$tmp/b.nettrace" >"$tmp/dump" 2>&1 || fail "dump: $(cat "$tmp/dump")"
# (dump's record format, TAB-separated: see tools/cmd-dump.c)
t=$(printf '\t')
grep -q "^method${t}Program::Forever${t}sig=[^${t}]*${t}module=semantics${t}token=0x[0-9a-f]*${t}" "$tmp/dump" && fail "dump: Forever never ran but has a profile"
grep -q "^method${t}Program::Nested${t}sig=[^${t}]*${t}module=semantics${t}token=0x[0-9a-f]*${t}" "$tmp/dump" || fail "dump: no profile of Program::Nested"
grep -q "^record${t}BasicBlockIntCount${t}il=0x0${t}other=0x0${t}count=1${t}3\$" "$tmp/dump" || fail "dump: no method entered 3 times"
"$reconstruct" create-mibc -r "$prog" -o "$tmp/b.mibc" "$tmp/b.nettrace" >"$tmp/cm" 2>&1 \
  || fail "create-mibc: $(cat "$tmp/cm")"
grep -q "matched a reference by module" "$tmp/cm" || fail "create-mibc: $(cat "$tmp/cm")"
[ "$failures" = 0 ]
