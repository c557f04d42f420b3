#!/bin/bash
# SPDX-License-Identifier: MIT
# interp-programs.sh: pgo-interp against CoreCLR on the interpreter's test
# programs (tests/interp/data/<name>.dll, built from tests/interp/src by
# tests/interp/generate), beyond the fixture programs:
#   CONFORMANCE interp-programs-output: programs whose output and exit
#     status equal what dotnet printed (<name>.expected);
#   CONFORMANCE interp-programs-counts: the programs' own methods whose
#     dense block counts equal CoreCLR's, from a block-mode run of each
#     program traced here as tests/fixtures/generate traces the fixtures.
# Every program must run with dotnet's output, and every method's counts
# must agree.  The hostile runs of 'semantics' are tests/cli/interp.sh's.
# SKIP (77) without dotnet and the shared runtime the interpreter reads.
# SPEC: pgo-interp(1) "CONFORMANCE"
set -u
: "${PGO_TEST_DATA:=tests}"
. "$PGO_TEST_DATA/support/interp-env.sh"
. "$PGO_TEST_DATA/support/trace-env.sh"
interp_env "CoreCLR's counts are traced live"
# the programs' own settings (tests/interp/src/*/*.csproj): invariant
# culture and no managed event sources, which would otherwise start on the
# main thread under EventPipe and take identity hash codes first
printf '{"runtimeOptions":{"tfm":"net10.0","framework":{"name":"Microsoft.NETCore.App","version":"%s"},"configProperties":{"System.Globalization.Invariant":true,"System.Diagnostics.Tracing.EventSource.IsSupported":false}}}\n' \
  "$(basename "$fw")" >"$work/runtimeconfig.json"

# counts TRACE MODULE: per method of MODULE in TRACE (each instantiation
# apart), "token il=count ..." of the blocks that ran: the token and not
# the name, since a trace may name a type argument by its token where the
# other names it in full; and no block of count 0, since CoreCLR's
# importer drops the blocks of a branch it folds, which the interpreter
# keeps and never enters.
# (dump's record format, TAB-separated: see tools/cmd-dump.c; IL offsets,
# printed in hex, are read back as decimal numbers)
counts () {
  "$tool" dump "$1" | awk -F '\t' -v mod="$2" '
    function num(s,  v, i) { v = 0; s = tolower(substr(s, 3)); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    $1 == "method" { on = $4 == "module=" mod; t = substr($5, 7); t = t == "-" ? "0x00000000" : t
                     key = t "/" $2; tok[key] = t; next }
    on && $1 == "record" && $2 ~ /^BasicBlock/ && $NF != 0 { c[key] = c[key] " " num(substr($3, 4)) "=" $NF }
    END { for (k in c) print tok[k] c[k] }' | sort
}

programs=0 same_out=0 methods=0 same=0 fail=0
for dll in "$data"/*.dll; do
  p=$(basename "$dll" .dll)
  [ -f "$data/$p.expected" ] || continue
  programs=$((programs + 1))
  "$interp" run --framework "$fw" --probes dense --trace "$work/$p.interp.nettrace" "$dll" >"$work/out" 2>"$work/err"
  echo "exit $?" >>"$work/out"
  if cmp -s "$data/$p.expected" "$work/out"; then
    same_out=$((same_out + 1))
  else
    echo "FAIL: $p: the interpreter printed: $(diff "$data/$p.expected" "$work/out" | head -n 6) $(head -n 1 "$work/err")"
    fail=1
    continue
  fi
  env "${common_env[@]}" "${block_env[@]}" "DOTNET_EventPipeConfig=$eventpipe_config" \
    "DOTNET_EventPipeOutputPath=$work/$p.coreclr.nettrace" "DOTNET_PGODataPath=$work/$p.pgo.txt" \
    "$DOTNET" exec --runtimeconfig "$work/runtimeconfig.json" "$dll" >"$work/live"
  echo "exit $?" >>"$work/live"
  cmp -s "$data/$p.expected" "$work/live" || { echo "FAIL: $p.expected is stale: $(diff "$data/$p.expected" "$work/live" | head -n 4)"; fail=1; }
  counts "$work/$p.coreclr.nettrace" "$p" >"$work/want"
  counts "$work/$p.interp.nettrace" "$p" >"$work/got"
  n=$(wc -l <"$work/want")
  k=$(comm -12 "$work/want" "$work/got" | wc -l)
  methods=$((methods + n)) same=$((same + k))
  [ "$n" -gt 0 ] || { echo "FAIL: $p: CoreCLR's trace holds no method of $p"; fail=1; }
  [ "$k" -eq "$n" ] || { echo "FAIL: $p: dense counts differ in $((n - k)) of $n methods:"; diff "$work/want" "$work/got" | head -n 8; fail=1; }
done
echo "CONFORMANCE interp-programs-output: $same_out/$programs"
echo "CONFORMANCE interp-programs-counts: $same/$methods"
[ "$programs" -gt 0 ] || { echo "FAIL: no program in $data"; fail=1; }
exit $fail
