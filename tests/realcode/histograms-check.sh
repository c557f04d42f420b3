#!/bin/sh
# SPDX-License-Identifier: MIT
#
# histograms-check.sh: make check: the class histograms inferred from
# entry counts (pgo-inference(7) "Class histograms"), judged against the
# edge run's own tables on each half of the real-code corpus.  For each
# library, the block run is exported as text with probe set B (and A),
# the framework and the library's assemblies as references, and each
# class-probe site of the edge run's dump (edge.pgo.txt) whose table has
# a dominant class is judged (tests/support/histograms.awk): the site
# agrees when our table's dominant class is the same.
# Output, per half and probe set, summed over its libraries:
#   HISTOGRAMS half=H probe-set=S agree=k/n absent=a other=o
# and the share k/n judged against the floor
# realcode-H-histograms-S-dominant in tests/floors.txt.
# Makes (or reuses) the corpus in the build tree; SKIP (77) without
# dotnet or the shared runtime.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tool=${PGO_BUILDDIR:-.}/tools/pgo-reconstruct
failures=0
fail () { echo "FAIL: $*"; failures=$((failures + 1)); }
. "$here/../support/floors.sh"
. "$here/../support/shared-runtime.sh"

. "$here/../support/realcode.sh"
realcode_corpus
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT

for half in calibration validation; do
  for set in B A; do
    agree=0 judged=0 absent=0 other=0
    for name in $(awk -v h=$half '!/^#/ && $2 == h { print $1 }' "$here/halves.txt"); do
      [ -f "$corpus/$name/block.nettrace" ] || { fail "$half: $name: no trace in $corpus"; continue; }
      # shellcheck disable=SC2046 # the options are words
      "$tool" export --probes $set $(realcode_refs "$name") --framework "$framework" \
        -o "$out/$name-$set.txt" "$corpus/$name/block.nettrace" 2>"$out/export.log" \
        || { cat "$out/export.log"; fail "$half $name: export --probes $set"; continue; }
      line=$(awk -f "$here/../support/histograms.awk" -v label="$name" \
               "$corpus/$name/edge.pgo.txt" "$out/$name-$set.txt")
      echo "# $line probe-set=$set"
      v=$(figure "$line" agree)
      agree=$((agree + ${v%/*})) judged=$((judged + ${v#*/}))
      absent=$((absent + $(figure "$line" absent))) other=$((other + $(figure "$line" other)))
    done
    echo "HISTOGRAMS half=$half probe-set=$set agree=$agree/$judged absent=$absent other=$other"
    [ "$judged" -gt 0 ] || { fail "$half $set: no site judged"; continue; }
    share=$(awk -v k=$agree -v n=$judged 'BEGIN { printf "%.6f", k / n }')
    check_floor "realcode-$half-histograms-$set-dominant" "$share" || failures=$((failures + 1))
  done
done
[ "$failures" = 0 ]
