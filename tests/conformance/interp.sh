#!/bin/sh
# SPDX-License-Identifier: MIT
# interp.sh: pgo-interp against CoreCLR on the fixture programs.
#   CONFORMANCE interp-output: programs whose output equals what dotnet
#     printed (data/manifest.txt; where dotnet is present, also a live run);
#   CONFORMANCE interp-counts: app methods whose dense block counts equal
#     CoreCLR's block-mode counts (data/<p>/block.nettrace), over the
#     programs that ran;
#   CONFORMANCE interp-probes-A, interp-probes-B: app methods whose every
#     probe count of that set equals CoreCLR's count of the block there.
# Every program must run with dotnet's output, and the counts must agree
# for every method compared.
# SPEC: pgo-interp(1) "CONFORMANCE"
set -u
: "${PGO_TEST_DATA:=tests}" "${PGO_BUILDDIR:=.}"
data="$PGO_TEST_DATA/fixtures/data"
interp="$PGO_BUILDDIR/tools/pgo-interp"
tool="$PGO_BUILDDIR/tools/pgo-reconstruct"

# The interpreter runs CoreLib's IL: it needs the shared runtime the
# fixtures ran on (tests/fixtures/data/manifest.txt).
runtime=$(sed -n 's/^runtime: *\([0-9.]*\).*/\1/p' "$data/manifest.txt")
fw=
if [ -n "${DOTNET:-}" ]; then
  base=$("$DOTNET" --list-runtimes 2>/dev/null \
    | sed -n "s/^Microsoft\.NETCore\.App $runtime \[\(.*\)\]\$/\1/p" | head -n 1)
  [ -n "$base" ] && [ -d "$base/$runtime" ] && fw=$base/$runtime
fi
if [ -z "$fw" ]; then
  echo "SKIP: shared runtime Microsoft.NETCore.App $runtime not found (DOTNET='${DOTNET:-}')"
  exit 77
fi
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
printf '{"runtimeOptions":{"tfm":"net10.0","framework":{"name":"Microsoft.NETCore.App","version":"%s"}}}\n' \
  "$runtime" >"$work/runtimeconfig.json"

# Per app method of trace $1 in module $2 (and instantiation: methods of
# reference-type instantiations share one profile, as in the runtime):
# "token/name il=count ..." lines.
# (dump's record format, TAB-separated: see tools/cmd-dump.c; IL offsets,
# printed in hex, are read back as decimal numbers)
counts () {
  "$tool" dump "$1" | awk -F '\t' -v mod="$2" '
    function num(s,  v, i) { v = 0; s = tolower(substr(s, 3)); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    $1 == "method" { on = $4 == "module=" mod; t = substr($5, 7); n = $2; gsub(/ /, "_", n)
                     tok = (t == "-" ? "0x00000000" : t) "/" n; next }
    on && $1 == "record" && $2 ~ /^BasicBlock/ { c[tok] = c[tok] " " num(substr($3, 4)) "=" $NF }
    END { for (t in c) print t c[t] }' | sort
}

# subset WANT GOT: methods of GOT each of whose "il=count" pairs WANT has
# for the same method; prints "agreeing total".
subset () {
  awk 'NR == FNR { for (i = 2; i <= NF; i++) w[$1 " " $i] = 1; next }
       { n++; ok = 1; for (i = 2; i <= NF; i++) if (!(($1 " " $i) in w)) ok = 0; k += ok }
       END { print k + 0, n + 0 }' "$1" "$2"
}

programs=0 ran=0 same_out=0 methods=0 same=0 fail=0 pa=0 na=0 pb=0 nb=0
for dir in "$data"/*/; do
  dir=${dir%/}
  p=$(basename "$dir")
  [ -f "$dir/$p.dll" ] || continue
  programs=$((programs + 1))
  want=$(sed -n "s|^stdout $p/block: ||p" "$data/manifest.txt")
  live=$("$DOTNET" exec --runtimeconfig "$work/runtimeconfig.json" "$dir/$p.dll" 2>/dev/null)
  [ "$live" = "$want" ] || { echo "FAIL: $p: dotnet prints '$live', the manifest '$want'"; fail=1; }
  if ! got=$("$interp" run --framework "$fw" --probes dense --trace "$work/$p.nettrace" "$dir/$p.dll" 2>"$work/err"); then
    echo "interp: $p: $(head -n 1 "$work/err")"
    continue
  fi
  ran=$((ran + 1))
  if [ "$got" = "$want" ]; then same_out=$((same_out + 1)); else echo "FAIL: $p: printed '$got', dotnet '$want'"; fail=1; fi
  counts "$dir/block.nettrace" "$p" >"$work/want"
  counts "$work/$p.nettrace" "$p" >"$work/got"
  n=$(wc -l <"$work/want")
  k=$(comm -12 "$work/want" "$work/got" | wc -l)
  methods=$((methods + n)) same=$((same + k))
  [ "$k" -eq "$n" ] || { echo "FAIL: $p: dense counts differ:"; diff "$work/want" "$work/got" | head -n 8; fail=1; }
  for set in A B; do
    "$interp" run --framework "$fw" --probes $set --trace "$work/$p.$set.nettrace" "$dir/$p.dll" >/dev/null 2>&1 \
      || { echo "FAIL: $p: the run with probe set $set failed"; fail=1; continue; }
    counts "$work/$p.$set.nettrace" "$p" | awk 'NR == FNR { t[$1] = 1; next } $1 in t' "$work/want" - >"$work/got.$set"
    set -- $(subset "$work/want" "$work/got.$set")
    [ "$1" -eq "$2" ] || { echo "FAIL: $p: probe set $set counts differ from CoreCLR's"; fail=1; }
    if [ $set = A ]; then pa=$((pa + $1)) na=$((na + $2)); else pb=$((pb + $1)) nb=$((nb + $2)); fi
  done
done
echo "CONFORMANCE interp-output: $same_out/$programs"
echo "CONFORMANCE interp-counts: $same/$methods"
echo "CONFORMANCE interp-probes-A: $pa/$na"
echo "CONFORMANCE interp-probes-B: $pb/$nb"
[ "$same_out" -eq "$programs" ] || { echo "FAIL: interp-output $same_out/$programs"; fail=1; }
[ "$methods" -gt 0 ] || { echo "FAIL: no method compared"; fail=1; }
exit $fail
