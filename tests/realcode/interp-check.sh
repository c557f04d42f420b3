#!/bin/sh
# SPDX-License-Identifier: MIT
#
# interp-check.sh: make check: the real-code corpus's workloads on
# pgo-interp(1) (issue [interp-real] deliverable 2).  Each workload runs
# with dense counting; a run that ends is judged: its output must equal
# what CoreCLR printed (the corpus manifest's interp-run line), and each
# of the library's methods must have the dense counts of CoreCLR's
# interp run (interp.nettrace), each instantiation apart.  That run
# counts every block as the block run does, with no dynamic code,
# invariant globalization and no hardware intrinsics on CoreCLR too
# (tests/support/trace-env.sh interp_env, interp_switches; the
# interpreter runs under the same variables, the corpus's interp.env, and
# the same runtime configuration, interp.runtimeconfig.json), so that the
# workloads interpret their expression trees and compiled regular
# expressions, format with the invariant culture's data and take their
# scalar paths on both sides.  Counts may still differ where the
# interpreter answers a platform question otherwise than CoreCLR
# (pgo-interp(1) "Unsupported"): that is reported, and the workload does
# not conform.
# Output:
#   CONFORMANCE interp-realcode-run: k/n      workloads that ran to the
#     end and printed CoreCLR's line
#   CONFORMANCE interp-realcode-conform: k/n  ... and whose every library
#     method has CoreCLR's dense counts
#   CONFORMANCE interp-realcode-counts: k/n   the ran libraries' methods
#     whose counts equal CoreCLR's
# and, per workload that stops, the interpreter's one-line reason; per
# workload that runs with other counts, how many methods differ and the
# first few.  The
# workloads that run and those that conform are floors
# (realcode-interp-run, realcode-interp-conform) in tests/floors.txt, so a
# change that loses a conforming workload fails.  Makes (or reuses) the
# corpus in the build tree; SKIP (77) without dotnet or the shared runtime.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tool=${PGO_BUILDDIR:-.}/tools/pgo-reconstruct
interp=${PGO_BUILDDIR:-.}/tools/pgo-interp
failures=0
fail () { echo "FAIL: $*"; failures=$((failures + 1)); }
. "$here/../support/floors.sh"
. "$here/../support/shared-runtime.sh"
. "$here/../support/realcode.sh"
realcode_corpus
interp_bin=$(cd "$(dirname "$interp")" && pwd)/$(basename "$interp")
[ -s "$corpus/interp.env" ] || { echo "FAIL: $corpus/interp.env: missing or empty (tests/realcode/generate writes it)"; exit 1; }
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT

# counts TRACE MODULE: per method of MODULE (each instantiation apart),
# "token il=count ..." of the blocks that ran: CoreCLR's importer drops
# the blocks of a branch it folds (a type test of a type argument, say),
# which the interpreter keeps and never enters, so a count of 0 is no
# block on either side.
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

n=0 ran=0 conform=0 methods=0 same=0
for name in $(awk '!/^#/ { print $1 }' "$here/halves.txt"); do
  [ -f "$corpus/$name/interp.nettrace" ] || { fail "$name: no trace in $corpus"; continue; }
  n=$((n + 1))
  want=$(sed -n "s|^stdout $name/interp: ||p" "$corpus/manifest.txt")
  got=$(cd "$corpus/$name/bin" && env $(cat "$corpus/interp.env") timeout 600 "$interp_bin" run --framework "$framework" --probes dense \
        --runtimeconfig ../interp.runtimeconfig.json --trace "$out/$name.nettrace" "$name-workload.dll" 2>"$out/err")
  rc=$?
  if [ $rc != 0 ]; then
    echo "interp: $name: stops: $(head -n 1 "$out/err")"
    continue
  fi
  [ "$got" = "$want" ] || { fail "$name: the interpreter printed '$got', CoreCLR '$want'"; continue; }
  ran=$((ran + 1)) differ=0
  for dll in "$corpus/$name"/bin/*.dll; do
    mod=$(basename "$dll" .dll)
    [ "$mod" = "$name-workload" ] && continue
    counts "$corpus/$name/interp.nettrace" "$mod" >"$out/want"
    counts "$out/$name.nettrace" "$mod" >"$out/got"
    k=$(wc -l <"$out/want")
    s=$(comm -12 "$out/want" "$out/got" | wc -l)
    methods=$((methods + k)) same=$((same + s)) differ=$((differ + k - s))
    [ "$s" -eq "$k" ] || echo "interp: $name: runs; $mod: dense counts differ in $((k - s)) of $k methods, first: $(comm -23 "$out/want" "$out/got" | head -n 3 | cut -d ' ' -f 1 | tr '\n' ' ')"
  done
  [ "$differ" = 0 ] && conform=$((conform + 1))
done
echo "CONFORMANCE interp-realcode-run: $ran/$n"
echo "CONFORMANCE interp-realcode-conform: $conform/$n"
echo "CONFORMANCE interp-realcode-counts: $same/$methods"
check_floor realcode-interp-run "$ran" || failures=$((failures + 1))
check_floor realcode-interp-conform "$conform" || failures=$((failures + 1))
[ "$failures" = 0 ]
