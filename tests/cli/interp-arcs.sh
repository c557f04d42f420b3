#!/bin/sh
# SPDX-License-Identifier: MIT
#
# interp-arcs.sh: the arcs pgo-interp counts in dense mode (EdgeLongCount
# records next to the block counts; SPEC: pgo-interp(1) "Output").
#   - the exceptional arcs of the escapes fixture (into a catch or filter,
#     and out of the method) equal those derived by hand from the program
#     (tests/interp/data/escapes.arcs);
#   - CONFORMANCE interp-arcs-balance: in every app method of the fixtures
#     that ran, each block other than the first and the finally and fault
#     handler starts (entered from outside the flow graph) is entered by
#     its arcs exactly as often as its count says, and no block is left by
#     more arcs than it was entered;
#   - evaluate reads such traces as dense truths: the exceptional arcs it
#     calls exact are k/k, their overlap for A, B and P a floor
#     (tests/floors.txt: interp-exceptional-arcs-*).
# SKIP (77) without a shared runtime: the interpreter runs CoreLib's IL.
set -u
cli_name=interp-arcs
. "${PGO_TEST_DATA:-tests}/support/cli.sh"
reconstruct=$tool
tool=${PGO_BUILDDIR:-.}/tools/pgo-interp
data=$tests/fixtures/data

. "$tests/support/shared-runtime.sh"
fw=$(shared_runtime_dir)
if [ -z "$fw" ] || [ ! -f "$fw/System.Private.CoreLib.dll" ]; then
  echo "SKIP: no .NET shared runtime (DOTNET='${DOTNET:-}'); the interpreter runs CoreLib's IL"
  exit 77
fi

# arcs TRACE MODULE: "method src dst count" per arc of the module's methods
# (decimal source, hexadecimal target "0x1c"; dump's record format,
# TAB-separated, prints both in hex: see tools/cmd-dump.c).
arcs () {
  "$reconstruct" dump "$1" | awk -F '\t' -v mod="$2" '
    function num(s,  v, i) { v = 0; s = tolower(substr(s, 3)); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    $1 == "method" { name = $2; on = $4 == "module=" mod; next }
    on && $1 == "record" && $2 == "EdgeLongCount" { print name, num(substr($3, 4)), substr($4, 7), $NF }'
}
# blocks TRACE MODULE: "method il count" per block count (il in decimal).
blocks () {
  "$reconstruct" dump "$1" | awk -F '\t' -v mod="$2" '
    function num(s,  v, i) { v = 0; s = tolower(substr(s, 3)); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    $1 == "method" { name = $2; on = $4 == "module=" mod; next }
    on && $1 == "record" && $2 == "BasicBlockLongCount" { print name, num(substr($3, 4)), $NF }'
}

expect 0 escapes run --framework "$fw" --probes dense --trace "$tmp/escapes.nettrace" "$data/escapes/escapes.dll"
# The exceptional arcs: into the handler or filter start of a catch or
# filter clause, or out of the method (Other -1).
"$reconstruct" dump-assembly "$data/escapes/escapes.dll" | awk '
  /^0x06/ { name = $2 "::" $3; next }
  /^\teh (catch|filter)/ { for (i = 1; i <= NF; i++) if ($i ~ /^(handler|filter)=/) { split(substr($i, index($i, "=") + 1), p, "+"); print name, p[1] } }' \
  >"$tmp/starts"
arcs "$tmp/escapes.nettrace" escapes | awk 'NR == FNR { h[$1 " " $2] = 1; next }
  { d = $3 == "0xffffffff" ? "X" : $3
    if (d == "X" || ($1 " " d) in h) printf "%s 0x%x %s %s\n", $1, $2, d, $4 }' "$tmp/starts" - | sort >"$tmp/got"
sed -e '/^#/d' -e 's/ *#.*//' -e 's/  */ /g' "$tests/interp/data/escapes.arcs" | sort >"$tmp/want"
cmp -s "$tmp/want" "$tmp/got" \
  || fail "escapes: exceptional arcs differ from the hand-derived ones: $(diff "$tmp/want" "$tmp/got" | grep '^[<>]' | head -n 6 | tr '\n' ';')"
[ -s "$tmp/got" ] || fail "escapes: no exceptional arcs counted"

# Balance over the fixture programs that run.
hex='function hex(s,  v, i) { v = 0; s = tolower(substr(s, 3))
  for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
  return v }'
methods=0 balanced=0
for dir in "$data"/*/; do
  p=$(basename "$dir")
  [ -f "$dir/$p.dll" ] || continue
  "$tool" run --framework "$fw" --probes dense --trace "$tmp/$p.nettrace" "$dir/$p.dll" >/dev/null 2>&1 || continue
  "$reconstruct" dump-assembly "$dir/$p.dll" | awk "$hex"'
    /^0x06/ { name = $2 "::" $3; next }
    /^\teh (finally|fault)/ { for (i = 1; i <= NF; i++) if ($i ~ /^handler=/) { split(substr($i, 9), q, "+"); print name, hex(q[1]) } }' \
    >"$tmp/$p.entered"
  arcs "$tmp/$p.nettrace" "$p" >"$tmp/$p.arcs"
  blocks "$tmp/$p.nettrace" "$p" >"$tmp/$p.blocks"
  set -- $(awk -v E="$tmp/$p.entered" -v A="$tmp/$p.arcs" "$hex"'
    BEGIN { while ((getline l < E) > 0) { split(l, f, " "); ent[f[1] " " f[2]] = 1 }
            while ((getline l < A) > 0) { split(l, f, " "); in_[f[1] " " hex(f[3])] += f[4]; out[f[1] " " f[2]] += f[4] } }
    { m[$1] = 1; k = $1 " " $2
      if ($2 != 0 && !(k in ent) && in_[k] != $3) bad[$1] = 1
      if (out[k] > $3) bad[$1] = 1 }
    END { n = 0; b = 0; for (x in m) { n++; if (x in bad) b++; } print n, n - b
          for (x in bad) print "FAIL:", x > "/dev/stderr" }' "$tmp/$p.blocks")
  methods=$((methods + $1)) balanced=$((balanced + $2))
done
echo "CONFORMANCE interp-arcs-balance: $balanced/$methods"
[ "$methods" -gt 0 ] || fail "no fixture program ran"
[ "$balanced" -eq "$methods" ] || fail "arcs do not balance the block counts in $((methods - balanced)) methods"

# evaluate takes the dense traces, arcs and all, as truths, and measures
# the reconstruction's exceptional arcs against them: every arc it calls
# observed or exact must equal the truth; the overlap is a floor.
. "$tests/support/floors.sh"
interp=$tool tool=$reconstruct
for set in A B P; do
  expect 0 "evaluate $set" evaluate --truth "$tmp/escapes.nettrace" --truth "$tmp/exceptions.nettrace" \
    --reference "$data/escapes/escapes.dll" --reference "$data/exceptions/exceptions.dll" --probes $set --quiet
  line=$(grep '^ACCURACY exceptional-arcs ' "$tmp/out")
  echo "$line"
  [ -n "$line" ] || { fail "evaluate $set: no exceptional-arcs line: $(cat "$tmp/out")"; continue; }
  k=$(figure "$line" exact-determined)
  [ "${k%/*}" = "${k#*/}" ] || fail "evaluate $set: exceptional arcs labelled exact are wrong: $k"
  [ "$(figure "$line" methods)" -ge 19 ] || fail "evaluate $set: fewer methods with arcs than the fixtures hold: $line"
  check_floor "interp-exceptional-arcs-$set" "$(figure "$line" overlap)" || failures=$((failures + 1))
done
tool=$interp
[ "$failures" = 0 ]
